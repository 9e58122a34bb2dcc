"""Normalization in tf.nn: moments, weighted_moments, normalize_moments, the batch norms (composite and
FusedBatchNormV3 in every mode and layout) and lrn, against TensorFlow's outputs and gradients,
float64 compositions, finite differences, and TensorFlow's names, shapes and errors.

``data/tf_nn_more_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py``.
"""

from types import SimpleNamespace

import numpy as np
import pytest
from nn_golden import GOLDEN, assert_golden, run
from test_gradients import check_gradient

import numflow as tf
from numflow_kernels import reference_norm

X = GOLDEN["norm_x"]
BN = {k: GOLDEN[f"bn_{k}"] for k in ("scale", "offset", "mean", "variance")}




def test_statistics_match_tensorflow():
    x = tf.constant(X)
    counts, mean_ss, var_ss, _ = tf.nn.sufficient_statistics(x, [0, 1])
    counts_s, mean_ss_s, var_ss_s, shift = tf.nn.sufficient_statistics(x, [0, 1], shift=tf.constant(0.5))
    got = run({
        "moments": tf.nn.moments(x, [0, 1, 2]),
        "moments_keep": tf.nn.moments(x, [0, 2], keep_dims=True),
        "moments_f16": tf.nn.moments(tf.constant(X.astype(np.float16)), [0]),
        "weighted_moments": tf.nn.weighted_moments(x, [0, 2], GOLDEN["norm_weights"]),
        "normalize_moments": tf.nn.normalize_moments(counts, mean_ss, var_ss, None),
        "normalize_moments_shift": tf.nn.normalize_moments(counts_s, mean_ss_s, var_ss_s, shift),
    })
    for key, value in got.items():
        assert_golden(value, key, rtol=2e-3 if key == "moments_f16" else 1e-5)
    assert got["moments_f16"][0].dtype == np.float16


def test_moments_graph_is_tensorflows():
    x = tf.placeholder(tf.float32, [None, 4, 5, 3], name="x")
    mean, variance = tf.nn.moments(x, [0, 1, 2])
    assert (mean.op.name, variance.op.name) == ("moments/Squeeze", "moments/Squeeze_1")
    assert mean.shape.as_list() == [3] and variance.shape.as_list() == [3]
    sq = variance.op.inputs[0].op
    assert sq.name == "moments/variance" and sq.type == "Mean"
    assert sq.inputs[0].op.type == "SquaredDifference" and sq.inputs[0].op.inputs[1].op.name == "moments/StopGradient"
    kept = tf.nn.moments(x, [0], keepdims=True)
    assert kept[0].op.name == "moments_1/mean" and kept[0].shape.as_list() == [1, 4, 5, 3]
    half = tf.nn.moments(tf.placeholder(tf.float16, [2, 3]), [0], name="m16")
    assert half[0].op.name == "m16/Cast_1" and half[0].dtype == tf.float16
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'"):
        tf.nn.moments(x, [0], keep_dims=True, keepdims=True)
    weighted = tf.nn.weighted_moments(x, [0, 1], tf.ones([4, 1, 3]))
    assert weighted[0].op.name == "weighted_moments/Squeeze" and weighted[0].shape.as_list() == [5, 3]
    assert weighted[0].op.inputs[0].op.type == "DivNoNan"


def test_moments_gradient_matches_finite_differences():
    check_gradient(lambda x: list(tf.nn.moments(x, [0, 2])), [(3, 2, 4)])
    check_gradient(lambda x, w: list(tf.nn.weighted_moments(x, [1], w)), [(3, 4), (3, 1)], low=0.5)


def test_batch_normalization_matches_tensorflow_and_its_graph():
    x = tf.constant(X)
    args = [tf.constant(BN[k]) for k in ("mean", "variance", "offset", "scale")]
    out = tf.nn.batch_normalization(x, *args, 1e-3)
    glob = tf.nn.batch_norm_with_global_normalization(x, args[0], args[1], args[2], args[3], 1e-3, False)
    assert_golden(run(out), "batch_normalization")
    assert_golden(run(glob), "bn_global")
    assert out.op.name == "batchnorm/add_1" and out.op.inputs[0].op.name == "batchnorm/mul_1"
    bare = tf.nn.batch_normalization(x, args[0], args[1], None, None, 1e-3)
    assert bare.op.inputs[1].op.inputs[0].op.type == "Neg"
    check_gradient(lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
                   [(2, 3), (3,), (3,), (3,), (3,)], values=[np.linspace(-1, 1, 6).reshape(2, 3), [0.1, -0.2, 0.3],
                                                             [0.5, 1.0, 2.0], [0.0, 1.0, -1.0], [1.5, 0.5, 2.0]])


MODES = {"train": {}, "ema": dict(exponential_avg_factor=0.25, stats=True),
         "infer": dict(is_training=False, stats=True)}


def _fused(fmt, mode):
    x = tf.constant(X if fmt == "NHWC" else X.transpose(0, 3, 1, 2))
    scale, offset = tf.constant(BN["scale"]), tf.constant(BN["offset"])
    kwargs = dict(MODES[mode])
    if kwargs.pop("stats", False):
        kwargs.update(mean=tf.constant(BN["mean"]), variance=tf.constant(BN["variance"]))
    y, mean, var = tf.nn.fused_batch_norm(x, scale, offset, data_format=fmt, **kwargs)
    dy = GOLDEN["bn_dy"] if fmt == "NHWC" else GOLDEN["bn_dy"].transpose(0, 3, 1, 2)
    return x, scale, offset, (y, mean, var), tf.gradients(y, [x, scale, offset], grad_ys=tf.constant(dy))


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
@pytest.mark.parametrize("mode", sorted(MODES))
def test_fused_batch_norm_and_its_gradient_match_tensorflow(fmt, mode):
    *_, outs, grads = _fused(fmt, mode)
    got_outs, got_grads = run([outs, grads])
    assert_golden(got_outs, f"fused_{fmt}_{mode}")
    # dx is a small difference of large terms: TF forms it in float32, numflow in float64.
    assert_golden(got_grads, f"fused_{fmt}_{mode}_grad", rtol=1e-4, atol=2e-5)


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
@pytest.mark.parametrize("training", [True, False])
def test_fused_batch_norm_gradient_is_that_of_the_composite_in_float64(fmt, training):
    # The same normalization from moments and batch_normalization in float64, whose gradient the
    # finite-difference tests above hold to, gives the fused op's gradients.
    rng = np.random.default_rng(3)
    xv = rng.normal(1.0, 2.0, (3, 4, 2, 5)).astype(np.float32)
    dy = rng.normal(size=xv.shape).astype(np.float32)
    scale, offset = np.float32([0.5, 1.0, 1.5, 2.0, 2.5]), np.float32([0.0, 1.0, -1.0, 2.0, 0.5])
    pop_mean, pop_var = np.float32([0.1, 0.2, 0.3, 0.4, 0.5]), np.float32([1.0, 1.5, 2.0, 2.5, 3.0])
    to_fmt = (lambda a: a) if fmt == "NHWC" else (lambda a: a.transpose(0, 3, 1, 2))
    x, s, o = tf.constant(to_fmt(xv)), tf.constant(scale), tf.constant(offset)
    y = tf.nn.fused_batch_norm(x, s, o, pop_mean if not training else None, pop_var if not training else None,
                               epsilon=1e-3, data_format=fmt, is_training=training)[0]
    fused = tf.gradients(y, [x, s, o], grad_ys=tf.constant(to_fmt(dy)))
    x64, s64, o64 = (tf.constant(v.astype(np.float64)) for v in (xv, scale, offset))
    mean, var = tf.nn.moments(x64, [0, 1, 2]) if training else (pop_mean.astype(np.float64),
                                                                  pop_var.astype(np.float64))
    y64 = tf.nn.batch_normalization(x64, mean, var, o64, s64, np.float64(np.float32(1e-3)))
    composite = tf.gradients(y64, [x64, s64, o64], grad_ys=tf.constant(dy.astype(np.float64)))
    got, want = run([fused, composite])
    np.testing.assert_allclose(got[0], to_fmt(want[0]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1:], want[1:], rtol=1e-5, atol=1e-5)


def test_fused_batch_norm_op_outputs_names_and_attrs():
    x = tf.placeholder(tf.float32, [None, 4, 5, 3], name="x")
    y, mean, var = tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]))
    op = y.op
    assert op.type == "FusedBatchNormV3" and op.name == "FusedBatchNormV3" and len(op.outputs) == 6
    assert [t.shape.as_list() if t.shape.ndims is not None else None for t in op.outputs] == [
        [None, 4, 5, 3], [3], [3], [3], [3], None]
    assert op.get_attr("epsilon") == np.float32(0.001) and op.get_attr("is_training") is True
    assert op.get_attr("data_format") == "NHWC" and op.get_attr("exponential_avg_factor") == 1.0
    assert [t.op.name for t in op.inputs[3:]] == ["Const", "Const_1"] and op.inputs[3].shape.as_list() == [0]
    (dx,) = tf.gradients(y, [x])
    assert dx.op.type == "FusedBatchNormGradV3" and dx.op.name == "gradients/FusedBatchNormV3_grad/FusedBatchNormGradV3"
    assert [t.shape.as_list() for t in dx.op.outputs] == [[None, 4, 5, 3], [3], [3], [0], [0]]
    assert list(dx.op.inputs[3:]) == op.outputs[3:]
    infer = tf.nn.fused_batch_norm(tf.placeholder(tf.float32, [2, 3, 4, 4]), tf.ones([3]), tf.zeros([3]),
                                   tf.zeros([3]), tf.ones([3]), is_training=False, data_format="NCHW", name="bn")
    assert infer[0].op.name == "bn" and infer[0].shape.as_list() == [2, 3, 4, 4]
    (dx,) = tf.gradients(infer[0], [infer[0].op.inputs[0]])
    assert dx.op.type == "Transpose" and dx.op.inputs[0].op.get_attr("data_format") == "NHWC"


def test_fused_batch_norm_errors_are_tensorflows():
    x = tf.placeholder(tf.float32, [None, 4, 5, 3])
    with pytest.raises(ValueError, match="Both `mean` and `variance` must be a 1D tensor when `is_training` is False"):
        tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]), is_training=False)
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 4 and 3 for .*FusedBatchNormV3"):
        tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]), tf.zeros([3]), tf.ones([3]), is_training=False,
                               data_format="NCHW")
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 2"):
        tf.nn.fused_batch_norm(tf.ones([2, 3]), tf.ones([3]), tf.zeros([3]))
    with pytest.raises(TypeError, match="'x' has DataType float64 not in list of allowed values: float16, bfloat16"):
        tf.nn.fused_batch_norm(tf.ones([1, 2, 2, 3], tf.float64), tf.ones([3]), tf.zeros([3]))
    feed = tf.placeholder(tf.float32, [None, None, None, None])
    y = tf.nn.fused_batch_norm(feed, tf.ones([3]), tf.zeros([3]))[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="scale must have the same number of elements as the "
                                                             "channels of x, got 3 and 2"):
        run(y, {feed: np.ones([1, 2, 2, 2], np.float32)})


def test_fused_batch_norm_of_float16_and_an_empty_batch():
    half = tf.nn.fused_batch_norm(tf.constant(X.astype(np.float16)), tf.constant(BN["scale"]),
                                  tf.constant(BN["offset"]))
    got = run(half)
    assert got[0].dtype == np.float16 and got[1].dtype == np.float32
    np.testing.assert_allclose(got[0], GOLDEN["out_fused_NHWC_train_0"], rtol=1e-2, atol=1e-2)
    empty = run(tf.nn.fused_batch_norm(tf.zeros([0, 2, 2, 3]), tf.ones([3]), tf.zeros([3])))
    assert empty[0].shape == (0, 2, 2, 3) and np.isnan(empty[1]).all() and np.isnan(empty[2]).all()


@pytest.mark.parametrize("key, kwargs", [("lrn", {}), ("lrn_r2", dict(depth_radius=2, bias=2.0, alpha=1e-2, beta=0.75)),
                                         ("lrn_b1", dict(depth_radius=1, alpha=0.5, beta=1.0))])
def test_lrn_and_its_gradient_match_tensorflow(key, kwargs):
    x = tf.constant(GOLDEN["lrn_x"])
    y = tf.nn.lrn(x, **kwargs)
    (g,) = tf.gradients(y, x, grad_ys=tf.constant(GOLDEN["lrn_dy"]))
    got = run([y, g])
    assert_golden(got[0], key, rtol=1e-5, atol=1e-6)
    assert_golden(got[1], key + "_grad", rtol=1e-4, atol=1e-5)
    assert y.op.type == "LRN" and g.op.type == "LRNGrad" and g.op.name == "gradients/LRN_grad/LRNGrad"


def test_lrn_gradient_kernel_matches_finite_differences_of_the_lrn_kernel():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(1, 1, 2, 7))
    dy = rng.normal(size=x.shape)
    ctx = SimpleNamespace(attrs=dict(depth_radius=2, bias=1.5, alpha=0.25, beta=0.75))
    numeric = np.zeros_like(x)
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = 1e-6
        up = reference_norm.lrn(ctx, x + step.reshape(x.shape))
        down = reference_norm.lrn(ctx, x - step.reshape(x.shape))
        numeric.reshape(-1)[i] = np.sum((up - down) * dy) / 2e-6
    got = reference_norm.lrn_grad(ctx, dy, x, reference_norm.lrn(ctx, x))
    np.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-8)


def test_lrn_checks_as_tensorflow():
    assert tf.nn.local_response_normalization is tf.nn.lrn
    op = tf.nn.lrn(tf.ones([1, 1, 1, 4]), 2, 1.0, 1e-4, 0.75).op
    assert op.name == "LRN" and op.get_attr("depth_radius") == 2 and op.get_attr("alpha") == np.float32(1e-4)
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 2 for .*LRN"):
        tf.nn.lrn(tf.ones([3, 8]))
    with pytest.raises(TypeError, match="'input' has DataType float64 not in list of allowed values"):
        tf.nn.lrn(tf.ones([1, 1, 1, 4], tf.float64))
