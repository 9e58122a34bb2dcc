"""NumPy kernels of the normalization ops: FusedBatchNormV3, FusedBatchNormGradV3, LRN and LRNGrad.

Spec: TensorFlow's CPU kernels (``fused_batch_norm_op.cc``, ``lrn_op.cc``).

- ``FusedBatchNormV3(x, scale, offset, mean, variance)`` -> ``(y, batch_mean, batch_variance,
  reserve_space_1, reserve_space_2, reserve_space_3)``. Training: the batch's mean and biased
  variance normalize ``x``; ``batch_variance`` is the unbiased one (``n / (n - 1)``), and with
  ``exponential_avg_factor`` f != 1 both become ``(1 - f) * running + f * batch``; the reserve
  spaces hold the batch mean and biased variance the gradient needs. Inference: ``mean`` and
  ``variance`` normalize ``x`` and come out unchanged. ``reserve_space_3`` is empty. Statistics are
  float32 (``U``) whatever ``x``'s dtype (float16 or float32). An empty batch gives NaN statistics.
- ``FusedBatchNormGradV3(y_backprop, x, scale, reserve_space_1, reserve_space_2, reserve_space_3)``
  -> ``(x_backprop, scale_backprop, offset_backprop, reserve_space_4, reserve_space_5)`` (the last
  two empty). Training: ``x_hat = (x - mean) * rsqrt(var + eps)``, ``dx = scale * rsqrt(var + eps) *
  (dy - mean(dy) - x_hat * mean(dy * x_hat))``; inference: ``dx = dy * scale * rsqrt(var + eps)``.
- ``LRN``: ``x / (bias + alpha * sqr_sum) ** beta`` with ``sqr_sum`` over the ``2 * depth_radius + 1``
  channels around each one (last axis); ``LRNGrad(dy, x, y)`` its gradient, as TF's loop.

Channel sums run in float64 here; the Numba kernels (``cpu/norm.py``) add in a fixed order too.
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register


def kernel(op_type):
    return register(op_type, REFERENCE)


def channels_last(x, data_format):
    """``x`` as a (rows, channels) matrix, whatever its data format (a copy for the NC... formats)."""
    if data_format.startswith("NC"):
        x = np.moveaxis(x, 1, -1)
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1])


def from_channels_last(rows, like, data_format):
    """The inverse of :func:`channels_last`: ``rows`` in ``like``'s shape and data format."""
    if data_format.startswith("NC"):
        moved = np.moveaxis(like, 1, -1).shape
        return np.ascontiguousarray(np.moveaxis(rows.reshape(moved), -1, 1))
    return rows.reshape(like.shape)


def check_batch_norm_inputs(x, scale, offset, mean, variance, attrs):
    """TensorFlow's run-time checks of FusedBatchNormV3's inputs (ValueError, TF's messages)."""
    fmt = attrs["data_format"]
    rank = 5 if fmt in ("NDHWC", "NCDHW") else 4
    shape = tuple(x.shape)  # a device array's too
    if len(shape) != rank:
        raise ValueError(f"input must be {rank}-dimensional{shape}")
    channels = shape[1] if fmt.startswith("NC") else shape[-1]
    for name, value in (("scale", scale), ("offset", offset)):
        if value.ndim != 1 or value.size != channels:
            raise ValueError(f"{name} must have the same number of elements as the channels of x, got "
                             f"{value.size} and {channels}")
    if not attrs["is_training"] or attrs["exponential_avg_factor"] != 1.0:
        for name, value in (("mean", mean), ("variance", variance)):
            if value.ndim != 1 or value.size != channels:
                raise ValueError(f"{name} must have the same number of elements as the channels of x, got "
                                 f"{value.size} and {channels}")
    return channels


def batch_stats(rows):
    """Per-channel mean and biased variance of a (rows, channels) matrix, float64."""
    wide = rows.astype(np.float64)
    mean = wide.mean(axis=0)
    return mean, np.square(wide - mean).mean(axis=0)


def running_stats(attrs, mean, variance, batch_mean, batch_var, n):
    """Outputs 1 and 2 of a training FusedBatchNormV3: the unbiased variance, blended by the factor."""
    unbiased = batch_var * np.float32(n / max(n - 1, 1))
    factor = np.float32(attrs["exponential_avg_factor"])
    if factor == 1:
        return batch_mean, unbiased
    keep = np.float32(1) - factor
    return keep * mean + factor * batch_mean, keep * variance + factor * unbiased


@kernel("FusedBatchNormV3")
def fused_batch_norm(ctx, x, scale, offset, mean, variance):
    a = ctx.attrs
    channels = check_batch_norm_inputs(x, scale, offset, mean, variance, a)
    rows = channels_last(x, a["data_format"])
    eps = np.float32(a["epsilon"])
    if a["is_training"]:
        if rows.shape[0] == 0:
            nan = np.full(channels, np.nan, np.float32)
            return x.copy(), nan, nan.copy(), nan.copy(), nan.copy(), np.zeros(0, np.float32)
        batch_mean, batch_var = (s.astype(np.float32) for s in batch_stats(rows))
        used_mean, used_var = batch_mean, batch_var
        out_mean, out_var = running_stats(a, mean, variance, batch_mean, batch_var, rows.shape[0])
    else:
        used_mean, used_var = mean.astype(np.float32), variance.astype(np.float32)
        out_mean, out_var = used_mean.copy(), used_var.copy()
    factor = (1 / np.sqrt(used_var + eps)).astype(np.float32) * scale
    y = (rows.astype(np.float32) - used_mean) * factor + offset
    y = from_channels_last(y.astype(x.dtype), x, a["data_format"])
    return y, out_mean, out_var, used_mean.copy(), used_var.copy(), np.zeros(0, np.float32)


@kernel("FusedBatchNormGradV3")
def fused_batch_norm_grad(ctx, dy, x, scale, saved_mean, saved_var, reserve_3):
    a = ctx.attrs
    fmt = a["data_format"]
    rows = channels_last(x, fmt).astype(np.float64)
    grads = channels_last(dy, fmt).astype(np.float64)
    inv_std = 1 / np.sqrt(saved_var.astype(np.float64) + np.float32(a["epsilon"]))
    x_hat = (rows - saved_mean) * inv_std
    offset_backprop = grads.sum(axis=0)
    scale_backprop = (grads * x_hat).sum(axis=0)
    if a["is_training"]:
        n = max(rows.shape[0], 1)
        dx = scale * inv_std * (grads - offset_backprop / n - x_hat * (scale_backprop / n))
    else:
        dx = grads * (scale * inv_std)
    empty = np.zeros(0, np.float32)
    return (from_channels_last(dx.astype(dy.dtype), dy, fmt), scale_backprop.astype(np.float32),
            offset_backprop.astype(np.float32), empty, empty.copy())


def check_lrn_input(x, depth_radius):
    if x.ndim != 4:
        raise ValueError(f"in must be 4-dimensional, got shape {list(x.shape)}")
    if depth_radius < 0:
        raise ValueError(f"depth_radius = {depth_radius} must be non-negative")


def window_sums(squares, radius):
    """Sums of ``squares`` over the channel windows ``[c - radius, c + radius]`` (last axis), float64."""
    padded = np.concatenate([np.zeros(squares.shape[:-1] + (1,)), np.cumsum(squares, axis=-1)], axis=-1)
    depth = squares.shape[-1]
    hi = np.minimum(np.arange(depth) + radius + 1, depth)
    lo = np.maximum(np.arange(depth) - radius, 0)
    return padded[..., hi] - padded[..., lo]


@kernel("LRN")
def lrn(ctx, x):
    a = ctx.attrs
    check_lrn_input(x, a["depth_radius"])
    wide = x.astype(np.float64)
    norm = np.float32(a["bias"]) + np.float32(a["alpha"]) * window_sums(wide * wide, a["depth_radius"])
    return (wide * norm ** -np.float64(np.float32(a["beta"]))).astype(x.dtype)


@kernel("LRNGrad")
def lrn_grad(ctx, dy, x, y):
    """TensorFlow's LRNGrad: for each channel j and k in its window, ``dx[k] += dy[j] * (pow(norm_j,
    -beta) [k == j] - 2 * alpha * beta * x[k] * y[j] / norm_j)``."""
    a = ctx.attrs
    check_lrn_input(x, a["depth_radius"])
    if dy.shape != x.shape or y.shape != x.shape:
        raise ValueError("input_grads, input_image, and out_image should have the same shape")
    radius = a["depth_radius"]
    alpha, beta = np.float64(np.float32(a["alpha"])), np.float64(np.float32(a["beta"]))
    xs, ys, gs = (v.astype(np.float64) for v in (x, y, dy))
    norm = np.float32(a["bias"]) + alpha * window_sums(xs * xs, radius)
    # Spread each channel j's share, dy[j] * y[j] / norm[j], back over the channels of its window.
    share = window_sums(gs * ys / norm, radius)
    dx = gs * norm ** -beta - 2 * alpha * beta * xs * share
    return dx.astype(dy.dtype)
