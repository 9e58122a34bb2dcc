"""Kernels of the fractional pools, FractionalMaxPool and FractionalAvgPool, and their gradients,
FractionalMaxPoolGrad and FractionalAvgPoolGrad, drawing TensorFlow's pooling sequences for its seeds.

Spec: TensorFlow's ``fractional_pool_common.cc``, ``fractional_max_pool_op.cc`` and
``fractional_avg_pool_op.cc``. An output dimension is ``floor(input / pooling_ratio)``. Its pooling
sequence ``0 = s[0] < ... < s[out] = input`` steps by ``k = input // out`` or ``k + 1``: in random
mode, ``input % out`` steps of ``k + 1`` first, shuffled by ``RandomShuffle`` with ``word % n``; in
pseudo-random mode ``s[i] = ceil(alpha * (i + u)) - 1`` with ``alpha = input / out`` and ``u`` one
``RandDouble`` times ``min((k + 2) / alpha - 1, (input + 1 - k) / alpha - (out - 1))``. Every run
starts a generator of ``(seed, seed2)`` at counter 0 (random seeds each run unless ``deterministic``,
which keeps one pair per op: its own or, both 0, drawn once); the rows take the first
``ReserveSamples32`` (``ceil(out / 4)`` Philox calls, one for pseudo-random), the columns the next.

Output ``(i, j)`` pools rows ``s[i] .. s[i + 1] - 1`` (to ``s[i + 1]`` when ``overlapping``, within
the input), likewise columns: the maximum (its gradient to the first strict maximum in row-major
order) or the mean, summed in row-major order; its gradient spreads ``grad / count`` (in the grad's
dtype), added in float64.
"""

import math
import os

import numpy as np

from numflow_kernels.buffer_ops import random_stream
from numflow_kernels.reference_sampling import SimplePhilox
from numflow_kernels.registry import REFERENCE, register


def output_size(size, ratio):
    """An output dimension of a fractional pool: ``floor(size / ratio)``."""
    return int(math.floor(size / ratio))


def _random_steps(n, out, rnd):
    k = n // out
    steps = [k + 1] * (n % out) + [k] * (out - n % out)
    for i in range(out - 1):
        j = i + rnd.rand32() % (out - i)
        steps[i], steps[j] = steps[j], steps[i]
    return steps


def _pseudo_random_steps(n, out, rnd):
    alpha, k = n / out, n // out
    u = rnd.rand_double() * min((k + 2) / alpha - 1, (n + 1 - k) / alpha - (out - 1))
    cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, out)] + [n + 1]
    return [cum[i + 1] - cum[i] for i in range(out)]


def pooling_sequences(sizes, outs, seeds, pseudo_random):
    """The row and column pooling sequences (int64, ``out + 1`` values each) of inputs of ``sizes``
    pooled to ``outs``, drawn from the Philox stream ``seeds`` as TensorFlow draws them."""
    sequences, counter = [], 0
    for n, out in zip(sizes, outs):
        rnd = SimplePhilox(seeds[0], seeds[1], counter)
        steps = (_pseudo_random_steps if pseudo_random else _random_steps)(n, out, rnd)
        counter += 1 if pseudo_random else (out + 3) // 4
        sequences.append(np.concatenate([[0], np.cumsum(steps)]).astype(np.int64))
    return sequences


def _seeds(ctx):
    a = ctx.attrs
    if a["deterministic"]:
        stream = random_stream(ctx)
        return stream.seed, stream.seed2
    if a["seed"] or a["seed2"]:
        raise ValueError("Both seed and seed2 should be 0 if deterministic is false.")
    return tuple(int.from_bytes(os.urandom(8), "little") >> 1 for _ in range(2))


def _output_sizes(ctx, x):
    ratio = list(ctx.attrs["pooling_ratio"])
    if x.ndim != 4:
        raise ValueError(f"input must be 4-dimensional, got shape {list(x.shape)}")
    if ratio[0] != 1 or ratio[3] != 1:
        kind = "max" if ctx.op_type == "FractionalMaxPool" else "average"
        raise NotImplementedError(f"Fractional {kind} pooling is not yet supported on the batch nor channel "
                                  "dimension.")
    outs = []
    for d in (1, 2):
        out = output_size(x.shape[d], ratio[d])
        if out <= 0:
            raise ValueError(f"Pooling ratio is higher than input dimension size for dimension {d}. Input dim "
                             f"size: {x.shape[d]} pooling ratio: {ratio[d]}")
        outs.append(out)
    return outs


def cells(sequence, size, overlapping):
    """``(start, stop)`` of each pooling cell of ``sequence`` over a dimension of ``size`` (stop exclusive)."""
    stops = sequence[1:] + (1 if overlapping else 0)
    return [(int(a), int(min(b, size))) for a, b in zip(sequence[:-1], stops)]


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _pool(x, rows, cols, overlapping, is_max):
    out = np.empty((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
    for i, (r0, r1) in enumerate(cells(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(cells(cols, x.shape[2], overlapping)):
            taps = x[:, r0:r1, c0:c1].reshape(x.shape[0], -1, x.shape[3])
            acc = np.full((x.shape[0], x.shape[3]), _lowest(x.dtype), x.dtype) if is_max else \
                np.zeros((x.shape[0], x.shape[3]), x.dtype)
            for t in range(taps.shape[1]):  # row-major order, as TensorFlow adds them
                acc = np.maximum(acc, taps[:, t]) if is_max else acc + taps[:, t]
            out[:, i, j] = acc if is_max else acc / x.dtype.type(taps.shape[1])
    return out


@register("FractionalMaxPool", REFERENCE)
@register("FractionalAvgPool", REFERENCE)
def fractional_pool(ctx, x):
    outs = _output_sizes(ctx, x)
    rows, cols = pooling_sequences(x.shape[1:3], outs, _seeds(ctx), ctx.attrs["pseudo_random"])
    out = _pool(x, rows, cols, ctx.attrs["overlapping"], ctx.op_type == "FractionalMaxPool")
    return out, rows, cols


def _checked_cells(ctx, shape, grad, rows, cols):
    want = (shape[0], len(rows) - 1, len(cols) - 1, shape[3])
    if tuple(grad.shape) != want:
        raise ValueError(f"{ctx.op_type}: out_backprop must have the shape {list(want)}, got {list(grad.shape)}")
    overlapping = ctx.attrs["overlapping"]
    return cells(rows, shape[1], overlapping), cells(cols, shape[2], overlapping)


@register("FractionalMaxPoolGrad", REFERENCE)
def fractional_max_pool_grad(ctx, orig_input, orig_output, grad, rows, cols):
    row_cells, col_cells = _checked_cells(ctx, orig_input.shape, grad, rows, cols)
    dx = np.zeros_like(orig_input, dtype=grad.dtype)
    batch, depth = np.arange(orig_input.shape[0])[:, None], np.arange(orig_input.shape[3])
    for i, (r0, r1) in enumerate(row_cells):
        for j, (c0, c1) in enumerate(col_cells):
            taps = orig_input[:, r0:r1, c0:c1].reshape(orig_input.shape[0], -1, orig_input.shape[3])
            first = np.argmax(taps == taps.max(axis=1, keepdims=True), axis=1)
            h, w = r0 + first // (c1 - c0), c0 + first % (c1 - c0)
            dx[batch, h, w, depth] += grad[:, i, j]
    return dx


@register("FractionalAvgPoolGrad", REFERENCE)
def fractional_avg_pool_grad(ctx, orig_input_shape, grad, rows, cols):
    shape = [int(s) for s in np.asarray(orig_input_shape).reshape(-1)]
    if len(shape) != 4:
        raise ValueError(f"original input tensor shape must be 1-dimensional and 4 elements, got {shape}")
    row_cells, col_cells = _checked_cells(ctx, shape, grad, rows, cols)
    dx = np.zeros(shape, np.float64)
    for i, (r0, r1) in enumerate(row_cells):
        for j, (c0, c1) in enumerate(col_cells):
            share = (grad[:, i, j] / grad.dtype.type((r1 - r0) * (c1 - c0))).astype(np.float64)
            dx[:, r0:r1, c0:c1] += share[:, None, None, :]
    return dx.astype(grad.dtype)
