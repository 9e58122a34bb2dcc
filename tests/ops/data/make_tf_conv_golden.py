"""Regenerate tf_conv_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_conv_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/conv_cases.py``. Keys: the inputs; ``out/<case>`` and
``grad/<case>/<i>`` (of ``sum(out * weight)`` with respect to the case's i-th input);
``grad2/<case>/<i>`` (second order, ``SECOND_ORDER``, for the inputs it reaches); ``argmax/<case>`` (MaxPoolWithArgmax's
indices and the gradient through them); ``ops/<case>`` (the forward graph's op names and types, as
"name type" lines).
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from conv_cases import ARGMAX, CASES, SECOND_ORDER, forward_ops, gradients, inputs  # noqa: E402

tf.disable_v2_behavior()


def main():
    a = inputs()
    arrays = dict(a)
    for name, build in CASES.items():
        with tf.Graph().as_default() as graph:
            out, xs = build(tf, a)
            ops = forward_ops(graph, 0)
            fetches = {"out": out, "grads": gradients(tf, out, xs, out.shape.as_list())}
            if name in SECOND_ORDER:
                second = gradients(tf, out, xs, out.shape.as_list(), second_order=True)
                fetches["grads2"] = {i: g for i, g in enumerate(second) if g is not None}
            with tf.Session() as sess:
                got = sess.run(fetches)
        arrays[f"out/{name}"] = got["out"]
        arrays[f"ops/{name}"] = np.array([f"{n} {t}" for n, t in ops])
        for i, g in enumerate(got["grads"]):
            arrays[f"grad/{name}/{i}"] = g
        for i, g in got.get("grads2", {}).items():
            arrays[f"grad2/{name}/{i}"] = g
    for name, kw in ARGMAX.items():
        with tf.Graph().as_default():
            x = tf.constant(a["ties"])
            out, argmax = tf.nn.max_pool_with_argmax(x, **kw)
            (grad,) = gradients(tf, out, [x], out.shape.as_list())
            with tf.Session() as sess:
                arrays[f"argmax/{name}"], arrays[f"argmax/{name}/grad"] = sess.run([argmax, grad])
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_conv_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
