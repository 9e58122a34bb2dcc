"""NumPy kernels of the nn ops: activations, softmax, the cross-entropy losses and bias_add.

Registered under the device type ``"reference"`` like those of ``reference.py`` (which imports this
module). Softmax and the losses work on ``logits - max(logits)``, in float32 for float16 inputs, as
TensorFlow's kernels do. The convolutions' kernels are in ``reference_conv.py``.
"""

import numpy as np

from numflow_kernels.errors import dims_text
from numflow_kernels.float_errors import quiet_call
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
    return quiet_call(np.add, value, bias)


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

