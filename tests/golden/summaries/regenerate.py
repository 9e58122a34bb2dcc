"""Regenerate the summary goldens: the Summary bytes TensorFlow's summary ops give, and files it writes.

Run with a Python that has TensorFlow (2.x, through ``tensorflow.compat.v1`` in graph mode)::

    /opt/tfenv/bin/python tests/golden/summaries/regenerate.py

It rewrites, beside this file:

- ``tf_summaries.json``: for each case of :func:`cases`, the op's name, its output (a serialized
  ``Summary``, base64) and, for images, the pixels TensorFlow decodes from each PNG it wrote;
- ``tf_events/``: an event file of a ``FileWriter`` given a graph, a scalar at step 7 and a
  SessionLog; ``tf_records/``: one TFRecord file per compression, of :data:`RECORDS`.

``tests/summary/test_summary_ops.py`` runs the same cases with numflow (this module imports
TensorFlow only in ``main``).
"""

import base64
import json
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = [b"hello", b"", b"\x00\xff" * 300, "é".encode()]


def _ramp(shape, lo, hi, dtype=np.float32):
    return np.linspace(lo, hi, int(np.prod(shape))).reshape(shape).astype(dtype)


def cases(tf):
    """``{case: (summary tensor, feed)}``: every summary op, on values that reach its corner cases."""
    wide = np.concatenate([_ramp([40], -1e4, 1e4), [0.0, 0.0, 1e-13, -1e-13, 3e19, -7.5, 7.5]]).astype(np.float32)
    halves = np.array([[0.5, -0.5, 1.5 / 32768, -1.5 / 32768, 2.5 / 32768, 1.0, -1.0, 1.2, -1.3, 0.25]], np.float32)
    nan_image = _ramp([1, 2, 3, 4], -1.0, 2.0)
    nan_image[0, 0, 1, 2] = np.nan
    nan_image[0, 1, 0, 0] = np.inf
    with tf.name_scope("scope"):
        made = {
            "scalar_float": tf.summary.scalar("loss", tf.constant(0.1)),
            "scalar_int64": tf.summary.scalar("count", tf.constant(2**40, tf.int64), family="family"),
            "histogram_wide": tf.summary.histogram("wide", tf.constant(wide)),
            "histogram_int": tf.summary.histogram("ints", tf.constant([[1, 2, 0], [-3, 2, 2]], tf.int32)),
            "histogram_float64": tf.summary.histogram("doubles", tf.constant(_ramp([7], -0.3, 5e-9, np.float64))),
            "histogram_empty": tf.summary.histogram("empty", tf.zeros([0, 3])),
            "image_positive": tf.summary.image("positive", tf.constant(_ramp([2, 4, 5, 3], 0.0, 3.7))),
            "image_signed": tf.summary.image("signed", tf.constant(_ramp([1, 3, 4, 1], -2.0, 0.7)), max_outputs=1),
            "image_nonfinite": tf.summary.image("nonfinite", tf.constant(nan_image)),
            "image_uint8": tf.summary.image("bytes", tf.constant(_ramp([3, 2, 3, 4], 0, 255, np.uint8)), 2),
            "image_float16": tf.summary.image("halves", tf.constant(_ramp([1, 3, 3, 3], 0.1, 9.0, np.float16))),
            "image_float64": tf.summary.image("doubles", tf.constant(_ramp([1, 2, 2, 1], -0.4, 0.4, np.float64))),
            "image_zero": tf.summary.image("zero", tf.zeros([1, 2, 2, 1])),
            "audio_stereo": tf.summary.audio("stereo", tf.constant(_ramp([2, 30, 2], -1.2, 1.1)), 8000.0),
            "audio_rounding": tf.summary.audio("rounding", tf.constant(halves), 22050.5, max_outputs=1),
            "tensor_float": tf.summary.tensor_summary("tensor", tf.constant(_ramp([2, 2], -1.0, 1.0))),
            "tensor_scalar_described": tf.summary.tensor_summary(
                "described", tf.constant(2.5), summary_description="a number", display_name="shown"),
            "tensor_int": tf.summary.tensor_summary("ints", tf.constant([1, -2], tf.int64)),
            "text": tf.summary.text("text", tf.constant([["**bold**", "é"]])),
        }
    made["merged"] = tf.summary.merge([made["scalar_float"], made["histogram_int"], made["text"]])
    made["merged_all"] = tf.summary.merge_all(scope="scope/ints")
    return made


def _write_files(tf):
    events = os.path.join(HERE, "tf_events")
    records = os.path.join(HERE, "tf_records")
    for path in (events, records):
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
    with tf.Graph().as_default() as graph:
        with tf.name_scope("layer"):
            value = tf.constant(2.0, name="x") * 3.0
        loss = tf.summary.scalar("loss", value)
        with tf.Session() as sess:
            writer = tf.summary.FileWriter(events, graph)
            writer.add_summary(sess.run(loss), global_step=7)
            writer.add_session_log(tf.SessionLog(status=tf.SessionLog.STOP), global_step=8)
            writer.close()
    for name in ("", "ZLIB", "GZIP"):
        with tf.io.TFRecordWriter(os.path.join(records, (name or "NONE").lower()), name) as w:
            for record in RECORDS:
                w.write(record)


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    golden = {}
    with tf.Graph().as_default():
        made = cases(tf)
        with tf.Session() as sess:
            values = sess.run(made)
            for case, tensor in made.items():
                summary = tf.Summary.FromString(values[case])
                entry = {"op": tensor.op.name, "summary": base64.b64encode(values[case]).decode()}
                images = [v.image.encoded_image_string for v in summary.value if v.HasField("image")]
                if images:
                    entry["pixels"] = [sess.run(tf.image.decode_png(png)).tolist() for png in images]
                golden[case] = entry
    with open(os.path.join(HERE, "tf_summaries.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    _write_files(tf)


if __name__ == "__main__":
    main()
