"""tile, slice, gather, embedding_lookup, unsorted_segment_sum, where, pad, split, one_hot and the clip
functions: values against numpy, static shapes, op names and errors. Expected names, shapes and
messages are TensorFlow 2.21's (``tf.compat.v1`` in graph mode), checked op by op."""

import numpy as np
import pytest
from test_op_conformance import _check, _row

import numflow as tf

rng = np.random.RandomState(3)
F = rng.randn(3, 4).astype(np.float32)
G = rng.randn(3, 4).astype(np.float32)
C3 = rng.randn(2, 3, 4).astype(np.float32)
D = rng.randn(3, 4)
I = rng.randint(-9, 10, size=(3, 4)).astype(np.int32)  # noqa: E741
MASK = rng.rand(3, 4) > 0.5
ROWS_MASK = np.array([True, False, True])
IDS = np.array([[2, 0], [2, 2]], np.int32)
SEGMENTS = np.array([1, -1, 1], np.int32)


def _one_hot(indices, depth, axis=-1):
    out = (indices[..., None] == np.arange(depth)).astype(np.float32)
    return np.moveaxis(out, -1, axis)


def _segment_sum(data, ids, n):
    out = np.zeros((n,) + data.shape[ids.ndim:], data.dtype)
    for index in np.ndindex(*ids.shape):
        if ids[index] >= 0:
            out[ids[index]] += data[index]
    return out


ROWS = [
    _row("tile", lambda x: tf.tile(x, [2, 3]), lambda x: np.tile(x, (2, 3)), F),
    _row("tile_3d", lambda x: tf.tile(x, [1, 0, 2]), lambda x: np.tile(x, (1, 0, 2)), C3),
    _row("tile_int64_multiples", lambda x: tf.tile(x, np.array([2, 1], np.int64)), lambda x: np.tile(x, (2, 1)), I),
    _row("slice", lambda x: tf.slice(x, [1, 0, 1], [1, -1, 2]), lambda x: x[1:2, :, 1:3], C3),
    _row("slice_rest", lambda x: tf.slice(x, [2, 3], [-1, -1]), lambda x: x[2:, 3:], F),
    _row("slice_empty", lambda x: tf.slice(x, [1, 1], [0, 2]), lambda x: x[1:1, 1:3], F),
    _row("gather", lambda x: tf.gather(x, [2, 0, 2]), lambda x: x[[2, 0, 2]], F),
    _row("gather_2d_ids", lambda x: tf.gather(x, IDS, axis=1), lambda x: x[:, IDS], C3),
    _row("gather_last_axis", lambda x: tf.gather(x, 3, axis=-1), lambda x: x[..., 3], C3, rank_free=False),
    _row("gather_int64_ids", lambda x: tf.gather(x, np.array([1, 1], np.int64)), lambda x: x[[1, 1]], I),
    _row("gather_int16_ids", lambda x: tf.gather(x, np.array([1], np.int16)), lambda x: x[[1]], D),
    _row("embedding_lookup", lambda x: tf.nn.embedding_lookup(x, IDS), lambda x: x[IDS], F),
    _row("unsorted_segment_sum", lambda x: tf.unsorted_segment_sum(x, SEGMENTS, 4),
         lambda x: _segment_sum(x, SEGMENTS, 4), F),
    _row("unsorted_segment_sum_2d", lambda x: tf.math.unsorted_segment_sum(x, [[0, 1, 0], [2, 2, -1]], 3),
         lambda x: _segment_sum(x, np.array([[0, 1, 0], [2, 2, -1]]), 3), C3, rank_free=False),
    _row("unsorted_segment_sum_int", lambda x: tf.unsorted_segment_sum(x, SEGMENTS, 2),
         lambda x: _segment_sum(x, SEGMENTS, 2), I),
    _row("where_select", lambda m, x, y: tf.where(m, x, y), np.where, MASK, F, G),
    _row("where_select_rows", lambda m, x, y: tf.where(m, x, y), lambda m, x, y: np.where(m[:, None], x, y),
         ROWS_MASK, F, G),
    _row("where_select_scalar", lambda m, x, y: tf.where(m, x, y), np.where, np.array(False), F, G),
    _row("where_v2_broadcast", lambda m, x: tf.where_v2(m, x, 0.0), lambda m, x: np.where(m, x, np.float32(0)),
         MASK[:1], F),
    _row("where_indices", tf.where, lambda m: np.array(np.nonzero(m)).T.astype(np.int64), MASK),
    _row("where_indices_int", tf.where, lambda x: np.array(np.nonzero(x)).T.astype(np.int64), I),
    _row("where_v2_indices", tf.where_v2, lambda m: np.array(np.nonzero(m)).T.astype(np.int64), MASK),
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
    _row("one_hot", lambda x: tf.one_hot(x, 5), lambda x: _one_hot(x, 5), IDS),
    _row("one_hot_axis", lambda x: tf.one_hot(x, 3, axis=0), lambda x: _one_hot(x, 3, axis=0), IDS),
    _row("one_hot_values", lambda x: tf.one_hot(x, 4, on_value=5, off_value=-1),
         lambda x: np.where(x[..., None] == np.arange(4), 5, -1).astype(np.int32), I),
    _row("clip_by_value", lambda x: tf.clip_by_value(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), F),
    _row("clip_by_value_tensors", lambda x, lo: tf.clip_by_value(x, lo, 0.7), lambda x, lo: np.clip(x, lo, 0.7),
         F, -np.abs(G[0])),
]


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", ROWS)
def test_from_constants(build, ref, inputs, dtype, rank_free, keeps_rank):
    out = build(*[tf.constant(x) for x in inputs])
    want = np.asarray(ref(*inputs))
    if out.op.type != "Where":  # its row count is known only at run time, as in TensorFlow
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


def test_one_hot_out_of_range_indices_give_off_values():
    with tf.Session() as sess:
        got = sess.run(tf.one_hot([[1, -1], [5, 0]], 3, axis=0))
    np.testing.assert_array_equal(got, [[[0, 0], [0, 1]], [[1, 0], [0, 0]], [[0, 0], [0, 0]]])


def test_clip_by_global_norm_scales_every_tensor_by_one_factor():
    a, b = np.array([3.0, 0.0], np.float32), np.array([[0.0, 4.0]], np.float32)  # global norm 5
    clipped, norm = tf.clip_by_global_norm([a, None, b], 2.0)
    assert clipped[1] is None
    with tf.Session() as sess:
        got_a, got_b, got_norm = sess.run([clipped[0], clipped[2], norm])
        unclipped = sess.run(tf.clip_by_global_norm([a, b], 10.0)[0])
        nan = sess.run(tf.clip_by_global_norm([a], 1.0, use_norm=tf.constant(np.inf))[0][0])
    assert got_norm == pytest.approx(5.0)
    np.testing.assert_allclose(got_a, [1.2, 0.0], rtol=1e-6)
    np.testing.assert_allclose(got_b, [[0.0, 1.6]], rtol=1e-6)
    np.testing.assert_allclose(unclipped[0], a, rtol=1e-6)
    assert np.isnan(nan).all()


def test_global_norm_skips_none():
    with tf.Session() as sess:
        assert sess.run(tf.global_norm([[1.0, 2.0], None, [[2.0]]])) == pytest.approx(3.0)


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
    (lambda: tf.gather(_ph([5, 4, 3]), [1, 2]), [2, 4, 3]),
    (lambda: tf.gather(_ph([5, 4, 3]), [[1, 2]], axis=1), [5, 1, 2, 3]),
    (lambda: tf.gather(_ph([5, 4, 3]), 1, axis=-1), [5, 4]),
    (lambda: tf.gather(_ph([5, 4, 3]), [1, 2], axis=_ph([], tf.int32)), [None, None, None]),
    (lambda: tf.gather(_ph(None), [1, 2]), None),
    (lambda: tf.gather(_ph([5, 4, 3]), _ph(None, tf.int32)), None),
    (lambda: tf.nn.embedding_lookup(_ph([5, 4, 3]), [[1, 2]]), [1, 2, 4, 3]),
    (lambda: tf.unsorted_segment_sum(_ph([5, 4, 3]), [0, 0, 1, 3, 2], 6), [6, 4, 3]),
    (lambda: tf.unsorted_segment_sum(tf.ones([2, 3, 4]), [[0, 1, 1], [0, 0, 0]], 2), [2, 4]),
    (lambda: tf.unsorted_segment_sum(tf.ones([2, 3, 4]), [0, 1], _ph([], tf.int32)), [None, 3, 4]),
    (lambda: tf.where(_ph([None, 3], tf.bool)), [None, 2]),
    (lambda: tf.where(_ph(None) > 0), [None, None]),
    (lambda: tf.where(_ph([None, 3], tf.bool), _ph([None, 3]), _ph([None, 3])), [None, 3]),
    (lambda: tf.where(_ph([None], tf.bool), _ph([None, 3]), _ph([None, 3])), [None, 3]),
    (lambda: tf.where(tf.constant(True), _ph([2, 3]), _ph([2, 3])), [2, 3]),
    (lambda: tf.where(_ph(None, tf.bool), _ph([2, 3]), _ph([2, 3])), [2, 3]),
    (lambda: tf.where(_ph([2, 3], tf.bool), _ph(None), _ph(None)), None),
    (lambda: tf.where(_ph([2, 3], tf.bool), _ph([None, 3]), _ph([2, None])), [2, 3]),
    (lambda: tf.where_v2(_ph([None, 3], tf.bool), _ph([None, 3]), 1.0), [None, 3]),
    (lambda: tf.where_v2(_ph([3, 1], tf.bool), _ph([4]), _ph([1])), [3, 4]),
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
    (lambda: tf.one_hot(_ph([None, 3], tf.int32), 5, axis=1), [None, 5, 3]),
    (lambda: tf.one_hot(_ph([None, 3], tf.int32), _ph([], tf.int32)), [None, 3, None]),
    (lambda: tf.clip_by_value(_ph([None, 3]), 0.0, 1.0), [None, 3]),
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


@pytest.mark.parametrize("shape, multiples", [((32, 1), [1, 32]), ((1, 3), [4, 1]), ((2, 1, 3), [1, 5, 1]),
                                               ((3, 1), [1, 0]), ((2, 3), [1, 2]), ((1, 1), [3, 2]), ((4,), [1])])
def test_tile_repeats_the_whole_input_along_each_axis_as_numpy(shape, multiples):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    with tf.Graph().as_default(), tf.Session() as sess:
        tiled = sess.run(tf.tile(x, multiples))
    np.testing.assert_array_equal(tiled, np.tile(x, multiples))
    assert tiled.shape == np.tile(x, multiples).shape


def test_gather_names():
    g = tf.gather(_ph([None, 3]), [1, 2])
    assert g.name == "GatherV2:0" and _input_names(g) == ["Placeholder:0", "GatherV2/indices:0", "GatherV2/axis:0"]
    assert g.op.get_attr("batch_dims") == 0


def test_embedding_lookup_is_a_colocated_gather_then_identity():
    emb = tf.Variable(np.ones((5, 2), np.float32), name="emb")
    out = tf.nn.embedding_lookup(emb, [1, 2])
    assert out.name == "embedding_lookup/Identity:0" and out.op.type == "Identity"
    gather = out.op.inputs[0].op
    assert gather.name == "embedding_lookup" and gather.type == "GatherV2"
    assert _input_names(gather.outputs[0]) == ["emb/read:0", "embedding_lookup/ids:0", "embedding_lookup/axis:0"]
    assert gather.colocation_groups() == [b"loc:@emb"]
    listed = tf.nn.embedding_lookup([np.ones((5, 2), np.float32)], [1], name="look")
    assert listed.name == "look/Identity:0"
    assert listed.op.inputs[0].op.inputs[0].name == "look/params_0:0"


def test_segment_sum_and_where_names():
    x, c = _ph([None, 3]), _ph([None, 3], tf.bool)
    u = tf.unsorted_segment_sum(x, [0, 1], 2)
    assert u.name == "UnsortedSegmentSum:0"
    assert _input_names(u)[1:] == ["UnsortedSegmentSum/segment_ids:0", "UnsortedSegmentSum/num_segments:0"]
    assert tf.where(c).name == "Where:0" and tf.where(c).dtype == tf.int64
    select = tf.where(c, x, x)
    assert select.name == "Select:0" and select.op.get_attr("T") == tf.float32
    select_v2 = tf.where_v2(c, x, 1.0)
    assert select_v2.name == "SelectV2:0" and _input_names(select_v2)[2] == "SelectV2/e:0"


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


def test_one_hot_and_clip_names():
    hot = tf.one_hot([1, 2], 4)
    assert hot.name == "one_hot:0" and hot.dtype == tf.float32
    assert _input_names(hot) == ["one_hot/indices:0", "one_hot/depth:0", "one_hot/on_value:0", "one_hot/off_value:0"]
    assert tf.one_hot([1], 3, on_value=5).dtype == tf.int32
    assert tf.one_hot([1], 3, dtype=tf.int64).dtype == tf.int64
    clipped = tf.clip_by_value(_ph([None, 3]), 0.0, 1.0)
    assert clipped.name == "clip_by_value:0" and clipped.op.type == "Maximum"
    assert _input_names(clipped) == ["clip_by_value/Minimum:0", "clip_by_value/y:0"]
    assert tf.global_norm([_ph([2])]).name == "global_norm/global_norm:0"
    out, norm = tf.clip_by_global_norm([_ph([2]), _ph([3])], 1.0)
    assert [t.name for t in out] == ["clip_by_global_norm/clip_by_global_norm/_0:0",
                                     "clip_by_global_norm/clip_by_global_norm/_1:0"]
    assert norm.name == "global_norm_1/global_norm:0"


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
    ("gather_scalar", lambda: tf.gather(1.0, [0]), ValueError, "Shape must be at least rank 1 but is rank 0"),
    ("gather_axis", lambda: tf.gather(_f(2, 3), [0], axis=2), ValueError,
     "Shape must be at least rank 3 but is rank 2"),
    ("gather_negative_axis", lambda: tf.gather(_f(2, 3), [0], axis=-3), ValueError,
     "Shape must be at least rank 3 but is rank 2"),
    ("gather_float", lambda: tf.gather(_f(2, 3), [0.0]), TypeError,
     "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: int16, int32, int64"),
    ("gather_batch_dims", lambda: tf.gather(_f(2, 3), [0], batch_dims=3), ValueError,
     "Shape must be at least rank 3 but is rank 1"),
    ("embedding_no_params", lambda: tf.nn.embedding_lookup([], [1]), ValueError,
     "Length of params is currently 0. Need at least one param."),
    ("segment_prefix", lambda: tf.unsorted_segment_sum(_f(3, 2), [1, 0], 3), ValueError,
     "Dimensions must be equal, but are 3 and 2"),
    ("segment_count_rank", lambda: tf.unsorted_segment_sum(_f(3, 2), [1, 0, 0], [3]), ValueError,
     "Shape must be rank 0 but is rank 1"),
    ("segment_negative_count", lambda: tf.unsorted_segment_sum(_f(3, 2), [1, 0, 0], -1), ValueError,
     "Dimension size, given by scalar input 2, must be non-negative but is -1"),
    ("segment_ids_rank", lambda: tf.unsorted_segment_sum(_f(3), [[1, 0, 0]], 2), ValueError,
     "Shape must be at least rank 2 but is rank 1"),
    ("segment_float_ids", lambda: tf.unsorted_segment_sum(_f(3), [1.0, 0, 0], 2), TypeError,
     "Value passed to parameter 'segment_ids' has DataType float32 not in list of allowed values: int16, int32, "
     "int64"),
    ("select_cond_shape", lambda: tf.where(_f(2, 3) > 0, _f(2, 4), _f(2, 4)), ValueError,
     r"Dimension 1 in both shapes must be equal, but are 4 and 3. Shapes are \[2,4\] and \[2,3\]."),
    ("select_data_shapes", lambda: tf.where(_f(2, 3) > 0, _f(2, 3), _f(2, 4)), ValueError,
     r"Dimension 1 in both shapes must be equal, but are 3 and 4. Shapes are \[2,3\] and \[2,4\]."),
    ("select_rows", lambda: tf.where(_f(3) > 0, _f(2, 4), _f(2, 4)), ValueError,
     r"Dimension 0 in both shapes must be equal, but are 3 and 2. Shapes are \[3\] and \[2\]."),
    ("select_rank", lambda: tf.where(_f(2, 3, 1) > 0, _f(2, 3), _f(2, 3)), ValueError,
     r"Shapes must be equal rank, but are 2 and 3 for '\{\{node Select\}\} = Select\[T=DT_FLOAT\]"),
    ("select_dtypes", lambda: tf.where(_f(2) > 0, _f(2), tf.ones([2], tf.int32)), TypeError,
     "Input 'e' of 'Select' Op has type int32 that does not match type float32 of argument 't'."),
    ("select_python_dtype", lambda: tf.where([True, False], [1, 2], [3.5, 4]), TypeError,
     r"Expected int32 passed to parameter 'e' of op 'Select', got \[3.5, 4\] of type 'list' instead."),
    ("select_condition", lambda: tf.where(_f(2), _f(2), _f(2)), TypeError,
     "Input 'condition' of 'Select' Op has type float32 that does not match expected type of bool."),
    ("where_only_x", lambda: tf.where(_f(2) > 0, _f(2)), ValueError,
     "x and y must both be non-None or both be None."),
    ("select_v2_broadcast", lambda: tf.where_v2(_f(3) > 0, _f(3, 2), 0.0), ValueError,
     "Dimensions must be equal, but are 3 and 2"),
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
    ("one_hot_float", lambda: tf.one_hot([1.0], 3), TypeError,
     "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: uint8, int8, int32, "
     "int64"),
    ("one_hot_depth", lambda: tf.one_hot([1], -1), ValueError,
     "Dimension size, given by scalar input 1, must be non-negative but is -1"),
    ("one_hot_axis", lambda: tf.one_hot([1], 3, axis=-2), ValueError, "axis must be >= -1"),
    ("one_hot_on_off", lambda: tf.one_hot([1], 3, on_value=1, off_value=0.0), TypeError,
     "dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> of off_value"),
    ("one_hot_dtype", lambda: tf.one_hot([1], 3, on_value=1.0, dtype=tf.int32), TypeError,
     "dtype <dtype: 'float32'> of on_value does not match dtype parameter <dtype: 'int32'>"),
    ("clip_broadcast", lambda: tf.clip_by_value(_f(2, 3), _f(4), 1.0), ValueError,
     "Dimensions must be equal, but are 3 and 4"),
    ("clip_grows", lambda: tf.clip_by_value(_f(3), _f(2, 3), 1.0), ValueError, "are incompatible"),
    ("global_norm_not_list", lambda: tf.global_norm(_f(3)), TypeError, "`t_list` should be a sequence of tensors"),
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
    ("gather_index", lambda: tf.gather(_late(np.ones((5, 2))), [1, 7]), r"indices\[1\] = 7 is not in \[0, 5\)"),
    ("gather_index_2d", lambda: tf.gather(_late(np.ones((5, 2))), [[1, 2], [3, 7]]),
     r"indices\[1,1\] = 7 is not in \[0, 5\)"),
    ("gather_negative", lambda: tf.gather(_late(np.ones((5, 2))), [1, -1]), r"indices\[1\] = -1 is not in \[0, 5\)"),
    ("gather_scalar_index", lambda: tf.gather(_late(np.ones((5, 2))), 7), r"indices = 7 is not in \[0, 5\)"),
    ("gather_axis1", lambda: tf.gather(_late(np.ones((5, 2))), [1, 3], axis=1), r"indices\[1\] = 3 is not in \[0, 2\)"),
    ("gather_axis", lambda: tf.gather(_late(np.ones((5, 2))), [1], axis=_late(2)),
     "Shape must be at least rank 3 but is rank 2"),
    ("gather_scalar_params", lambda: tf.gather(_late(1.0), [0]), "params must be at least 1 dimensional"),
    ("embedding_index", lambda: tf.nn.embedding_lookup(_late(np.ones((5, 2))), [1, 7]),
     r"indices\[1\] = 7 is not in \[0, 5\)"),
    ("segment_id", lambda: tf.unsorted_segment_sum(_late(np.ones((2, 2))), [[0, 1], [7, 0]], 3),
     r"segment_ids\[1,0\] = 7 is out of range \[0, 3\)"),
    ("segment_prefix", lambda: tf.unsorted_segment_sum(_late(np.ones((3, 2))), _late([1, 0]), 3),
     r"data.shape = \[3,2\] does not start with segment_ids.shape = \[2\]"),
    ("segment_count", lambda: tf.unsorted_segment_sum(_late(np.ones((3, 2))), [1, 0, 0], _late(-1)),
     "Input num_segments == -1 must not be negative."),
    ("where_scalar", lambda: tf.where(_late(True)), "WhereOp : Unhandled input dimensions: 0"),
    ("select_rows", lambda: tf.where(_late(np.array([True, False])), _late(np.ones((3, 2))), _late(np.zeros((3, 2)))),
     "Number of batches of 'then' must match size of 'cond', but saw: 3 vs. 2"),
    ("select_shapes", lambda: tf.where(_late(np.array([[True, False]])), _late(np.ones((1, 2))),
                                       _late(np.zeros((2, 2)))),
     r"Inputs to operation Select of type Select must have the same size and shape.  Input 0: \[1,2\] != "
     r"input 2: \[2,2\]"),
    ("select_scalar_cond", lambda: tf.where(_late(True), _late(np.ones(2)), _late(np.ones(3))),
     r"'then' and 'else' must have the same size.  but received: \[2\] vs. \[3\]"),
    ("select_vector_then", lambda: tf.where(_late(np.array([True, False])), _late(1.0), _late(2.0)),
     r"'then' must be at least a vector, but saw shape: \[\]"),
    ("select_v2", lambda: tf.where_v2(_late(np.array([True, False, True])), _late(np.ones((3, 2))), 0.0),
     r"condition \[3\], then \[3,2\], and else \[\] must be broadcastable"),
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
    ("one_hot_depth", lambda: tf.one_hot([1], _late(-1)), "depth must be non-negative, got: -1"),
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


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_split_into_equal_parts_along_each_axis(axis):
    x = np.arange(2 * 4 * 6, dtype=np.float32).reshape(2, 4, 6)
    with tf.Session() as sess:
        parts = sess.run(tf.split(_late(x), 2, axis=_late(axis)))
    expected = np.split(x, 2, axis=axis)
    assert len(parts) == 2
    for got, want in zip(parts, expected):
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, want)


def test_shape_is_a_constant_named_shape_when_known_as_in_tensorflow():
    with tf.Graph().as_default():
        known = tf.shape(tf.zeros([2, 3]), out_type=tf.int64)
        partial = tf.placeholder(tf.float32, [None, 3])
        dynamic = tf.shape(partial)
        sparse = tf.shape(tf.SparseTensor([[0, 1]], [1.0], [4, 5]))
        assert (known.op.type, known.op.name, known.dtype) == ("Const", "Shape", tf.int64)
        assert (dynamic.op.type, dynamic.op.name) == ("Shape", "Shape_1")
        assert (sparse.op.type, sparse.op.name, sparse.dtype) == ("Cast", "Shape_2/Cast", tf.int32)
        with tf.Session() as sess:
            got = sess.run([known, dynamic, sparse], {partial: np.zeros((7, 3), np.float32)})
    assert [g.tolist() for g in got] == [[2, 3], [7, 3], [4, 5]]


def test_ops_whose_outputs_are_one_list_give_each_value_when_the_list_holds_one():
    x = np.array([[1.0, 2.0]], np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        (same,) = tf.identity_n([x])
        (shape,) = tf.shape_n([x])
        (part,) = tf.dynamic_partition(tf.constant([3.0, 4.0]), tf.constant([0, 0]), 1)
        got = sess.run([same, shape, part])
    np.testing.assert_array_equal(got[0], x)
    np.testing.assert_array_equal(got[1], [1, 2])
    np.testing.assert_array_equal(got[2], [3.0, 4.0])
    assert all(isinstance(value, np.ndarray) for value in got)


def _batch_gather_by_loops(params, indices, axis, batch_dims):
    """TensorFlow's batch_dims gather, one batch element and one index at a time."""
    batch_shape = params.shape[:batch_dims]
    out = np.empty(params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:], params.dtype)
    for batch in np.ndindex(*batch_shape):
        for mid in np.ndindex(*params.shape[batch_dims:axis]):
            for at in np.ndindex(*indices.shape[batch_dims:]):
                out[batch + mid + at] = params[batch + mid + (indices[batch + at],)]
    return out


@pytest.mark.parametrize("indices, batch_dims, axis", [
    ([[2, 0], [1, 1]], 1, None), ([[[3, 0]], [[1, 2]]], 1, 2), ([[[1], [0], [2]], [[3], [3], [0]]], 2, None),
    ([[4, 0, 1], [2, 2, 3]], 1, 3), ([[1, 0], [2, 1]], -1, None)])
def test_gather_with_batch_dims_and_its_gradient(indices, batch_dims, axis):
    params = np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)
    indices = np.array(indices, np.int32)
    p = tf.constant(params)
    gathered = tf.gather(p, indices, batch_dims=batch_dims, axis=axis)
    b = batch_dims % indices.ndim if batch_dims < 0 else batch_dims
    a = b if axis is None else axis % params.ndim
    if axis is None and batch_dims < 0:
        a = batch_dims % params.ndim  # the axis defaults to batch_dims as given, counted from params' end
    want = _batch_gather_by_loops(params, indices, a, b)
    weights = np.linspace(-1, 1, want.size, dtype=np.float32).reshape(want.shape)
    (grad,) = tf.gradients(tf.reduce_sum(gathered * weights), p)
    want_grad = np.zeros_like(params)
    for batch in np.ndindex(*params.shape[:b]):
        for mid in np.ndindex(*params.shape[b:a]):
            for at in np.ndindex(*indices.shape[b:]):
                want_grad[batch + mid + (indices[batch + at],)] += weights[batch + mid + at]
    assert gathered.shape.as_list() == list(want.shape)
    with tf.Session() as sess:
        got, got_grad = sess.run([gathered, grad])
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got_grad, want_grad, rtol=1e-6, atol=1e-6)
