"""tile, slice, pad and split: values against numpy, static shapes, op names and errors. Expected
names, shapes and messages are TensorFlow 2.21's (``tf.compat.v1`` in graph mode), checked op by op."""

import numpy as np
import pytest
from test_op_conformance import _check, _row

import numflow as tf

rng = np.random.RandomState(3)
F = rng.randn(3, 4).astype(np.float32)
G = rng.randn(3, 4).astype(np.float32)
C3 = rng.randn(2, 3, 4).astype(np.float32)
I = rng.randint(-9, 10, size=(3, 4)).astype(np.int32)  # noqa: E741


ROWS = [
    _row("tile", lambda x: tf.tile(x, [2, 3]), lambda x: np.tile(x, (2, 3)), F),
    _row("tile_3d", lambda x: tf.tile(x, [1, 0, 2]), lambda x: np.tile(x, (1, 0, 2)), C3),
    _row("tile_int64_multiples", lambda x: tf.tile(x, np.array([2, 1], np.int64)), lambda x: np.tile(x, (2, 1)), I),
    _row("slice", lambda x: tf.slice(x, [1, 0, 1], [1, -1, 2]), lambda x: x[1:2, :, 1:3], C3),
    _row("slice_rest", lambda x: tf.slice(x, [2, 3], [-1, -1]), lambda x: x[2:, 3:], F),
    _row("slice_empty", lambda x: tf.slice(x, [1, 1], [0, 2]), lambda x: x[1:1, 1:3], F),
    _row("pad", lambda x: tf.pad(x, [[1, 2], [0, 3]]), lambda x: np.pad(x, [(1, 2), (0, 3)]), F),
    _row("pad_constant", lambda x: tf.pad(x, [[2, 1], [1, 1]], constant_values=-7),
         lambda x: np.pad(x, [(2, 1), (1, 1)], constant_values=-7), I),
    _row("pad_reflect", lambda x: tf.pad(x, [[2, 1], [3, 1]], mode="REFLECT"),
         lambda x: np.pad(x, [(2, 1), (3, 1)], mode="reflect"), F),
    _row("pad_symmetric", lambda x: tf.pad(x, [[3, 1], [0, 4]], mode="symmetric"),
         lambda x: np.pad(x, [(3, 1), (0, 4)], mode="symmetric"), F),
    _row("split", lambda x: tf.split(x, 2, axis=1)[1], lambda x: x[:, 2:], F),
    _row("split_neg_axis", lambda x: tf.split(x, 4, axis=-1)[3], lambda x: x[..., 3:], C3, rank_free=False),
    _row("split_sizes", lambda x: tf.split(x, [1, -1, 1], axis=1)[1], lambda x: x[:, 1:3], F),
    _row("split_sizes_axis0", lambda x: tf.split(x, [2, 1])[0], lambda x: x[:2], F),
]


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", ROWS)
def test_from_constants(build, ref, inputs, dtype, rank_free, keeps_rank):
    out = build(*[tf.constant(x) for x in inputs])
    want = np.asarray(ref(*inputs))
    assert out.shape.as_list() == list(want.shape)
    with tf.Session() as sess:
        _check(sess.run(out), want, dtype)


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", ROWS)
def test_from_placeholders_with_unknown_dims(build, ref, inputs, dtype, rank_free, keeps_rank):
    holders = [tf.placeholder(tf.as_dtype(x.dtype), [None] * np.ndim(x)) for x in inputs]
    out = build(*holders)
    want = np.asarray(ref(*inputs))
    assert out.shape.ndims == want.ndim
    with tf.Session() as sess:
        _check(sess.run(out, dict(zip(holders, inputs))), want, dtype)


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", [r for r in ROWS if r.values[4]])
def test_from_placeholders_of_unknown_rank(build, ref, inputs, dtype, rank_free, keeps_rank):
    holders = [tf.placeholder(tf.as_dtype(x.dtype)) for x in inputs]
    out = build(*holders)
    want = np.asarray(ref(*inputs))
    assert out.shape.is_compatible_with(want.shape)
    with tf.Session() as sess:
        _check(sess.run(out, dict(zip(holders, inputs))), want, dtype)


def test_every_row_in_one_run(pool):
    fetches = [param.values[0](*[tf.constant(x) for x in param.values[2]]) for param in ROWS]
    with tf.Session(pool=pool) as sess:
        got = sess.run(fetches)
    for value, param in zip(got, ROWS):
        _check(value, np.asarray(param.values[1](*param.values[2])), param.values[3])


# -- static shapes ----------------------------------------------------------------------------------
def _ph(shape, dtype=tf.float32):
    return tf.placeholder(dtype, shape)


@pytest.mark.parametrize("build, want", [
    (lambda: tf.tile(_ph([None, 3]), [2, 3]), [None, 9]),
    (lambda: tf.tile(_ph([None, 3]), _ph([2], tf.int32)), [None, None]),
    (lambda: tf.tile(_ph(None), [2, 3]), [None, None]),
    (lambda: tf.tile(_ph(None), _ph([None], tf.int32)), None),
    (lambda: tf.tile(_ph([None, 1, 0]), [2, _ph([], tf.int32), _ph([], tf.int32)]), [None, None, 0]),
    (lambda: tf.slice(_ph([None, 3]), [0, 1], [-1, 2]), [None, 2]),
    (lambda: tf.slice(_ph([None, 3]), [1, 1], [1, -1]), [1, 2]),
    (lambda: tf.slice(_ph([None, 3]), _ph([2], tf.int32), [1, 2]), [1, 2]),
    (lambda: tf.slice(_ph([None, 3]), [0, 0], _ph([2], tf.int32)), [None, None]),
    (lambda: tf.slice(_ph(None), [0, 0], [1, 2]), [1, 2]),
    (lambda: tf.pad(_ph([None, 3]), [[1, 2], [0, 1]]), [None, 4]),
    (lambda: tf.pad(_ph([None, 3]), _ph([2, 2], tf.int32)), [None, None]),
    (lambda: tf.pad(_ph(None), [[1, 2], [0, 1]]), [None, None]),
    (lambda: tf.pad(_ph([2, 3]), [[2, 0], [0, 0]], mode="REFLECT"), [4, 3]),
    (lambda: tf.pad(tf.constant(1.0), np.zeros((0, 2), np.int32)), []),
    (lambda: tf.split(_ph([None, 3]), 3, axis=1)[2], [None, 1]),
    (lambda: tf.split(_ph([None, 3]), 2, axis=0)[1], [None, 3]),
    (lambda: tf.split(_ph([None, 3]), [1, -1], axis=1)[1], [None, 2]),
    (lambda: tf.split(_ph([2, None]), [1, -1], axis=1)[1], [2, None]),
    (lambda: tf.split(_ph([None, 3]), tf.constant([1, 2]), axis=1)[0], [None, 1]),
    (lambda: tf.split(_ph([2, 4]), 2, axis=_ph([], tf.int32))[0], [None, None]),
    (lambda: tf.split(_ph(None), 2, axis=0)[0], None),
])
def test_static_shapes(build, want):
    out = build()
    assert (out.shape.as_list() if out.shape.ndims is not None else None) == want


# -- names and graph structure -----------------------------------------------------------------------
def _input_names(t):
    return [i.name for i in t.op.inputs]


def test_tile_and_slice_names():
    x = _ph([None, 3])
    t = tf.tile(x, [2, 3])
    assert t.name == "Tile:0" and _input_names(t) == ["Placeholder:0", "Tile/multiples:0"]
    s = tf.slice(x, [0, 1], [-1, 2])
    assert s.name == "Slice:0" and _input_names(s) == ["Placeholder:0", "Slice/begin:0", "Slice/size:0"]
    packed = tf.tile(tf.ones([2]), [_ph([], tf.int32)])
    assert packed.op.inputs[1].op.type == "Pack" and packed.op.inputs[1].op.name == "Tile_1/multiples"


def test_pad_names():
    x = _ph([None, 3])
    assert tf.pad(x, [[1, 2], [0, 1]]).name == "Pad:0"
    padded = tf.pad(x, [[1, 2], [0, 1]], constant_values=3)
    assert padded.name == "PadV2:0"
    assert _input_names(padded)[1:] == ["PadV2/paddings:0", "PadV2/constant_values:0"]
    assert tf.pad(x, [[1, 2], [0, 1]], constant_values=0.0).op.type == "Pad"
    assert tf.pad(x, [[1, 2], [0, 1]], constant_values=tf.constant(0.0)).op.type == "PadV2"
    mirrored = tf.pad(x, [[1, 2], [0, 1]], mode="reflect")
    assert mirrored.name == "MirrorPad:0" and mirrored.op.get_attr("mode") == "REFLECT"


def test_split_names():
    x = _ph([None, 3])
    parts = tf.split(x, 3, axis=1)
    assert [p.name for p in parts] == ["split:0", "split:1", "split:2"]
    assert parts[0].op.type == "Split" and _input_names(parts[0]) == ["split/split_dim:0", "Placeholder:0"]
    sized = tf.split(x, [1, -1], axis=1)
    assert [p.name for p in sized] == ["split_1:0", "split_1:1"] and sized[0].op.type == "SplitV"
    assert _input_names(sized[0]) == ["Placeholder:0", "Const:0", "split_1/split_dim:0"]
    assert [p.name for p in tf.split(x, [1, 2], 1, name="foo")] == ["foo:0", "foo:1"]


# -- errors ------------------------------------------------------------------------------------------
def _f(*shape):
    return tf.ones(list(shape))


def _late(value, dtype=None):
    """``value`` with a fully unknown static shape: checks on it happen at run time."""
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), shape=None)


BUILD = [
    ("tile_length", lambda: tf.tile(_f(2, 3), [1, 2, 3]), ValueError, "Shape must be rank 2 but is rank 3 for "
     r"'\{\{node Tile\}\} = Tile"),
    ("tile_rank", lambda: tf.tile(_f(2, 3), [[1, 2]]), ValueError, "Shape must be rank 1 but is rank 2"),
    ("tile_negative", lambda: tf.tile(_f(2, 3), [1, -2]), ValueError, "Invalid value in tensor used for shape: -2"),
    ("tile_float", lambda: tf.tile(_f(2, 3), [1.0, 2.0]), TypeError,
     "Value passed to parameter 'multiples' has DataType float32 not in list of allowed values: int32, int64"),
    ("slice_lengths", lambda: tf.slice(_f(2, 3), [0, 0, 0], [1, 1]), ValueError,
     r"Dimension 0 in both shapes must be equal, but are 3 and 2. Shapes are \[3\] and \[2\]."),
    ("slice_rank", lambda: tf.slice(_f(2, 3), [0, 0, 0], [1, 1, 1]), ValueError, "Shape must be rank 3 but is rank 2"),
    ("slice_past_end", lambda: tf.slice(_f(2, 3), [3, 0], [-1, 1]), ValueError,
     "Negative dimension size caused by subtracting 3 from 2"),
    ("slice_size", lambda: tf.slice(_f(2, 3), [0, 0], [-2, 1]), ValueError,
     "Invalid value in tensor used for shape: -2"),
    ("pad_rank", lambda: tf.pad(_f(2, 3), [[1, 1]]), ValueError, "Shape must be rank 1 but is rank 2"),
    ("pad_columns", lambda: tf.pad(_f(2, 3), [[1, 1, 1], [0, 0, 0]]), ValueError, "Dimension must be 2 but is 3"),
    ("pad_negative", lambda: tf.pad(_f(2, 3), [[-1, 1], [0, 0]]), ValueError, "Paddings must be non-negative"),
    ("mirror_pad_negative", lambda: tf.pad(_f(2, 3), [[-1, 0], [0, 0]], mode="REFLECT"), ValueError,
     "Paddings must be non-negative"),
    ("pad_mode", lambda: tf.pad(_f(2, 3), [[1, 1], [0, 0]], mode="foo"), ValueError,
     'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". Received `mode` = FOO'),
    ("pad_float", lambda: tf.pad(_f(2, 3), [[1.0, 0], [0, 0]]), TypeError,
     "Value passed to parameter 'paddings' has DataType float32 not in list of allowed values: int32, int64"),
    ("pad_value_dtype", lambda: tf.pad(_f(2, 3), [[1, 0], [0, 0]], constant_values=tf.constant(1)), TypeError,
     "Input 'constant_values' of 'PadV2' Op has type int32 that does not match type float32 of argument 'input'."),
    ("split_uneven", lambda: tf.split(_f(2, 3), 2, axis=1), ValueError,
     "Dimension size must be evenly divisible by 2 but is 3"),
    ("split_zero", lambda: tf.split(_f(2, 3), 0, axis=1), ValueError,
     "Attr 'num_split' of 'Split' Op passed 0 less than minimum 1."),
    ("split_axis", lambda: tf.split(_f(2, 3), 1, axis=2), ValueError,
     r"Dimension size, given by scalar input 2 must be in range \[-2, 2\)"),
    ("split_axis_rank", lambda: tf.split(_f(2, 4), 2, axis=[1]), ValueError, "Input must be scalar but has rank 1"),
    ("split_sizes_sum", lambda: tf.split(_f(2, 3), [1, 1], axis=1), ValueError,
     r"can't split axis of size 3 into pieces of size \[1,1\]"),
    ("split_two_unknown", lambda: tf.split(_f(2, 3), [-1, -1], axis=1), ValueError,
     "size_splits can only have one -1"),
    ("split_rest_negative", lambda: tf.split(_f(2, 3), [4, -1], axis=1), ValueError,
     "Split size at index 1 must be >= 0. Got: -1"),
    ("split_negative", lambda: tf.split(_f(2, 3), [-2, 5], axis=1), ValueError,
     "Split size at index 0 must be >= 0. Got: -2"),
    ("split_scalar", lambda: tf.split(tf.constant(1.0), [1, -1], axis=0), ValueError, "Can't split scalars"),
    ("split_num", lambda: tf.split(_f(2, 4), [1, 3], axis=1, num=3), ValueError,
     "Length of size_splits should be equal to num_outputs"),
    ("split_unknown_num", lambda: tf.split(_f(2, 3), _ph([None], tf.int32), axis=1), ValueError,
     "Cannot infer argument `num` from shape"),
    ("split_float", lambda: tf.split(_f(2, 3), 1.5, axis=1), ValueError,
     "Rank-0 tensors are not supported as the num_or_size_splits argument to split. Argument provided: 1.5"),
]


@pytest.mark.parametrize("build, error, message", [pytest.param(*r[1:], id=r[0]) for r in BUILD])
def test_build_time_error(build, error, message):
    with pytest.raises(error, match=message):
        build()


RUN = [
    ("tile_length", lambda: tf.tile(_late(np.ones((2, 3))), [1, 2, 3]),
     "Expected multiples argument to be a vector of length 2 but got length 3"),
    ("tile_negative", lambda: tf.tile(_late(np.ones((2, 3))), _late([1, -2])),
     r"Expected multiples\[1\] >= 0, but got -2"),
    ("slice_size", lambda: tf.slice(_late(np.ones((2, 3))), [0, 0], [3, 1]),
     r"Expected size\[0\] in \[0, 2\], but got 3"),
    ("slice_from_begin", lambda: tf.slice(_late(np.ones((2, 3))), [1, 0], _late([2, 1])),
     r"Expected size\[0\] in \[0, 1\], but got 2"),
    ("slice_begin", lambda: tf.slice(_late(np.ones((2, 3))), [-1, 0], [1, 1]),
     r"Expected begin\[0\] in \[0, 2\], but got -1"),
    ("slice_lengths", lambda: tf.slice(_late(np.ones((2, 3))), _late([0, 0, 0]), _late([1, 1])),
     r"Expected begin and size arguments to be 1-D tensors of size 2, but got shapes \[3\] and \[2\] instead."),
    ("slice_empty_dim", lambda: tf.slice(_late(np.ones((0, 3))), [1, 0], [0, 1]),
     r"Expected begin\[0\] == 0 \(got 1\) and size\[0\] == 0 \(got 0\) when input.dim_size\(0\) == 0"),
    ("pad_negative", lambda: tf.pad(_late(np.ones((2, 3))), _late([[-1, 1], [0, 0]])),
     "Paddings must be non-negative: -1 1"),
    ("pad_rank", lambda: tf.pad(_late(np.ones((2, 3))), _late([[1, 1]])),
     r"The first dimension of paddings must be the rank of inputs\[1,2\] \[2,3\]"),
    ("pad_columns", lambda: tf.pad(_late(np.ones((2, 3))), _late([[1, 1, 1], [0, 0, 0]])),
     r"paddings must be a matrix with 2 columns: \[2,3\]"),
    ("pad_value", lambda: tf.pad(_late(np.ones((2, 3), np.float32)), [[1, 0], [0, 0]],
                                 constant_values=_late(np.array([1.0, 2.0], np.float32))),
     r"constant_values must be a scalar. Found: \[2\]"),
    ("reflect_size", lambda: tf.pad(_late(np.ones((2, 3))), _late([[2, 0], [0, 0]]), mode="REFLECT"),
     "paddings must be less than the dimension size: 2, 0 not less than 2"),
    ("symmetric_size", lambda: tf.pad(_late(np.ones((2, 3))), _late([[3, 0], [0, 0]]), mode="SYMMETRIC"),
     "paddings must be no greater than the dimension size: 3, 0 greater than 2"),
    ("mirror_negative", lambda: tf.pad(_late(np.ones((2, 3))), _late([[-1, 0], [0, 0]]), mode="REFLECT"),
     "paddings must be non-negative: -1 0"),
    ("mirror_rank", lambda: tf.pad(_late(np.ones((2, 3))), _late([[1, 0]]), mode="REFLECT"),
     r"The first dimension of paddings must be the rank of inputs\[1,2\], \[2,3\]"),
    ("split_uneven", lambda: tf.split(_late(np.ones((2, 3))), 2, axis=1),
     r"Number of ways to split should evenly divide the split dimension, but got split_dim 1 \(size = 3\) and "
     "num_split 2"),
    ("split_axis", lambda: tf.split(_late(np.ones((2, 4))), 2, axis=_late(-3)),
     r"-input rank\(-2\) <= split_dim < input rank \(2\), but got -3"),
    ("split_sizes_sum", lambda: tf.split(_late(np.ones((2, 3))), [1, 1], axis=1),
     "Determined shape must either match input shape along split_dim exactly if fully specified, or be less than "
     "the size of the input along split_dim if not fully specified.  Got: 2"),
    ("split_rest_negative", lambda: tf.split(_late(np.ones((2, 3))), [4, -1], axis=1),
     "Determined shape must .* Got: 4"),
    ("split_two_unknown", lambda: tf.split(_late(np.ones((2, 4))), _late([-1, -1]), num=2, axis=1),
     "There can only be one -1 in the input."),
    ("split_count", lambda: tf.split(_late(np.ones((2, 4))), _late([1, 1, 2]), num=2, axis=1),
     "size of the split_tensor must be 1-D and have the same elements as outputs got 1 -D and 3 elements"),
]


@pytest.mark.parametrize("build, message", [pytest.param(*r[1:], id=r[0]) for r in RUN])
def test_run_time_error_names_the_op(build, message):
    out = build()
    out = out[0] if isinstance(out, list) else out
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
            sess.run(out)
    assert info.value.op in (out.op, out.op.inputs[0].op)  # the op, or the one an Identity forwards
    assert f"node {info.value.op.name}" in str(info.value)


def test_split_into_one_part_returns_the_input_whatever_the_axis():
    # TensorFlow's kernel hands the input through before it checks the axis.
    with tf.Session() as sess:
        (out,) = sess.run(tf.split(_late(np.arange(6.0).reshape(2, 3)), 1, axis=_late(2)))
    np.testing.assert_array_equal(out, np.arange(6.0).reshape(2, 3))
