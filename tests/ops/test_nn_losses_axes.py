"""weighted_cross_entropy_with_logits, zero_fraction, xw_plus_b/relu_layer, and softmax, log_softmax
and the cross entropies along any axis: TensorFlow's values, gradients, names and errors.

``data/tf_nn_more_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py``.
"""


import numpy as np
import pytest
from nn_golden import GOLDEN, assert_golden, run
from test_gradients import check_gradient

import numflow as tf

LOGITS, LABELS = GOLDEN["axes_logits"], GOLDEN["axes_labels"]




@pytest.mark.parametrize("pos_weight", [0.5, 3.0])
def test_weighted_cross_entropy_matches_tensorflow(pos_weight):
    lt, yt = tf.constant(LOGITS), tf.constant(LABELS)
    loss = tf.nn.weighted_cross_entropy_with_logits(targets=yt, logits=lt, pos_weight=pos_weight)
    got = run([loss, tf.gradients(loss, [lt, yt])])
    assert_golden(got[0], f"wxent_{pos_weight}")
    assert_golden(got[1], f"wxent_{pos_weight}_grad")


def test_weighted_cross_entropy_graph_and_arguments():
    x = tf.placeholder(tf.float32, [None, 6], name="x")
    loss = tf.nn.weighted_cross_entropy_with_logits(labels=x, logits=tf.ones([3, 6]), pos_weight=2.0)
    assert loss.op.name == "logistic_loss" and loss.op.type == "AddV2" and loss.shape.as_list() == [3, 6]
    assert loss.op.inputs[0].op.name == "logistic_loss/mul_1"
    with pytest.raises(ValueError, match="Cannot specify both 'labels' and 'targets'"):
        tf.nn.weighted_cross_entropy_with_logits(labels=x, targets=x, logits=x, pos_weight=1.0)
    with pytest.raises(ValueError, match=r"`logits` and `labels` must have the same shape, received \(\(3, 5\) vs"):
        tf.nn.weighted_cross_entropy_with_logits(labels=x, logits=tf.ones([3, 5]), pos_weight=1.0)
    values = [np.array([[0.1, 0.5, 0.9], [1.0, 0.0, 0.3]]), np.array([[-2.0, 0.5, 3.0], [1.5, -0.2, 0.8]])]
    check_gradient(lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, pos_weight=1.5), [(2, 3), (2, 3)],
                   values=values)


def test_zero_fraction():
    x = tf.placeholder(tf.int32, [None, 2])
    z = tf.math.zero_fraction(x)
    got = run(tf.nn.zero_fraction(GOLDEN["zero_fraction_x"]))
    assert got.dtype == np.float32 and got == GOLDEN["out_zero_fraction"]
    assert z.op.name == "zero_fraction/fraction" and z.dtype == tf.float32 and z.shape.as_list() == []
    assert run(z, {x: [[0, 3], [0, 0]]}) == np.float32(0.75)
    assert np.isnan(run(z, {x: np.zeros((0, 2), np.int32)}))


def test_xw_plus_b_and_relu_layer():
    x, w, b = LOGITS[0], LOGITS[1].T, LOGITS[2, 0, :4]
    out = tf.nn.xw_plus_b(x, w, b)
    assert out.op.type == "BiasAdd" and out.op.name == "xw_plus_b" and out.op.inputs[0].op.name == "xw_plus_b/MatMul"
    assert_golden(run(out), "xw_plus_b")
    layer = tf.nn.relu_layer(x, w, b)
    assert layer.op.name == "relu_layer" and layer.op.inputs[0].op.name == "relu_layer/BiasAdd"
    np.testing.assert_allclose(run(layer), np.maximum(GOLDEN["out_xw_plus_b"], 0), rtol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_log_softmax_and_cross_entropy_along_any_axis(axis):
    lt, yt = tf.constant(LOGITS), tf.constant(LABELS)
    fetches = {}
    for name, fn in (("softmax", tf.nn.softmax), ("log_softmax", tf.nn.log_softmax)):
        y = fn(lt, axis=axis)
        fetches[f"{name}_axis{axis}"] = y
        fetches[f"{name}_axis{axis}_grad"] = tf.gradients(y * yt, lt)[0]
    probs = yt / tf.reduce_sum(yt, axis=axis, keepdims=True)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=probs, logits=lt, axis=axis)
    fetches[f"xent_axis{axis}"] = loss
    fetches[f"xent_axis{axis}_grad"] = tf.gradients(loss, [lt, yt])
    for key, value in run(fetches).items():
        assert_golden(value, key)
    dims = [3, 4, 5]
    del dims[axis]
    assert loss.shape.as_list() == dims


def test_sparse_cross_entropy_of_rank_3_logits():
    lt = tf.constant(LOGITS)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=GOLDEN["sparse_labels"], logits=lt)
    assert loss.shape.as_list() == [3, 4]
    got = run([loss, tf.gradients(loss, lt)[0]])
    assert_golden(got[0], "sparse_xent_rank3")
    assert_golden(got[1], "sparse_xent_rank3_grad")


def test_softmax_names_along_another_axis_are_tensorflows():
    x = tf.placeholder(tf.float32, [2, 3, 4])
    out = tf.nn.softmax(x, axis=1)
    assert out.op.name == "transpose_1" and out.op.inputs[0].op.name == "Softmax"
    assert out.op.inputs[0].op.inputs[0].op.name == "transpose"
    assert tf.nn.log_softmax(x, dim=0, name="lsm").op.name == "lsm"
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`dim` must be in the range \[-3, 3\) where 3 is the "
                                                             r"number of dimensions in the input. Received: dim=5"):
        tf.nn.softmax(x, axis=5)


def test_sparse_cross_entropy_label_checks_are_tensorflows():
    logits = tf.placeholder(tf.float32, [2, 3, 4])
    with pytest.raises(ValueError, match=r"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                                         r"labels.shape=\(2,\) of rank 1 and logits.shape=\(2, 3, 4\) of rank 3"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.ones([2], tf.int32), logits=logits)
    with pytest.raises(TypeError, match="Value passed to parameter 'labels' has DataType float32 not in list of "
                                        "allowed values: int32, int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.ones([2, 3]), logits=logits)
    with pytest.raises(ValueError, match=r"`labels.shape` must equal `logits.shape` except for the last dimension. "
                                         r"Received: labels.shape=\(3,\) and logits.shape=\(2, 4\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.ones([3], tf.int32), logits=tf.ones([2, 4]))


def test_labels_of_another_rank_are_flattened_to_the_logits_rows_as_tensorflow_does():
    # A program's ``labels=[one_hot]``: labels [1, n, 7] against logits [n, 7].
    rng = np.random.default_rng(0)
    logits_value = rng.standard_normal((5, 7)).astype(np.float32)
    classes = np.array([1, 0, 6, 3, 2])
    with tf.Graph().as_default(), tf.Session() as sess:
        logits = tf.placeholder(tf.float32, [None, 7])
        one_hot = tf.one_hot(classes, 7)
        cost = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=[one_hot])
        (grad,) = tf.gradients(tf.reduce_sum(cost), [logits])
        assert cost.shape.as_list() == [5]  # as TensorFlow infers it, from the labels
        got, got_grad = sess.run([cost, grad], {logits: logits_value})
    shifted = logits_value - logits_value.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(got, -log_softmax[np.arange(5), classes], rtol=1e-6)
    np.testing.assert_allclose(got_grad, np.exp(log_softmax) - np.eye(7)[classes], rtol=1e-5, atol=1e-7)
