"""The graphs behind ``data/tf_sparse_more_golden.npz``, written once for both engines: tf.sparse's
from_dense, transpose, softmax (with its gradient), reset_shape, merge, to_indicator, expand_dims, eye and
mask, each case returning the tensors to fetch (a SparseTensor as its three tensors)."""

import numpy as np

_RNG = np.random.RandomState(5)
DENSE = np.array([[0.0, 1.5, 0.0, -2.0], [0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.5, 0.0]], np.float32)
CUBE = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 1, 1], [1, 1, 2]], np.int64)
CUBE_VALUES = _RNG.randn(5).astype(np.float32)


def _parts(st):
    return [st.indices, st.values, st.dense_shape]


def _from_dense_transpose(tf):
    st = tf.sparse.from_dense(DENSE)
    cube = tf.SparseTensor(CUBE, CUBE_VALUES, [2, 2, 3])
    fed = tf.SparseTensor(tf.constant(CUBE), tf.constant(CUBE_VALUES), tf.placeholder_with_default(
        np.array([2, 2, 3], np.int64), [None]))
    return (_parts(st) + _parts(tf.sparse.transpose(st)) + _parts(tf.sparse_transpose(cube, [1, 2, 0]))
            + _parts(tf.sparse.transpose(cube, name="t")) + _parts(tf.sparse.transpose(fed, [2, 0, 1]))
            + _parts(tf.sparse.from_dense(tf.constant([[[0, 3], [-1, 0]]], tf.int64), name="ints")))


def _softmax(tf):
    values = tf.constant(np.array([1.0, 2.0, -1.0, 0.5, 3.0, 3.0, -2.0], np.float64))
    st = tf.SparseTensor([[0, 0], [0, 2], [0, 3], [1, 1], [3, 0], [3, 1], [3, 3]], values, [4, 4])
    out = tf.sparse.softmax(st)
    cube = tf.SparseTensor(CUBE, tf.constant(CUBE_VALUES), [2, 2, 3])
    out3 = tf.sparse_softmax(cube, name="soft")
    weights = np.arange(1.0, 8.0)
    grads = tf.gradients(tf.reduce_sum(out.values * weights), values)
    grads3 = tf.gradients(tf.reduce_sum(out3.values * CUBE_VALUES[::-1]), cube.values)
    return _parts(out) + _parts(out3) + grads + grads3


def _reset_shape(tf):
    st = tf.SparseTensor(CUBE, CUBE_VALUES, [2, 2, 3])
    fed = tf.SparseTensor(tf.constant(CUBE), tf.constant(CUBE_VALUES), tf.placeholder_with_default(
        np.array([2, 2, 3], np.int64), [None]))
    return (_parts(tf.sparse.reset_shape(st)) + _parts(tf.sparse_reset_shape(st, [3, 2, 5]))
            + _parts(tf.sparse.reset_shape(fed, tf.constant([4, 4, 4]))) + _parts(tf.sparse.reset_shape(
                tf.SparseTensor([[0, 1], [2, 0]], [1, 2], [5, 5]))))


def _merge_indicator(tf):
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], tf.constant([4, 0, 2, 3, 1]), [3, 2])
    values = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [0.5, -1.0, 2.0, 3.0, 4.0], [3, 2])
    more = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], tf.constant([1, 0, 1, 1, 0], tf.int64), [3, 2])
    return (_parts(tf.sparse.merge(ids, values, 5)) + _parts(tf.sparse_merge([ids, more], values, [5, 2]))
            + _parts(tf.sparse.merge(ids, values, tf.constant(6, tf.int64), already_sorted=True))
            + [tf.sparse.to_indicator(ids, 5), tf.sparse_to_indicator(more, 3, name="ind")])


def _expand_eye(tf):
    st = tf.SparseTensor(CUBE, CUBE_VALUES, [2, 2, 3])
    return (_parts(tf.sparse.expand_dims(st)) + _parts(tf.sparse.expand_dims(st, 0))
            + _parts(tf.sparse.expand_dims(st, -2, name="mid")) + _parts(tf.sparse.expand_dims(st, tf.constant(1)))
            + _parts(tf.sparse.eye(3)) + _parts(tf.sparse.eye(2, 4, dtype=tf.int32))
            + _parts(tf.sparse.eye(tf.constant(3), tf.constant(2, tf.int64))))


def _mask(tf):
    slices = tf.IndexedSlices(tf.constant(np.arange(12.0).reshape(4, 3)), tf.constant([12, 26, 37, 45]),
                              tf.constant([50, 3]))
    masked = tf.sparse.mask(slices, [12, 45])
    other = tf.sparse_mask(slices, tf.constant([26]), name="m")
    return [masked.values, masked.indices, masked.dense_shape, other.values, other.indices]


def _sparse_matmul(tf):
    a, b = tf.constant(DENSE), tf.constant(_RNG.randn(4, 2).astype(np.float32))
    products = [tf.sparse_matmul(a, b, a_is_sparse=True), tf.sparse_matmul(b, a, True, True, name="tt"),
                tf.sparse_matmul(a, tf.transpose(b), transpose_b=True, b_is_sparse=True)]
    weights = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    return products + tf.gradients(tf.reduce_sum(products[0] * weights) + tf.reduce_sum(products[1]), [a, b])


CASES = {"sparse_matmul": _sparse_matmul, "from_dense_transpose": _from_dense_transpose, "softmax": _softmax,
         "reset_shape": _reset_shape, "merge_indicator": _merge_indicator, "expand_eye": _expand_eye, "mask": _mask}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
