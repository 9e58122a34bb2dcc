"""The graphs behind ``data/tf_sets_golden.npz``, written once for both engines: each case builds ``tf.sets``
ops from the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests) and
returns their tensors; a sparse result is fetched as its indices, values and dense shape."""

import numpy as np

A = np.array([[1, 2, 2, 3], [4, 5, 6, 6]], np.int32)
B = np.array([[3, 1, 7, 7], [6, 6, 6, 6]], np.int32)
CUBE_A = np.array([[[1, 2], [3, 4]], [[5, 5], [0, 1]]], np.int64)
CUBE_B = np.array([[[2, 2], [9, 9]], [[5, 0], [1, 1]]], np.int64)


def _sparse(tf):
    return (tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 3]], [5, 1, 3, 3], [3, 4]),
            tf.SparseTensor([[0, 0], [1, 1], [2, 1], [2, 2]], [1, 3, 9, 3], [3, 5]))


CASES = {
    "dense_dense": lambda tf: [tf.sets.set_intersection(A, B), tf.sets.set_union(A, B), tf.sets.set_difference(A, B),
                               tf.sets.difference(A, B, aminusb=False)],
    "dense_dense_rank3": lambda tf: [tf.sets.intersection(CUBE_A, CUBE_B), tf.sets.union(CUBE_A, CUBE_B)],
    "strings": lambda tf: [tf.sets.set_union([["a", "c"], ["b", "b"]], [["c", "d"], ["a", "a"]])],
    "sparse_sparse": lambda tf: [f(*_sparse(tf)) for f in (tf.sets.set_intersection, tf.sets.set_union,
                                                            tf.sets.set_difference)],
    "dense_sparse": lambda tf: [tf.sets.set_union(A[:1], tf.SparseTensor([[0, 0], [0, 3]], [9, 1], [1, 4])),
                                tf.sets.set_difference(tf.SparseTensor([[0, 0], [0, 3]], [9, 1], [1, 4]), A[:1]),
                                tf.sets.set_intersection(A, tf.SparseTensor(
                                    [[0, 0], [1, 2]], [3, 6], [2, 3]))],
    "empty": lambda tf: [tf.sets.set_intersection(A, A + 100)],
    "size": lambda tf: [tf.sets.set_size(_sparse(tf)[0]), tf.sets.size(tf.SparseTensor(
        [[0, 0, 0], [0, 0, 1], [1, 1, 0]], [4, 4, 2], [2, 2, 2]))],
}


def run_case(tf, name):
    """The values of case ``name``'s tensors (sparse results as indices, values, dense shape; strings as
    bytes) in one session run, and their names."""
    with tf.Graph().as_default():
        outs = []
        for result in CASES[name](tf):
            outs += [result.indices, result.values, result.dense_shape] if hasattr(result, "indices") else [result]
        with tf.Session() as sess:
            values = sess.run(outs)
        return [v.astype(bytes) if v.dtype == object else v for v in values], [t.name for t in outs]
