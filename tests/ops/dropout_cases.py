"""The graphs behind ``data/tf_dropout_golden.npz``, written once for both engines: each case takes the
``tf`` module and the input array ``x`` ([4, 6] float32) and returns ``(fetches, feed)``, fetched twice
in one session (a random op's second run continues its stream)."""

import numpy as np


def x_value():
    return np.random.RandomState(0).uniform(1, 2, size=(4, 6)).astype(np.float32)


def _keep_prob_graph_seed(tf, x):
    tf.set_random_seed(3)
    return [tf.nn.dropout(x, keep_prob=0.7)], None


def _rate_op_seed(tf, x):
    return [tf.nn.dropout(x, rate=0.25, seed=5)], None


def _fed_keep_prob(tf, x):
    tf.set_random_seed(11)
    keep = tf.placeholder(tf.float32)
    images = tf.placeholder(tf.float32, [None, 6])
    return [tf.nn.dropout(images, keep)], {keep: 0.5, images: x[:3]}


def _noise_shape(tf, x):
    return [tf.nn.dropout(x, rate=0.5, noise_shape=[4, 1], seed=7)], None


def _noise_shape_of_tensors(tf, x):
    # A list holding a tensor is packed; random ops infer what they can of the shape it gives.
    xt = tf.placeholder(tf.float32, [None, x.shape[1]])
    rows = tf.shape(xt)[0]
    noise = tf.random_normal([rows, 2], seed=3)
    assert noise.shape.as_list() == [None, 2]
    return [tf.nn.dropout(xt, rate=0.5, noise_shape=[rows, 1], seed=7), noise], {xt: x}


def _float64(tf, x):
    return [tf.nn.dropout(tf.constant(x.astype(np.float64)), rate=0.4, seed=2)], None


def _counter_seeds(tf, x):
    # A graph seed alone: each dropout takes the next op seed; rate 0 returns x but still takes one.
    tf.set_random_seed(1)
    return [tf.nn.dropout(x, rate=0.0), tf.nn.dropout(x, rate=0.5), tf.nn.dropout(x, rate=0.5)], None


def _gradient(tf, x):
    xt = tf.constant(x)
    out = tf.nn.dropout(xt, rate=0.6, seed=9)
    u = tf.constant(np.arange(24, dtype=np.float32).reshape(4, 6))
    return [out, tf.gradients(tf.reduce_sum(out * u), xt)[0]], None


CASES = {
    "keep_prob_graph_seed": _keep_prob_graph_seed, "rate_op_seed": _rate_op_seed, "fed_keep_prob": _fed_keep_prob,
    "noise_shape": _noise_shape, "noise_shape_of_tensors": _noise_shape_of_tensors, "float64": _float64,
    "counter_seeds": _counter_seeds, "gradient": _gradient,
}


def dropout_ops(graph):
    """``[(name, type)]`` of the dropout ops in ``graph`` (constants and the rest left out)."""
    return [(op.name, op.type) for op in graph.get_operations()
            if op.name.startswith("dropout") and op.type != "Const"]
