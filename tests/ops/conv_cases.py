"""The graphs behind ``data/tf_conv_golden.npz``, written once for both engines: each case takes the
``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests) and the
input arrays, and returns ``(output, inputs to differentiate)``.

Every case's output, its gradients (of ``sum(output * weight)`` for a fixed weight), and the names
and types of the ops its forward graph holds are recorded. ``SECOND_ORDER`` cases differentiate
a gradient once more (MaxPoolGradGrad, AvgPool of AvgPoolGrad, the backprops' own gradients).
"""

import numpy as np


def inputs():
    rng = np.random.RandomState(11)

    def rand(*shape):
        return rng.randn(*shape).astype(np.float32)

    return {
        "x": rand(2, 7, 6, 4), "w": rand(3, 2, 4, 5), "w_grouped": rand(3, 3, 2, 6),
        "x1": rand(2, 9, 3), "w1": rand(3, 3, 4),
        "x3": rand(2, 4, 5, 6, 3), "w3": rand(2, 3, 2, 3, 4),
        "dw": rand(3, 3, 4, 2), "pw": rand(1, 1, 8, 5),
        "t": rand(2, 4, 3, 6), "tw": rand(3, 3, 5, 6), "tg": rand(2, 4, 3, 5),
        "t3": rand(1, 3, 2, 4, 3), "tw3": rand(2, 2, 3, 2, 3),
        "t1": rand(2, 5, 3), "tw1": rand(3, 4, 3),
        # integers in a small range: pooling windows with ties, so the tie-breaking is checked
        "ties": rng.randint(-2, 3, size=(2, 6, 7, 3)).astype(np.float32),
        "ties3": rng.randint(-1, 2, size=(1, 4, 5, 4, 2)).astype(np.float32),
    }


def _c(tf, a, *names):
    return [tf.constant(a[n], name=n) for n in names]


def _conv2d(**kw):
    def build(tf, a):
        x, w = _c(tf, a, "x", "w")
        return tf.nn.conv2d(x, w, **kw), [x, w]
    return build


def _pool(fn, key="ties", **kw):
    def build(tf, a):
        (x,) = _c(tf, a, key)
        return getattr(tf.nn, fn)(x, **kw), [x]
    return build


CASES = {
    "conv2d_same": _conv2d(strides=[1, 1, 1, 1], padding="SAME"),
    "conv2d_valid_s23": _conv2d(strides=[1, 2, 3, 1], padding="VALID"),
    "conv2d_same_s2_d12": _conv2d(strides=1, padding="SAME", dilations=[1, 1, 2, 1]),
    "conv2d_explicit": _conv2d(strides=[1, 2, 1, 1], padding=[[0, 0], [2, 1], [0, 3], [0, 0]]),
    "conv2d_nchw": lambda tf, a: (lambda x, w: (tf.transpose(tf.nn.conv2d(
        tf.transpose(x, [0, 3, 1, 2]), w, [1, 1, 2, 2], "SAME", data_format="NCHW"), [0, 2, 3, 1]), [x, w]))(
            *_c(tf, a, "x", "w")),
    "conv2d_grouped": lambda tf, a: (lambda x, w: (tf.nn.conv2d(x, w, 1, "SAME"), [x, w]))(
        *_c(tf, a, "x", "w_grouped")),
    "conv1d_same_s2": lambda tf, a: (lambda x, w: (tf.nn.conv1d(x, w, 2, "SAME"), [x, w]))(*_c(tf, a, "x1", "w1")),
    "conv1d_valid_dilated": lambda tf, a: (lambda x, w: (tf.nn.conv1d(x, w, 1, "VALID", dilations=2), [x, w]))(
        *_c(tf, a, "x1", "w1")),
    "conv3d_same": lambda tf, a: (lambda x, w: (tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"), [x, w]))(
        *_c(tf, a, "x3", "w3")),
    "conv3d_valid_s2": lambda tf, a: (lambda x, w: (tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], "VALID"), [x, w]))(
        *_c(tf, a, "x3", "w3")),
    "conv2d_transpose_same_s2": lambda tf, a: (lambda x, w: (tf.nn.conv2d_transpose(
        x, w, [2, 8, 6, 5], [1, 2, 2, 1], "SAME"), [x, w]))(*_c(tf, a, "t", "tw")),
    "conv2d_transpose_valid_s2": lambda tf, a: (lambda x, w: (tf.nn.conv2d_transpose(
        x, w, [2, 10, 9, 5], [1, 2, 3, 1], "VALID"), [x, w]))(*_c(tf, a, "t", "tw")),
    "conv3d_transpose": lambda tf, a: (lambda x, w: (tf.nn.conv3d_transpose(
        x, w, [1, 6, 3, 8, 2], [1, 2, 2, 2, 1], "SAME"), [x, w]))(*_c(tf, a, "t3", "tw3")),
    "conv1d_transpose": lambda tf, a: (lambda x, w: (tf.nn.conv1d_transpose(
        x, w, [2, 10, 4], 2, "SAME"), [x, w]))(*_c(tf, a, "t1", "tw1")),
    "conv2d_backprop_filter": lambda tf, a: (lambda x, g: (tf.nn.conv2d_backprop_filter(
        x, [3, 3, 6, 5], g, [1, 1, 1, 1], "SAME"), [x, g]))(*_c(tf, a, "t", "tg")),
    "depthwise_s2": lambda tf, a: (lambda x, w: (tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), [x, w]))(
        *_c(tf, a, "x", "dw")),
    "depthwise_rate2": lambda tf, a: (lambda x, w: (tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", rate=[2, 2]),
                                                    [x, w]))(*_c(tf, a, "x", "dw")),
    "depthwise_native_explicit": lambda tf, a: (lambda x, w: (tf.nn.depthwise_conv2d_native(
        x, w, [1, 2, 2, 1], [[0, 0], [1, 0], [2, 1], [0, 0]]), [x, w]))(*_c(tf, a, "x", "dw")),
    "separable": lambda tf, a: (lambda x, d, p: (tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "VALID"),
                                                 [x, d, p]))(*_c(tf, a, "x", "dw", "pw")),
    "separable_rate2": lambda tf, a: (lambda x, d, p: (tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME",
                                                                              rate=[2, 1]), [x, d, p]))(
        *_c(tf, a, "x", "dw", "pw")),
    "atrous_transpose_same": lambda tf, a: (lambda t, w: (
        tf.nn.atrous_conv2d_transpose(t, w, [2, 4, 3, 5], 2, "SAME"), [t, w]))(*_c(tf, a, "t", "tw")),
    "atrous_transpose_valid": lambda tf, a: (lambda t, w: (
        tf.nn.atrous_conv2d_transpose(t, w, [2, 8, 7, 5], 2, "VALID"), [t, w]))(*_c(tf, a, "t", "tw")),
    "space_to_batch_v1": lambda tf, a: (lambda x: (tf.batch_to_space(
        tf.space_to_batch(x, [[1, 0], [1, 1]], 2) * 2.0, [[1, 0], [1, 1]], block_size=2), [x]))(*_c(tf, a, "x")),
    "atrous_same": lambda tf, a: (lambda x, w: (tf.nn.atrous_conv2d(x, w, 2, "SAME"), [x, w]))(*_c(tf, a, "x", "w")),
    "atrous_valid": lambda tf, a: (lambda x, w: (tf.nn.atrous_conv2d(x, w, 2, "VALID"), [x, w]))(
        *_c(tf, a, "x", "w")),
    "convolution_1d": lambda tf, a: (lambda x, w: (tf.nn.convolution(x, w, "SAME", strides=[2]), [x, w]))(
        *_c(tf, a, "x1", "w1")),
    "convolution_dilated": lambda tf, a: (lambda x, w: (tf.nn.convolution(x, w, "VALID", dilation_rate=[1, 2]),
                                                        [x, w]))(*_c(tf, a, "x", "w")),
    "convolution_3d": lambda tf, a: (lambda x, w: (tf.nn.convolution(x, w, "SAME"), [x, w]))(
        *_c(tf, a, "x3", "w3")),
    "max_pool_same": _pool("max_pool", ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME"),
    "max_pool_valid_overlap": _pool("max_pool", ksize=[1, 3, 3, 1], strides=[1, 2, 1, 1], padding="VALID"),
    "max_pool_explicit": _pool("max_pool", ksize=3, strides=2, padding=[[0, 0], [1, 1], [2, 0], [0, 0]]),
    "max_pool_nchw": lambda tf, a: (lambda x: (tf.transpose(tf.nn.max_pool(
        tf.transpose(x, [0, 3, 1, 2]), [1, 1, 3, 2], [1, 1, 2, 2], "SAME", data_format="NCHW"), [0, 2, 3, 1]),
        [x]))(*_c(tf, a, "ties")),
    "max_pool2d": _pool("max_pool2d", ksize=2, strides=1, padding="VALID"),
    "max_pool1d": _pool("max_pool1d", key="x1", ksize=3, strides=2, padding="SAME"),
    "max_pool3d": _pool("max_pool3d", key="ties3", ksize=2, strides=[1, 2, 1, 2, 1], padding="SAME"),
    "max_pool_v2_3d": _pool("max_pool_v2", key="ties3", ksize=[2, 3, 2], strides=1, padding="VALID"),
    "avg_pool_same": _pool("avg_pool", key="x", ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME"),
    "avg_pool_valid": _pool("avg_pool", key="x", ksize=2, strides=[1, 1, 2, 1], padding="VALID"),
    "avg_pool_nchw": lambda tf, a: (lambda x: (tf.transpose(tf.nn.avg_pool(
        tf.transpose(x, [0, 3, 1, 2]), [1, 1, 2, 3], [1, 1, 2, 2], "SAME", data_format="NCHW"), [0, 2, 3, 1]),
        [x]))(*_c(tf, a, "x")),
    "avg_pool1d": _pool("avg_pool1d", key="x1", ksize=2, strides=1, padding="VALID"),
    "avg_pool3d": _pool("avg_pool3d", key="x3", ksize=[1, 2, 3, 2, 1], strides=[1, 1, 2, 2, 1], padding="SAME"),
    "avg_pool_v2_1d": _pool("avg_pool_v2", key="x1", ksize=3, strides=2, padding="SAME"),
    "pool_max_dilated": lambda tf, a: (lambda x: (tf.nn.pool(x, [2, 2], "MAX", "VALID", dilation_rate=[2, 1]),
                                                  [x]))(*_c(tf, a, "ties")),
    "pool_avg_1d": lambda tf, a: (lambda x: (tf.nn.pool(x, [3], "AVG", "SAME", strides=[2]), [x]))(
        *_c(tf, a, "x1")),
    "argmax": lambda tf, a: (lambda x: (tf.nn.max_pool_with_argmax(x, [1, 3, 2, 1], [1, 2, 2, 1], "SAME")[0], [x]))(
        *_c(tf, a, "ties")),
}

# Cases whose argmax output is recorded too (int64 indices), and its include_batch_in_index form.
ARGMAX = {
    "argmax_index": dict(ksize=[1, 3, 2, 1], strides=[1, 2, 2, 1], padding="SAME"),
    "argmax_batch_index": dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID", include_batch_in_index=True),
}

# Second-order gradients: d/dx sum(d/dx sum(f(x) * u) * v), with f the named case.
SECOND_ORDER = ("max_pool_valid_overlap", "max_pool3d", "avg_pool_same", "avg_pool3d", "conv2d_same",
                "conv2d_transpose_same_s2", "depthwise_s2", "conv3d_same")


def weight_like(shape, seed):
    return np.random.RandomState(seed).uniform(0.5, 1.5, size=shape).astype(np.float32)


def gradients(tf, out, xs, shape, second_order=False):
    """The gradients of ``sum(out * u)`` with respect to ``xs``; with ``second_order``, those of
    ``sum(g * v)`` for the first input's gradient ``g`` instead, with respect to ``xs`` and ``u``
    (the gradient ops' own gradients: MaxPoolGradGrad, AvgPool, a conv backprop's)."""
    u = tf.constant(weight_like(shape, 1))
    grads = tf.gradients(tf.reduce_sum(out * u), xs)
    if not second_order:
        return grads
    g = grads[0]
    return tf.gradients(tf.reduce_sum(g * tf.constant(weight_like(g.shape.as_list(), 2))), [*xs, u])


def forward_ops(graph, before):
    """``[(name, type)]`` of the ops added to ``graph`` after the first ``before``, constants left out."""
    return [(op.name, op.type) for op in graph.get_operations()[before:] if op.type != "Const"]
