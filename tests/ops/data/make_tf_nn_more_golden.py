"""Regenerate tf_nn_more_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py   # any environment with tensorflow

Inputs and TensorFlow 2.21 (compat.v1) outputs of the activations, normalizations, top_k/in_top_k,
lrn and the losses of ``tf.nn`` beyond conv2d and softmax. Grappler is off, so every value is the
kernel's own (TensorFlow's graph rewrites can fold or fuse ops and change the last bit).
"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.core.protobuf import rewriter_config_pb2

tf.disable_v2_behavior()

CONFIG = tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True)))


def activations(rng, arrays, fetches):
    """Each activation and its gradient (for a random upstream gradient), in float32 and float64."""
    base = np.concatenate([np.linspace(-6, 6, 25), [-100.0, -20.0, -1e-3, 0.0, 1e-3, 20.0, 100.0]])
    for dtype in (np.float32, np.float64):
        x = base.astype(dtype)
        dy = rng.uniform(0.5, 1.5, size=x.shape).astype(dtype)
        key = np.dtype(dtype).name
        arrays[f"act_x_{key}"], arrays[f"act_dy_{key}"] = x, dy
        xt = tf.constant(x)
        for name, fn in ACTIVATIONS.items():
            y = fn(xt)
            fetches[f"act_{name}_{key}"] = y
            fetches[f"act_{name}_{key}_grad"] = tf.gradients(y, xt, grad_ys=tf.constant(dy))[0]


ACTIVATIONS = {
    "leaky_relu": lambda x: tf.nn.leaky_relu(x),
    "leaky_relu_03": lambda x: tf.nn.leaky_relu(x, alpha=0.3),
    "elu": tf.nn.elu,
    "selu": tf.nn.selu,
    "softplus": tf.nn.softplus,
    "softsign": tf.nn.softsign,
    "relu6": tf.nn.relu6,
    "swish": tf.nn.swish,
    "log_sigmoid": tf.math.log_sigmoid,
}


def normalization(rng, arrays, fetches):
    """moments, weighted_moments, batch norms (composite and fused, every mode and layout), lrn."""
    x = (rng.randn(4, 3, 5, 6) * 2 + 1).astype(np.float32)
    weights = rng.rand(4, 1, 5, 1).astype(np.float32)
    arrays.update(norm_x=x, norm_weights=weights)
    xt = tf.constant(x)
    fetches["moments"] = tf.nn.moments(xt, [0, 1, 2])
    fetches["moments_keep"] = tf.nn.moments(xt, [0, 2], keep_dims=True)
    fetches["moments_f16"] = tf.nn.moments(tf.constant(x.astype(np.float16)), [0])
    fetches["weighted_moments"] = tf.nn.weighted_moments(xt, [0, 2], weights)
    counts, mean_ss, var_ss, _ = tf.nn.sufficient_statistics(xt, [0, 1], shift=None)
    fetches["normalize_moments"] = tf.nn.normalize_moments(counts, mean_ss, var_ss, None)
    counts, mean_ss, var_ss, shift = tf.nn.sufficient_statistics(xt, [0, 1], shift=tf.constant(0.5))
    fetches["normalize_moments_shift"] = tf.nn.normalize_moments(counts, mean_ss, var_ss, shift)
    c = x.shape[-1]
    params = {k: rng.uniform(0.5, 1.5, c).astype(np.float32) if k in ("scale", "variance") else
              rng.randn(c).astype(np.float32) for k in ("scale", "offset", "mean", "variance")}
    arrays.update({f"bn_{k}": v for k, v in params.items()})
    scale, offset, mean, variance = (tf.constant(params[k]) for k in ("scale", "offset", "mean", "variance"))
    fetches["batch_normalization"] = tf.nn.batch_normalization(xt, mean, variance, offset, scale, 1e-3)
    fetches["bn_global"] = tf.nn.batch_norm_with_global_normalization(xt, mean, variance, offset, scale, 1e-3, False)
    dy = rng.randn(*x.shape).astype(np.float32)
    arrays["bn_dy"] = dy
    modes = {"train": {}, "ema": dict(mean=mean, variance=variance, exponential_avg_factor=0.25),
             "infer": dict(mean=mean, variance=variance, is_training=False)}
    for fmt in ("NHWC", "NCHW"):
        xf = xt if fmt == "NHWC" else tf.transpose(xt, [0, 3, 1, 2])
        dyf = dy if fmt == "NHWC" else dy.transpose(0, 3, 1, 2)
        for mode, kwargs in modes.items():
            key = f"fused_{fmt}_{mode}"
            y, running_mean, running_var = tf.nn.fused_batch_norm(xf, scale, offset, data_format=fmt, **kwargs)
            fetches[key] = (y, running_mean, running_var)
            fetches[key + "_grad"] = tf.gradients(y, [xf, scale, offset], grad_ys=tf.constant(dyf))
    lrn_x = rng.randn(2, 3, 4, 9).astype(np.float32)
    arrays["lrn_x"], arrays["lrn_dy"] = lrn_x, rng.randn(*lrn_x.shape).astype(np.float32)
    lrn_xt = tf.constant(lrn_x)
    for key, kwargs in {"lrn": {}, "lrn_r2": dict(depth_radius=2, bias=2.0, alpha=1e-2, beta=0.75),
                        "lrn_b1": dict(depth_radius=1, alpha=0.5, beta=1.0)}.items():
        y = tf.nn.lrn(lrn_xt, **kwargs)
        fetches[key] = y
        fetches[key + "_grad"] = tf.gradients(y, lrn_xt, grad_ys=tf.constant(arrays["lrn_dy"]))[0]


def top_k(rng, arrays, fetches):
    """top_k over rows with many ties, every k, sorted and not; its gradient; in_top_k."""
    x = rng.randint(0, 6, size=(5, 13)).astype(np.float32)
    arrays["topk_x"] = x
    xt = tf.constant(x)
    for k in range(14):
        for sort in (True, False):
            fetches[f"topk_{k}_{sort}"] = tf.nn.top_k(xt, k, sorted=sort)
    dy = rng.randn(5, 4).astype(np.float32)
    arrays["topk_dy"] = dy
    values, _ = tf.nn.top_k(xt, 4)
    fetches["topk_grad"] = tf.gradients(values, xt, grad_ys=tf.constant(dy))[0]
    predictions = rng.randint(0, 4, size=(6, 5)).astype(np.float32)
    predictions[5, 2] = np.inf
    targets = np.array([0, 1, 2, 3, 4, 2], np.int32)
    arrays.update(in_top_k_predictions=predictions, in_top_k_targets=targets)
    for k in range(6):
        fetches[f"in_top_k_{k}"] = tf.nn.in_top_k(predictions, targets, k)


def losses_and_axes(rng, arrays, fetches):
    """weighted_cross_entropy_with_logits, zero_fraction, xw_plus_b, and softmax, log_softmax and the
    softmax cross entropy along every axis, with gradients."""
    logits = (rng.randn(3, 4, 5) * 3).astype(np.float32)
    labels = rng.rand(3, 4, 5).astype(np.float32)
    arrays.update(axes_logits=logits, axes_labels=labels)
    lt, yt = tf.constant(logits), tf.constant(labels)
    for pos_weight in (0.5, 3.0):
        loss = tf.nn.weighted_cross_entropy_with_logits(targets=yt, logits=lt, pos_weight=pos_weight)
        fetches[f"wxent_{pos_weight}"] = loss
        fetches[f"wxent_{pos_weight}_grad"] = tf.gradients(loss, [lt, yt])
    sparse = logits.copy()
    sparse[sparse < 1] = 0
    arrays["zero_fraction_x"] = sparse
    fetches["zero_fraction"] = tf.nn.zero_fraction(sparse)
    fetches["xw_plus_b"] = tf.nn.xw_plus_b(logits[0], logits[1].T, logits[2, 0, :4])
    for axis in (0, 1, -1):
        for name, fn in (("softmax", tf.nn.softmax), ("log_softmax", tf.nn.log_softmax)):
            y = fn(lt, axis=axis)
            fetches[f"{name}_axis{axis}"] = y
            fetches[f"{name}_axis{axis}_grad"] = tf.gradients(y * yt, lt)[0]
        probs = yt / tf.reduce_sum(yt, axis=axis, keepdims=True)
        loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=probs, logits=lt, axis=axis)
        fetches[f"xent_axis{axis}"] = loss
        fetches[f"xent_axis{axis}_grad"] = tf.gradients(loss, [lt, yt])
    sparse_labels = rng.randint(0, 5, size=(3, 4)).astype(np.int64)
    arrays["sparse_labels"] = sparse_labels
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=sparse_labels, logits=lt)
    fetches["sparse_xent_rank3"] = loss
    fetches["sparse_xent_rank3_grad"] = tf.gradients(loss, lt)[0]


def main():
    rng = np.random.RandomState(0)
    arrays, fetches = {}, {}
    with tf.Graph().as_default():
        activations(rng, arrays, fetches)
        normalization(rng, arrays, fetches)
        top_k(rng, arrays, fetches)
        losses_and_axes(rng, arrays, fetches)
        with tf.Session(config=CONFIG) as sess:
            results = sess.run(fetches)
    for key, value in results.items():
        if isinstance(value, (tuple, list)):
            arrays.update({f"out_{key}_{i}": v for i, v in enumerate(value)})
        else:
            arrays[f"out_{key}"] = value
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_nn_more_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
