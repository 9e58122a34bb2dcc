"""A tensor as bytes and back: ``tf.io.serialize_tensor`` (op ``SerializeTensor``) and
``tf.io.parse_tensor`` (op ``ParseTensor``), also top-level in TensorFlow 1, with TensorFlow's
names, static shapes and messages; and ``tf.io.decode_json_example`` (op ``DecodeJSONExample``).

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     back = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.5, 2.0])), tf.float32)
...     tf.Session().run(back).tolist()
[1.5, 2.0]
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out
from numflow.runtime import serialize_kernels  # noqa: F401  (the kernels, registered by import)


@declare("SerializeTensor")
def _serialize_tensor_infer(op):
    return [(dtypes.string, TensorShape([]))]


@declare("ParseTensor")
def _parse_tensor_infer(op):
    return [(op._attrs["out_type"], TensorShape(None))]


def serialize_tensor(tensor, name=None):
    """``tensor`` as the bytes of a serialized ``TensorProto`` (a string scalar).

    Parameters
    ----------
    tensor : Tensor
        Any tensor.
    name : str, optional
        The op's name (default ``SerializeTensor``).

    Returns
    -------
    Tensor
        A string scalar; :func:`parse_tensor` reads it back.
    """
    tensor = convert_to_tensor(tensor, name="tensor")
    return _out("SerializeTensor", [tensor], {"T": tensor.dtype.base_dtype}, name=name or "SerializeTensor")[0]


def parse_tensor(serialized, out_type, name=None):
    """The tensor a serialized ``TensorProto`` holds (shape known only when run).

    Parameters
    ----------
    serialized : string Tensor
        A scalar: the bytes of a ``TensorProto``.
    out_type : DType
        The tensor's type; a proto of another type is an InvalidArgumentError when run.
    name : str, optional
        The op's name (default ``ParseTensor``).

    Returns
    -------
    Tensor
        Of ``out_type``.
    """
    serialized = convert_to_tensor(serialized, dtype=dtypes.string, name="serialized")
    return _out("ParseTensor", [serialized], {"out_type": dtypes.as_dtype(out_type)}, name=name or "ParseTensor")[0]


@declare("DecodeJSONExample")
def _decode_json_example_infer(op):
    return [(dtypes.string, op.inputs[0].shape)]


def decode_json_example(json_examples, name=None):
    """Each ``Example`` written in protobuf's JSON form (``{"features": {"feature": ...}}``), as the
    bytes of the binary message (op ``DecodeJSONExample``); ``parse_example`` reads them.

    Parameters
    ----------
    json_examples : string Tensor
        JSON texts, of any shape.
    name : str, optional
        The op's name (default ``DecodeJSONExample``).
    """
    with get_default_graph().name_scope(name or "DecodeJSONExample") as scope:
        json_examples = convert_to_tensor(json_examples, dtype=dtypes.string, name="json_examples")
        return _out("DecodeJSONExample", [json_examples], name=scope)[0]


not_differentiable("SerializeTensor", "ParseTensor", "DecodeJSONExample")
