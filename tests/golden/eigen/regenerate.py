"""Regenerate eigen_float32.npz: TensorFlow's float32 Exp, Log, Tanh, Sigmoid, Elu, Selu, Softplus and Log1p, as bits.

Run with a Python that has TensorFlow (2.x, through ``tensorflow.compat.v1``)::

    /opt/tfenv/bin/python tests/golden/eigen/regenerate.py

For each function, the file holds the bits (uint32) of its values over ``inputs(function)``: seeded
random values over the range where the function changes and past it, then ``SPECIAL``; and over
the last ``n`` of those inputs for each ``n`` of ``TAIL_LENGTHS`` (a tensor's last ``size % 8``
elements take Eigen's scalar path). It also holds the loss and backprop of the sparse and dense
softmax cross-entropy ops, and LogSoftmax, over ``xent_inputs`` of each of ``XENT_SHAPES`` (the dense
op's labels one hot), and SigmoidGrad's values over ``sigmoid_grad_inputs`` of each of ``GRAD_SIZES`` in float32 and
float64, and MatMul's of a matrix by a column over ``matrix_vector_inputs`` of each of
``MATRIX_VECTOR_SHAPES``, and Sum's and Mean's of ``REDUCTIONS``.
``tests/kernels/test_eigen_float32.py`` runs the same inputs through numflow and compares the bits.

This module imports TensorFlow only in ``main``: the tests import ``inputs`` from it.
"""

import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
GOLDEN = HERE / "eigen_float32.npz"
FUNCTIONS = ("exp", "log", "tanh", "sigmoid", "elu", "selu", "softplus", "log1p")
SPECIAL = np.float32([0.0, -0.0, 1e-45, 1e-40, -1e-40, 1.17e-38, 1.2e-38, np.inf, -np.inf, np.nan, 0.5, 1.0, -1.0,
                      2.0, 7.9, -7.95, 8.5, 15.0, 16.6, 17.0, 87.0, -87.0, 88.7, 88.73, 89.0, -87.5, -103.9, -104.0,
                      -104.5, -150.0, 3.4e38, -3.4e38])
TAIL_LENGTHS = range(1, 10)
GRAD_SIZES = (3, 6, 8, 13, 101)  # SigmoidGrad's: packets and a tail of float32 (8) and float64 (4) lanes


def sigmoid_grad_inputs(size, dtype):
    """``(y, dy)`` of the SigmoidGrad goldens of that size and dtype."""
    rng = np.random.default_rng(size)
    return rng.uniform(0, 1, size).astype(dtype), rng.standard_normal(size).astype(dtype)


MATRIX_VECTOR_SHAPES = ((5, 3), (100, 3), (7, 20), (64, 100), (300, 13), (6, 2), (2, 50), (200, 784), (3, 1000),
                        (4, 7), (2, 1), (9, 12), (11, 15), (13, 5))  # rows, columns of a matrix times a column


def matrix_vector_inputs(rows, columns):
    """``(a, x)``: a float32 matrix and column of the MatMul goldens of that shape."""
    rng = np.random.default_rng(rows * 10000 + columns)
    return ((rng.standard_normal((rows, columns)) * 30 + 20).astype(np.float32),
            rng.standard_normal((columns, 1)).astype(np.float32))


# Sum and Mean: (shape, axes or None for all, keep_dims). Rows (reduced axes last), columns (first), all.
REDUCTIONS = (((5,), None, False), ((10,), None, False), ((31,), None, True), ((8192,), None, False),
              ((8193,), None, False), ((20000,), None, False), ((100000,), None, False), ((64, 100), (1,), False),
              ((64, 100), (0,), False), ((15, 9), (0,), True), ((17, 13), (0,), False), ((3, 4, 5), (1, 2), False),
              ((3, 4, 5), (0, 1), False), ((2, 1, 7), (2,), True), ((6, 9000), (-1,), False), ((20000, 3), (0,), False))


def reduction_input(case):
    """The float32 input of Sum and Mean case ``case`` (an index of ``REDUCTIONS``)."""
    shape = REDUCTIONS[case][0]
    return (np.random.default_rng(case).standard_normal(shape) * 3 + 1).astype(np.float32)


XENT_SHAPES = ((32, 10), (7, 13), (64, 100), (5, 3), (16, 40), (3, 1000), (9, 1))  # rows, classes


def xent_inputs(rows, classes):
    """Logits and labels (class ids) of the softmax cross-entropy goldens of that shape."""
    rng = np.random.default_rng(rows * 1000 + classes)
    logits = (rng.standard_normal((rows, classes)) * 3).astype(np.float32)
    return logits, rng.integers(0, classes, rows).astype(np.int32)


def inputs(function):
    """The float32 inputs of ``function``'s golden values (``SPECIAL`` last; 8,000 + 32 + 3 of them)."""
    rng = np.random.default_rng(FUNCTIONS.index(function))
    if function == "log":
        body = [np.abs(rng.standard_normal(4000)) * 10, 10.0 ** rng.uniform(-40, 38, 4003)]
    elif function == "log1p":
        body = [rng.uniform(-1, 3, 4000), 10.0 ** rng.uniform(-40, 38, 4003) * rng.choice([-1e-38, 1], 4003)]
    elif function == "exp":
        body = [rng.standard_normal(4000) * 10, rng.uniform(-110, 95, 4003)]
    else:
        body = [rng.standard_normal(4000) * 3, rng.uniform(-20, 20, 4003)]
    return np.concatenate([*(b.astype(np.float32) for b in body), SPECIAL])


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    x = tf.placeholder(tf.float32, [None])
    ops = {"exp": tf.exp(x), "log": tf.log(x), "tanh": tf.tanh(x), "sigmoid": tf.sigmoid(x), "elu": tf.nn.elu(x),
           "selu": tf.nn.selu(x), "softplus": tf.nn.softplus(x), "log1p": tf.math.log1p(x)}
    golden = {}
    with tf.Session() as sess:
        for function in FUNCTIONS:
            values = inputs(function)
            golden[function] = sess.run(ops[function], {x: values}).view(np.uint32)
            for n in TAIL_LENGTHS:
                golden[f"{function}_last_{n}"] = sess.run(ops[function], {x: values[-n:]}).view(np.uint32)
        for size in GRAD_SIZES:
            for dtype in (np.float32, np.float64):
                y, dy = sigmoid_grad_inputs(size, dtype)
                golden[f"sigmoid_grad_{size}_{np.dtype(dtype).name}"] = sess.run(tf.raw_ops.SigmoidGrad(y=y, dy=dy))
        for rows, columns in MATRIX_VECTOR_SHAPES:
            a, column = matrix_vector_inputs(rows, columns)
            golden[f"matrix_vector_{rows}x{columns}"] = sess.run(tf.matmul(a, column)).view(np.uint32)
        for case, (_, axes, keep_dims) in enumerate(REDUCTIONS):
            x = reduction_input(case)
            golden[f"sum_{case}"] = sess.run(tf.reduce_sum(x, axes, keepdims=keep_dims)).view(np.uint32)
            golden[f"mean_{case}"] = sess.run(tf.reduce_mean(x, axes, keepdims=keep_dims)).view(np.uint32)
        for rows, classes in XENT_SHAPES:
            logits, labels = xent_inputs(rows, classes)
            one_hot = np.eye(classes, dtype=np.float32)[labels]
            for kind, op in (("sparse", tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=logits, labels=labels)),
                             ("dense", tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=logits, labels=one_hot))):
                loss, backprop = sess.run(op)
                golden[f"{kind}_xent_{rows}x{classes}_loss"] = loss.view(np.uint32)
                golden[f"{kind}_xent_{rows}x{classes}_backprop"] = backprop.view(np.uint32)
            golden[f"log_softmax_{rows}x{classes}"] = sess.run(tf.nn.log_softmax(logits)).view(np.uint32)
    np.savez_compressed(GOLDEN, **golden)


if __name__ == "__main__":
    main()
