"""Regenerate tf_nn_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    python tests/ops/data/make_tf_nn_golden.py   # in an environment with tensorflow installed
"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def main():
    rng = np.random.RandomState(0)
    x = rng.randn(2, 7, 6, 4).astype(np.float32)
    w = rng.randn(3, 4, 4, 6).astype(np.float32)
    w_grouped = rng.randn(3, 2, 2, 6).astype(np.float32)
    labels = rng.rand(3, 5).astype(np.float32)
    labels /= labels.sum(1, keepdims=True)
    logits = (rng.randn(3, 5) * 50).astype(np.float32)
    sparse = np.array([4, 0, 2], np.int32)
    cases = {
        "same_s1": dict(strides=[1, 1, 1, 1], padding="SAME"),
        "valid_s1": dict(strides=[1, 1, 1, 1], padding="VALID"),
        "same_s23": dict(strides=[1, 2, 3, 1], padding="SAME"),
        "valid_s23": dict(strides=[1, 2, 3, 1], padding="VALID"),
        "same_d21": dict(strides=[1, 1, 1, 1], padding="SAME", dilations=[1, 2, 1, 1]),
        "valid_s2_d21": dict(strides=[1, 2, 2, 1], padding="VALID", dilations=[1, 2, 1, 1]),
        "explicit": dict(strides=[1, 1, 2, 1], padding=[[0, 0], [1, 2], [0, 3], [0, 0]]),
    }
    with tf.Graph().as_default():
        fetches = {k: tf.nn.conv2d(x, w, **v) for k, v in cases.items()}
        fetches["grouped_same"] = tf.nn.conv2d(x, w_grouped, strides=[1, 1, 1, 1], padding="SAME")
        nchw = tf.nn.conv2d(tf.transpose(x, [0, 3, 1, 2]), w, strides=[1, 1, 2, 2], padding="SAME",
                            data_format="NCHW")
        fetches["nchw_same_s2"] = tf.transpose(nchw, [0, 2, 3, 1])
        fetches["xent"] = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
        fetches["sparse_xent"] = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=sparse, logits=logits)
        fetches["softmax"] = tf.nn.softmax(logits)
        fetches["log_softmax"] = tf.nn.log_softmax(logits)
        with tf.Session() as sess:
            results = sess.run(fetches)
    arrays = dict(x=x, w=w, w_grouped=w_grouped, labels=labels, logits=logits, sparse_labels=sparse)
    arrays.update({f"out_{k}": v for k, v in results.items()})
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_nn_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
