"""Regenerate tf_ctc_golden.npz: TensorFlow 2.21's tf.nn.ctc_loss (each option), the gradient of a
weighted sum of losses to the logits, tf.nn.ctc_greedy_decoder and tf.nn.ctc_beam_search_decoder,
for the inputs below.

Run with TensorFlow's interpreter: /opt/tfenv/bin/python tests/ops/data/make_tf_ctc_golden.py
"""

import pathlib

import numpy as np

GOLDEN = pathlib.Path(__file__).resolve().parent / "tf_ctc_golden.npz"
LABEL_INDICES = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [1, 3], [2, 0]]
LABEL_VALUES = [1, 2, 2, 0, 3, 3, 4, 2]
SEQUENCE_LENGTH = [12, 9, 5]
WEIGHTS = [1.0, 2.0, 0.5]
# (name, keyword arguments of ctc_loss, sequence lengths)
LOSSES = [
    ("default", {}, SEQUENCE_LENGTH),
    ("collapse_no_merge", {"preprocess_collapse_repeated": True, "ctc_merge_repeated": False}, SEQUENCE_LENGTH),
    ("ignore_longer_batch_major", {"ignore_longer_outputs_than_inputs": True, "time_major": False}, [3, 9, 5]),
]
# (beam_width, top_paths, merge_repeated)
BEAMS = [(4, 2, True), (10, 3, False), (1, 1, True), (100, 4, True)]


def logits():
    return (np.random.RandomState(0).randn(12, 3, 6) * 2).astype(np.float32)


def build(tf, name, kwargs, lengths):
    labels = tf.SparseTensor(LABEL_INDICES, np.array(LABEL_VALUES, np.int32), [3, 4])
    x = tf.constant(logits())
    inputs = x if kwargs.get("time_major", True) else tf.transpose(x, [1, 0, 2])
    loss = tf.nn.ctc_loss(labels, inputs, tf.constant(lengths, tf.int32), **kwargs)
    return x, loss


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    out = {}
    with tf.Session() as sess:
        for name, kwargs, lengths in LOSSES:
            x, loss = build(tf, name, kwargs, lengths)
            grad = tf.gradients(tf.reduce_sum(loss * WEIGHTS), x)[0]
            out[f"{name}/loss"], out[f"{name}/grad"] = sess.run([loss, grad])
        for merge in (True, False):
            (decoded,), log_probability = tf.nn.ctc_greedy_decoder(tf.constant(logits()), SEQUENCE_LENGTH,
                                                                   merge_repeated=merge)
            value, out[f"greedy_{merge}/log_probability"] = sess.run([decoded, log_probability])
            out[f"greedy_{merge}/indices"], out[f"greedy_{merge}/values"] = value.indices, value.values
            out[f"greedy_{merge}/shape"] = value.dense_shape
        for width, paths, merge in BEAMS:
            decoded, log_probability = tf.nn.ctc_beam_search_decoder(
                tf.constant(logits()), SEQUENCE_LENGTH, beam_width=width, top_paths=paths, merge_repeated=merge)
            values, out[f"beam_{width}_{paths}_{merge}/log_probability"] = sess.run([decoded, log_probability])
            for k, value in enumerate(values):
                out[f"beam_{width}_{paths}_{merge}/{k}/indices"] = value.indices
                out[f"beam_{width}_{paths}_{merge}/{k}/values"] = value.values
                out[f"beam_{width}_{paths}_{merge}/{k}/shape"] = value.dense_shape
    np.savez(GOLDEN, **out)


if __name__ == "__main__":
    main()
