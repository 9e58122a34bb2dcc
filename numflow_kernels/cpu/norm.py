"""Numba kernels of FusedBatchNormV3, FusedBatchNormGradV3, LRN and LRNGrad (float32 and float64 data).

Batch norm sees ``x`` as ``(outer, channels, inner)``: ``(rows, C, 1)`` for the channels-last
formats, ``(N, C, H * W)`` for the NC... ones, so no layout is copied. Per-channel sums run over
fixed blocks of ``outer`` (their size depends only on the shape), each block added in order into
float64, the blocks' partial sums then added in order: the same bits on any thread count, serial
or parallel. Statistics are formed in float64 and rounded to float32 as TF's ``U`` type; ``y`` is
``(x - mean) * (scale * rsqrt(var + eps)) + offset`` in float32, as TF's kernel forms it.

LRN works on rows of the last axis; each output element is computed alone (its window's sum of
squares in float64), so rows and elements can go in parallel. float16 goes to the references.
Spec and checks: ``reference_norm.py``.
"""

import math

import numpy as np

from numflow_kernels import reference_norm as ref
from numflow_kernels.cpu import twins
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_BLOCK_ELEMENTS = 1 << 14
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _channel_sums(x, mean, block, sums, squares):
    """Per block of ``x``'s outer axis: ``sums[b, c]`` of ``x`` and ``squares[b, c]`` of ``(x - mean[c]) ** 2``."""
    outer, channels, inner = x.shape
    for b in prange(sums.shape[0]):
        for o in range(b * block, min((b + 1) * block, outer)):
            for c in range(channels):
                m = mean[c]
                s = 0.0
                q = 0.0
                for i in range(inner):
                    v = np.float64(x[o, c, i])
                    s += v
                    q += (v - m) * (v - m)
                sums[b, c] += s
                squares[b, c] += q


def _grad_sums(dy, x, mean, inv_std, block, dy_sums, dy_xhat_sums):
    """Per block: ``dy_sums[b, c]`` of ``dy`` and ``dy_xhat_sums[b, c]`` of ``dy * (x - mean) * inv_std``."""
    outer, channels, inner = x.shape
    for b in prange(dy_sums.shape[0]):
        for o in range(b * block, min((b + 1) * block, outer)):
            for c in range(channels):
                m, r = mean[c], inv_std[c]
                s = 0.0
                q = 0.0
                for i in range(inner):
                    g = np.float64(dy[o, c, i])
                    s += g
                    q += g * ((np.float64(x[o, c, i]) - m) * r)
                dy_sums[b, c] += s
                dy_xhat_sums[b, c] += q


def _affine(x, shift, factor, offset, y):
    """``y = (x - shift[c]) * factor[c] + offset[c]`` in ``y``'s precision (float32 for float32 data)."""
    outer, channels, inner = x.shape
    for o in prange(outer):
        for c in range(channels):
            s, f, t = shift[c], factor[c], offset[c]
            for i in range(inner):
                y[o, c, i] = (x[o, c, i] - s) * f + t


def _train_backprop(dy, x, mean, inv_std, coef, dy_mean, dy_xhat_mean, dx):
    """``dx = coef * (dy - mean(dy) - x_hat * mean(dy * x_hat))``, ``x_hat = (x - mean) * inv_std``."""
    outer, channels, inner = x.shape
    for o in prange(outer):
        for c in range(channels):
            m, r, k, gm, gx = mean[c], inv_std[c], coef[c], dy_mean[c], dy_xhat_mean[c]
            for i in range(inner):
                x_hat = (np.float64(x[o, c, i]) - m) * r
                dx[o, c, i] = k * (np.float64(dy[o, c, i]) - gm - x_hat * gx)


_SUMS = twins.LazyTwin(_channel_sums)
_GRAD_SUMS = twins.LazyTwin(_grad_sums)
_AFFINE = twins.LazyTwin(_affine)
_TRAIN_BACKPROP = twins.LazyTwin(_train_backprop)


def _layout(x, data_format):
    """``x`` as ``(outer, channels, inner)``, a view."""
    if data_format.startswith("NC"):
        return x.reshape(x.shape[0], x.shape[1], -1)
    return x.reshape(-1, x.shape[-1], 1)


def _blocks(outer, channels, inner):
    block = max(1, _BLOCK_ELEMENTS // max(channels * inner, 1))
    return block, -(-outer // block)


def _channel_totals(kernel, size, layout, *arrays):
    """Run a block-sum ``kernel`` over ``layout`` and add its two partial-sum tables in block order."""
    block, count = _blocks(*layout.shape)
    first = np.zeros((count, layout.shape[1]))
    second = np.zeros((count, layout.shape[1]))
    twins.launch(kernel, size, *arrays, block, first, second)
    return first.sum(axis=0), second.sum(axis=0)


def _fits(*arrays):
    return all(isinstance(a, np.ndarray) and a.dtype in _FLOATS and a.flags.c_contiguous for a in arrays)


@register("FusedBatchNormV3")
def fused_batch_norm(ctx, x, scale, offset, mean, variance):
    a = ctx.attrs
    if not _fits(x) or x.size == 0 or not a["is_training"] and not _fits(mean, variance):
        return ref.fused_batch_norm(ctx, x, scale, offset, mean, variance)
    channels = ref.check_batch_norm_inputs(x, scale, offset, mean, variance, a)
    view = _layout(x, a["data_format"])
    eps = np.float32(a["epsilon"])
    if a["is_training"]:
        n = x.size // channels
        sums, _ = _channel_totals(_SUMS, x.size, view, view, np.zeros(channels))
        batch_mean = sums / n
        _, squares = _channel_totals(_SUMS, x.size, view, view, batch_mean)
        used_mean, used_var = batch_mean.astype(np.float32), (squares / n).astype(np.float32)
        out_mean, out_var = ref.running_stats(a, mean, variance, used_mean, used_var, n)
    else:
        used_mean, used_var = mean.astype(np.float32), variance.astype(np.float32)
        out_mean, out_var = used_mean.copy(), used_var.copy()
    factor = (np.float32(1) / np.sqrt(used_var + eps)) * scale.astype(np.float32)
    shift = used_mean.astype(x.dtype)
    y = np.empty_like(x)
    twins.launch(_AFFINE, x.size, view, shift, factor.astype(x.dtype), offset.astype(x.dtype),
                 _layout(y, a["data_format"]))
    return y, out_mean, out_var, used_mean.copy(), used_var.copy(), np.zeros(0, np.float32)


@register("FusedBatchNormGradV3")
def fused_batch_norm_grad(ctx, dy, x, scale, saved_mean, saved_var, reserve_3):
    a = ctx.attrs
    if not _fits(dy, x) or dy.dtype != x.dtype or dy.shape != x.shape or x.size == 0:
        return ref.fused_batch_norm_grad(ctx, dy, x, scale, saved_mean, saved_var, reserve_3)
    fmt = a["data_format"]
    view, grads = _layout(x, fmt), _layout(dy, fmt)
    mean = saved_mean.astype(np.float64)
    inv_std = 1 / np.sqrt(saved_var.astype(np.float64) + np.float32(a["epsilon"]))
    dy_sums, dy_xhat_sums = _channel_totals(_GRAD_SUMS, x.size, view, grads, view, mean, inv_std)
    coef = scale.astype(np.float64) * inv_std
    dx = np.empty_like(dy)
    if a["is_training"]:
        n = x.size // view.shape[1]
        twins.launch(_TRAIN_BACKPROP, x.size, grads, view, mean, inv_std, coef, dy_sums / n, dy_xhat_sums / n,
                     _layout(dx, fmt))
    else:
        zeros = np.zeros(view.shape[1], dy.dtype)
        twins.launch(_AFFINE, x.size, grads, zeros, coef.astype(dy.dtype), zeros, _layout(dx, fmt))
    empty = np.zeros(0, np.float32)
    return dx, dy_xhat_sums.astype(np.float32), dy_sums.astype(np.float32), empty, empty.copy()


# -- LRN -------------------------------------------------------------------------------------
def _lrn(x, radius, bias, alpha, beta, y):
    rows, depth = x.shape
    for r in prange(rows):
        for j in range(depth):
            total = 0.0
            for k in range(max(0, j - radius), min(depth, j + radius + 1)):
                v = np.float64(x[r, k])
                total += v * v
            y[r, j] = x[r, j] * (bias + alpha * total) ** -beta


def _lrn_grad(dy, x, y, radius, bias, alpha, beta, power, share, dx):
    """TF's LRNGrad, gathered per input channel: ``dx[k] = dy[k] * norm[k] ** -beta - 2 * alpha * beta *
    x[k] * sum over the window of k of dy[j] * y[j] / norm[j]``; ``power`` and ``share`` are scratch rows."""
    rows, depth = x.shape
    for r in prange(rows):
        for j in range(depth):
            total = 0.0
            for k in range(max(0, j - radius), min(depth, j + radius + 1)):
                v = np.float64(x[r, k])
                total += v * v
            norm = bias + alpha * total
            power[r, j] = norm ** -beta
            share[r, j] = np.float64(dy[r, j]) * np.float64(y[r, j]) / norm
        for k in range(depth):
            spread = 0.0
            for j in range(max(0, k - radius), min(depth, k + radius + 1)):
                spread += share[r, j]
            dx[r, k] = np.float64(dy[r, k]) * power[r, k] - 2.0 * alpha * beta * np.float64(x[r, k]) * spread


_LRN = twins.LazyTwin(_lrn)
_LRN_GRAD = twins.LazyTwin(_lrn_grad)


def _lrn_params(attrs):
    return (int(attrs["depth_radius"]), float(np.float32(attrs["bias"])), float(np.float32(attrs["alpha"])),
            float(np.float32(attrs["beta"])))


@register("LRN")
def lrn(ctx, x):
    if not _fits(x) or x.size == 0:
        return ref.lrn(ctx, x)
    ref.check_lrn_input(x, ctx.attrs["depth_radius"])
    rows = x.reshape(-1, x.shape[-1])
    y = np.empty_like(x)
    twins.launch(_LRN, x.size * (2 * ctx.attrs["depth_radius"] + 1), rows, *_lrn_params(ctx.attrs),
                 y.reshape(rows.shape))
    return y


@register("LRNGrad")
def lrn_grad(ctx, dy, x, y):
    if not _fits(dy, x, y) or x.size == 0 or not dy.shape == x.shape == y.shape or dy.dtype != x.dtype:
        return ref.lrn_grad(ctx, dy, x, y)
    ref.check_lrn_input(x, ctx.attrs["depth_radius"])
    shape = (math.prod(x.shape[:-1]), x.shape[-1])
    dx = np.empty_like(dy)
    scratch = np.empty((2,) + shape)
    twins.launch(_LRN_GRAD, x.size * (2 * ctx.attrs["depth_radius"] + 1), dy.reshape(shape), x.reshape(shape),
                 y.reshape(shape), *_lrn_params(ctx.attrs), scratch[0], scratch[1], dx.reshape(shape))
    return dx
