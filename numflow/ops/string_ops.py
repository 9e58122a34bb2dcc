"""String basics: ``as_string`` (op ``AsString``), ``tf.strings.join`` (op ``StringJoin``) and
``tf.strings.length`` (op ``StringLength``). String tensors hold bytes, as TensorFlow's do."""

from numflow.compat import as_text
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import REAL
from numflow.ops.op_util import _out, check_dtype


@declare("AsString")
def _as_string_infer(op):
    x = op.inputs[0]
    check_dtype(x, REAL + (dtypes.bool,), "input")
    a = op._attrs
    if a["scientific"] and a["shortest"]:
        raise ValueError("Cannot select both scientific and shortest notation")
    if a["fill"] and a["fill"] not in (" ", "0"):
        raise ValueError(f"Fill argument not supported: \"{a['fill']}\"")
    if x.dtype.base_dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        for key in ("scientific", "shortest"):
            if a[key]:
                raise ValueError(f"Cannot select {key} notation for a tensor of {x.dtype.base_dtype.name}")
        if a["precision"] > -1:
            raise ValueError(f"Cannot select precision for a tensor of {x.dtype.base_dtype.name}")
    return [(dtypes.string, x.shape)]


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Each element of ``input`` as text: integers in decimal, bools as ``true``/``false``, floats as C's
    ``%f`` (``precision`` digits, ``%e`` with ``scientific``, ``%g`` with ``shortest``), right-aligned to
    ``width`` with spaces or ``fill="0"`` (op ``AsString``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.as_string([1.5, 2.0], precision=2)).tolist()
    [b'1.50', b'2.00']
    """
    with get_default_graph().name_scope(name or "AsString") as scope:
        x = convert_to_tensor(input, name="input")
        attrs = {"precision": int(precision), "scientific": bool(scientific), "shortest": bool(shortest),
                 "width": int(width), "fill": str(fill)}
        return _out("AsString", [x], attrs, name=scope)[0]


@declare("StringJoin")
def _string_join_infer(op):
    shape = TensorShape([])
    for t in op.inputs:
        check_dtype(t, (dtypes.string,), "inputs")
        if t.shape.ndims == 0:
            continue
        if shape.ndims == 0:
            shape = t.shape
        elif t.shape.ndims is not None and shape.ndims is not None and t.shape.ndims != shape.ndims:
            raise ValueError(f"Shapes must be equal rank, but are {shape.ndims} and {t.shape.ndims}")
        elif shape.is_compatible_with(t.shape):
            shape = shape.merge_with(t.shape)
        else:
            raise ValueError(f"Shapes {shape} and {t.shape} must be equal")
    return [(dtypes.string, shape)]


def string_join(inputs, separator="", name=None):
    """The elementwise concatenation of the string tensors ``inputs`` (scalars broadcast), ``separator``
    between them (op ``StringJoin``; ``tf.strings.join``)."""
    with get_default_graph().name_scope(name or "StringJoin") as scope:
        tensors = [convert_to_tensor(t, name=f"inputs_{i}") for i, t in enumerate(inputs)]
        return _out("StringJoin", tensors, {"separator": as_text(separator), "N": len(tensors)}, name=scope)[0]


@declare("StringLength")
def _string_length_infer(op):
    x = op.inputs[0]
    check_dtype(x, (dtypes.string,), "input")
    return [(dtypes.int32, x.shape)]


def string_length(input, name=None, unit="BYTE"):  # noqa: A002 - TensorFlow's argument name
    """The length of each string of ``input`` in bytes, or in UTF-8 characters with ``unit="UTF8_CHAR"``
    (op ``StringLength``; ``tf.strings.length``)."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"Value for attr 'unit' of \"{unit}\" is not in the list of allowed values: \"BYTE\", "
                         "\"UTF8_CHAR\"")
    with get_default_graph().name_scope(name or "StringLength") as scope:
        x = convert_to_tensor(input, name="input")
        return _out("StringLength", [x], {"unit": unit}, name=scope)[0]


@declare("StaticRegexFullMatch")
def _static_regex_full_match_infer(op):
    check_dtype(op.inputs[0], (dtypes.string,), "input")
    return [(dtypes.bool, op.inputs[0].shape)]


@declare("StringSplit")
@declare("StringSplitV2")
def _string_split_infer(op):
    source, sep = op.inputs
    check_dtype(source, (dtypes.string,), "input")
    if source.shape.ndims is not None and source.shape.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {source.shape.ndims}")
    if sep.shape.ndims is not None and sep.shape.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {sep.shape.ndims}")
    return [(dtypes.int64, TensorShape([None, 2])), (dtypes.string, TensorShape([None])),
            (dtypes.int64, TensorShape([2]))]


def _sparse_split(op_type, source, sep, attrs, name):
    """The split as a SparseTensor; StringSplit converts the separator first, StringSplitV2 the input."""
    from numflow.framework.sparse_tensor import SparseTensor

    with get_default_graph().name_scope(name or "StringSplit"):
        if op_type == "StringSplitV2":
            source = convert_to_tensor(source, dtype=dtypes.string, name="input")
        sep = convert_to_tensor(sep, dtype=dtypes.string)
        source = convert_to_tensor(source, dtype=dtypes.string)
        with get_default_graph().name_scope(op_type) as scope:
            return SparseTensor(*_out(op_type, [source, sep], attrs, name=scope))


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor", name=None):
    """Split each string of the vector ``source`` at any one of the characters of ``sep`` (default:
    a space; every character when empty) into a ``SparseTensor`` of ``[len(source), most tokens]``
    (op ``StringSplit``; ``delimiter`` is the deprecated spelling of ``sep``).
    ``skip_empty`` drops empty tokens."""
    if sep is not None and delimiter is not None:
        raise ValueError("Cannot specify both 'sep' and 'delimiter'.")
    if result_type != "SparseTensor":
        raise ValueError("numflow's string_split returns a SparseTensor only (result_type='SparseTensor').")
    sep = delimiter if sep is None else sep
    return _sparse_split("StringSplit", source, " " if sep is None else sep, {"skip_empty": bool(skip_empty)}, name)


def strings_split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None, name=None):  # noqa: A002
    """Split each string of the vector ``input`` at the separator ``sep`` (at runs of whitespace when
    None), at most ``maxsplit`` times, into a ``SparseTensor`` (op ``StringSplitV2``;
    ``tf.strings.split``)."""
    if result_type != "SparseTensor":
        raise ValueError("numflow's strings.split returns a SparseTensor only (result_type='SparseTensor').")
    return _sparse_split("StringSplitV2", source if input is None else input, sep or "",
                         {"maxsplit": int(maxsplit)}, name)


not_differentiable("AsString", "StringJoin", "StringLength", "StringFormat", "StringSplit", "StringSplitV2",
                   "StaticRegexFullMatch")
