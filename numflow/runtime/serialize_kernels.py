"""Kernels of ``SerializeTensor`` and ``ParseTensor`` (a tensor to and from a serialized ``TensorProto``)
and ``DecodeJSONExample`` (an ``Example`` written in protobuf's JSON form, as binary).

Spec: TensorFlow's ``parse_tensor_op.cc``. A tensor is written as ``Tensor::AsProtoTensorContent``
writes it (numbers as raw little-endian ``tensor_content``, strings one by one); any ``TensorProto``
reads back. The messages come from the schema in ``numflow.protos``, so these kernels live on the
runtime's side of the line, as ``parsing_kernels`` does.
"""

import numpy as np

from numflow.framework import dtypes
from numflow_kernels.registry import register


def _type_text(enum):
    """TensorFlow's name of DataType ``enum`` (``float``, ``double``, ``int32``...)."""
    from numflow.protos import types_pb2

    return types_pb2.DataType.Name(enum)[3:].lower()


@register("SerializeTensor")
def serialize_tensor(ctx, tensor):
    from numflow.protos import tensor_pb2
    from numflow.runtime.summary_kernels import tensor_proto

    proto = tensor_pb2.TensorProto()
    tensor_proto(tensor, dtypes.as_dtype(ctx.attrs["T"]).as_datatype_enum, proto)
    return np.array(proto.SerializeToString(), dtype=object)


@register("ParseTensor")
def parse_tensor(ctx, serialized):
    import base64

    from google.protobuf.message import DecodeError

    from numflow.framework.attr_values import AttrError, tensor_from_proto
    from numflow.protos import tensor_pb2

    if np.ndim(serialized):
        dims = ",".join(map(str, np.shape(serialized)))
        raise ValueError(f"Expected `serialized` to be a scalar, got shape: [{dims}]")
    data = np.asarray(serialized).item()
    data = data if isinstance(data, bytes) else str(data).encode()
    proto = tensor_pb2.TensorProto()
    try:
        proto.ParseFromString(data)
    except DecodeError:
        raise ValueError(f"Could not parse `serialized` as TensorProto, base64: "
                         f"{base64.b64encode(data).decode()}") from None
    wanted = dtypes.as_dtype(ctx.attrs["out_type"]).as_datatype_enum
    if proto.dtype != wanted:
        raise ValueError(f"Type mismatch between parsed tensor ({_type_text(proto.dtype)}) and dtype "
                         f"({_type_text(wanted)})")
    try:
        return tensor_from_proto(proto)
    except AttrError as e:
        raise ValueError(f"Could not parse `serialized` as TensorProto: {e}") from None


@register("DecodeJSONExample")
def decode_json_example(ctx, json_examples):
    from google.protobuf import json_format

    from numflow.protos import example_pb2

    flat = np.asarray(json_examples, dtype=object).reshape(-1)
    out = np.empty(flat.size, dtype=object)
    for i, text in enumerate(flat):
        example = example_pb2.Example()
        try:
            json_format.Parse(text if isinstance(text, bytes | str) else str(text), example)
        except json_format.ParseError as e:
            raise ValueError(f"Error while parsing JSON: {e}") from None
        out[i] = example.SerializeToString()
    return out.reshape(np.shape(json_examples))
