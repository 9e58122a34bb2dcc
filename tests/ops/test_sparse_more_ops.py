"""tf.sparse's from_dense, transpose, softmax, reset_shape, merge, to_indicator, expand_dims, eye, mask and
tf.sparse_matmul
against TensorFlow's values, gradients and names (``data/tf_sparse_more_golden.npz``, made by
``data/make_tf_case_goldens.py sparse_more_cases``), their static shapes and errors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case
from sparse_more_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_sparse_more_golden.npz")
# Gradients are named by each engine's graph: only the forward tensors' names are compared.
NAMED = {"softmax": 6, "sparse_matmul": 3}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case(tf, run_case, GOLDEN, name, rtol=1e-6, atol=1e-7, named=NAMED.get(name))


def test_softmax_gradient_by_finite_differences():
    rng = np.random.RandomState(2)
    start = rng.randn(6)
    with tf.Graph().as_default(), tf.Session().as_default():
        values = tf.constant(start)
        out = tf.sparse.softmax(tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 1], [2, 0], [2, 2]], values, [3, 3]))
        assert tf.test.compute_gradient_error(values, [6], out.values, [6], x_init_value=start) < 1e-7


def test_from_dense_keeps_the_nonempty_strings():
    with tf.Graph().as_default():
        st = tf.sparse.from_dense(tf.constant([[b"", b"a"], [b"b", b""]]))
        indices, values = tf.Session().run([st.indices, st.values])
    assert indices.tolist() == [[0, 1], [1, 0]] and values.tolist() == [b"a", b"b"]


def test_static_shapes():
    with tf.Graph().as_default():
        st = tf.SparseTensor([[0, 1, 2]], [1.0], [2, 3, 4])
        assert tf.sparse.transpose(st).shape.as_list() == [4, 3, 2]
        assert tf.sparse.transpose(st, [1, 0, 2]).shape.as_list() == [3, 2, 4]
        assert tf.sparse.softmax(st).shape.as_list() == [2, 3, 4]
        assert tf.sparse.reset_shape(st, [3, 3, 4]).shape.as_list() == [3, 3, 4]
        assert tf.sparse.eye(3).shape.as_list() == [3, 3]
        assert tf.sparse.to_indicator(tf.SparseTensor([[0, 1]], [2], [2, 3]), 5).shape.as_list() == [2, 5]


def test_errors():
    with tf.Graph().as_default():
        st = tf.SparseTensor([[0, 1]], [1.0], [2, 3])
        with pytest.raises(ValueError, match="Requested new_shape should have dimension sizes >= sp_input.shape"):
            tf.sparse.reset_shape(st, [1, 3])
        with pytest.raises(TypeError, match="vocab_size has to be a Tensor or Python int"):
            tf.sparse.merge(st, st, 2.5)
        with pytest.raises(ValueError, match="sp_ids and vocab_size have to have equal lengths"):
            tf.sparse.merge([st, st], st, [3])
        with pytest.raises(TypeError, match="axis must be an integer value"):
            tf.sparse.expand_dims(st, 1.5)
        with pytest.raises(TypeError, match="num_rows must be an integer value"):
            tf.sparse.eye(2.0)
        vector = tf.sparse.softmax(tf.SparseTensor([[0]], [1.0], [3]))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Input should have rank >= 2, but received shape: \[3\]"):
            tf.Session().run(vector.values)
