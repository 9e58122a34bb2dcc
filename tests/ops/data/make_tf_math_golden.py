"""Regenerate tf_math_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_math_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/math_cases.py``. For each case ``NAME``: its inputs ``NAME/in<i>``;
each output's value ``NAME/out<j>``; ``NAME/meta``, a JSON list with each output's ``name``, ``dtype``
and static ``shape`` (null for an unknown dimension or rank), and ``shape_unknown_dims``: the static
shape when the inputs' dimensions are unknown (absent when TensorFlow cannot build the case so); and
the gradient of ``sum(output * weights)`` for each float input (``NAME/grad<i>``,
absent when TensorFlow gives None; ``NAME/no_gradient`` when TensorFlow raises LookupError).
"""

import json
import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from math_cases import CASES, outputs, weighted_loss  # noqa: E402

tf.disable_v2_behavior()


def static_shape(t):
    return None if t.shape.ndims is None else t.shape.as_list()


def record(name, arrays):
    inputs = CASES[name][1]
    with tf.Graph().as_default():
        tensors = [tf.constant(x) for x in inputs]
        outs = outputs(tf, name, tensors)
        with tf.Session() as sess:
            values = sess.run(outs)
        loss = weighted_loss(tf, outs, values)
        floats = [i for i, x in enumerate(inputs) if np.asarray(x).dtype.kind == "f"]
        try:
            grads = tf.gradients(loss, [tensors[i] for i in floats]) if loss is not None and floats else []
        except LookupError:  # an op without a gradient
            grads = []
            arrays[f"{name}/no_gradient"] = np.array(True)
        with tf.Session() as sess:
            grad_values = sess.run([tf.convert_to_tensor(g) for g in grads if g is not None])
    for i, x in enumerate(inputs):
        arrays[f"{name}/in{i}"] = np.asarray(x)
    meta = []
    for j, (o, v) in enumerate(zip(outs, values)):
        arrays[f"{name}/out{j}"] = np.asarray(v)
        meta.append({"name": o.name, "dtype": o.dtype.name, "shape": static_shape(o)})
    it = iter(grad_values)
    for i, g in zip(floats, grads):
        if g is not None:
            arrays[f"{name}/grad{i}"] = next(it)
    with tf.Graph().as_default():
        try:
            unknown = [tf.placeholder_with_default(x, [None] * np.ndim(x)) for x in inputs]
            for j, o in enumerate(outputs(tf, name, unknown)):
                meta[j]["shape_unknown_dims"] = static_shape(o)
        except (ValueError, TypeError):
            pass
    arrays[f"{name}/meta"] = np.array(json.dumps(meta))


def main():
    arrays = {}
    for name in CASES:
        record(name, arrays)
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_math_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
