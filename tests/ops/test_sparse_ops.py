"""SparseTensor, SparseTensorValue, sparse_placeholder and sparse_to_dense: construction, static shapes,
Session fetches and feeds, SparseToDense's values, checks and gradient, as in TensorFlow 2.21."""

import numpy as np
import pytest

import numflow as tf


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_sparse_tensor_is_three_tensors_and_fetches_as_a_value():
    st = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[5.0, 6.0], dense_shape=[3, 2])
    assert [t.op.name for t in (st.indices, st.values, st.dense_shape)] == [
        "SparseTensor/indices", "SparseTensor/values", "SparseTensor/dense_shape"]
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64 and st.dtype == tf.float32
    assert st.shape.as_list() == [3, 2] and st.get_shape() == st.shape and st.op is st.values.op
    got = _run({"st": st, "dense": tf.sparse.to_dense(st)})
    assert isinstance(got["st"], tf.SparseTensorValue)
    np.testing.assert_array_equal(got["st"].indices, [[0, 1], [2, 0]])
    np.testing.assert_array_equal(got["dense"], [[0, 5], [0, 0], [6, 0]])
    assert tf.SparseTensor.from_value(got["st"]).shape.as_list() == [3, 2]
    with pytest.raises(ValueError, match="Dimensions 1 and 2 are not compatible"):
        tf.SparseTensor([[0, 1]], [1.0, 2.0], [2, 2])
    with pytest.raises(TypeError, match="Failed to convert elements of SparseTensor"):
        tf.convert_to_tensor(st)


def test_sparse_placeholder_feeds_and_static_shapes():
    sp = tf.sparse_placeholder(tf.float32, [None, 4], name="sp")
    assert sp.shape.as_list() == [None, 4]
    assert [t.op.name for t in (sp.indices, sp.values, sp.dense_shape)] == ["sp/indices", "sp/values", "sp/shape"]
    assert sp.indices.shape.as_list() == [None, 2] and sp.dense_shape.op.type == "PlaceholderWithDefault"
    dense = tf.sparse_tensor_to_dense(sp)
    assert dense.shape.as_list() == [None, 4]
    value = tf.SparseTensorValue([[0, 1], [1, 3]], [1.0, 2.0], [2, 4])
    np.testing.assert_array_equal(_run(dense, {sp: value}), [[0, 1, 0, 0], [0, 0, 0, 2]])
    np.testing.assert_array_equal(_run(dense, {sp: ([[0, 2]], [7.0], [1, 4])}), [[0, 0, 7, 0]])
    unknown = tf.sparse_placeholder(tf.int32)
    assert unknown.shape.ndims is None and unknown.indices.shape.as_list() == [None, None]
    assert _run(tf.sparse.to_dense(unknown), {unknown: ([[1]], [3], [2])}).tolist() == [0, 3]
    with pytest.raises(TypeError, match="A SparseTensor is fed a SparseTensorValue or an"):
        _run(dense, {sp: [[0, 1]]})


def test_sparse_to_dense_values_and_names():
    out = tf.sparse_to_dense([1, 3], [5], 7, default_value=-1)
    assert out.op.type == "SparseToDense" and out.op.name == "SparseToDense" and out.shape.as_list() == [5]
    np.testing.assert_array_equal(_run(out), [-1, 7, -1, 7, -1])
    repeated = tf.sparse_to_dense([[1, 0], [0, 1], [0, 1]], [2, 2], [1.0, 2.0, 3.0], validate_indices=False)
    np.testing.assert_array_equal(_run(repeated), [[0, 3], [1, 0]])  # the last of a repeated index, as in TF


@pytest.mark.parametrize("indices, shape, values, kwargs, message", [
    ([[1, 0], [0, 1]], [2, 2], [1.0, 2.0], {}, r"indices\[1\] = \[0,1\] is out of order. Many sparse ops require "
                                                r"sorted indices.\n    Use `tf.sparse.reorder`"),
    ([[0, 1], [0, 1]], [2, 2], [1.0, 2.0], {}, r"indices\[1\] = \[0,1\] is repeated"),
    ([[0, 1], [2, 1]], [2, 2], [1.0, 2.0], {}, r"indices\[1\] = \[2,1\] is out of bounds: need 0 <= index < \[2,2\]"),
    ([[0, 1], [2, 1]], [2, 2], [1.0, 2.0], {"validate_indices": False},
     r"Indices are not valid \(out of bounds\).  Shape: \[2,2\]"),
    ([[0, 1]], [2, 2], [1.0, 2.0], {}, r"sparse_values has incorrect shape \[2\], should be \[\] or \[1\]"),
    ([[0, 1]], [2, 2, 2], [1.0], {}, "output_shape has incorrect number of elements: 3 should be: 2"),
])
def test_sparse_to_dense_errors_are_tensorflows(indices, shape, values, kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _run(tf.sparse_to_dense(indices, shape, values, **kwargs))


def test_sparse_to_dense_gradient_is_tensorflows():
    v, d = tf.constant([1.0, 2.0]), tf.constant(0.5)
    out = tf.sparse_to_dense([[0, 1], [1, 0]], [2, 3], v, d)
    gv, gd = tf.gradients(out * [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [v, d])
    got = _run([gv, gd])
    np.testing.assert_array_equal(got[0], [2.0, 4.0])
    assert got[1] == 15.0
