"""Regenerate tf_nn_more_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py   # any environment with tensorflow

Inputs and TensorFlow 2.21 (compat.v1) outputs of the activations, normalizations, top_k/in_top_k,
lrn and the losses of ``tf.nn`` beyond conv2d and softmax. Grappler is off, so every value is the
kernel's own (TensorFlow's graph rewrites can fold or fuse ops and change the last bit).
"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.core.protobuf import rewriter_config_pb2

tf.disable_v2_behavior()

CONFIG = tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True)))


def activations(rng, arrays, fetches):
    """Each activation and its gradient (for a random upstream gradient), in float32 and float64."""
    base = np.concatenate([np.linspace(-6, 6, 25), [-100.0, -20.0, -1e-3, 0.0, 1e-3, 20.0, 100.0]])
    for dtype in (np.float32, np.float64):
        x = base.astype(dtype)
        dy = rng.uniform(0.5, 1.5, size=x.shape).astype(dtype)
        key = np.dtype(dtype).name
        arrays[f"act_x_{key}"], arrays[f"act_dy_{key}"] = x, dy
        xt = tf.constant(x)
        for name, fn in ACTIVATIONS.items():
            y = fn(xt)
            fetches[f"act_{name}_{key}"] = y
            fetches[f"act_{name}_{key}_grad"] = tf.gradients(y, xt, grad_ys=tf.constant(dy))[0]


ACTIVATIONS = {
    "leaky_relu": lambda x: tf.nn.leaky_relu(x),
    "leaky_relu_03": lambda x: tf.nn.leaky_relu(x, alpha=0.3),
    "elu": tf.nn.elu,
    "selu": tf.nn.selu,
    "softplus": tf.nn.softplus,
    "softsign": tf.nn.softsign,
    "relu6": tf.nn.relu6,
    "swish": tf.nn.swish,
    "log_sigmoid": tf.math.log_sigmoid,
}


def main():
    rng = np.random.RandomState(0)
    arrays, fetches = {}, {}
    with tf.Graph().as_default():
        activations(rng, arrays, fetches)
        with tf.Session(config=CONFIG) as sess:
            results = sess.run(fetches)
    arrays.update({f"out_{k}": v for k, v in results.items()})
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_nn_more_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
