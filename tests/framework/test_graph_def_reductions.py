"""reduce_euclidean_norm in a GraphDef: written with its axes as an input, as TensorFlow's EuclideanNorm
takes them, and read back to the same values."""

import numpy as np

import numflow as tf


def test_euclidean_norm_round_trips_through_a_graph_def():
    x = np.arange(6.0).reshape(2, 3)
    with tf.Graph().as_default() as g:
        tf.math.reduce_euclidean_norm(tf.constant(x, name="x"), 1, keepdims=True, name="norm")
        graph_def = g.as_graph_def()
    node = next(n for n in graph_def.node if n.name == "norm")
    assert (node.op, list(node.input), node.attr["keep_dims"].b) == ("EuclideanNorm", ["x", "norm/reduction_indices"],
                                                                     True)
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run("norm:0"), np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-12)
