"""String ops that map each string to another value: ``tf.strings.to_number``, the hash buckets, case and
whitespace, regular expressions (RE2's meaning), ``substr`` and ``reduce_join``. String tensors hold bytes."""

import numpy as np

from numflow.compat import as_text
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import _out, check_dtype
from numflow.ops.reduction_ops import _normalize_axis, _reduction_shape

_NUMBER_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def _string_input_infer(op):
    check_dtype(op.inputs[0], (dtypes.string,), "input")
    return op.inputs[0].shape


def _check_scalar(tensor, what):
    if tensor.shape.ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {tensor.shape.ndims} for '{what}'")


@declare("StringToNumber")
def _string_to_number_infer(op):
    return [(op._attrs["out_type"], _string_input_infer(op))]


def string_to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Each string of ``string_tensor`` parsed as a number of ``out_type`` (op ``StringToNumber``;
    ``tf.strings.to_number``): decimal with surrounding whitespace allowed; floats also take ``0x``
    hexadecimal integers, ``inf`` and ``nan``. A string that is not a whole number raises InvalidArgumentError when run.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.strings.to_number([" 1.5", "-2"])).tolist()
    [1.5, -2.0]
    """
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _NUMBER_TYPES:
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not in list of allowed "
                        f"values: {', '.join(d.name for d in _NUMBER_TYPES)}")
    with get_default_graph().name_scope(name or "StringToNumber") as scope:
        x = convert_to_tensor(string_tensor, name="string_tensor")
        return _out("StringToNumber", [x], {"out_type": out_type}, name=scope)[0]


@declare("StringToHashBucket")
@declare("StringToHashBucketFast")
@declare("StringToHashBucketStrong")
def _hash_bucket_infer(op):
    return [(dtypes.int64, _string_input_infer(op))]


def _hash_bucket(op_type, input, num_buckets, attrs, name):  # noqa: A002 - TensorFlow's argument name
    if int(num_buckets) < 1:
        raise ValueError(f"Attr 'num_buckets' of '{op_type}' Op passed {int(num_buckets)} less than minimum 1.")
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(input, name="input")
        return _out(op_type, [x], {"num_buckets": int(num_buckets), **attrs}, name=scope)[0]


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """Each string's bucket in ``[0, num_buckets)``: FarmHash's Fingerprint64 of its bytes modulo
    ``num_buckets``, the same buckets TensorFlow gives (op ``StringToHashBucketFast``)."""
    return _hash_bucket("StringToHashBucketFast", input, num_buckets, {}, name)


def string_to_hash_bucket(string_tensor, num_buckets, name=None):
    """Each string's bucket in ``[0, num_buckets)`` by TensorFlow's legacy ``Hash64`` (op
    ``StringToHashBucket``); new code uses :func:`string_to_hash_bucket_fast`."""
    return _hash_bucket("StringToHashBucket", string_tensor, num_buckets, {}, name)


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's bucket in ``[0, num_buckets)``: SipHash-2-4 of its bytes under the two 64-bit words of
    ``key``, modulo ``num_buckets`` (op ``StringToHashBucketStrong``)."""
    return _hash_bucket("StringToHashBucketStrong", input, num_buckets, {"key": [int(k) for k in key]}, name)


@declare("StringLower")
@declare("StringUpper")
@declare("StringStrip")
def _same_shape_string_infer(op):
    return [(dtypes.string, _string_input_infer(op))]


def _case_op(op_type, input, encoding, name):  # noqa: A002
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(input, name="input")
        return _out(op_type, [x], {"encoding": encoding}, name=scope)[0]


def lower(input, encoding="", name=None):  # noqa: A002
    """Each string in lower case: ASCII letters only, or every letter with ``encoding="utf-8"``
    (op ``StringLower``)."""
    return _case_op("StringLower", input, encoding, name)


def upper(input, encoding="", name=None):  # noqa: A002
    """Each string in upper case: ASCII letters only, or every letter with ``encoding="utf-8"``
    (op ``StringUpper``)."""
    return _case_op("StringUpper", input, encoding, name)


def strip(input, name=None):  # noqa: A002
    """Each string without its leading and trailing ASCII whitespace (op ``StringStrip``)."""
    with get_default_graph().name_scope(name or "StringStrip") as scope:
        return _out("StringStrip", [convert_to_tensor(input, name="input")], name=scope)[0]


@declare("StaticRegexReplace")
def _static_regex_replace_infer(op):
    return [(dtypes.string, _string_input_infer(op))]


@declare("RegexReplace")
def _regex_replace_infer(op):
    _check_scalar(op.inputs[1], "pattern")
    _check_scalar(op.inputs[2], "rewrite")
    return [(dtypes.string, _string_input_infer(op))]


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Each string with the matches of the RE2 ``pattern`` replaced by ``rewrite`` (``\\0`` the whole
    match, ``\\1``-``\\9`` its groups), every match or the first alone (op ``StaticRegexReplace`` when
    ``pattern`` and ``rewrite`` are Python strings, else ``RegexReplace``). A pattern whose meaning
    Python's ``re`` cannot give exactly (lookarounds, backreferences, ``\\p``, ``\\Q``) raises
    InvalidArgumentError when run."""
    if not is_tensor(pattern) and not is_tensor(rewrite):
        with get_default_graph().name_scope(name or "StaticRegexReplace") as scope:
            x = convert_to_tensor(input, name="input")
            attrs = {"pattern": as_text(pattern), "rewrite": as_text(rewrite), "replace_global": bool(replace_global)}
            return _out("StaticRegexReplace", [x], attrs, name=scope)[0]
    with get_default_graph().name_scope(name or "RegexReplace") as scope:
        x = convert_to_tensor(input, name="input")
        pattern = convert_to_tensor(pattern, dtype=dtypes.string, name="pattern")
        rewrite = convert_to_tensor(rewrite, dtype=dtypes.string, name="rewrite")
        return _out("RegexReplace", [x, pattern, rewrite], {"replace_global": bool(replace_global)}, name=scope)[0]


@declare("RegexFullMatch")
def _regex_full_match_infer(op):
    _check_scalar(op.inputs[1], "pattern")
    return [(dtypes.bool, _string_input_infer(op))]


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches the RE2 ``pattern`` (op ``StaticRegexFullMatch`` for a Python
    string pattern, else ``RegexFullMatch``)."""
    if not is_tensor(pattern):
        with get_default_graph().name_scope(name or "StaticRegexFullMatch") as scope:
            x = convert_to_tensor(input, name="input")
            return _out("StaticRegexFullMatch", [x], {"pattern": as_text(pattern)}, name=scope)[0]
    with get_default_graph().name_scope(name or "RegexFullMatch") as scope:
        x = convert_to_tensor(input, name="input")
        pattern = convert_to_tensor(pattern, dtype=dtypes.string, name="pattern")
        return _out("RegexFullMatch", [x, pattern], name=scope)[0]


@declare("Substr")
def _substr_infer(op):
    x, pos, length = op.inputs
    check_dtype(x, (dtypes.string,), "input")
    check_dtype(pos, (dtypes.int32, dtypes.int64), "pos")
    if pos.dtype.base_dtype != length.dtype.base_dtype:
        raise TypeError(f"Input 'len' of 'Substr' Op has type {length.dtype.base_dtype.name} that does not match "
                        f"type {pos.dtype.base_dtype.name} of argument 'pos'.")
    if pos.shape.ndims is not None and length.shape.ndims is not None:
        if pos.shape.ndims != length.shape.ndims:
            raise ValueError(f"Shape must be rank {pos.shape.ndims} but is rank {length.shape.ndims} for 'Substr' "
                             f"with input shapes: {x.shape}, {pos.shape}, {length.shape}.")
        if not pos.shape.is_compatible_with(length.shape):
            raise ValueError(f"Dimensions of 'pos' {pos.shape} and 'len' {length.shape} must be equal")
        if pos.shape.ndims == 0:
            return [(dtypes.string, x.shape)]
    return [(dtypes.string, _broadcast_shape(x.shape, pos.shape))]


def _broadcast_shape(a, b):
    if a.ndims is None or b.ndims is None:
        return TensorShape(None)
    dims_a, dims_b = a.dim_values, b.dim_values
    rank = max(len(dims_a), len(dims_b))
    dims_a, dims_b = [1] * (rank - len(dims_a)) + dims_a, [1] * (rank - len(dims_b)) + dims_b
    out = []
    for da, db in zip(dims_a, dims_b):
        if da is not None and db is not None and da != db and 1 not in (da, db):
            raise ValueError(f"Incompatible shapes: {a} vs. {b}")
        out.append(db if da == 1 else da if db == 1 else da if da is not None else db)
    return TensorShape(out)


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 - TensorFlow's argument names
    """The substring of each string that starts at byte ``pos`` (negative: from the end) and is at most
    ``len`` bytes long, the rest of the string when ``len`` is negative (op ``Substr``); ``pos`` and ``len``
    have one shape, broadcast against ``input``.
    A ``pos`` beyond a string's end raises InvalidArgumentError when run."""
    if unit != "BYTE":
        raise ValueError(f"Value for attr 'unit' of \"{unit}\" is not supported by numflow's substr: it counts "
                         "bytes (unit=\"BYTE\")")
    with get_default_graph().name_scope(name or "Substr") as scope:
        x = convert_to_tensor(input, name="input")
        pos = convert_to_tensor(pos, name="pos")
        length = convert_to_tensor(len, name="len", preferred_dtype=pos.dtype.base_dtype)
        return _out("Substr", [x, pos, length], {"unit": unit}, name=scope)[0]


@declare("ReduceJoin")
def _reduce_join_infer(op):
    """As a reduction: a graph read from a GraphDef has the axes as a second input too."""
    x = _string_input_infer(op)
    if op._attrs["axis"] is None:
        return [(dtypes.string, TensorShape([None] * x.ndims if op._attrs["keep_dims"] and x.ndims is not None
                                             else None))]
    return [(dtypes.string, _reduction_shape(x, op._attrs["axis"], op._attrs["keep_dims"]))]


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None, reduction_indices=None,
                keepdims=None):
    """The strings of ``inputs`` joined along ``axis`` (all axes when None) in row-major order with
    ``separator`` between them (op ``ReduceJoin``; ``tf.strings.reduce_join``)."""
    if axis is not None and reduction_indices is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_indices'.")
    axis = reduction_indices if axis is None else axis
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with get_default_graph().name_scope("ReduceJoin"):  # TensorFlow names the op, not the scope, ``name``
        x = convert_to_tensor(inputs)
        if axis is None:
            if x.shape.ndims is None:
                raise ValueError("reduce_join over all axes needs the rank of 'inputs' when the graph is built.")
            axis = np.arange(x.shape.ndims - 1, -1, -1)
        attrs = {"axis": _normalize_axis(axis), "keep_dims": keep, "separator": as_text(separator)}
        return _out("ReduceJoin", [x], attrs, name=name or "ReduceJoin")[0]


not_differentiable("StringToNumber", "StringToHashBucket", "StringToHashBucketFast", "StringToHashBucketStrong",
                   "StringLower", "StringUpper", "StringStrip", "StaticRegexReplace", "RegexReplace", "RegexFullMatch",
                   "Substr", "ReduceJoin")
