"""Regenerate tf_dimensions.json and tf1_program.out: what TensorFlow 1.x does with Dimension objects.

Run with a Python that has TensorFlow (2.x, through ``tensorflow.compat.v1`` after ``disable_v2_behavior``,
with its legacy Keras layers)::

    /opt/tfenv/bin/python tests/golden/dimensions/regenerate.py

``tf_dimensions.json`` maps each case of ``CASES`` to what it gave: its result described by
``describe`` (a Dimension's or TensorShape's repr, a tensor's name, shape and dtype, a value), or the
class and message of the error it raised. Each case runs in a fresh graph holding ``x``, a float32
placeholder of shape ``[None, 3]``. ``tf1_program.out`` is what ``tf1_program.py`` printed.
``tests/framework/test_dimensions.py`` replays both through numflow and compares.

This module imports TensorFlow only in ``main``: the tests import ``CASES`` and ``describe`` from it.
"""

import json
import os
import pathlib
import subprocess
import sys
from types import SimpleNamespace

HERE = pathlib.Path(__file__).resolve().parent
GOLDEN = HERE / "tf_dimensions.json"


def _dimension_cases():
    return {
        # Dimension: value, printing, conversion to int
        "repr_known": lambda k: repr(k.D(3)),
        "repr_unknown": lambda k: repr(k.D(None)),
        "str_known": lambda k: str(k.D(3)),
        "str_unknown": lambda k: str(k.D(None)),
        "fstring": lambda k: f"size {k.x.shape[1]} of {k.x.shape[0]}",
        "format_spec": lambda k: f"{k.D(3):5}",
        "percent_d": lambda k: "%d" % k.D(3),  # noqa: UP031 - the case is %-formatting
        "percent_s_unknown": lambda k: "%s" % k.D(None),  # noqa: UP031 - the case is %-formatting
        "list_str": lambda k: str([k.D(3), k.D(None)]),
        "value_known": lambda k: k.D(3).value,
        "value_unknown": lambda k: k.D(None).value,
        "value_numpy_int": lambda k: k.D(k.np.int64(3)).value,
        "value_read_only": lambda k: setattr(k.D(3), "value", 4),
        "of_dimension": lambda k: k.D(k.D(3)),
        "negative": lambda k: k.D(-1),
        "float": lambda k: k.D(2.0),
        "string": lambda k: k.D("3"),
        "int_known": lambda k: int(k.D(3)),
        "int_unknown": lambda k: int(k.D(None)),
        "float_known": lambda k: float(k.D(3)),
        "index": lambda k: [10, 11, 12][k.D(1)],
        "range": lambda k: list(range(k.D(3))),
        "range_unknown": lambda k: range(k.D(None)),
        "numpy_shape": lambda k: k.np.zeros([k.D(2), 3]).shape,
        "numpy_shape_unknown": lambda k: k.np.zeros([k.D(None)]),
        "numpy_int64": lambda k: k.np.int64(k.D(3)),
        "numpy_array_int32": lambda k: k.np.array([k.D(3), 2], k.np.int32),
        "bool_known": lambda k: bool(k.D(3)),
        "bool_zero": lambda k: bool(k.D(0)),
        "bool_unknown": lambda k: bool(k.D(None)),
        "hash": lambda k: hash(k.D(3)),
        "in_set": lambda k: k.D(3) in {3},
        "copy": lambda k: __import__("copy").deepcopy(k.D(3)),
        "pickle": lambda k: __import__("pickle").loads(__import__("pickle").dumps(k.D(None))),
        # equality and comparisons: None when either side is unknown
        "eq_int": lambda k: k.D(2) == 2,
        "eq_other_int": lambda k: k.D(2) == 3,
        "eq_unknown": lambda k: k.D(None) == 2,
        "eq_none": lambda k: k.D(2) == None,  # noqa: E711 - what the case is about
        "eq_unknowns": lambda k: k.D(None) == k.D(None),
        "ne_int": lambda k: k.D(2) != 3,
        "ne_unknown": lambda k: k.D(None) != 3,
        "eq_numpy": lambda k: k.np.int64(3) == k.D(3),
        "eq_float": lambda k: k.D(2) == 2.0,
        "eq_str": lambda k: k.D(2) == "2",
        "ne_str": lambda k: k.D(2) != "2",
        "eq_shape": lambda k: k.D(3) == k.TS([3]),
        "lt": lambda k: k.D(2) < 3,
        "le": lambda k: k.D(2) <= 2,
        "gt_reflected": lambda k: 3 > k.D(2),
        "ge_unknown": lambda k: k.D(2) >= k.D(None),
        "lt_unknown": lambda k: k.D(None) < 3,
        "lt_none": lambda k: None < k.D(3),
        "lt_float": lambda k: k.D(2) < 3.5,
        "lt_str": lambda k: k.D(3) < "x",
        "chained": lambda k: k.D(3) < k.D(4) < 5,
        "sorted": lambda k: sorted([k.D(4), k.D(3)]),
        "max": lambda k: max(k.D(3), k.D(4)),
        "sum": lambda k: sum([k.D(3), k.D(4)]),
        "in_list": lambda k: k.D(2) in [2, 3],
        # arithmetic: unknown in, unknown out
        "mul": lambda k: k.D(3) * 2,
        "rmul": lambda k: 2 * k.D(3),
        "mul_unknown": lambda k: k.D(3) * k.D(None),
        "add_unknown": lambda k: k.D(None) + 1,
        "radd_unknown": lambda k: 1 + k.D(None),
        "add_none": lambda k: k.D(3) + None,
        "radd_none": lambda k: None + k.D(3),
        "add_numpy": lambda k: k.np.int64(2) + k.D(3),
        "add_bool": lambda k: k.D(3) + True,
        "add_str": lambda k: k.D(3) + "x",
        "add_float": lambda k: k.D(3) * 2.5,
        "sub": lambda k: k.D(3) - 1,
        "rsub": lambda k: 10 - k.D(3),
        "sub_negative": lambda k: k.D(3) - 4,
        "floordiv": lambda k: k.D(7) // 2,
        "rfloordiv": lambda k: 7 // k.D(2),
        "floordiv_zero": lambda k: k.D(3) // 0,
        "floordiv_zero_unknown": lambda k: k.D(None) // 0,
        "mod": lambda k: k.D(7) % 2,
        "rmod": lambda k: 7 % k.D(2),
        "mod_unknown": lambda k: k.D(None) % 2,
        "truediv": lambda k: k.D(7) / 2,
        "rtruediv": lambda k: 7 / k.D(2),
        "pow": lambda k: k.D(3) ** 2,
        "neg": lambda k: -k.D(3),
        # compatibility and merging
        "compatible": lambda k: k.D(3).is_compatible_with(3),
        "compatible_other": lambda k: k.D(3).is_compatible_with(4),
        "compatible_none": lambda k: k.D(3).is_compatible_with(None),
        "compatible_unknown": lambda k: k.D(3).is_compatible_with(k.D(None)),
        "compatible_str": lambda k: k.D(3).is_compatible_with("a"),
        "merge_none": lambda k: k.D(3).merge_with(None),
        "merge_unknown": lambda k: k.D(None).merge_with(4),
        "merge_conflict": lambda k: k.D(3).merge_with(4),
        "assert_compatible": lambda k: k.D(3).assert_is_compatible_with(3),
        "assert_incompatible": lambda k: k.D(3).assert_is_compatible_with(4),
        # tf.dimension_value, tf.compat.dimension_at_index
        "dimension_value": lambda k: k.tf.dimension_value(k.D(3)),
        "dimension_value_int": lambda k: k.tf.dimension_value(3),
        "dimension_value_none": lambda k: k.tf.dimension_value(None),
        "compat_dimension_value": lambda k: k.tf.compat.dimension_value(k.x.shape[0]),
        "dimension_at_index": lambda k: k.tf.dimension_at_index(k.x.shape, 1),
        "compat_dimension_at_index_unknown_rank": lambda k: k.tf.compat.dimension_at_index(k.TS(None), 3),
        "dimension_at_index_out_of_range": lambda k: k.tf.dimension_at_index(k.x.shape, 5),
        "dimension_is_v1s": lambda k: k.tf.compat.v1.Dimension is k.tf.Dimension,
    }


def _shape_cases():
    return {
        "x_shape": lambda k: k.x.shape,
        "get_shape_value": lambda k: k.x.get_shape()[1].value,
        "last_value": lambda k: k.x.shape[-1].value,
        "unknown_value_is_none": lambda k: k.x.shape[0].value is None,
        "int_first": lambda k: int(k.x.shape[1]),
        "index_eq": lambda k: k.x.shape[1] == 3,
        "index_is_none": lambda k: k.x.shape[0] is None,
        "dims": lambda k: k.x.shape.dims,
        "as_list": lambda k: k.x.shape.as_list(),
        "iter": lambda k: list(k.x.shape),
        "unpack": lambda k: tuple(k.x.shape),
        "slice": lambda k: k.x.shape[1:],
        "str": lambda k: str(k.x.shape),
        "str_rank_one": lambda k: str(k.TS([None])),
        "str_scalar": lambda k: str(k.TS([])),
        "str_unknown_rank": lambda k: str(k.TS(None)),
        "repr_unknown_rank": lambda k: repr(k.TS(None)),
        "repr_scalar": lambda k: repr(k.TS([])),
        "tensor_repr": lambda k: repr(k.x),
        "tensor_str": lambda k: str(k.x),
        "of_dimensions": lambda k: k.TS([k.D(2), None]),
        "of_dimensions_as_list": lambda k: k.TS([k.D(2), k.D(None)]).as_list(),
        "of_dims": lambda k: k.TS(k.x.shape.dims),
        "of_a_dimension": lambda k: k.TS(k.D(4)),
        "of_an_int": lambda k: k.TS(3),
        "of_numpy": lambda k: k.TS(k.np.array([2, 3])),
        "of_float": lambda k: k.TS([3.0]),
        "of_string": lambda k: k.TS(["3"]),
        "of_negative": lambda k: k.TS([-2]),
        "eq_list": lambda k: k.TS([2, None]) == [2, None],
        "eq_tuple": lambda k: k.TS([2, 3]) == (2, 3),
        "ne_list": lambda k: k.TS([2, 3]) != [2, 3],
        "contains": lambda k: 3 in k.x.shape,
        "contains_none": lambda k: None in k.x.shape,
        "dims_product": lambda k: k.x.shape[0] * k.x.shape[1],
        "num_elements": lambda k: k.x.shape[1:].num_elements(),
        "numpy_prod": lambda k: k.np.prod(k.TS([2, 3])),
        "numpy_zeros": lambda k: k.np.zeros(k.TS([2, 3])).shape,
        "with_rank_index": lambda k: k.x.shape.with_rank(2)[1],
        "concatenate_dimension": lambda k: k.TS([2]).concatenate(k.D(4)),
        "add": lambda k: k.TS([1]) + k.TS([2]),
        "add_list": lambda k: k.TS([1]) + [2],
        "radd_list": lambda k: [2] + k.TS([1]),
        "merge_conflict": lambda k: k.TS([2, 3]).merge_with([2, 4]),
        "unknown_rank_index": lambda k: k.TS(None)[0],
        "unknown_rank_dims": lambda k: k.TS(None).dims,
        "unknown_rank_prefix": lambda k: k.TS(None)[:2],
        "unknown_rank_range": lambda k: k.TS(None)[1:3],
        "unknown_rank_suffix": lambda k: k.TS(None)[1:],
        "unknown_rank_negative": lambda k: k.TS(None)[-2:],
        "unknown_rank_step": lambda k: k.TS(None)[::2],
        "unknown_rank_len": lambda k: len(k.TS(None)),
        "unknown_rank_iter": lambda k: list(k.TS(None)),
        "variable_value": lambda k: k.tf.Variable(k.tf.zeros([2, 3])).shape[1].value,
        "variable_get_shape": lambda k: k.tf.Variable(k.tf.zeros([2, 3])).get_shape()[0],
        "v2_index": lambda k: _in_v2(k, lambda: (k.x.shape[1], k.x.shape[0], list(k.x.shape))),
        "v2_str_repr": lambda k: _in_v2(k, lambda: (str(k.x.shape), repr(k.x.shape), k.x.shape.dims)),
    }


def _in_v2(k, fn):
    k.tf.enable_v2_tensorshape()
    try:
        return fn()
    finally:
        k.tf.disable_v2_tensorshape()


def _op_cases():
    return {
        "reshape": lambda k: k.tf.reshape(k.x, [-1, k.x.shape[1]]),
        "reshape_tuple": lambda k: k.tf.reshape(k.x, (-1, k.x.shape[1])),
        "reshape_shape_name": lambda k: k.tf.reshape(k.x, [-1, k.x.shape[1]]).op.inputs[1].op.name,
        "reshape_unknown": lambda k: k.tf.reshape(k.x, [k.x.shape[0], 3]),
        "reshape_tensor_and_dimension": lambda k: k.tf.reshape(k.x, [k.tf.shape(k.x)[0], k.x.shape[1]]),
        "reshape_shape": lambda k: k.tf.reshape(k.tf.zeros([6]), k.TS([2, 3])),
        "reshape_partial_shape": lambda k: k.tf.reshape(k.x, k.x.shape),
        "reshape_num_elements": lambda k: k.tf.reshape(k.x, [-1, k.x.shape[1:].num_elements()]),
        "reshape_incompatible": lambda k: k.tf.reshape(k.x, [k.D(4), k.D(5)]),
        "zeros": lambda k: k.tf.zeros([k.x.shape[1], 3]),
        "zeros_unknown": lambda k: k.tf.zeros([k.x.shape[0], 3]),
        "zeros_scalar_dimension": lambda k: k.tf.zeros(k.x.shape[1]),
        "zeros_unknown_dimension": lambda k: k.tf.zeros(k.D(None)),
        "zeros_shape": lambda k: k.tf.zeros(k.x.shape[1:]),
        "zeros_partial_shape": lambda k: k.tf.zeros(k.x.shape),
        "zeros_product": lambda k: k.tf.zeros([k.x.shape[1] * 2]),
        "zeros_value": lambda k: k.run(k.tf.zeros([k.D(2), 3])).shape,
        "ones": lambda k: k.tf.ones(k.x.shape[1]),
        "fill": lambda k: k.run(k.tf.fill([k.x.shape[1], 2], k.x.shape[1])),
        "placeholder": lambda k: k.tf.placeholder(k.tf.float32, [None, k.x.shape[1]]),
        "placeholder_unknown_dimension": lambda k: k.tf.placeholder(k.tf.float32, [k.D(None), k.x.shape[1]]),
        "placeholder_dimension": lambda k: k.tf.placeholder(k.tf.float32, k.x.shape[1]),
        "placeholder_dims": lambda k: k.tf.placeholder(k.tf.float32, k.x.shape.dims),
        "placeholder_float": lambda k: k.tf.placeholder(k.tf.float32, [3.0]),
        "set_shape": lambda k: _set_shape(k),
        "get_variable": lambda k: k.tf.get_variable("w", shape=[k.x.shape[1], 10]),
        "get_variable_dimensions": lambda k: k.tf.get_variable("w", [k.D(3), k.D(3)]).shape,
        "get_variable_glorot": lambda k: k.tf.get_variable("w", [k.x.shape[1], 3],
                                                           initializer=k.tf.glorot_uniform_initializer(seed=1)),
        "get_variable_unknown": lambda k: k.tf.get_variable("w", shape=[k.x.shape[0], 10]),
        "variable_of_zeros": lambda k: k.tf.Variable(k.tf.zeros([k.x.shape[1], 2])),
        "variable_of_dimension": lambda k: k.tf.Variable(k.x.shape[1]),
        "variable_of_dimension_list": lambda k: k.tf.Variable([k.x.shape[1]]),
        "initializer_call": lambda k: k.tf.glorot_uniform_initializer(seed=3)([k.D(2), k.D(3)]),
        "truncated_normal": lambda k: k.tf.truncated_normal([k.x.shape[1], 4]),
        "random_normal": lambda k: k.tf.random_normal([k.x.shape[1], k.D(4)]),
        "random_uniform_float_maxval": lambda k: k.tf.random_uniform([k.x.shape[1]], maxval=k.x.shape[1]),
        "random_uniform_int_maxval": lambda k: k.tf.random_uniform([2], maxval=k.x.shape[1], dtype=k.tf.int32),
        "constant": lambda k: k.tf.constant(k.x.shape[1]),
        "constant_list": lambda k: k.tf.constant([k.x.shape[1], 2]),
        "constant_int32": lambda k: k.tf.constant(k.x.shape[1], dtype=k.tf.int32),
        "constant_list_int64": lambda k: k.run(k.tf.constant([k.x.shape[1], 2], dtype=k.tf.int64)),
        "constant_float32": lambda k: k.tf.constant(k.x.shape[1], dtype=k.tf.float32),
        "constant_list_float32": lambda k: k.tf.constant([k.x.shape[1], 2], dtype=k.tf.float32),
        "constant_unknown_int32": lambda k: k.tf.constant([k.D(None), 2], dtype=k.tf.int32),
        "convert": lambda k: k.tf.convert_to_tensor(k.x.shape[1]),
        "convert_int64": lambda k: k.tf.convert_to_tensor(k.x.shape[1], dtype=k.tf.int64),
        "convert_named": lambda k: k.tf.convert_to_tensor(k.x.shape[1], dtype=k.tf.int64, name="foo"),
        "convert_float32": lambda k: k.tf.convert_to_tensor(k.x.shape[1], dtype=k.tf.float32),
        "convert_unknown": lambda k: k.tf.convert_to_tensor(k.x.shape[0]),
        "convert_preferred_float": lambda k: k.tf.convert_to_tensor(k.x.shape[1], preferred_dtype=k.tf.float32),
        "convert_list": lambda k: k.tf.convert_to_tensor([k.x.shape[1], 1]),
        "convert_list_int64": lambda k: k.tf.convert_to_tensor([k.x.shape[1], 1], dtype=k.tf.int64),
        "convert_list_preferred_int32": lambda k: k.tf.convert_to_tensor([k.x.shape[1], 2],
                                                                         preferred_dtype=k.tf.int32),
        "convert_list_preferred_float": lambda k: k.tf.convert_to_tensor([k.x.shape[1], 2],
                                                                         preferred_dtype=k.tf.float32),
        "convert_nested": lambda k: k.tf.convert_to_tensor([[k.x.shape[1]]], dtype=k.tf.int32),
        "convert_shape": lambda k: k.tf.convert_to_tensor(k.x.shape[1:]),
        "convert_shape_int64": lambda k: k.tf.convert_to_tensor(k.TS([2, 3]), dtype=k.tf.int64),
        "convert_shape_named": lambda k: k.tf.convert_to_tensor(k.TS([2, 3]), name="abc"),
        "convert_shape_float": lambda k: k.tf.convert_to_tensor(k.TS([2, 3]), dtype=k.tf.float32),
        "convert_shape_large": lambda k: k.tf.convert_to_tensor(k.TS([2 ** 40])),
        "convert_shape_scalar": lambda k: k.tf.convert_to_tensor(k.TS([])),
        "convert_partial_shape": lambda k: k.tf.convert_to_tensor(k.x.shape),
        "mul_float_tensor": lambda k: k.x * k.x.shape[1],
        "cast": lambda k: k.run(k.tf.cast(k.x.shape[1], k.tf.float32)),
        "to_float": lambda k: k.tf.to_float(k.x.shape[1]),
        "maximum": lambda k: k.run(k.tf.maximum(k.x.shape[1], 2)),
        "equal_shape_tensor": lambda k: k.tf.equal(k.tf.shape(k.x)[1], k.x.shape[1]),
        "stack": lambda k: k.run(k.tf.stack([k.x.shape[1], 1])),
        "stack_tensor_and_dimension": lambda k: k.tf.stack([k.tf.shape(k.x)[0], k.x.shape[1]]),
        "tile": lambda k: k.tf.tile(k.x, [1, k.x.shape[1]]),
        "pad": lambda k: k.tf.pad(k.x, [[0, 0], [0, k.x.shape[1]]]),
        "range": lambda k: k.run(k.tf.range(k.x.shape[1])),
        "range_float": lambda k: k.tf.range(k.x.shape[1], dtype=k.tf.float32),
        "one_hot": lambda k: k.tf.one_hot([0, 1], k.x.shape[1]),
        "one_hot_unknown": lambda k: k.tf.one_hot([0], k.x.shape[0]),
        "slice": lambda k: k.tf.slice(k.x, [0, 0], [-1, k.x.shape[1]]),
        "split": lambda k: k.tf.split(k.x, k.x.shape[1], axis=1),
        "split_sizes": lambda k: k.tf.split(k.x, [k.D(1), k.D(2)], axis=1),
        "unstack": lambda k: k.tf.unstack(k.x, num=k.x.shape[1], axis=1),
        "expand_dims": lambda k: k.tf.expand_dims(k.x, k.D(1)),
        "reduce_sum_axis": lambda k: k.tf.reduce_sum(k.x, axis=k.D(1)),
        "reduce_mean_axes": lambda k: k.tf.reduce_mean(k.tf.zeros([2, 3]), axis=[k.D(1)]),
        "concat": lambda k: k.tf.concat([k.x, k.x], k.D(1)),
        "gather": lambda k: k.tf.gather(k.x, [0], axis=k.D(1)),
        "transpose": lambda k: k.tf.transpose(k.x, [k.D(1), 0]),
        "squeeze": lambda k: k.tf.squeeze(k.tf.zeros([1, 3]), [k.D(0)]),
        "sequence_mask": lambda k: k.tf.sequence_mask([1, 2], maxlen=k.x.shape[1]),
        "multinomial": lambda k: k.tf.multinomial(k.tf.zeros([2, 3]), k.x.shape[1]),
        "top_k": lambda k: list(k.tf.nn.top_k(k.tf.zeros([5]), k=k.x.shape[1])),
        "tensor_array": lambda k: k.run(k.tf.TensorArray(k.tf.float32, size=k.x.shape[1]).size()),
        "matmul": lambda k: k.tf.matmul(k.x, k.tf.ones([k.x.shape[1], 5])),
        "conv2d_strides": lambda k: k.tf.nn.conv2d(k.tf.zeros([1, 4, 4, 1]), k.tf.zeros([2, 2, 1, 1]),
                                                   [1, k.D(1), 1, 1], "SAME"),
        "max_pool_ksize": lambda k: k.tf.nn.max_pool(k.tf.zeros([1, 4, 4, 1]), [1, k.D(2), 2, 1], [1, 2, 2, 1],
                                                     "SAME"),
        "getitem_dimension": lambda k: k.tf.zeros([5])[k.D(1)],
        "getitem_slice": lambda k: k.tf.zeros([5])[k.D(1):k.D(3)],
        "getitem_slice_end": lambda k: k.tf.zeros([5])[:k.x.shape[1]],
        "getitem_unknown_start": lambda k: k.tf.zeros([5])[k.D(None):],
        "dense_units": lambda k: k.tf.layers.dense(k.x, k.x.shape[1]),
        "dense": lambda k: k.tf.layers.dense(k.x, 10),
        "dense_unknown_last": lambda k: k.tf.layers.dense(k.tf.placeholder(k.tf.float32, [2, None]), 10),
        "conv2d_filters": lambda k: k.tf.layers.conv2d(k.tf.zeros([1, 4, 4, 2]), k.D(3), 2),
    }


def _set_shape(k):
    t = k.tf.placeholder(k.tf.float32)
    t.set_shape([None, k.x.shape[1]])
    return t


CASES = {**{f"dimension.{n}": f for n, f in _dimension_cases().items()},
         **{f"shape.{n}": f for n, f in _shape_cases().items()},
         **{f"op.{n}": f for n, f in _op_cases().items()}}


def describe(value):
    """``value`` as JSON that TensorFlow's and numflow's results share, whichever library made it."""
    kind = type(value).__name__
    if isinstance(value, BaseException):
        return {"error": kind, "message": str(value)}
    if kind == "Dimension":
        return {"Dimension": repr(value)}
    if kind == "TensorShape":
        return {"TensorShape": repr(value), "str": str(value)}
    if hasattr(value, "initializer") and hasattr(value, "op"):
        return {"Variable": value.name, "shape": str(value.shape), "dtype": value.dtype.name}
    if hasattr(value, "op") and hasattr(value, "dtype"):
        return {"Tensor": value.name, "shape": str(value.shape), "dtype": value.dtype.name}
    if isinstance(value, list | tuple | range):
        return {kind: [describe(v) for v in value]}
    if hasattr(value, "dtype") and hasattr(value, "tolist"):
        return {"array": value.tolist(), "dtype": str(value.dtype)}
    if value is None or isinstance(value, bool | int | float | str):
        return {kind: value}
    return {"other": kind}


def run_case(tf, np, fn):
    """The description of what ``fn`` gives in a fresh graph beside ``x``, or of the error it raises."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        session = tf.Session()
        k = SimpleNamespace(tf=tf, np=np, D=tf.Dimension, TS=tf.TensorShape, x=x, run=session.run)
        try:
            return describe(fn(k))
        except Exception as e:  # noqa: BLE001 - the error is the result
            return describe(e)
        finally:
            session.close()


def main():
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import numpy as np
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    golden = {name: run_case(tf, np, fn) for name, fn in CASES.items()}
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    done = subprocess.run([sys.executable, str(HERE / "tf1_program.py")], capture_output=True, text=True,
                          env={**os.environ}, check=True)
    (HERE / "tf1_program.out").write_text(done.stdout)


if __name__ == "__main__":
    main()
