"""Regenerate tf_random.npz: TensorFlow's random op outputs that numflow's kernels must reproduce.

Run with a Python that has TensorFlow (2.x; the raw ops are the ones TF 1.x graphs run)::

    /opt/tfenv/bin/python tests/golden/random/regenerate.py

It rewrites ``tf_random.npz`` beside this file; ``tests/kernels/test_golden_random.py`` replays
every case through ``numflow_kernels.cpu.init`` (and the CUDA kernels, when a device or the
simulator is there) and compares bits. Each case ``NAME`` stores ``NAME`` (TensorFlow's values)
and ``NAME.case``, the text ``repr((op, seed, seed2, a, b, run))`` where ``a, b`` are
``minval, maxval`` or ``mean, stddev``, and ``run`` counts earlier runs of the same stateful op
in one session (TensorFlow advances its Philox counter by ``256 * size`` per run).

Outputs are computed as ``tf.random.*`` builds them: the raw op, then ``* (maxval - minval) +
minval`` or ``* stddev + mean`` as separate ops in the output dtype. Sizes are odd so that the
partial last group is covered. The script must run on a Linux x86-64 machine whose glibc is 2.28
or newer (TensorFlow's float32 Box-Muller calls glibc's logf and sincosf).
"""

import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = [(1, 2), (87654321, 0), (2**40 + 5, 2**33 + 7), (-3, 12)]
FLOATS = ["float16", "float32", "float64"]


def cases():
    """``(name, op, dtype, size, seed, seed2, a, b, run)`` for every stored case."""
    out = []
    for dtype in FLOATS:
        for k, (seed, seed2) in enumerate(SEEDS):
            size = 257 + 2 * k
            out.append((f"uniform_{dtype}_{k}", "uniform", dtype, size, seed, seed2, 0.0, 1.0, 0))
            out.append((f"normal_{dtype}_{k}", "normal", dtype, size, seed, seed2, 0.0, 1.0, 0))
            out.append((f"truncated_{dtype}_{k}", "truncated", dtype, size, seed, seed2, 0.0, 1.0, 0))
        out.append((f"uniform_{dtype}_scaled", "uniform", dtype, 255, 7, 9, -0.3, 2.5, 0))
        out.append((f"normal_{dtype}_scaled", "normal", dtype, 255, 7, 9, 0.5, 0.02, 0))
        out.append((f"truncated_{dtype}_scaled", "truncated", dtype, 255, 7, 9, -1.5, 3.0, 0))
        out.append((f"normal_{dtype}_run2", "normal", dtype, 37, 5, 6, 0.0, 1.0, 2))
        out.append((f"truncated_{dtype}_run1", "truncated", dtype, 37, 5, 6, 0.0, 1.0, 1))
    for dtype in ("int32", "int64"):
        out.append((f"int_{dtype}_small", "int", dtype, 257, 1, 2, -5, 10, 0))
        out.append((f"int_{dtype}_wide", "int", dtype, 257, 3, 4, -(2**30), 2**30 + 12345, 0))
        out.append((f"int_{dtype}_run1", "int", dtype, 37, 3, 4, 0, 1000, 1))
    out.append(("int_int64_huge", "int", "int64", 129, 8, 9, -(2**62), 2**62 + 99, 0))
    return out


def _run(tf, op, dtype, size, seed, seed2, a, b, run):
    """TensorFlow's values: build the op once in a graph and run it ``run + 1`` times."""
    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        dt = tf.as_dtype(dtype)
        if op == "int":
            value = tf.raw_ops.RandomUniformInt(shape=[size], minval=tf.constant(a, dt), maxval=tf.constant(b, dt),
                                                seed=seed, seed2=seed2)
        else:
            raw = {"uniform": tf.raw_ops.RandomUniform, "normal": tf.raw_ops.RandomStandardNormal,
                   "truncated": tf.raw_ops.TruncatedNormal}[op](shape=[size], dtype=dt, seed=seed, seed2=seed2)
            if op == "uniform":
                value = raw * (tf.constant(b, dt) - tf.constant(a, dt)) + tf.constant(a, dt)
            else:
                value = raw * tf.constant(b, dt) + tf.constant(a, dt)
        with tf1.Session() as session:
            for _ in range(run):
                session.run(value)
            return session.run(value)


def main():
    import tensorflow as tf

    arrays = {}
    for name, op, dtype, size, seed, seed2, a, b, run in cases():
        arrays[name] = _run(tf, op, dtype, size, seed, seed2, a, b, run)
        arrays[name + ".case"] = np.array(repr((op, seed, seed2, a, b, run)))
    path = os.path.join(HERE, "tf_random.npz")
    np.savez_compressed(path, **arrays)
    print(f"wrote {len(arrays) // 2} cases to {path} with TensorFlow {tf.__version__}")


if __name__ == "__main__":
    main()
