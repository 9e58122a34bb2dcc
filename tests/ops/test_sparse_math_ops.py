"""sparse_tensor_dense_matmul, sparse_add, sparse_reorder, sparse_reshape and the sparse reductions against
TensorFlow's values, gradients and names (``data/tf_sparse_math_golden.npz``, made by
``data/make_tf_case_goldens.py`` from the graphs of ``sparse_math_cases.py``), their static shapes and errors."""

import pathlib
import re

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from sparse_math_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_sparse_math_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=1e-6, atol=1e-6)


def test_matmul_gradient_by_finite_differences():
    rng = np.random.RandomState(3)
    indices, b_value = np.array([[0, 1], [1, 0], [1, 2]]), rng.randn(3, 2)
    with tf.Graph().as_default(), tf.Session().as_default():
        values, b = tf.constant([0.5, -1.0, 2.0], tf.float64), tf.constant(b_value)
        product = tf.sparse_tensor_dense_matmul(tf.SparseTensor(indices, values, [2, 3]), b, adjoint_b=False)
        for x, x0 in ((values, [0.5, -1.0, 2.0]), (b, b_value)):
            err = tf.test.compute_gradient_error(x, np.shape(x0), product, [2, 2], x_init_value=np.asarray(x0))
            assert err < 1e-8


def test_static_shapes():
    with tf.Graph().as_default():
        sp = tf.sparse_placeholder(tf.float32, [None, 4])
        assert tf.sparse_tensor_dense_matmul(sp, tf.ones([4, 3])).shape.as_list() == [None, 3]
        assert tf.sparse_tensor_dense_matmul(sp, tf.ones([3, 7]), adjoint_a=True, adjoint_b=True).shape.as_list() \
            == [None, 3]
        assert tf.sparse_tensor_dense_matmul(tf.sparse_placeholder(tf.float32), tf.ones([4, 3])).shape.as_list() \
            == [None, 3]
        assert tf.sparse_reduce_sum(sp, 1).shape.ndims is None  # TensorFlow needs a constant dense shape
        assert tf.sparse_reorder(sp).shape.as_list() == [None, 4]
        assert tf.sparse_reorder(sp).dense_shape.op.type == "Identity"
        st = tf.SparseTensor([[0, 1]], [1.0], [3, 2])
        assert tf.sparse_add(sp.__class__([[0, 1]], [1.0], tf.placeholder(tf.int64, [2])), st).shape.as_list() \
            == [3, 2]
        assert tf.sparse_reshape(st, [-1, 3]).shape.as_list() == [2, 3]
        assert tf.sparse_reduce_sum(st, [0, 1], keepdims=True).shape.as_list() == [1, 1]
        assert tf.sparse.reduce_max(st).shape.as_list() == []


def test_build_errors():
    with tf.Graph().as_default():
        st = tf.SparseTensor([[0, 5]], [1.0], [2, 6])
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 6 and 4"):
            tf.sparse_tensor_dense_matmul(st, tf.ones([4, 3]))
        with pytest.raises(ValueError, match=re.escape("Cannot reshape a tensor with 12 elements to shape [5, None] "
                                                       "(10 elements).")):
            tf.sparse_reshape(st, [5, -1])
        with pytest.raises(ValueError, match=re.escape("At most one dimension can be inferred (-1). Found: [-1 -1]")):
            tf.sparse_reshape(st, [-1, -1])
        with pytest.raises(ValueError, match=re.escape("Shapes (2, 6) and (3, 3) are incompatible")):
            tf.sparse_add(st, tf.SparseTensor([[0, 1]], [1.0], [3, 3]))
        with pytest.raises(TypeError, match="At least one input should be SparseTensor; do you mean to use tf.add"):
            tf.sparse_add(tf.ones([2]), tf.ones([2]))
        with pytest.raises(TypeError, match="Input must be a SparseTensor, got Tensor"):
            tf.sparse_reorder(tf.ones([2]))


def _fails(fetch, message, feed=None):
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
            sess.run(fetch, feed)


def test_run_errors():
    with tf.Graph().as_default():
        def matrix(indices, shape):  # a dense shape known only when the graph runs
            return tf.SparseTensor(tf.constant(indices, tf.int64), [1.0],
                                   tf.placeholder_with_default(tf.constant(shape, tf.int64), [2]))

        _fails(tf.sparse_tensor_dense_matmul(matrix([[3, 1]], [2, 3]), tf.ones([3, 3])),
               "m (3) from index[0,0] out of bounds (>=2)")
        _fails(tf.sparse_tensor_dense_matmul(matrix([[1, 4]], [2, 3]), tf.ones([3, 3])),
               "k (4) from index[0,1] out of bounds (>=3)")
        _fails(tf.sparse_tensor_dense_matmul(matrix([[0, 1]], [2, 3]), tf.placeholder_with_default(tf.ones([4, 3]),
                                                                                                  [None, None])),
               "Cannot multiply A and B because inner dimension does not match: 3 vs. 4.  Did you forget a transpose?  "
               "Dimensions of A: [2, 3).  Dimensions of B: [4,3]")
        sp = tf.sparse_placeholder(tf.float32)
        _fails(tf.sparse_reshape(sp, tf.constant([5, -1], tf.int64)).indices,
               "Input to reshape is a SparseTensor with 3 dense values, but the requested shape requires a multiple "
               "of 5. input_shape=[3] output_shape=[5,1]", {sp: ([[0]], [1.0], [3])})
        _fails(tf.sparse_reduce_sum(matrix([[0, 1]], [2, 3]), 2), "Invalid reduction dimension 2, for input with 2 "
               "dimensions.")
        _fails(tf.sparse_add(matrix([[0, 1]], [2, 3]), matrix([[0, 1]], [2, 2])).values,
               "Operands' shapes do not match: got 3 and 2 for dimension 1")


def test_retain_concat_fill_shapes_and_errors():
    with tf.Graph().as_default():
        st = tf.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 3])
        with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
            tf.sparse_retain(st, [True, False, True])
        sp = tf.sparse_placeholder(tf.float32, [None, 4])
        joined = tf.sparse_concat(1, [sp, tf.sparse_placeholder(tf.float32, [None, 2])])
        assert joined.shape.as_list() == [None, 6] and joined.dense_shape.op.type == "SparseConcat"
        assert tf.sparse_concat(0, [st, st]).shape.as_list() == [4, 3]
        filled, empty = tf.sparse_fill_empty_rows(sp, 0.0)
        assert filled.shape.as_list() == [None, None] and empty.dtype == tf.bool  # as TensorFlow
        _fails(filled.values, "indices(0, 0) is invalid: 3 >= 2", {sp: ([[3, 0]], [1.0], [2, 4])})
        other = tf.sparse_placeholder(tf.float32, [None, 4])
        _fails(tf.sparse_concat(0, [sp, other]).values,
               "Input shapes must match: expected 4 for dimension 1 but got 5 at position 1",
               {sp: ([[0, 0]], [1.0], [1, 4]), other: ([[0, 0]], [1.0], [1, 5])})
