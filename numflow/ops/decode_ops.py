"""Decoding strings into numbers: ``tf.decode_raw`` (op ``DecodeRaw``), ``tf.decode_csv`` (op
``DecodeCSV``), also in ``tf.io``, with TensorFlow 2.21's names, static shapes and messages.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ints, words = tf.decode_csv(["1,a", "2,b"], [[0], ["?"]])
...     with tf.Session() as sess:
...         sess.run(ints).tolist(), sess.run(words).tolist()
([1, 2], [b'a', b'b'])
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import _out, check_dtype

_RAW_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint16, dtypes.uint8,
              dtypes.int16, dtypes.int8, dtypes.int64, dtypes.bool)
_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


@declare("DecodeRaw")
def _decode_raw_infer(op):
    check_dtype(op.inputs[0], (dtypes.string,), "bytes")
    return [(op._attrs["out_type"], op.inputs[0].shape.concatenate([None]))]


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """The bytes of each string of ``input_bytes`` read as numbers of ``out_type`` (op ``DecodeRaw``).

    Every string must have the same length, a multiple of the type's size; the result has one more
    dimension than the input. ``little_endian=False`` reads big-endian numbers. ``bytes`` is the
    deprecated spelling of ``input_bytes``.
    """
    if input_bytes is not None and bytes is not None:
        raise ValueError("Cannot specify both 'input_bytes' and 'bytes'.")
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _RAW_TYPES:
        names = ", ".join(d.name for d in _RAW_TYPES[:-1]) + ", complex64, complex128, bool, bfloat16"
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not in list of "
                        f"allowed values: {names}")
    with get_default_graph().name_scope(name or "DecodeRaw") as scope:
        source = convert_to_tensor(bytes if input_bytes is None else input_bytes, name="bytes")
        return _out("DecodeRaw", [source], {"out_type": out_type, "little_endian": bool(little_endian)},
                    name=scope)[0]


@declare("DecodeCSV")
def _decode_csv_infer(op):
    records, defaults = op.inputs[0], op.inputs[1:]
    check_dtype(records, (dtypes.string,), "records")
    for d in defaults:
        check_dtype(d, _CSV_TYPES, "record_defaults")
        dims = d.shape.as_list() if d.shape.ndims is not None else []
        if len(dims) > 1 or (dims and (dims[0] or 0) > 1):
            raise ValueError("Shape of a default must be a length-0 or length-1 vector, or a scalar.")
    return [(d.dtype.base_dtype, records.shape) for d in defaults]


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """The columns of the CSV lines ``records``, one tensor per column (op ``DecodeCSV``).

    Parameters
    ----------
    records : string Tensor
        Lines of CSV, each one record.
    record_defaults : list
        One entry per column: its type (int32, int64, float32, float64 or string) and its value where a
        field is empty or ``na_value`` (an empty entry makes the column required).
    field_delim : str
        The one-character field separator.
    use_quote_delim : bool
        Whether double quotes enclose fields (RFC 4180).
    na_value : str
        A field's text that stands for a missing value.
    select_cols : list of int, optional
        The columns to keep, strictly increasing.
    """
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    with get_default_graph().name_scope(name or "DecodeCSV") as scope:
        records = convert_to_tensor(records, name="records")
        defaults = [d if is_tensor(d) else convert_to_tensor(d, name=f"record_defaults_{i}")
                    for i, d in enumerate(record_defaults)]
        attrs = {"OUT_TYPE": [d.dtype.base_dtype for d in defaults], "field_delim": str(field_delim),
                 "use_quote_delim": bool(use_quote_delim), "na_value": str(na_value),
                 "select_cols": list(select_cols or [])}
        return _out("DecodeCSV", [records, *defaults], attrs, name=scope)


not_differentiable("DecodeRaw", "DecodeCSV")
