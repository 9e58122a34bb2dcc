"""tf.nn: conv2d against a direct loop and against TensorFlow's own outputs, the guide's conv_relu
example, and the numerical stability of softmax and the cross-entropy losses.

``data/tf_nn_golden.npz`` holds inputs and TensorFlow 2.21 outputs; regenerate it with
``python tests/ops/data/make_tf_nn_golden.py`` in an environment with TensorFlow installed.
"""

import math
import pathlib

import numpy as np
import pytest

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_nn_golden.npz")


def conv2d_loop(x, w, strides=(1, 1), padding="SAME", dilations=(1, 1)):
    """NHWC convolution by its definition: one output pixel at a time, in float64."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if padding == "SAME":
        oh, ow = math.ceil(h / sh), math.ceil(wd / sw)
        top, left = max((oh - 1) * sh + eh - h, 0) // 2, max((ow - 1) * sw + ew - wd, 0) // 2
    elif padding == "VALID":
        oh, ow, top, left = (h - eh) // sh + 1, (wd - ew) // sw + 1, 0, 0
    else:
        (top, bottom), (left, right) = padding[1], padding[2]
        oh, ow = (h + top + bottom - eh) // sh + 1, (wd + left + right - ew) // sw + 1
    groups, per_group = c // ci, co // (c // ci)
    out = np.zeros((n, oh, ow, co))
    for i in range(oh):
        for j in range(ow):
            for p in range(kh):
                for q in range(kw):
                    y, z = i * sh + p * dh - top, j * sw + q * dw - left
                    if 0 <= y < h and 0 <= z < wd:
                        for g in range(groups):
                            cols = slice(g * per_group, (g + 1) * per_group)
                            out[:, i, j, cols] += x[:, y, z, g * ci:(g + 1) * ci].astype(np.float64) @ w[p, q, :, cols]
    return out


def _run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


CONV_CASES = {
    "same_s1": dict(strides=(1, 1), padding="SAME"),
    "valid_s1": dict(strides=(1, 1), padding="VALID"),
    "same_s23": dict(strides=(2, 3), padding="SAME"),
    "valid_s23": dict(strides=(2, 3), padding="VALID"),
    "same_d21": dict(strides=(1, 1), padding="SAME", dilations=(2, 1)),
    "valid_s2_d21": dict(strides=(2, 2), padding="VALID", dilations=(2, 1)),
    "explicit": dict(strides=(1, 2), padding=[[0, 0], [1, 2], [0, 3], [0, 0]]),
}


@pytest.mark.parametrize("case", sorted(CONV_CASES))
def test_conv2d_matches_the_loop_and_tensorflow(case):
    kw = CONV_CASES[case]
    x, w = GOLDEN["x"], GOLDEN["w"]
    out = tf.nn.conv2d(x, w, strides=[1, *kw["strides"], 1], padding=kw["padding"],
                       dilations=[1, *kw.get("dilations", (1, 1)), 1])
    want = conv2d_loop(x, w, **kw)
    assert out.shape.as_list() == list(want.shape)
    got = _run(out)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got, GOLDEN[f"out_{case}"], rtol=1e-5, atol=1e-5)


def test_grouped_conv2d():
    x, w = GOLDEN["x"], GOLDEN["w_grouped"]
    got = _run(tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME"))
    np.testing.assert_allclose(got, conv2d_loop(x, w), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got, GOLDEN["out_grouped_same"], rtol=1e-5, atol=1e-5)


def test_nchw_conv2d_is_the_nhwc_one_transposed():
    x, w = GOLDEN["x"], GOLDEN["w"]
    out = tf.nn.conv2d(x.transpose(0, 3, 1, 2), w, strides=[1, 1, 2, 2], padding="SAME", data_format="NCHW")
    assert out.shape.as_list() == [2, 6, 4, 3]
    np.testing.assert_allclose(_run(out).transpose(0, 2, 3, 1), GOLDEN["out_nchw_same_s2"], rtol=1e-5, atol=1e-5)


def test_guide_conv_relu_shapes_and_values():
    # The variable-sharing guide's conv_relu: conv2d with SAME padding keeps [1, 10, 10, 32].
    x = np.random.RandomState(1).randn(1, 10, 10, 32).astype(np.float32)
    w = np.random.RandomState(2).randn(5, 5, 32, 32).astype(np.float32) * 0.1
    b = np.linspace(-1, 1, 32).astype(np.float32)
    inputs = tf.placeholder(tf.float32, [1, 10, 10, 32])
    conv = tf.nn.conv2d(inputs, tf.constant(w), strides=[1, 1, 1, 1], padding="SAME")
    out = tf.nn.relu(conv + b)
    assert conv.op.type == "Conv2D" and conv.shape.as_list() == [1, 10, 10, 32]
    assert out.shape.as_list() == [1, 10, 10, 32]
    np.testing.assert_allclose(_run(out, {inputs: x}), np.maximum(conv2d_loop(x, w) + b, 0), rtol=1e-4, atol=1e-4)


def test_conv2d_attrs_are_tensorflows():
    conv = tf.nn.conv2d(np.ones([1, 4, 4, 3], np.float32), np.ones([2, 2, 3, 5], np.float32), strides=2,
                        padding="VALID", dilations=1)
    attrs = conv.op.attrs
    assert attrs["strides"] == [1, 2, 2, 1] and attrs["dilations"] == [1, 1, 1, 1]
    assert attrs["padding"] == "VALID" and attrs["data_format"] == "NHWC" and attrs["explicit_paddings"] == []
    assert conv.op.name == "Conv2D" and [t.op.name for t in conv.op.inputs] == ["Conv2D/input", "Conv2D/filter"]
    explicit = tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([2, 2, 3, 5]), strides=[1, 2],
                            padding=[[0, 0], [1, 0], [0, 2], [0, 0]], data_format="NHWC")
    assert explicit.op.attrs["padding"] == "EXPLICIT"
    assert explicit.op.attrs["explicit_paddings"] == [0, 0, 1, 0, 0, 2, 0, 0]
    assert explicit.shape.as_list() == [1, 4, 3, 5]


@pytest.mark.parametrize("shape, padding, strides, want", [
    ([None, 28, 28, 1], "SAME", [1, 2, 2, 1], [None, 14, 14, 32]),
    ([None, None, 28, 1], "VALID", [1, 1, 3, 1], [None, None, 8, 32]),
    ([4, 28, 28, None], "SAME", [1, 1, 1, 1], [4, 28, 28, 32]),
    (None, "SAME", [1, 2, 2, 1], [None, None, None, 32]),
])
def test_conv2d_static_shape_from_partial_shapes(shape, padding, strides, want):
    x = tf.placeholder(tf.float32, shape)
    assert tf.nn.conv2d(x, tf.ones([5, 5, 1, 32]), strides, padding).shape.as_list() == want


def test_conv2d_of_an_empty_batch_and_of_float16_and_int32():
    assert _run(tf.nn.conv2d(tf.zeros([0, 3, 3, 2]), tf.ones([1, 1, 2, 8]), 1, "VALID")).shape == (0, 3, 3, 8)
    half = _run(tf.nn.conv2d(tf.ones([1, 3, 3, 2], tf.float16), tf.ones([2, 2, 2, 1], tf.float16), 1, "SAME"))
    assert half.dtype == np.float16 and half[0, 0, 0, 0] == 8
    ints = _run(tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.int32), tf.ones([3, 3, 1, 1], tf.int32), 1, "SAME"))
    assert ints.dtype == np.int32 and ints[0, 1, 1, 0] == 9 and ints[0, 0, 0, 0] == 4


def test_softmax_and_losses_match_tensorflow():
    labels, logits, sparse = GOLDEN["labels"], GOLDEN["logits"], GOLDEN["sparse_labels"]
    got = _run({
        "softmax": tf.nn.softmax(logits),
        "log_softmax": tf.nn.log_softmax(logits),
        "xent": tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits),
        "sparse_xent": tf.nn.sparse_softmax_cross_entropy_with_logits(labels=sparse, logits=logits),
    })
    for key, value in got.items():
        np.testing.assert_allclose(value, GOLDEN[f"out_{key}"], rtol=1e-5, atol=1e-5, err_msg=key)


def test_losses_stay_finite_for_huge_logits():
    logits = np.array([[-1000.0, 1000.0], [1000.0, 0.0]], np.float32)
    got = _run([
        tf.nn.softmax(logits), tf.nn.log_softmax(logits),
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[1.0, 0.0], [0.5, 0.5]], logits=logits),
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=logits),
    ])
    np.testing.assert_array_equal(got[0], [[0, 1], [1, 0]])
    np.testing.assert_array_equal(got[1], [[-2000, 0], [0, -1000]])
    np.testing.assert_array_equal(got[2], [2000, 500])
    np.testing.assert_array_equal(got[3], [2000, 1000])


def test_minus_infinity_logits_behave_as_tensorflow():
    # TF: a -inf logit under a zero label gives nan (0 * inf); the sparse loss of that class is inf.
    got = _run([tf.nn.softmax([[-np.inf, 0.0]]),
                tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 1.0]], logits=[[-np.inf, 0.0]]),
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0], logits=[[-np.inf, 0.0]])])
    np.testing.assert_array_equal(got[0], [[0, 1]])
    assert np.isnan(got[1][0]) and np.isinf(got[2][0])


def test_cross_entropy_op_structure():
    # Two outputs as in TF (loss, gradient wrt logits); the v1 loss stops gradients into the labels.
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 1.0]], logits=[[1.0, 2.0]])
    assert loss.op.type == "SoftmaxCrossEntropyWithLogits" and loss.op.name == "softmax_cross_entropy_with_logits"
    assert [t.shape.as_list() for t in loss.op.outputs] == [[1], [1, 2]]
    np.testing.assert_allclose(_run(loss.op.outputs[1]), [[np.exp(1) / (np.e + np.e ** 2), -np.e / (np.e + np.e ** 2)]],
                               rtol=1e-6)
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[1.0, 2.0]])
    assert v1.op.name == "softmax_cross_entropy_with_logits_sg"
    assert v1.op.inputs[1].op.type == "StopGradient"
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=[[1.0, 2.0]])
    assert sparse.op.name == "SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits"
    np.testing.assert_allclose(_run(sparse.op.outputs[1]), _run(loss.op.outputs[1]), rtol=1e-6)


def test_cross_entropy_static_shapes():
    logits = tf.placeholder(tf.float32, [None, 5, 10])
    assert tf.nn.softmax_cross_entropy_with_logits_v2(labels=logits, logits=logits).shape.as_list() == [None, 5]
    unknown = tf.placeholder(tf.float32)
    assert tf.nn.softmax_cross_entropy_with_logits_v2(labels=unknown, logits=unknown).shape.ndims is None
    labels = tf.placeholder(tf.int32, [None])
    assert tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=unknown).shape.as_list() == [None]
    unknown_labels = tf.placeholder(tf.int64)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=unknown_labels, logits=logits)
    assert loss.shape.ndims is None
    value = _run(loss, {unknown_labels: np.zeros((2, 5), np.int64), logits: np.zeros((2, 5, 10), np.float32)})
    np.testing.assert_allclose(value, np.full((2, 5), np.log(10)), rtol=1e-6)


@pytest.mark.parametrize("labels", [lambda: tf.constant([[0.0, 1.0]], tf.float64), lambda: [[0, 1]],
                                    lambda: tf.constant([[0, 1]])])
def test_labels_of_another_dtype_are_cast_to_the_logits_dtype(labels):
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels(), logits=[[1.0, 2.0]])
    assert loss.dtype == tf.float32
    np.testing.assert_allclose(_run(loss), [0.31326166], rtol=1e-6)


def test_softmax_along_another_axis_transposes_around_the_op():
    out = tf.nn.softmax(tf.placeholder(tf.float32, [2, None, 3]), axis=1, name="probs")
    assert out.op.name == "probs" and out.op.type == "Transpose"
    assert out.op.inputs[0].op.type == "Softmax"
    assert out.shape.as_list() == [2, None, 3]


def test_bias_add_l2_loss_relu6_names_and_shapes():
    x = tf.placeholder(tf.float32, [None, None])
    out = tf.nn.bias_add(x, [1.0, 2.0, 3.0])
    assert out.op.name == "BiasAdd" and out.shape.as_list() == [None, 3]
    assert tf.nn.l2_loss(x).shape.as_list() == []
    assert tf.nn.relu6([1.0]).op.name == "Relu6"
    assert tf.nn.relu([1.0]).op.inputs[0].op.name == "Relu/features"
    assert tf.nn.sigmoid is tf.sigmoid and tf.nn.tanh is tf.tanh
