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
import threading

import numpy as np

from numflow_kernels import reference_norm as ref
from numflow_kernels import tuning
from numflow_kernels.cpu import twins
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _channel_sums(x, block, sums, squares):
    """Per block of ``x``'s outer axis and channel: the sum, and the sum of squares about the block's own
    mean (a second pass over the block while it is in cache). Channels-last data (``inner == 1``) runs
    along the contiguous channels."""
    outer, channels, inner = x.shape
    for b in prange(sums.shape[0]):
        s, q = sums[b], squares[b]
        first, last = b * block, min((b + 1) * block, outer)
        if inner == 1:
            for o in range(first, last):
                for c in range(channels):
                    s[c] += np.float64(x[o, c, 0])
            means = s / (last - first)
            for o in range(first, last):
                for c in range(channels):
                    d = np.float64(x[o, c, 0]) - means[c]
                    q[c] += d * d
            continue
        for o in range(first, last):
            for c in range(channels):
                s[c] += _lane_sum(x[o, c], 0.0, False)
        for o in range(first, last):
            for c in range(channels):
                q[c] += _lane_sum(x[o, c], s[c] / ((last - first) * inner), True)


def _lane_sum(row, shift, square):
    """``sum(row - shift)`` or ``sum((row - shift) ** 2)`` in float64, over four interleaved lanes added
    at the end (a fixed order that the CPU can run four at a time)."""
    n = row.shape[0]
    t0 = t1 = t2 = t3 = 0.0
    end = n - n % 4
    for i in range(0, end, 4):
        d0, d1 = np.float64(row[i]) - shift, np.float64(row[i + 1]) - shift
        d2, d3 = np.float64(row[i + 2]) - shift, np.float64(row[i + 3]) - shift
        if square:
            d0, d1, d2, d3 = d0 * d0, d1 * d1, d2 * d2, d3 * d3
        t0 += d0
        t1 += d1
        t2 += d2
        t3 += d3
    for i in range(end, n):
        d = np.float64(row[i]) - shift
        t0 += d * d if square else d
    return (t0 + t1) + (t2 + t3)


def _grad_sums(dy, x, mean, inv_std, block, dy_sums, dy_xhat_sums):
    """Per block: ``dy_sums[b, c]`` of ``dy`` and ``dy_xhat_sums[b, c]`` of ``dy * (x - mean) * inv_std``."""
    outer, channels, inner = x.shape
    for b in prange(dy_sums.shape[0]):
        s, q = dy_sums[b], dy_xhat_sums[b]
        for o in range(b * block, min((b + 1) * block, outer)):
            if inner == 1:
                for c in range(channels):
                    g = np.float64(dy[o, c, 0])
                    s[c] += g
                    q[c] += g * ((np.float64(x[o, c, 0]) - mean[c]) * inv_std[c])
                continue
            for c in range(channels):
                s[c] += _lane_sum(dy[o, c], 0.0, False)
                q[c] += _lane_dot(dy[o, c], x[o, c], mean[c]) * inv_std[c]


def _lane_dot(weights, row, shift):
    """``sum(weights * (row - shift))`` in float64 over four interleaved lanes, as :func:`_lane_sum`."""
    n = row.shape[0]
    t0 = t1 = t2 = t3 = 0.0
    end = n - n % 4
    for i in range(0, end, 4):
        t0 += np.float64(weights[i]) * (np.float64(row[i]) - shift)
        t1 += np.float64(weights[i + 1]) * (np.float64(row[i + 1]) - shift)
        t2 += np.float64(weights[i + 2]) * (np.float64(row[i + 2]) - shift)
        t3 += np.float64(weights[i + 3]) * (np.float64(row[i + 3]) - shift)
    for i in range(end, n):
        t0 += np.float64(weights[i]) * (np.float64(row[i]) - shift)
    return (t0 + t1) + (t2 + t3)


def _affine(x, shift, factor, offset, y):
    """``y = (x - shift[c]) * factor[c] + offset[c]`` in ``y``'s precision (float32 for float32 data)."""
    outer, channels, inner = x.shape
    for o in prange(outer):
        if inner == 1:
            for c in range(channels):
                y[o, c, 0] = (x[o, c, 0] - shift[c]) * factor[c] + offset[c]
            continue
        for c in range(channels):
            s, f, t = shift[c], factor[c], offset[c]
            for i in range(inner):
                y[o, c, i] = (x[o, c, i] - s) * f + t


def _train_backprop(dy, x, mean, inv_std, coef, dy_mean, dy_xhat_mean, dx):
    """``dx = coef * (dy - mean(dy) - x_hat * mean(dy * x_hat))``, ``x_hat = (x - mean) * inv_std``."""
    outer, channels, inner = x.shape
    for o in prange(outer):
        if inner == 1:
            for c in range(channels):
                x_hat = (np.float64(x[o, c, 0]) - mean[c]) * inv_std[c]
                dx[o, c, 0] = coef[c] * (np.float64(dy[o, c, 0]) - dy_mean[c] - x_hat * dy_xhat_mean[c])
            continue
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
    block = max(1, tuning.BATCH_NORM_BLOCK_ELEMENTS // max(channels * inner, 1))
    return block, -(-outer // block)


def _block_tables(kernel, size, layout, *arrays):
    """Run a block-sum ``kernel`` over ``layout``: its two ``[blocks, channels]`` tables and the rows per block."""
    _compile_helpers()
    block, count = _blocks(*layout.shape)
    first = np.zeros((count, layout.shape[1]))
    second = np.zeros((count, layout.shape[1]))
    twins.launch(kernel, size, *arrays, block, first, second)
    return first, second, block


def _mean_and_variance(layout, size):
    """Per-channel mean and biased variance: the blocks' sums and squares merged in block order
    (Chan et al.'s pairwise update: each block's squares about its mean, plus its mean's offset)."""
    sums, squares, block = _block_tables(_SUMS, size, layout, layout)
    outer, _, inner = layout.shape
    counts = (np.minimum(np.arange(1, len(sums) + 1) * block, outer) - np.arange(len(sums)) * block) * inner
    n = outer * inner
    mean = sums.sum(axis=0) / n
    block_means = sums / counts[:, None]
    return mean, (squares + counts[:, None] * (block_means - mean) ** 2).sum(axis=0) / n


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
        batch_mean, batch_var = _mean_and_variance(view, x.size)
        used_mean, used_var = batch_mean.astype(np.float32), batch_var.astype(np.float32)
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
    dy_tables, dy_xhat_tables, _ = _block_tables(_GRAD_SUMS, x.size, view, grads, view, mean, inv_std)
    dy_sums, dy_xhat_sums = dy_tables.sum(axis=0), dy_xhat_tables.sum(axis=0)
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
def _inverse_powers(norms, beta):
    """``norms ** -beta`` in place: roots for AlexNet's 0.75 and the common 0.5 and 1 (pow is slow), each
    case one loop the CPU can vectorize."""
    n = norms.shape[0]
    if beta == 0.75:
        for j in range(n):
            root = np.sqrt(norms[j])
            norms[j] = 1.0 / (root * np.sqrt(root))
    elif beta == 0.5:
        for j in range(n):
            norms[j] = 1.0 / np.sqrt(norms[j])
    elif beta == 1.0:
        for j in range(n):
            norms[j] = 1.0 / norms[j]
    else:
        for j in range(n):
            norms[j] = np.exp(-beta * np.log(norms[j]))


def _window_sums(values, radius, out):
    """``out[j] = sum(values[max(0, j - radius) : j + radius + 1])``, a running sum in float64."""
    depth = values.shape[0]
    total = 0.0
    for k in range(min(radius, depth)):
        total += values[k]
    for j in range(depth):
        if j + radius < depth:
            total += values[j + radius]
        out[j] = total
        if j - radius >= 0:
            total -= values[j - radius]


def _lrn(x, radius, bias, alpha, beta, scratch, y):
    """Rows of ``x``: ``y = x * (bias + alpha * window sum of x ** 2) ** -beta``; ``scratch`` is [rows, 2, depth]."""
    rows, depth = x.shape
    for r in prange(rows):
        squares, factors = scratch[r, 0], scratch[r, 1]
        for j in range(depth):
            v = np.float64(x[r, j])
            squares[j] = v * v
        _window_sums(squares, radius, factors)
        for j in range(depth):
            factors[j] = bias + alpha * factors[j]
        _inverse_powers(factors, beta)
        for j in range(depth):
            y[r, j] = x[r, j] * factors[j]


def _lrn_grad(dy, x, y, radius, bias, alpha, beta, scratch, dx):
    """TF's LRNGrad, gathered per input channel: ``dx[k] = dy[k] * norm[k] ** -beta - 2 * alpha * beta *
    x[k] * (window sum over j of dy[j] * y[j] / norm[j])``; ``scratch`` is [rows, 3, depth]."""
    rows, depth = x.shape
    for r in prange(rows):
        squares_then_shares, power, spread = scratch[r, 0], scratch[r, 1], scratch[r, 2]
        for j in range(depth):
            v = np.float64(x[r, j])
            squares_then_shares[j] = v * v
        _window_sums(squares_then_shares, radius, power)
        for j in range(depth):
            power[j] = bias + alpha * power[j]  # the norm, for now
            squares_then_shares[j] = np.float64(dy[r, j]) * np.float64(y[r, j]) / power[j]
        _inverse_powers(power, beta)
        _window_sums(squares_then_shares, radius, spread)
        for k in range(depth):
            dx[r, k] = np.float64(dy[r, k]) * power[k] - 2.0 * alpha * beta * np.float64(x[r, k]) * spread[k]


_LRN = twins.LazyTwin(_lrn)
_LRN_GRAD = twins.LazyTwin(_lrn_grad)
_helpers_lock = threading.Lock()
_helpers_compiled = False


def _compile_helpers():
    """Make the row helpers Numba functions before the kernels compile against them."""
    global _helpers_compiled, _window_sums, _inverse_powers, _lane_sum, _lane_dot
    if not _helpers_compiled:
        with _helpers_lock:
            if not _helpers_compiled:
                import numba

                options = dict(nogil=True, cache=True, inline="always")
                _window_sums = numba.njit(**options)(_window_sums)
                _inverse_powers = numba.njit(**options)(_inverse_powers)
                _lane_sum = numba.njit(**options)(_lane_sum)
                _lane_dot = numba.njit(**options)(_lane_dot)
                _helpers_compiled = True


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
    scratch = np.empty((rows.shape[0], 2, rows.shape[1]))
    _compile_helpers()
    twins.launch(_LRN, x.size, rows, *_lrn_params(ctx.attrs), scratch, y.reshape(rows.shape))
    return y


@register("LRNGrad")
def lrn_grad(ctx, dy, x, y):
    if not _fits(dy, x, y) or x.size == 0 or not dy.shape == x.shape == y.shape or dy.dtype != x.dtype:
        return ref.lrn_grad(ctx, dy, x, y)
    ref.check_lrn_input(x, ctx.attrs["depth_radius"])
    shape = (math.prod(x.shape[:-1]), x.shape[-1])
    dx = np.empty_like(dy)
    scratch = np.empty((shape[0], 3, shape[1]))
    _compile_helpers()
    twins.launch(_LRN_GRAD, x.size, dy.reshape(shape), x.reshape(shape), y.reshape(shape), *_lrn_params(ctx.attrs),
                 scratch, dx.reshape(shape))
    return dx
