"""tf.losses and tf.nn.sigmoid_cross_entropy_with_logits: values, gradients and training against
TensorFlow, reductions by their definitions in numpy, names, collections and errors.

``data/tf_losses_golden.npz`` holds inputs and TensorFlow 2.21 outputs; regenerate it with
``python tests/ops/data/make_tf_losses_golden.py`` in an environment with TensorFlow installed.
Names and messages written here as literals were checked against TensorFlow 2.21 (compat.v1).
"""

import pathlib

import numpy as np
import pytest
from loss_cases import LOGIT_LOSSES, LOSSES, REDUCTIONS, TRAIN_CASES, loss_call, loss_weights, train_losses
from test_gradients import check_gradient

import numflow as tf
from numflow.ops.loss_ops import div_no_nan

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_losses_golden.npz")
R = tf.losses.Reduction


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def _golden_inputs():
    return {k: GOLDEN[k] for k in GOLDEN.files if "/" not in k}


@pytest.mark.parametrize("name", LOSSES)
def test_every_weighting_and_reduction_matches_tensorflow(name):
    a = _golden_inputs()
    fetches = {}
    for wname, w in loss_weights(name, a).items():
        for reduction in REDUCTIONS:
            fetches[f"loss/{name}/{wname}/{reduction}"] = loss_call(tf, name, a, w, reduction)
    for key, got in _run(fetches).items():
        np.testing.assert_allclose(got, GOLDEN[key], rtol=2e-6, atol=1e-7, err_msg=key)
        assert got.dtype == np.float32


@pytest.mark.parametrize("name", LOSSES)
def test_gradients_match_tensorflow(name):
    a = _golden_inputs()
    x = tf.constant(a["logits"] if name in LOGIT_LOSSES else a["predictions"])
    fetches = {f"grad/{name}/{wname}": tf.gradients(loss_call(tf, name, a, w, x=x), x)[0]
               for wname, w in loss_weights(name, a).items()}
    for key, got in _run(fetches).items():
        np.testing.assert_allclose(got, GOLDEN[key], rtol=1e-5, atol=1e-7, err_msg=key)


@pytest.mark.parametrize("weights", ["one", "scalar", "rows", "full", "zero"])
def test_reductions_by_their_definitions(weights):
    a = _golden_inputs()
    w = loss_weights("absolute_difference", a)[weights]
    losses = np.abs(a["predictions"].astype(np.float64) - a["labels"])
    wb = np.broadcast_to(w, losses.shape)
    weighted = losses * wb
    total = weighted.sum()
    present = np.count_nonzero(wb)
    want = {
        R.NONE: weighted,
        R.SUM: total,
        R.MEAN: total / wb.sum() if wb.sum() else 0.0,
        R.SUM_OVER_BATCH_SIZE: total / losses.size,
        R.SUM_BY_NONZERO_WEIGHTS: total / present if present else 0.0,
    }
    got = _run({r: tf.losses.absolute_difference(a["labels"], a["predictions"], weights=w, reduction=r)
                for r in want})
    for r in want:
        np.testing.assert_allclose(got[r], want[r], rtol=1e-6, atol=1e-7, err_msg=r)


def test_per_element_losses_by_their_formulas():
    a = _golden_inputs()
    p, y, z, x = (a[k].astype(np.float64) for k in ("predictions", "labels", "binary", "logits"))
    err = np.abs(p - y)
    want = {
        "mean_squared_error": (p - y) ** 2,
        "huber_loss": np.where(err <= 1.0, 0.5 * err ** 2, err - 0.5),
        "log_loss": -y * np.log(p + 1e-7) - (1 - y) * np.log(1 - p + 1e-7),
        "hinge_loss": np.maximum(0.0, 1 - (2 * z - 1) * x),
        "sigmoid_cross_entropy": -z * np.log(1 / (1 + np.exp(-x))) - (1 - z) * np.log(1 - 1 / (1 + np.exp(-x))),
    }
    got = _run({name: loss_call(tf, name, a, 1.0, R.NONE) for name in want})
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=1e-6, err_msg=name)


def test_label_smoothing_sparse_labels_and_huber_delta_match_tensorflow():
    a = _golden_inputs()
    logits = tf.constant(a["logits"])
    sparse_rows = tf.losses.sparse_softmax_cross_entropy(a["sparse_labels"][:, None], logits, weights=a["w_rows"])
    sigmoid = tf.losses.sigmoid_cross_entropy(a["binary"], logits, label_smoothing=0.2)
    softmax = tf.losses.softmax_cross_entropy(a["onehot"], logits, label_smoothing=0.2)
    fetches = {
        "loss/sparse/one": tf.losses.sparse_softmax_cross_entropy(a["sparse_labels"], logits),
        "loss/sparse/rows": sparse_rows, "grad/sparse/rows": tf.gradients(sparse_rows, logits)[0],
        "loss/sigmoid_smoothed": sigmoid, "grad/sigmoid_smoothed": tf.gradients(sigmoid, logits)[0],
        "loss/softmax_smoothed": softmax, "grad/softmax_smoothed": tf.gradients(softmax, logits)[0],
        "loss/huber_delta": tf.losses.huber_loss(a["labels"], logits, delta=0.3),
    }
    for key, got in _run(fetches).items():
        np.testing.assert_allclose(got, GOLDEN[key], rtol=1e-5, atol=1e-7, err_msg=key)


def test_softmax_label_smoothing_by_its_formula():
    a = _golden_inputs()
    x = a["logits"].astype(np.float64)
    smoothed = a["onehot"] * 0.8 + 0.2 / 3
    log_softmax = x - x.max(1, keepdims=True) - np.log(np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True))
    want = -(smoothed * log_softmax).sum(1).mean()
    got = _run(tf.losses.softmax_cross_entropy(a["onehot"], a["logits"], label_smoothing=0.2))
    np.testing.assert_allclose(got, want, rtol=1e-6)


# -- tf.nn.sigmoid_cross_entropy_with_logits and l2_normalize --------------------------------------
@pytest.mark.parametrize("z", [0, 1])
def test_sigmoid_cross_entropy_is_stable_at_extreme_logits(z):
    x = GOLDEN["xent_extremes"]
    logits = tf.constant(x)
    xent = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.fill([7], float(z)), logits=logits)
    got, grad = _run([xent, tf.gradients(xent, logits)[0]])
    np.testing.assert_allclose(got, GOLDEN[f"xent/{z}"], rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(grad, GOLDEN[f"xent_grad/{z}"], rtol=1e-6, atol=1e-12)
    # The gradient is sigmoid(x) - z; at x = 0 exactly it is 0.5 - z.
    np.testing.assert_allclose(grad, 1 / (1 + np.exp(-x.astype(np.float64))) - z, rtol=1e-6, atol=1e-8)


def test_sigmoid_cross_entropy_gradient():
    check_gradient(lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), [(2, 3), (2, 3)],
                   values=[np.random.default_rng(1).uniform(0, 1, (2, 3)), [[-3.0, 0.0, 0.5], [2.0, -0.1, 8.0]]])


def test_l2_normalize_by_its_formula_and_gradient():
    a = _golden_inputs()
    x = a["logits"]
    got = _run(tf.nn.l2_normalize(x, axis=1))
    np.testing.assert_allclose(got, x / np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(got, GOLDEN["l2_normalize"], rtol=1e-6)
    np.testing.assert_array_equal(_run(tf.nn.l2_normalize([0.0, 0.0])), [0.0, 0.0])
    check_gradient(lambda x: tf.nn.l2_normalize(x, 0), [(3, 2)])


def test_division_by_zero_weights_gives_zero_and_a_zero_gradient():
    x = tf.placeholder(tf.float64, [2])
    w = tf.placeholder(tf.float64, [2])
    loss = tf.losses.compute_weighted_loss(x, w)
    gx, gw = tf.gradients(loss, [x, w])
    got = _run([loss, gx, gw], {x: [3.0, 5.0], w: [0.0, 0.0]})
    assert [float(v) for v in got[0:1]] == [0.0]
    np.testing.assert_array_equal(got[1], [0.0, 0.0])
    # With nonzero weights the derivative of sum(x * w) / count(w != 0) by w is x / count.
    got = _run([loss, gx, gw], {x: [3.0, 5.0], w: [1.0, 0.0]})
    np.testing.assert_allclose(got[0], 3.0)
    np.testing.assert_allclose(got[1], [1.0, 0.0])
    np.testing.assert_allclose(got[2], [3.0, 5.0])


def test_div_no_nan_gradient():
    check_gradient(div_no_nan, [(2, 3), (2, 3)], values=[np.arange(6.0).reshape(2, 3) - 2, [[0.5, -1, 2], [3, -4, 1]]])
    check_gradient(lambda x, y: div_no_nan(x, y * 0), [(3,), (3,)])


# -- names and collections ------------------------------------------------------------------------
def test_names_and_the_losses_collection_as_tensorflow():
    # Names checked against TensorFlow 2.21.
    p = tf.placeholder(tf.float32, [None, 3], name="p")
    lab = tf.placeholder(tf.float32, [None, 3], name="l")
    names = [tf.losses.mean_squared_error(lab, p, reduction=r).name for r in
             (R.NONE, R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE, R.SUM_BY_NONZERO_WEIGHTS)]
    assert names == ["mean_squared_error/Mul:0", "mean_squared_error_1/Sum:0", "mean_squared_error_2/value:0",
                     "mean_squared_error_3/value:0", "mean_squared_error_4/value:0"]
    assert tf.losses.mean_squared_error(lab, p, weights=tf.constant([[1.0], [2.0]]), reduction=R.NONE).shape == (2, 3)
    assert tf.losses.hinge_loss(lab, p).name == "hinge_loss/value:0"
    assert tf.losses.sigmoid_cross_entropy(lab, p).name == "sigmoid_cross_entropy_loss/value:0"
    assert tf.losses.softmax_cross_entropy(lab, p).name == "softmax_cross_entropy_loss/value:0"
    sparse = tf.losses.sparse_softmax_cross_entropy(tf.placeholder(tf.int32, [None]), p)
    assert sparse.name == "sparse_softmax_cross_entropy_loss/value:0"
    assert tf.losses.log_loss(lab, p, scope="my").name == "my/value:0"
    with tf.name_scope("outer"):
        other = tf.losses.absolute_difference(lab, p, loss_collection="other")
    assert other.name == "outer/absolute_difference/value:0"
    assert tf.losses.compute_weighted_loss([1.0, 2.0], loss_collection=None).name == "weighted_loss/value:0"
    double = tf.losses.compute_weighted_loss(tf.constant([1.0, 2.0], tf.float64))
    assert (double.name, double.dtype) == ("weighted_loss_1/Cast_2:0", tf.float64)
    assert tf.nn.sigmoid_cross_entropy_with_logits(labels=lab, logits=p).name == "logistic_loss:0"
    assert tf.nn.l2_normalize(p, axis=1).name == "l2_normalize:0"
    assert [t.name for t in tf.losses.get_losses()] == [
        "mean_squared_error/Mul:0", "mean_squared_error_1/Sum:0", "mean_squared_error_2/value:0",
        "mean_squared_error_3/value:0", "mean_squared_error_4/value:0", "mean_squared_error_5/Mul:0",
        "hinge_loss/value:0", "sigmoid_cross_entropy_loss/value:0", "softmax_cross_entropy_loss/value:0",
        "sparse_softmax_cross_entropy_loss/value:0", "my/value:0", "weighted_loss_1/Cast_2:0",
    ]
    assert tf.losses.get_losses(scope="my") == tf.get_collection(tf.GraphKeys.LOSSES, "my")
    assert tf.losses.get_losses(loss_collection="other") == [other]
    tf.losses.add_loss(other)
    assert tf.losses.get_losses()[-1] is other


def test_total_and_regularization_losses():
    assert tf.losses.get_regularization_losses() == []
    zero = tf.losses.get_regularization_loss()
    assert zero.op.type == "Const" and float(_run(zero)) == 0.0
    w = tf.get_variable("w", initializer=[1.0, 2.0], regularizer=lambda v: tf.reduce_sum(v * v))
    v = tf.get_variable("v", initializer=[3.0], regularizer=lambda v: 0.5 * tf.reduce_sum(v))
    tf.losses.mean_squared_error([0.0, 0.0], w)
    tf.losses.add_loss(tf.constant(10.0, name="extra"))
    regularization = tf.losses.get_regularization_loss()
    assert [t.name for t in tf.losses.get_regularization_losses()] == ["w/Regularizer/Sum:0", "v/Regularizer/mul:0"]
    assert regularization.name == "total_regularization_loss:0"
    total = tf.losses.get_total_loss()
    data_only = tf.losses.get_total_loss(add_regularization_losses=False, name="data")
    scoped = tf.losses.get_total_loss(scope="mean_squared_error")
    assert (total.name, data_only.name, scoped.name) == ("total_loss:0", "data:0", "total_loss_1:0")
    # mse = (1 + 4) / 2; regularization = 1 + 4 + 1.5; ``scope`` filters the regularization losses too.
    assert [float(x) for x in _run([regularization, total, data_only, scoped])] == [6.5, 19.0, 12.5, 2.5]
    assert v.name == "v:0"


def test_reduction_keys():
    assert R.all() == ("none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
                       "weighted_sum_by_nonzero_weights", "weighted_sum_by_nonzero_weights")
    assert R.SUM_OVER_NONZERO_WEIGHTS == R.SUM_BY_NONZERO_WEIGHTS
    R.validate("weighted_mean")


# -- errors: TensorFlow 2.21's classes and messages -----------------------------------------------
def test_errors():
    p = tf.placeholder(tf.float32, [2, 3], name="p")
    lab = tf.placeholder(tf.float32, [2, 2], name="l")
    with pytest.raises(ValueError, match=r"^Shapes \(2, 3\) and \(2, 2\) are incompatible$"):
        tf.losses.mean_squared_error(lab, p)
    with pytest.raises(ValueError, match=r"^Shapes \(2, 3\) and \(2, 2\) are incompatible$"):
        tf.losses.softmax_cross_entropy(lab, p)
    with pytest.raises(ValueError, match=r"^Invalid Reduction Key mean\. Key should be one of \('none', "
                                         r"'weighted_sum', 'weighted_mean', 'weighted_sum_over_batch_size', "
                                         r"'weighted_sum_by_nonzero_weights', 'weighted_sum_by_nonzero_weights'\)\.$"):
        tf.losses.mean_squared_error(p, p, reduction="mean")
    with pytest.raises(ValueError, match=r"^weights can not be broadcast to values\. values\.rank=2\. "
                                         r"weights\.rank=1\. values\.shape=\(2, 3\)\. weights\.shape=\(3,\)\. "
                                         r"Received weights=Tensor\(\"Const:0\", shape=\(3,\), dtype=float32\), "
                                         r"values=Tensor\(\"mean_squared_error_2/SquaredDifference:0\", "
                                         r"shape=\(2, 3\), dtype=float32\)$"):
        tf.losses.mean_squared_error(p, p, weights=tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match=r"^weights can not be broadcast to values\. Mismatch at dim 1\. "
                                         r"values\.shape=\[2 3\], weights\.shape=\[1 2\]\. Received weights=Tensor\("
                                         r"\"Const_1:0\""):
        tf.losses.mean_squared_error(p, p, weights=tf.constant([[1.0, 2.0]]))
    with pytest.raises(ValueError, match=r"^Argument `labels` must not be None\.$"):
        tf.losses.mean_squared_error(None, p)
    with pytest.raises(ValueError, match=r"^Argument `logits` must not be None\.$"):
        tf.losses.hinge_loss(p, None)
    with pytest.raises(ValueError, match=r"^Argument `multi_class_labels` must not be None\.$"):
        tf.losses.sigmoid_cross_entropy(None, p)
    with pytest.raises(ValueError, match=r"^`labels\.shape\.rank` must equal `logits\.shape\.rank - 1`\. Received: "
                                         r"labels\.shape=\(1, 2\) of rank 2 and logits\.shape=\(2, 3\) of rank 2$"):
        tf.losses.sparse_softmax_cross_entropy(tf.constant([[0, 1]]), p)
    with pytest.raises(ValueError, match=r"^`logits` and `labels` must have the same shape, received "
                                         r"\(\(2, 3\) vs \(2, 2\)\)\.$"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=lab, logits=p)
    with pytest.raises(TypeError, match=r"Input 'y' of 'Mul' Op has type int32 that does not match type float32 "
                                        r"of argument 'x'\."):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1], tf.int32), logits=tf.constant([1.0]))
    with pytest.raises(ValueError, match="^Inputs must be an iterable of at least one Tensor/IndexedSlices"):
        tf.losses.get_total_loss()


# -- training end to end --------------------------------------------------------------------------
@pytest.mark.parametrize("case", TRAIN_CASES)
def test_training_follows_tensorflow(case):
    got = train_losses(tf, _golden_inputs(), case)
    want = GOLDEN[f"train/{case}"]
    assert got[-1] < 0.7 * got[0]
    np.testing.assert_allclose(got, want, rtol=2e-5)
