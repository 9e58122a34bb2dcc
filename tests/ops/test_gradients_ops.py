"""Every differentiable op's gradient against central finite differences, in float64."""

import re

import numpy as np
import pytest
from test_gradients import check_gradient

import numflow as tf

# -- elementwise binary ops, with broadcasting ---------------------------------------------------------
BROADCAST_SHAPES = [((3, 4), (3, 4)), ((2, 3, 4), (4,)), ((3, 1), (1, 4)), ((), (2, 3)), ((2, 1, 3), (4, 1))]
BINARY = {
    "add": (tf.add, {}),
    "subtract": (tf.subtract, {}),
    "multiply": (tf.multiply, {}),
    "realdiv": (tf.realdiv, {"low": 0.5, "high": 2.0}),
    "div_no_nan": (tf.div_no_nan, {"low": 0.5, "high": 2.0}),
    "pow": (tf.pow, {"low": 0.5, "high": 2.0}),
    "maximum": (tf.maximum, {}),
    "minimum": (tf.minimum, {}),
    "squared_difference": (tf.squared_difference, {}),
}


@pytest.mark.parametrize("shapes", BROADCAST_SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name, shapes):
    fn, kwargs = BINARY[name]
    check_gradient(fn, list(shapes), **kwargs)


def test_operators_and_python_scalars():
    check_gradient(lambda x, y: (x - 2.0) * y / (y + 3.0) + x ** 2, [(2, 3), (3,)], low=0.5)


# -- elementwise unary ops --------------------------------------------------------------------------
UNARY = {
    "negative": (tf.negative, {}),
    "abs": (tf.abs, {}),
    "square": (tf.square, {}),
    "sqrt": (tf.sqrt, {"low": 0.5}),
    "rsqrt": (tf.rsqrt, {"low": 0.5}),
    "exp": (tf.exp, {}),
    "log": (tf.log, {"low": 0.5}),
    "log1p": (tf.log1p, {"low": -0.5}),
    "reciprocal": (tf.reciprocal, {"low": 0.5}),
    "tanh": (tf.tanh, {}),
    "sigmoid": (tf.sigmoid, {}),
    "sin": (tf.sin, {}),
    "cos": (tf.cos, {}),
    "relu": (tf.nn.relu, {}),
    "relu6": (tf.nn.relu6, {"low": -3.0, "high": 9.0}),
    "identity": (tf.identity, {}),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    fn, kwargs = UNARY[name]
    check_gradient(fn, [(3, 4)], **kwargs)


@pytest.mark.parametrize("fn", [tf.sign, tf.floor, tf.ceil, tf.round], ids=lambda f: f.__name__)
def test_step_functions_have_zero_or_no_gradient(fn):
    x = tf.constant([0.3, -1.7])
    (g,) = tf.gradients(tf.reduce_sum(fn(x) + x), [x])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g), [1.0, 1.0])


# -- matrix products --------------------------------------------------------------------------------
@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_matmul(ta, tb):
    a = (4, 3) if ta else (3, 4)
    b = (5, 4) if tb else (4, 5)
    check_gradient(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), [a, b])


@pytest.mark.parametrize("shapes", [((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((1, 3, 4), (2, 4, 2))], ids=str)
def test_batch_matmul(shapes):
    check_gradient(tf.matmul, list(shapes))
    check_gradient(lambda x, y: tf.matmul(x, y, transpose_a=True, transpose_b=True),
                   [shapes[0][:-2] + shapes[0][-2:][::-1], shapes[1][:-2] + shapes[1][-2:][::-1]])


# -- reductions --------------------------------------------------------------------------------------
REDUCTIONS = {"sum": tf.reduce_sum, "mean": tf.reduce_mean, "max": tf.reduce_max, "min": tf.reduce_min}


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)], ids=str)
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions(name, axis, keepdims):
    fn = REDUCTIONS[name]
    check_gradient(lambda x: fn(x, axis=axis, keepdims=keepdims), [(2, 3, 4)])


def test_max_splits_the_gradient_between_ties():
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]])
    (g,) = tf.gradients(tf.reduce_max(x, axis=1), [x])
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g), [[0, 0.5, 0.5], [1, 0, 0]])


def test_mean_with_an_unknown_batch():
    x = tf.placeholder(tf.float64, [None, 3])
    (g,) = tf.gradients(tf.reduce_mean(tf.reduce_sum(x, axis=1)), [x])
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g, {x: np.ones((4, 3))}), np.full((4, 3), 0.25))


# -- array ops ---------------------------------------------------------------------------------------
ARRAY = {
    "reshape": (lambda x: tf.reshape(x, [4, 6]), [(2, 3, 4)]),
    "reshape_inferred": (lambda x: tf.reshape(x, [-1]), [(2, 3, 4)]),
    "transpose": (lambda x: tf.transpose(x, [2, 0, 1]), [(2, 3, 4)]),
    "transpose_default": (tf.transpose, [(2, 3, 4)]),
    "concat_0": (lambda x, y: tf.concat([x, y, x], 0), [(2, 3), (4, 3)]),
    "concat_1": (lambda x, y: tf.concat([x, y], 1), [(2, 3), (2, 1)]),
    "concat_last": (lambda x, y: tf.concat([y, x], -1), [(2, 2, 3), (2, 2, 2)]),
    "stack_0": (lambda x, y: tf.stack([x, y]), [(2, 3), (2, 3)]),
    "stack_1": (lambda x, y: tf.stack([x, y, x], axis=1), [(2, 3), (2, 3)]),
    "unstack": (lambda x: tf.unstack(x, axis=1)[::2], [(2, 3, 2)]),
    "expand_dims": (lambda x: tf.expand_dims(x, 1), [(2, 3)]),
    "squeeze": (lambda x: tf.squeeze(x, [1]), [(2, 1, 3)]),
    "slice_basic": (lambda x: x[1:, :2], [(3, 4)]),
    "slice_strided": (lambda x: x[::-2, 1], [(5, 4)]),
    "slice_ellipsis_newaxis": (lambda x: x[..., tf.newaxis, 1:3], [(2, 3, 4)]),
    "slice_index": (lambda x: x[1], [(3, 4)]),
    "fill": (lambda x: tf.fill([2, 3], tf.reduce_sum(x)), [(2,)]),
    "add_n": (lambda x, y: tf.add_n([x, y, x]), [(2, 3), (2, 3)]),
    "stop_gradient_partial": (lambda x: x * tf.stop_gradient(x), [(3,)]),
}


@pytest.mark.parametrize("name", sorted(ARRAY))
def test_array_ops(name):
    fn, shapes = ARRAY[name]
    if name == "stop_gradient_partial":
        x = np.array([1.0, -2.0, 0.5])
        (g,) = check_gradient_values(fn, shapes, [x])
        np.testing.assert_allclose(g, x)
        return
    check_gradient(fn, shapes)


def check_gradient_values(fn, shapes, values):
    """Symbolic gradients only (for functions finite differences do not describe: stop_gradient)."""
    with tf.Graph().as_default():
        xs = [tf.placeholder(tf.float64, s) for s in shapes]
        grads = tf.gradients(tf.reduce_sum(fn(*xs)), xs)
        with tf.Session() as sess:
            return sess.run(grads, dict(zip(xs, values)))


def test_concat_with_an_unknown_size_along_the_axis():
    x = tf.placeholder(tf.float64, [None, 2])
    y = tf.placeholder(tf.float64, [3, 2])
    gx, gy = tf.gradients(tf.reduce_sum(tf.concat([x, y], 0) * np.arange(1.0, 3.0)), [x, y])
    with tf.Session() as sess:
        out = sess.run([gx, gy], {x: np.zeros((2, 2)), y: np.zeros((3, 2))})
    np.testing.assert_allclose(out[0], [[1, 2]] * 2)
    np.testing.assert_allclose(out[1], [[1, 2]] * 3)


def test_cast_gradient_is_cast_back():
    x = tf.constant([1.5, 2.5], dtype=tf.float64)
    y = tf.cast(x, tf.float32) * 2.0
    (g,) = tf.gradients(tf.reduce_sum(y), [x])
    assert g.dtype == tf.float64
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g), [2.0, 2.0])


# -- neural-network ops -------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax, lambda x: tf.nn.softmax(x, axis=0)],
                         ids=["softmax", "log_softmax", "softmax_axis0"])
def test_softmax(fn):
    check_gradient(fn, [(3, 5)])


def test_l2_loss():
    check_gradient(tf.nn.l2_loss, [(3, 4)])


@pytest.mark.parametrize("data_format,shape", [("NHWC", (2, 3, 4)), ("NCHW", (2, 4, 3, 2)), (None, (5, 4))])
def test_bias_add(data_format, shape):
    check_gradient(lambda x, b: tf.nn.bias_add(x, b, data_format=data_format), [shape, (4,)])


CONV_CASES = {
    "same": dict(x=(2, 5, 5, 3), w=(3, 3, 3, 4), strides=[1, 1, 1, 1], padding="SAME"),
    "valid_stride2": dict(x=(1, 7, 6, 2), w=(3, 2, 2, 3), strides=[1, 2, 2, 1], padding="VALID"),
    "same_stride2": dict(x=(1, 6, 5, 2), w=(2, 3, 2, 2), strides=[1, 2, 2, 1], padding="SAME"),
    "dilated": dict(x=(1, 7, 7, 2), w=(2, 2, 2, 2), strides=1, padding="VALID", dilations=2),
    "explicit": dict(x=(1, 4, 4, 2), w=(3, 3, 2, 2), strides=1, padding=[[0, 0], [1, 2], [0, 1], [0, 0]]),
    "nchw": dict(x=(2, 3, 5, 4), w=(3, 3, 3, 2), strides=[1, 1, 2, 1], padding="SAME", data_format="NCHW"),
    "grouped": dict(x=(1, 4, 4, 4), w=(3, 3, 2, 4), strides=1, padding="SAME"),
}


@pytest.mark.parametrize("case", sorted(CONV_CASES))
def test_conv2d(case):
    spec = dict(CONV_CASES[case])
    x_shape, w_shape = spec.pop("x"), spec.pop("w")
    check_gradient(lambda x, w: tf.nn.conv2d(x, w, **spec), [x_shape, w_shape], rtol=1e-5, atol=1e-6)


def test_softmax_cross_entropy_with_logits_v2():
    rng = np.random.default_rng(1)
    labels = rng.dirichlet(np.ones(4), size=3)
    check_gradient(lambda logits, lab: tf.nn.softmax_cross_entropy_with_logits_v2(labels=lab, logits=logits),
                   [(3, 4), (3, 4)], values=[rng.normal(size=(3, 4)), labels])


def test_softmax_cross_entropy_of_rank_3_and_its_backprop_output():
    check_gradient(lambda logits: tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=np.full((2, 3, 4), 0.25), logits=logits), [(2, 3, 4)])

    def both_outputs(logits):
        op = tf.nn.softmax_cross_entropy_with_logits_v2(labels=np.full((3, 4), 0.25), logits=logits).op
        return [op.outputs[0], op.outputs[1]]

    check_gradient(both_outputs, [(3, 4)])


def test_sparse_softmax_cross_entropy_with_logits():
    check_gradient(lambda logits: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 4, 2], logits=logits),
                   [(3, 5)])
    check_gradient(lambda logits: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1], [3]], logits=logits),
                   [(2, 1, 5)])


def test_second_order_gradients():
    check_gradient(lambda x: tf.gradients(tf.reduce_sum(x * x * x), [x])[0], [(4,)])
    check_gradient(lambda x: tf.gradients(tf.reduce_sum(tf.tanh(x)), [x])[0], [(4,)])
    check_gradient(lambda x: tf.gradients(tf.reduce_sum(tf.sigmoid(x)), [x])[0], [(4,)])


def test_floor_mod_away_from_its_jumps():
    x = np.array([[3.3, 5.25, -2.6]])
    y = np.array([1.5, 2.0, 1.2])
    check_gradient(tf.floormod, [(1, 3), (3,)], values=[x, y])


def test_relu_grad_is_tensorflows_product_so_an_infinite_gradient_where_cut_gives_nan():
    # TensorFlow computes dy * (features > 0): inf * 0 is NaN there, not 0 (checked against TF 2.21).
    features = tf.constant([-1.0, 0.0, 1.0, -2.0, 3.0])
    dy = tf.constant([np.inf, np.nan, 1.0, 2.0, np.inf])
    (grad,) = tf.gradients(tf.nn.relu(features), [features], grad_ys=[dy])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(grad), [np.nan, np.nan, 1.0, 0.0, np.inf])


@pytest.mark.parametrize("shape, target", [((3,), (2, 3)), ((2, 1), (2, 4)), ((), (3,)), ((1, 3), (3,)), ((2,), (3,))])
def test_broadcast_to_copies_or_names_both_shapes(shape, target):
    from numflow.ops.array_grad import broadcast_to

    x = tf.placeholder(tf.float32, None)
    y = broadcast_to(x, tf.zeros(target))
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    with tf.Session() as sess:
        try:
            want = np.broadcast_to(value, target)
        except ValueError:
            message = f"Unable to broadcast tensor of shape {list(shape)} to tensor of shape {list(target)}"
            with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
                sess.run(y, {x: value})
            return
        got = sess.run(y, {x: value})
        np.testing.assert_array_equal(got, want)
        assert got.flags.writeable and got.flags.owndata


def test_maximum_and_minimum_select_their_gradient_as_tensorflow():
    """An infinite gradient of the losing input stays there (TensorFlow selects; a 0/1 mask would give NaN):
    d sqrt(maximum(x, 0)) is 0 below zero, inf at zero (x wins the tie), 1 / (2 sqrt(x)) above; d sqrt(-minimum(x,
    0)) is -1 / (2 sqrt(-x)) below zero and 0 above, and at zero +inf (the square root of -0.0 is -0.0). TensorFlow
    2.21 gives these values."""
    with tf.Graph().as_default():
        x = tf.constant([-1.0, 0.0, 4.0])
        grads = [tf.gradients(tf.sqrt(tf.maximum(x, 0.0)), x)[0], tf.gradients(tf.sqrt(-tf.minimum(x, 0.0)), x)[0]]
        with tf.Session() as sess:
            above, below = sess.run(grads)
    np.testing.assert_array_equal(above, [0.0, np.inf, 0.25])
    np.testing.assert_array_equal(below, [-0.5, np.inf, 0.0])
