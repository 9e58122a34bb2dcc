"""GPU kernels of FusedBatchNormV3 and FusedBatchNormGradV3: the CPU kernels' formulas on device arrays.

``x`` is seen as ``(outer, channels, inner)`` as on the CPU (``cpu/norm.py``). Each channel's sums
are one CUDA block's: its threads add strided elements in order, in float64, then halve a
shared-memory table in a fixed tree, so a run gives the same bits every time (they may differ from
the CPU's in the last bits: the order of the additions differs). The per-channel vectors (mean,
variance, the scale factors: a few numbers per channel) are formed on the host with the CPU
kernels' code; the elementwise passes run on the device.
"""

import functools

import numpy as np
from numba import cuda  # a module global, as the simulator requires; importing it touches no driver

from numflow_kernels import reference_norm as ref
from numflow_kernels import tuning
from numflow_kernels.registry import register

GPU = "GPU"
_THREADS = tuning.CUDA_BATCH_NORM_THREADS  # a global: the kernels' shared tables are sized by it


@functools.cache
def _kernels():
    """The CUDA kernels, compiled on first use."""

    @cuda.jit(device=True)
    def block_total(table, value):
        """The sum over the block's threads of ``value``, by a fixed halving tree in ``table``."""
        t = cuda.threadIdx.x
        table[t] = value
        cuda.syncthreads()
        half = cuda.blockDim.x // 2
        while half > 0:
            if t < half:
                table[t] += table[t + half]
            cuda.syncthreads()
            half //= 2
        total = table[0]
        cuda.syncthreads()
        return total

    @cuda.jit
    def channel_sums(x, shift, inv_std, weights, use_weights, sums, weighted):
        """Block c: ``sums[c]`` of ``x`` (minus ``shift`` squared, when no weights) and ``weighted[c]`` of
        ``weights * (x - shift) * inv_std``."""
        c = cuda.blockIdx.x
        outer, channels, inner = x.shape
        table = cuda.shared.array(_THREADS, np.float64)
        plain = 0.0
        other = 0.0
        for k in range(cuda.threadIdx.x, outer * inner, cuda.blockDim.x):
            o, i = k // inner, k % inner
            v = np.float64(x[o, c, i])
            if use_weights:
                g = np.float64(weights[o, c, i])
                plain += g
                other += g * (v - shift[c]) * inv_std[c]
            else:
                plain += v
                other += (v - shift[c]) * (v - shift[c])
        plain = block_total(table, plain)
        other = block_total(table, other)
        if cuda.threadIdx.x == 0:
            sums[c] = plain
            weighted[c] = other

    @cuda.jit
    def affine(x, shift, factor, offset, y):
        outer, channels, inner = x.shape
        for k in range(cuda.grid(1), x.size, cuda.gridsize(1)):
            o, rest = k // (channels * inner), k % (channels * inner)
            c, i = rest // inner, rest % inner
            y[o, c, i] = (x[o, c, i] - shift[c]) * factor[c] + offset[c]

    @cuda.jit
    def train_backprop(dy, x, mean, inv_std, coef, dy_mean, dy_xhat_mean, dx):
        outer, channels, inner = x.shape
        for k in range(cuda.grid(1), x.size, cuda.gridsize(1)):
            o, rest = k // (channels * inner), k % (channels * inner)
            c, i = rest // inner, rest % inner
            x_hat = (np.float64(x[o, c, i]) - mean[c]) * inv_std[c]
            dx[o, c, i] = coef[c] * (np.float64(dy[o, c, i]) - dy_mean[c] - x_hat * dy_xhat_mean[c])

    return channel_sums, affine, train_backprop


def _layout(x, data_format):
    shape = tuple(x.shape)
    if data_format.startswith("NC"):
        return x.reshape(shape[0], shape[1], x.size // max(shape[0] * shape[1], 1))
    return x.reshape(x.size // max(shape[-1], 1), shape[-1], 1)


def _grid(n):
    return max(1, min(tuning.CUDA_MAX_BLOCKS, -(-n // _THREADS))), _THREADS


def _sums(view, shift, inv_std=None, weights=None):
    channels = view.shape[1]
    sums, weighted = cuda.device_array(channels, np.float64), cuda.device_array(channels, np.float64)
    use_weights = weights is not None
    inv_std = cuda.to_device(inv_std if inv_std is not None else np.ones(channels))
    _kernels()[0][channels, _THREADS](view, cuda.to_device(shift), inv_std, weights if use_weights else view,
                                      use_weights, sums, weighted)
    return sums.copy_to_host(), weighted.copy_to_host()


@register("FusedBatchNormV3", GPU)
def fused_batch_norm(ctx, x, scale, offset, mean, variance):
    a = ctx.attrs
    host = [ctx.device.copy_out(v) for v in (scale, offset, mean, variance)]
    if x.dtype not in (np.float32, np.float64) or x.size == 0:
        results = ref.fused_batch_norm(ctx, ctx.device.copy_out(x), *host)
        return tuple(ctx.device.copy_in(np.asarray(r)) for r in results)
    scale, offset, mean, variance = host
    channels = ref.check_batch_norm_inputs(x, scale, offset, mean, variance, a)
    view = _layout(x, a["data_format"])
    if a["is_training"]:
        n = x.size // channels
        sums, _ = _sums(view, np.zeros(channels))
        batch_mean = sums / n
        _, squares = _sums(view, batch_mean)
        used_mean, used_var = batch_mean.astype(np.float32), (squares / n).astype(np.float32)
        out_mean, out_var = ref.running_stats(a, mean, variance, used_mean, used_var, n)
    else:
        used_mean, used_var = mean.astype(np.float32), variance.astype(np.float32)
        out_mean, out_var = used_mean.copy(), used_var.copy()
    factor = (np.float32(1) / np.sqrt(used_var + np.float32(a["epsilon"]))) * scale.astype(np.float32)
    y = ctx.device.alloc(x.shape, x.dtype)
    vectors = [cuda.to_device(v.astype(x.dtype)) for v in (used_mean, factor, offset)]
    _kernels()[1][_grid(x.size)](view, *vectors, _layout(y, a["data_format"]))
    host_outputs = (out_mean, out_var, used_mean, used_var, np.zeros(0, np.float32))
    return (y,) + tuple(ctx.device.copy_in(np.asarray(v, np.float32)) for v in host_outputs)


@register("FusedBatchNormGradV3", GPU)
def fused_batch_norm_grad(ctx, dy, x, scale, saved_mean, saved_var, reserve_3):
    a = ctx.attrs
    host = [ctx.device.copy_out(v) for v in (scale, saved_mean, saved_var, reserve_3)]
    if x.dtype not in (np.float32, np.float64) or x.size == 0 or dy.dtype != x.dtype:
        results = ref.fused_batch_norm_grad(ctx, ctx.device.copy_out(dy), ctx.device.copy_out(x), *host)
        return tuple(ctx.device.copy_in(np.asarray(r)) for r in results)
    scale, saved_mean, saved_var, _ = host
    fmt = a["data_format"]
    view, grads = _layout(x, fmt), _layout(dy, fmt)
    mean = saved_mean.astype(np.float64)
    inv_std = 1 / np.sqrt(saved_var.astype(np.float64) + np.float32(a["epsilon"]))
    dy_sums, dy_xhat_sums = _sums(view, mean, inv_std, grads)
    coef = scale.astype(np.float64) * inv_std
    dx = ctx.device.alloc(dy.shape, dy.dtype)
    if a["is_training"]:
        n = x.size // view.shape[1]
        args = [cuda.to_device(v) for v in (mean, inv_std, coef, dy_sums / n, dy_xhat_sums / n)]
        _kernels()[2][_grid(x.size)](grads, view, *args, _layout(dx, fmt))
    else:
        zeros = cuda.to_device(np.zeros(view.shape[1], dy.dtype))
        _kernels()[1][_grid(x.size)](grads, zeros, cuda.to_device(coef.astype(dy.dtype)), zeros, _layout(dx, fmt))
    empty = np.zeros(0, np.float32)
    host_outputs = (dy_xhat_sums.astype(np.float32), dy_sums.astype(np.float32), empty, empty)
    return (dx,) + tuple(ctx.device.copy_in(v) for v in host_outputs)
