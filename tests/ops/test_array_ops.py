"""Array ops beyond their values: static shapes from shape tensors, TF's op names and graph structure,
slice masks, and the kinds of shape arguments accepted. Expected names and shapes are TensorFlow's."""

import numpy as np
import pytest

import numflow as tf


def _run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


def _ph(shape, dtype=tf.float32):
    return tf.placeholder(dtype, shape)


# -- shape arguments ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [[2, 3], (2, 3), np.array([2, 3]), np.array([2, 3], np.int64),
                                   tf.TensorShape([2, 3]), [2.0, 3.0]])
def test_zeros_takes_every_kind_of_python_shape(shape):
    out = tf.zeros(shape)
    assert out.shape.as_list() == [2, 3] and out.dtype == tf.float32
    np.testing.assert_array_equal(_run(out), np.zeros((2, 3)))


def test_zeros_and_ones_are_constants_when_small_and_fills_when_large():
    small, large = tf.zeros([2, 3]), tf.ones([100, 100])
    assert small.op.type == "Const" and small.op.name == "zeros"
    assert large.op.type == "Fill" and large.op.name == "ones"
    assert [t.op.name for t in large.op.inputs] == ["ones/shape_as_tensor", "ones/Const"]
    assert _run(large).sum() == 10000


@pytest.mark.parametrize("build, want", [
    (lambda x: tf.zeros(tf.shape(x)), [None, 3]),
    (lambda x: tf.ones([tf.shape(x)[0], 5]), [None, 5]),
    (lambda x: tf.fill(tf.shape(x)[1:], 1.0), [3]),
    (lambda x: tf.fill(tf.concat([tf.shape(x), [7]], 0), 1.0), [None, 3, 7]),
    (lambda x: tf.reshape(x, [tf.shape(x)[0], -1, 1]), [None, None, 1]),
    (lambda x: tf.reshape(x, tf.stack([-1, 3])), [None, 3]),
    (lambda x: tf.zeros(_ph([2], tf.int32)), [None, None]),
    (lambda x: tf.zeros(_ph([None], tf.int32)), None),
    (lambda x: tf.zeros(_ph([], tf.int32)), [None]),
    (lambda x: tf.zeros_like(x), [None, 3]),
    (lambda x: tf.ones_like(x, dtype=tf.int32), [None, 3]),
])
def test_static_shape_from_shape_tensors(build, want):
    out = build(_ph([None, 3]))
    assert (out.shape.as_list() if out.shape.ndims is not None else None) == want


def test_small_constant_subgraphs_give_static_shapes():
    c = tf.ones([3, 4])
    assert tf.fill([tf.shape(c)[0], 2], 7).shape.as_list() == [3, 2]
    assert tf.fill([tf.shape(c)[0] * 2, 2], 7).shape.as_list() == [6, 2]
    assert tf.reshape(c, tf.shape(c)[::-1]).shape.as_list() == [4, 3]


@pytest.mark.parametrize("build, want", [
    (lambda x, y: tf.reshape(x, tf.slice(tf.shape(y), [0], [2])), [2, 3]),
    (lambda x, y: tf.reshape(x, tf.slice(tf.shape(y), [1], [-1])), [3, 4]),
    (lambda x, y: tf.reshape(x, tf.tile(tf.shape(tf.zeros([2])), [3])), [2, 2, 2]),
    (lambda x, y: tf.reshape(x, tf.gather(tf.shape(y), [2, 0, 1])), [4, 2, 3]),
    (lambda x, y: tf.tile(tf.zeros([2, 3]), tf.slice(tf.shape(y), [0], [2])), [4, 9]),
    (lambda x, y: tf.slice(tf.zeros([5, 6]), tf.gather(tf.shape(y), [0, 1]), [-1, -1]), [3, 3]),
    (lambda x, y: tf.gather(tf.zeros([5, 6, 7]), [0], axis=tf.slice(tf.shape(y), [0], [1])[0] - 1), [5, 1, 7]),
    # Not foldable: a shape known only in part, an index out of range (an error only at run time).
    (lambda x, y: tf.reshape(x, tf.slice(tf.shape(_ph([None, 3, 4])), [1], [2])), [None, None]),
    (lambda x, y: tf.reshape(x, tf.gather(tf.shape(y), [5, 1])), [None, None]),
])
def test_slice_tile_and_gather_of_static_shapes_give_static_shapes(build, want):
    assert build(_ph([None]), _ph([2, 3, 4])).shape.as_list() == want


def test_a_folded_shape_fails_an_impossible_reshape_when_built():
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 24 elements to shape \[2,3\] \(6 elements\)"):
        tf.reshape(tf.zeros([24]), tf.slice(tf.shape(_ph([2, 3, 4])), [0], [2]))


def test_shape_of_a_scalar_tensor_is_reshaped_to_a_vector():
    n = tf.placeholder(tf.int32, [])
    out = tf.zeros(n)
    assert out.shape.as_list() == [None]
    assert _run(out, {n: 4}).shape == (4,)


def test_zeros_like_and_ones_like_structure():
    x = _ph([None, 2])
    assert tf.zeros_like(x).op.type == "ZerosLike"
    assert tf.zeros_like(x, dtype=tf.int32).op.type == "Fill"
    assert tf.zeros_like(tf.constant([[1, 2]])).op.type == "Const"
    assert tf.ones_like(x).op.type == "Fill"
    assert tf.zeros([2], tf.string).dtype == tf.string
    np.testing.assert_array_equal(_run(tf.zeros([2], tf.string)), [b"", b""])
    np.testing.assert_array_equal(_run(tf.ones([2], tf.bool)), [True, True])


# -- reshape, transpose, concat, stack ----------------------------------------------------------
@pytest.mark.parametrize("in_shape, target, want", [
    ([None, 6], [-1, 2, 3], [None, 2, 3]),
    ([None, 6], [3, -1], [3, None]),
    ([2, None], [-1], [None]),
    (None, [5, -1], [5, None]),
    ([None, 6], [-1, 4], [None, 4]),
    ([4, 6], [3, -1], [3, 8]),
    ([0, 3], [-1, 0], [None, 0]),
])
def test_reshape_static_shapes(in_shape, target, want):
    assert tf.reshape(_ph(in_shape), target).shape.as_list() == want


def test_reshape_of_an_empty_tensor_infers_the_unknown_size_as_tensorflow():
    assert _run(tf.reshape(tf.zeros([0, 3]), [-1, 0])).shape == (3, 0)
    assert _run(tf.reshape(tf.zeros([0, 3]), [3, -1])).shape == (3, 0)


def test_reshape_names_and_packed_shape():
    x = _ph([None, 6], tf.float32)
    out = tf.reshape(x, [tf.shape(x)[0], -1, 2])
    shape_op = out.op.inputs[1].op
    assert out.op.name == "Reshape" and shape_op.type == "Pack" and shape_op.name == "Reshape/shape"
    np.testing.assert_array_equal(_run(out, {x: np.zeros((2, 6))}).shape, (2, 3, 2))


def test_a_list_holding_tensors_packs_under_tensorflows_names():
    # TensorFlow's autopacking: a scope "packed", its Python elements constants named by position.
    x = _ph([None, 6], tf.float32)
    n = tf.shape(x)[0]
    flat = tf.convert_to_tensor([n, 1, 3])
    assert flat.op.name == "packed" and [t.op.name for t in flat.op.inputs] == ["strided_slice", "packed/1",
                                                                                 "packed/2"]
    nested = tf.convert_to_tensor([[n, 1], [2, 3]])
    assert nested.op.name == "packed_1"
    assert [t.op.name for t in nested.op.inputs] == ["packed_1/0", "packed_1/1"]
    assert [t.op.name for t in nested.op.inputs[0].op.inputs] == ["strided_slice", "packed_1/0/1"]
    np.testing.assert_array_equal(_run(nested, {x: np.zeros((5, 6))}), [[5, 1], [2, 3]])


def test_a_list_of_tensors_packed_to_another_dtype_casts_them_first():
    # As TensorFlow: each tensor of another dtype than asked is cast (``Cast``, in the current scope) before the
    # Pack (SparseTensor's int64 dense_shape of int32 sizes: SparseTensor/Cast, SparseTensor/dense_shape).
    x = _ph([None, 6], tf.float32)
    dims = tf.shape(x)
    packed = tf.convert_to_tensor([[dims[0], 1], [7, dims[1]]], dtype=tf.int64)
    assert packed.dtype == tf.int64
    assert [[t.op.name for t in row.op.inputs] for row in packed.op.inputs] == [["Cast", "packed/0/1"],
                                                                                ["packed/1/0", "Cast_1"]]
    np.testing.assert_array_equal(_run(packed, {x: np.zeros((5, 6))}), [[5, 1], [7, 6]])
    st = tf.SparseTensor([[0, 1]], [2.0], (dims[0], dims[1]))
    assert [t.op.name for t in st.dense_shape.op.inputs] == ["SparseTensor/Cast", "SparseTensor/Cast_1"]


def test_transpose_of_unknown_rank_reverses_at_run_time():
    x = _ph(None)
    out = tf.transpose(x)
    assert out.shape.ndims is None and out.op.name == "transpose"
    value = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(_run(out, {x: value}), value.T)
    assert tf.transpose(_ph([None, 3, 4])).shape.as_list() == [4, 3, None]
    assert tf.transpose(_ph(None), [1, 0]).shape.as_list() == [None, None]


@pytest.mark.parametrize("shapes, axis, want", [
    ([[None, 3], [2, None]], 0, [None, 3]),
    ([[None, 3], [2, None]], 1, [2, None]),
    ([None, [2, 3]], 1, [2, None]),
    ([[2, 3], [2, 4]], -1, [2, 7]),
])
def test_concat_static_shapes(shapes, axis, want):
    assert tf.concat([_ph(s) for s in shapes], axis).shape.as_list() == want


def test_concat_with_an_unknown_axis_keeps_the_rank():
    assert tf.concat([_ph([2, 3]), _ph([2, 3])], _ph([], tf.int32)).shape.as_list() == [None, None]


def test_concat_of_one_value_is_an_identity():
    out = tf.concat([tf.constant([1, 2])], 0)
    assert out.op.type == "Identity" and out.op.name == "concat"


def test_stack_of_python_values_is_a_constant_and_of_tensors_a_pack():
    assert tf.stack([1, 2]).op.type == "Const"
    mixed = tf.stack([tf.ones([]), 2])
    assert mixed.op.type == "Pack" and mixed.dtype == tf.float32
    assert [t.op.name for t in mixed.op.inputs] == ["ones", f"{mixed.op.name}/1"]
    assert tf.stack([_ph([None, 3]), _ph([2, None])], 1).shape.as_list() == [2, 2, 3]
    np.testing.assert_array_equal(_run(tf.stack([])), np.zeros(0, np.float32))


def test_unstack_outputs():
    parts = tf.unstack(tf.reshape(tf.range(6), [2, 3]), axis=1)
    assert len(parts) == 3 and parts[0].op.type == "Unpack" and parts[0].shape.as_list() == [2]
    np.testing.assert_array_equal(_run(parts), [[0, 3], [1, 4], [2, 5]])
    single = tf.unstack(tf.ones([1, 2]))
    np.testing.assert_array_equal(_run(single[0]), [1, 1])


def test_expand_dims_and_squeeze_static_shapes():
    assert tf.expand_dims(_ph([None, 3]), 0).shape.as_list() == [1, None, 3]
    assert tf.expand_dims(_ph(None), 0).shape.ndims is None
    assert tf.expand_dims(_ph([2]), [0]).shape.as_list() == [1, 2]
    assert tf.expand_dims(_ph([2]), dim=-1).shape.as_list() == [2, 1]
    assert tf.squeeze(_ph([None, 1, 3])).shape.ndims is None
    assert tf.squeeze(_ph([None, 1, 3]), [0]).shape.as_list() == [1, 3]
    assert tf.squeeze(_ph([1, 2, 1]), squeeze_dims=[0]).shape.as_list() == [2, 1]
    assert tf.squeeze(_ph([1, 2, 1]), axis=2).op.attrs["squeeze_dims"] == [2]


def test_stop_gradient_and_rank():
    x = _ph([None, 3])
    assert tf.stop_gradient(x).op.type == "StopGradient"
    assert tf.rank(x).op.type == "Const" and _run(tf.rank(x)) == 2
    unknown = _ph(None)
    assert tf.rank(unknown).op.type == "Rank"
    assert _run(tf.rank(unknown), {unknown: np.zeros((1, 2, 3))}) == 3


# -- slicing ------------------------------------------------------------------------------------
@pytest.mark.parametrize("key, masks", [
    # (begin, end, ellipsis, new_axis, shrink), as TensorFlow encodes each key.
    ((1,), (0, 0, 0, 0, 1)),
    ((slice(1, None),), (0, 1, 0, 0, 0)),
    ((slice(None), 1), (1, 1, 0, 0, 2)),
    ((Ellipsis, 1), (0, 0, 1, 0, 2)),
    ((None, 1), (0, 0, 0, 1, 2)),
    ((slice(None, None, -1), slice(None, None, -2), slice(1, 3)), (3, 3, 0, 0, 0)),
    ((1, Ellipsis, None, 2), (0, 0, 2, 4, 9)),
])
def test_slice_masks_are_tensorflows(key, masks):
    out = tf.reshape(tf.range(24), [2, 3, 4])[key]
    attrs = out.op.attrs
    names = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
    assert tuple(attrs[n] for n in names) == masks
    assert out.op.name == "strided_slice"
    assert [t.op.name for t in out.op.inputs[1:]] == ["strided_slice/stack", "strided_slice/stack_1",
                                                      "strided_slice/stack_2"]


def test_int64_tensor_indices_give_tensorflows_int64_begin_end_and_strides():
    # The op listing of TensorFlow 2.21's compat.v1 for the same lines: an int64 index makes its stride
    # an int64 constant, and the int32 parts are cast so that TensorFlow's StridedSlice takes them.
    with tf.Graph().as_default() as graph:
        b = tf.constant([[1, 2, 3], [4, 5, 6]], tf.int64)
        i = tf.placeholder(tf.int64, [], name="i")
        values = [b[i], b[1:i], b[..., i]]
        ops = [f"{op.name}:{op.type}" for op in graph.get_operations()]
        with tf.Session() as sess:
            got = [v.tolist() for v in sess.run(values, {i: 1})]
    assert got == [[4, 5, 6], [], [2, 5]]
    assert ops == [
        "Const:Const", "i:Placeholder", "add/y:Const", "add:AddV2", "Const_1:Const", "strided_slice/stack:Pack",
        "strided_slice/stack_1:Pack", "strided_slice/stack_2:Pack", "strided_slice:StridedSlice", "Const_2:Const",
        "strided_slice_1/stack:Const", "strided_slice_1/stack_1:Pack", "strided_slice_1/stack_2:Pack",
        "strided_slice_1/Cast:Cast", "strided_slice_1:StridedSlice", "add_1/y:Const", "add_1:AddV2", "Const_3:Const",
        "strided_slice_2/stack/0:Const", "strided_slice_2/stack:Pack", "strided_slice_2/stack_1/0:Const",
        "strided_slice_2/stack_1:Pack", "strided_slice_2/stack_2/0:Const", "strided_slice_2/stack_2:Pack",
        "strided_slice_2:StridedSlice"]


@pytest.mark.parametrize("key, want", [
    ((1,), [3]), ((slice(None), 1), [None]), ((slice(None), 5), "error"), ((slice(None), slice(1, None)), [None, 2]),
    ((slice(1, None),), [None, 3]), ((slice(None, None, -1),), [None, 3]), ((Ellipsis, None), [None, 3, 1]),
])
def test_slice_static_shapes_of_partial_inputs(key, want):
    x = _ph([None, 3])
    if want == "error":
        with pytest.raises(ValueError, match="slice index 5 of dimension 1 out of bounds"):
            x[key]
    else:
        assert x[key].shape.as_list() == want


def test_slicing_unknown_rank_and_tensor_indices():
    assert _ph(None)[1, ..., 2].shape.ndims is None
    x = _ph([5, 3])
    i = tf.placeholder(tf.int32, [])
    assert x[i].shape.as_list() == [3]
    assert x[i:].shape.as_list() == [None, 3]
    value = np.arange(15, dtype=np.float32).reshape(5, 3)
    np.testing.assert_array_equal(_run(x[i], {x: value, i: 3}), value[3])
    np.testing.assert_array_equal(_run(x[i:-1, ::-1], {x: value, i: 1}), value[1:-1, ::-1])
    np.testing.assert_array_equal(_run(x[:, tf.constant(2, tf.int64)], {x: value}), value[:, 2])


def test_a_list_key_indexes_like_a_tuple_and_numpy_ints_work():
    x = tf.reshape(tf.range(6), [2, 3])
    np.testing.assert_array_equal(_run(x[[1]]), [3, 4, 5])
    np.testing.assert_array_equal(_run(x[np.int64(1), np.int32(2)]), 5)


def test_iterating_a_tensor_of_known_first_dimension_slices_it():
    rows = list(tf.reshape(tf.range(6), [3, 2]))
    assert len(rows) == 3
    np.testing.assert_array_equal(_run(rows), [[0, 1], [2, 3], [4, 5]])


def test_slices_of_the_same_bounds_index_by_their_own_masks_and_shapes_run_after_run():
    x = _ph([None, None])
    bounds = ([0, 1], [2, 3], [1, 1])
    outs = [tf.strided_slice(x, *bounds), tf.strided_slice(x, *bounds, shrink_axis_mask=1),
            tf.strided_slice(x, *bounds, end_mask=2), tf.strided_slice(x, *bounds, new_axis_mask=1)]
    for shape in [(2, 4), (3, 5), (2, 4)]:
        value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        got = _run(outs, {x: value})
        for out, want in zip(got, [value[0:2, 1:3], value[0, 1:3], value[0:2, 1:], value[None, 1:3]]):
            np.testing.assert_array_equal(out, want)


def test_strided_slice_function():
    x = tf.reshape(tf.range(24), [2, 3, 4])
    out = tf.strided_slice(x, [0, 1], [2, 3], [1, 2], shrink_axis_mask=1)
    np.testing.assert_array_equal(_run(out), np.arange(24).reshape(2, 3, 4)[0, 1:3:2])


def test_variables_slice_reshape_and_join():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    outs = [v[0], tf.reshape(v, [-1]), tf.concat([v, v], 0), tf.stack([v, v]), tf.transpose(v), tf.zeros_like(v)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(outs)
    np.testing.assert_array_equal(got[0], [1, 2])
    np.testing.assert_array_equal(got[1], [1, 2, 3, 4])
    assert got[2].shape == (4, 2) and got[3].shape == (2, 2, 2)
    np.testing.assert_array_equal(got[4], [[1, 3], [2, 4]])
    assert outs[0].dtype == tf.float32
