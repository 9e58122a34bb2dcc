"""The graphs behind ``data/tf_sparse_math_golden.npz``, written once for both engines: sparse_tensor_dense_matmul
(every adjoint, with gradients), sparse_add, sparse_reorder, sparse_reshape, the sparse reductions, sparse_retain,
sparse_fill_empty_rows, sparse_concat, sparse_maximum/minimum, sparse_slice and sparse_split, each case returning
the tensors to fetch (a SparseTensor as its three tensors) and their names."""

import numpy as np

_RNG = np.random.RandomState(11)
# A 4x3 sparse matrix with its indices out of order, and one with a repeated row: TF's products accept both.
INDICES = np.array([[2, 1], [0, 0], [3, 2], [0, 2], [2, 0]], np.int64)
VALUES = _RNG.randn(5).astype(np.float32)
DENSE = _RNG.randn(3, 2).astype(np.float32)
WEIGHTS = _RNG.randn(4, 2).astype(np.float32)
CUBE = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 1, 1], [1, 1, 2]], np.int64)
CUBE_VALUES = np.array([3.0, -1.0, 4.0, -2.0, 5.0], np.float32)


def _parts(st):
    return [st.indices, st.values, st.dense_shape]


def _matmul(tf, adjoint_a, adjoint_b):
    values = tf.constant(VALUES)
    a = tf.SparseTensor(INDICES, values, [4, 3])
    b = WEIGHTS if adjoint_a else DENSE
    b = tf.constant(b.T if adjoint_b else b)
    product = tf.sparse_tensor_dense_matmul(a, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    weights = np.arange(1, product.shape.num_elements() + 1, dtype=np.float32).reshape(product.shape.as_list())
    grads = tf.gradients(tf.reduce_sum(product * weights), [values, b])
    return [product] + grads


def _sparse_times_dense_on_the_left(tf):
    a = tf.SparseTensor(INDICES, VALUES, [4, 3])
    return [tf.sparse_tensor_dense_matmul(DENSE.T, a, adjoint_b=True),
            tf.sparse_tensor_dense_matmul(WEIGHTS.T, a)]


def _add(tf):
    a = tf.SparseTensor([[0, 1], [1, 0], [2, 2]], tf.constant([1.0, 2.0, 3.0]), [3, 3])
    b = tf.SparseTensor([[0, 0], [1, 0], [2, 2]], tf.constant([4.0, -1.9, -3.0]), [3, 3])
    summed = tf.sparse_add(a, b)
    thresholded = tf.sparse_add(a, b, threshold=0.5)
    grads = tf.gradients(tf.reduce_sum(thresholded.values * thresholded.values), [a.values, b.values])
    dense = tf.sparse_add(tf.ones([3, 3]), a)
    dense_grads = tf.gradients(tf.reduce_sum(dense * np.arange(9, dtype=np.float32).reshape(3, 3)), [a.values])
    return _parts(summed) + _parts(thresholded) + grads + [dense] + dense_grads + _parts(tf.sparse.add(a, a))


def _reorder_reshape(tf):
    values = tf.constant(VALUES)
    st = tf.SparseTensor(INDICES, values, [4, 3])
    reordered = tf.sparse_reorder(st)
    grad = tf.gradients(tf.reduce_sum(reordered.values * np.arange(1, 6, dtype=np.float32)), values)
    return (_parts(reordered) + grad + _parts(tf.sparse_reshape(reordered, [2, -1]))
            + _parts(tf.sparse_reshape(tf.sparse_reorder(tf.SparseTensor(CUBE, CUBE_VALUES, [2, 2, 3])), [3, 4])))


def _reductions(tf):
    values = tf.constant(CUBE_VALUES)
    st = tf.SparseTensor(CUBE, values, [2, 2, 3])
    sums = [tf.sparse_reduce_sum(st), tf.sparse_reduce_sum(st, 1), tf.sparse_reduce_sum(st, [0, 2], keepdims=True),
            tf.sparse_reduce_sum(st, -1)]
    grad = tf.gradients(tf.reduce_sum(sums[2] * [[[2.0], [3.0]]]), values)
    maxes = [tf.sparse.reduce_max(st, 2), tf.sparse.reduce_max(st), tf.sparse_reduce_max(st, [0, 1], keepdims=True)]
    return (sums + grad + maxes + _parts(tf.sparse_reduce_sum_sparse(st, 2))
            + _parts(tf.sparse_reduce_sum_sparse(st, 1, keepdims=True)) + _parts(tf.sparse.reduce_max_sparse(st, 0)))


def _retain_fill(tf):
    values = tf.constant([1.0, 2.0, 3.0, 4.0])
    st = tf.SparseTensor([[0, 1], [3, 0], [3, 2], [1, 1]], values, [5, 3])
    retained = tf.sparse_retain(st, [True, False, True, True])
    filled, empty = tf.sparse_fill_empty_rows(st, -1.0)
    grads = tf.gradients(tf.reduce_sum(filled.values * np.arange(1, 7, dtype=np.float32)), values)
    default = tf.constant(5.0, name="default")
    default_grad = tf.gradients(tf.reduce_sum(tf.sparse_fill_empty_rows(st, default)[0].values
                                              * np.arange(1, 7, dtype=np.float32)), default)
    return _parts(retained) + _parts(filled) + [empty] + grads + default_grad


def _concat_max_min(tf):
    a = tf.SparseTensor([[0, 2], [1, 0], [1, 1]], [1.0, -2.0, 3.0], [2, 3])
    b = tf.SparseTensor([[0, 1], [0, 2]], [4.0, 5.0], [2, 4])
    c = tf.SparseTensor([[1, 0], [1, 1]], [-7.0, 8.0], [3, 2])
    same = tf.SparseTensor([[0, 1], [1, 0], [1, 2]], [-1.0, -3.0, 6.0], [2, 3])
    return (_parts(tf.sparse_concat(1, [a, b])) + _parts(tf.sparse_concat(0, [a, same], name="rows"))
            + _parts(tf.sparse_concat(1, [a, c], expand_nonconcat_dim=True))
            + _parts(tf.sparse_maximum(a, same)) + _parts(tf.sparse_minimum(a, same)))


def _slice_split(tf):
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    st = tf.SparseTensor([[0, 0], [0, 4], [1, 2], [1, 6], [2, 5]], values, [3, 7])
    piece = tf.sparse_slice(st, [0, 2], [2, 9])
    grad = tf.gradients(tf.reduce_sum(piece.values * [10.0, 20.0, 30.0]), values)
    pieces = tf.sparse_split(sp_input=st, num_split=3, axis=1)
    rows = tf.sparse.split(sp_input=st, num_split=2, axis=0, name="by_row")
    return _parts(piece) + grad + [t for p in pieces + rows for t in _parts(p)]


CASES = {
    "matmul": lambda tf: _matmul(tf, False, False),
    "matmul_adjoint_a": lambda tf: _matmul(tf, True, False),
    "matmul_adjoint_b": lambda tf: _matmul(tf, False, True),
    "matmul_adjoint_ab": lambda tf: _matmul(tf, True, True),
    "matmul_sparse_right": _sparse_times_dense_on_the_left,
    "add": _add,
    "reorder_reshape": _reorder_reshape,
    "reductions": _reductions,
    "retain_fill": _retain_fill,
    "concat_max_min": _concat_max_min,
    "slice_split": _slice_split,
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
