"""NumPy kernels of the nn ops: activations, softmax, the cross-entropy losses, bias_add and conv2d.

Registered under the device type ``"reference"`` like those of ``reference.py`` (which imports this
module). Softmax and the losses work on ``logits - max(logits)``, in float32 for float16 inputs, as
TensorFlow's kernels do. Conv2D is im2col: the input windows as one strided view, then one matmul.
"""

import numpy as np

from numflow.framework.shapes import dims_text
from numflow_kernels.reference import _invalid, kernel


@kernel("Relu")
def relu(ctx, x):
    return np.maximum(x, np.zeros((), dtype=x.dtype))


@kernel("Relu6")
def relu6(ctx, x):
    return np.clip(x, np.zeros((), dtype=x.dtype), np.asarray(6, dtype=x.dtype))


def _shifted(logits):
    """``logits - max(logits)`` along the last axis, computed in at least float32."""
    x = logits.astype(np.float32) if logits.dtype == np.float16 else logits
    if x.shape[-1] == 0:
        return x
    return x - x.max(axis=-1, keepdims=True)


@kernel("Softmax")
def softmax(ctx, logits):
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(_shifted(logits))
        return (e / np.sum(e, axis=-1, keepdims=True)).astype(logits.dtype, copy=False)


@kernel("LogSoftmax")
def log_softmax(ctx, logits):
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        z = _shifted(logits)
        return (z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))).astype(logits.dtype, copy=False)


@kernel("L2Loss")
def l2_loss(ctx, t):
    x = t.astype(np.float32) if t.dtype == np.float16 else t
    return np.asarray(np.sum(x * x) / 2, dtype=t.dtype)


@kernel("BiasAdd")
def bias_add(ctx, value, bias):
    nchw = ctx.attrs["data_format"] == "NCHW"
    channels = value.shape[1] if nchw else value.shape[-1]
    if bias.shape[0] != channels:
        raise _invalid(
            "Must provide as many biases as the last dimension of the input tensor: "
            f"{dims_text(bias.shape)} vs. {dims_text(value.shape)}"
        )
    if nchw:
        bias = bias.reshape((-1,) + (1,) * (value.ndim - 2))
    with np.errstate(invalid="ignore", over="ignore"):
        return value + bias


@kernel("SoftmaxCrossEntropyWithLogits")
def softmax_xent(ctx, logits, labels):
    try:
        logits_b, labels_b = np.broadcast_arrays(logits, labels)
    except ValueError:
        raise _invalid(
            f"logits and labels must be broadcastable: logits_size={dims_text(logits.shape)} "
            f"labels_size={dims_text(labels.shape)}"
        ) from None
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        z = _shifted(logits_b)
        e = np.exp(z)
        total = np.sum(e, axis=-1, keepdims=True)
        y = labels_b.astype(z.dtype, copy=False)
        loss = np.sum(y * (np.log(total) - z), axis=-1)
        backprop = e / total - y
    return loss.astype(logits.dtype, copy=False), backprop.astype(logits.dtype, copy=False)


@kernel("SparseSoftmaxCrossEntropyWithLogits")
def sparse_softmax_xent(ctx, logits, labels):
    if logits.shape[0] != labels.shape[0]:
        raise _invalid(
            "logits and labels must have the same first dimension, got logits shape "
            f"{dims_text(logits.shape)} and labels shape {dims_text(labels.shape)}"
        )
    classes = logits.shape[1]
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        bad = (labels < 0) | (labels >= classes)
        raise _invalid(
            f"Received a label value of {labels[bad][0]} which is outside the valid range of [0, {classes}).  "
            f"Label values: {' '.join(str(v) for v in labels.tolist())}"
        )
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        z = _shifted(logits)
        backprop = np.exp(z)
        total = backprop.sum(axis=-1, keepdims=True)
        rows = np.arange(len(labels))
        loss = np.log(total[:, 0]) - z[rows, labels]
        backprop /= total
        backprop[rows, labels] -= 1
    return loss.astype(logits.dtype, copy=False), backprop.astype(logits.dtype, copy=False)


# Above this many bytes of patches, conv2d's im2col matrix is built for a few images at a time.
_IM2COL_BYTES = 64 << 20


@kernel("Conv2D")
def conv2d(ctx, x, w):
    """Conv2D by im2col: the input windows as one strided view, then one matmul per group of images."""
    a = ctx.attrs
    nchw = a["data_format"] == "NCHW"
    strides, dilations = a["strides"], a["dilations"]
    if nchw:
        x = np.transpose(x, (0, 2, 3, 1))
        strides, dilations = [strides[i] for i in (0, 2, 3, 1)], [dilations[i] for i in (0, 2, 3, 1)]
    if strides[0] != 1 or strides[3] != 1:
        raise NotImplementedError("Current implementation does not yet support strides in the batch and depth "
                                  "dimensions.")
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    if ci == 0 or c % ci:
        raise _invalid(f"input depth must be evenly divisible by filter depth: {c} vs {ci}")
    pads = conv_pads((h, wd), (kh, kw), strides[1:3], dilations[1:3], a["padding"], a["explicit_paddings"], nchw)
    if any(p for pair in pads for p in pair):
        x = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    out = _im2col_conv(np.ascontiguousarray(x), w, strides[1:3], dilations[1:3], c // ci)
    return np.ascontiguousarray(np.transpose(out, (0, 3, 1, 2))) if nchw else out


def conv_pads(sizes, kernel_sizes, strides, dilations, padding, explicit, nchw):
    """``[(before, after)] * 2`` for the spatial dims by TensorFlow's SAME/VALID/EXPLICIT rules; the error
    TF gives when the output would be empty."""
    pads = []
    for i, (size, k, s, d) in enumerate(zip(sizes, kernel_sizes, strides, dilations)):
        effective = (k - 1) * d + 1
        if padding == "SAME":
            out = (size + s - 1) // s
            total = max((out - 1) * s + effective - size, 0)
            pads.append((total // 2, total - total // 2))
        else:
            pair = tuple(explicit[4 + 2 * i: 6 + 2 * i] if nchw else explicit[2 + 2 * i: 4 + 2 * i]) \
                if padding == "EXPLICIT" else (0, 0)
            out = (size + sum(pair) - effective) // s + 1
            if size + sum(pair) < effective:
                raise _invalid(
                    f"Computed output size would be negative: {out} [input_size: {size}, "
                    f"effective_filter_size: {effective}, stride: {s}]"
                )
            pads.append(pair)
    return pads


def _im2col_conv(x, w, strides, dilations, groups):
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    oh, ow = (h - (kh - 1) * dh - 1) // sh + 1, (wd - (kw - 1) * dw - 1) // sw + 1
    compute = np.float32 if x.dtype == np.float16 else x.dtype
    s0, s1, s2, s3 = x.strides
    windows = np.lib.stride_tricks.as_strided(
        x, (n, oh, ow, kh, kw, c), (s0, s1 * sh, s2 * sw, s1 * dh, s2 * dw, s3), writeable=False
    )
    out = np.empty((n, oh, ow, co), dtype=x.dtype)
    per_image = max(oh * ow * kh * kw * c * np.dtype(compute).itemsize, 1)
    step = max(1, _IM2COL_BYTES // per_image)
    cog = co // groups
    filters = [w[:, :, :, g * cog:(g + 1) * cog].reshape(kh * kw * ci, cog).astype(compute, copy=False)
               for g in range(groups)]
    for start in range(0, n, step):
        chunk = windows[start:start + step]
        rows = chunk.shape[0] * oh * ow
        for g in range(groups):
            patches = chunk[..., g * ci:(g + 1) * ci].reshape(rows, kh * kw * ci).astype(compute, copy=False)
            result = patches @ filters[g]
            out[start:start + step, :, :, g * cog:(g + 1) * cog] = result.reshape(-1, oh, ow, cog)
    return out
