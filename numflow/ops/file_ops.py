"""Whole files as string tensors: ``tf.read_file`` (op ``ReadFile``), ``tf.write_file`` (op
``WriteFile``) and ``tf.matching_files`` (op ``MatchingFiles``), on the local disk or at any URL that
fsspec has a filesystem for; their bytes as text, ``tf.io.encode_base64``/``decode_base64``
(web-safe base64); and ``tf.io.decode_compressed`` (op ``DecodeCompressed``: zlib or gzip).
Kernels: ``numflow_kernels/reference_files.py``.

All three are stateful here: what they give depends on the filesystem at the time of the run, so a
run never reuses an earlier result.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import _out, check_dtype, check_input_dtype, check_rank


def _string_input(value, op_type, param):
    """``value`` as a string tensor; a tensor of another dtype is TensorFlow's TypeError."""
    tensor = convert_to_tensor(value, name=param) if is_tensor(value) else convert_to_tensor(
        value, dtype=dtypes.string, name=param)
    check_input_dtype(tensor, dtypes.string, op_type, param)
    return tensor


@declare("ReadFile", stateful=True)
def _read_file_infer(op):
    filename = op.inputs[0]
    check_dtype(filename, (dtypes.string,), "filename")
    check_rank(filename.shape, 0)
    return [(dtypes.string, TensorShape([]))]


@declare("WriteFile", stateful=True)
def _write_file_infer(op):
    for tensor, param in zip(op.inputs, ("filename", "contents")):
        check_dtype(tensor, (dtypes.string,), param)
        check_rank(tensor.shape, 0)
    return []


@declare("MatchingFiles", stateful=True)
def _matching_files_infer(op):
    pattern = op.inputs[0]
    check_dtype(pattern, (dtypes.string,), "pattern")
    if pattern.shape.ndims is not None and pattern.shape.ndims > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {pattern.shape.ndims}")
    return [(dtypes.string, TensorShape([None]))]


def read_file(filename, name=None):
    """The bytes of the file ``filename`` (a scalar string) as a scalar string (op ``ReadFile``).

    >>> import os, tempfile, numflow as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("hello")
    >>> tf.Session().run(tf.read_file(path))
    b'hello'
    """
    with get_default_graph().name_scope(name or "ReadFile") as scope:
        return _out("ReadFile", [_string_input(filename, "ReadFile", "filename")], name=scope)[0]


def write_file(filename, contents, name=None):
    """An op that writes the scalar string ``contents`` to the file ``filename``, making its missing
    directories (op ``WriteFile``)."""
    with get_default_graph().name_scope(name or "WriteFile") as scope:
        inputs = [_string_input(filename, "WriteFile", "filename"),
                  _string_input(contents, "WriteFile", "contents")]
        return get_default_graph().create_op("WriteFile", inputs, name=scope)


def matching_files(pattern, name=None):
    """The sorted paths that the glob ``pattern`` (a string, or a vector of them) matches; no match
    gives an empty vector (op ``MatchingFiles``)."""
    with get_default_graph().name_scope(name or "MatchingFiles") as scope:
        return _out("MatchingFiles", [_string_input(pattern, "MatchingFiles", "pattern")],
                    name=scope)[0]


@declare("EncodeBase64")
@declare("DecodeBase64")
def _base64_infer(op):
    check_dtype(op.inputs[0], (dtypes.string,), "input")
    return [(dtypes.string, op.inputs[0].shape)]


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TensorFlow's argument name
    """Each string of ``input`` in web-safe base64 (``-`` and ``_`` for ``+`` and ``/``), with ``=``
    padding when ``pad`` (op ``EncodeBase64``).

    >>> import numflow as tf
    >>> tf.Session().run(tf.io.encode_base64([b"hello?>"])).tolist()
    [b'aGVsbG8_Pg']
    """
    with get_default_graph().name_scope(name or "EncodeBase64") as scope:
        x = _string_input(input, "EncodeBase64", "input")
        return _out("EncodeBase64", [x], {"pad": bool(pad)}, name=scope)[0]


def decode_base64(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """Each web-safe base64 string of ``input`` decoded, padded or not (op ``DecodeBase64``)."""
    with get_default_graph().name_scope(name or "DecodeBase64") as scope:
        return _out("DecodeBase64", [_string_input(input, "DecodeBase64", "input")], name=scope)[0]


@declare("DecodeCompressed")
def _decode_compressed_infer(op):
    check_dtype(op.inputs[0], (dtypes.string,), "bytes")
    return [(dtypes.string, op.inputs[0].shape)]


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 - TensorFlow's argument name
    """Each string of ``bytes`` decompressed (op ``DecodeCompressed``).

    Parameters
    ----------
    bytes : string Tensor
        Compressed strings, of any shape.
    compression_type : str
        ``"ZLIB"``, ``"GZIP"``, or ``""`` for strings passed through as they are.
    name : str, optional
        The op's name (default ``DecodeCompressed``).
    """
    with get_default_graph().name_scope(name or "DecodeCompressed") as scope:
        return _out("DecodeCompressed", [_string_input(bytes, "DecodeCompressed", "bytes")],
                    {"compression_type": str(compression_type)}, name=scope)[0]


not_differentiable("ReadFile", "WriteFile", "MatchingFiles", "EncodeBase64", "DecodeBase64", "DecodeCompressed")
