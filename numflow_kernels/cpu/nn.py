"""Numba kernels of the nn ops a training step runs at every layer: relu, its gradient, and the
softmax cross-entropy losses.

The numpy references (``reference_nn.py``, ``grad.py``) take one numpy call per step: numpy's
reductions along a short last axis cost microseconds each (at a training batch the loss took
longer than the matrix product feeding it), and relu and its gradient make two passes over memory
(a mask, then the product). These compute TensorFlow's formulas in one pass, for float32 and
float64 C-contiguous arrays; other inputs (float16, broadcast labels, no classes) go to the
references. Numba is imported when one of them first runs.
"""

import numpy as np

from numflow_kernels import grad, reference_nn
from numflow_kernels.cpu import eigen_float32, twins
from numflow_kernels.cpu.lazy_loops import LazyLoops
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _softmax_rows(logits, i, out):
    """``out[j] = exp(logits[i, j] - max_j logits[i, :])``; returns ``(max, sum of out)``. A NaN spreads."""
    row = logits[i]
    top = row[0]
    for j in range(1, row.shape[0]):
        if row[j] > top or row[j] != row[j]:
            top = row[j]
    total = row.dtype.type(0)
    for j in range(row.shape[0]):
        out[j] = np.exp(row[j] - top)
        total += out[j]
    return top, total


def _sparse_xent(logits, labels, loss, backprop):
    """Fill ``loss`` and ``backprop``; the index of the first label outside ``[0, classes)``, else -1."""
    classes = logits.shape[1]
    for i in range(labels.shape[0]):
        if labels[i] < 0 or labels[i] >= classes:
            return i
    for i in range(labels.shape[0]):
        top, total = _softmax_rows(logits, i, backprop[i])
        label = labels[i]
        loss[i] = np.log(total) - (logits[i, label] - top)
        for j in range(classes):
            backprop[i, j] /= total
        backprop[i, label] -= 1
    return -1


def _dense_xent(logits, labels, loss, backprop):
    """Fill ``loss`` and ``backprop`` for labels given as one probability row per logits row."""
    for i in range(logits.shape[0]):
        top, total = _softmax_rows(logits, i, backprop[i])
        log_total = np.log(total)
        row_loss = logits.dtype.type(0)
        for j in range(logits.shape[1]):
            row_loss += labels[i, j] * (log_total - (logits[i, j] - top))
            backprop[i, j] = backprop[i, j] / total - labels[i, j]
        loss[i] = row_loss
    return -1


# _kernel(fn): fn's loop, with the row helper it calls
_kernel = LazyLoops(globals(), ("_softmax_rows",), error_model="numpy")


def _fits(logits, labels):
    return logits.ndim == 2 and logits.dtype in _FLOATS and logits.shape[1] > 0 and logits.flags.c_contiguous


@register("SparseSoftmaxCrossEntropyWithLogits")
def sparse_softmax_xent(ctx, logits, labels):
    if not (_fits(logits, labels) and labels.ndim == 1 and labels.shape[0] == logits.shape[0]):
        return reference_nn.sparse_softmax_xent(ctx, logits, labels)
    loss = np.empty(logits.shape[0], logits.dtype)
    backprop = np.empty_like(logits)
    fill = eigen_float32.compiled(eigen_float32.sparse_xent) if logits.dtype == np.float32 else _kernel(_sparse_xent)
    if fill(logits, labels, loss, backprop) >= 0:
        return reference_nn.sparse_softmax_xent(ctx, logits, labels)  # raises TensorFlow's error
    return loss, backprop


@register("SoftmaxCrossEntropyWithLogits")
def softmax_xent(ctx, logits, labels):
    if not (_fits(logits, labels) and labels.shape == logits.shape and labels.dtype == logits.dtype
            and labels.flags.c_contiguous):
        return reference_nn.softmax_xent(ctx, logits, labels)
    loss = np.empty(logits.shape[0], logits.dtype)
    backprop = np.empty_like(logits)
    fill = eigen_float32.compiled(eigen_float32.dense_xent) if logits.dtype == np.float32 else _kernel(_dense_xent)
    fill(logits, labels, loss, backprop)
    return loss, backprop


def _relu(x, out):
    zero = x.dtype.type(0)
    for i in prange(x.shape[0]):
        v = x[i]
        out[i] = v if v > zero or v != v else zero  # as TF: a NaN stays NaN, -0.0 becomes 0.0


def _relu_grad(dy, features, out):
    zero = dy.dtype.type(0)
    for i in prange(dy.shape[0]):
        out[i] = dy[i] * (features[i] > zero)  # dy * 0 where cut: an infinite dy gives NaN, as in TF


_RELU = twins.LazyTwin(_relu)
_RELU_GRAD = twins.LazyTwin(_relu_grad)


def _flat_floats(*arrays):
    """The arrays as flat views when all are C-contiguous ndarrays of one float dtype and shape, else None."""
    first = arrays[0]
    if not all(isinstance(a, np.ndarray) and a.dtype == first.dtype and a.shape == first.shape
               and a.flags.c_contiguous for a in arrays) or first.dtype not in _FLOATS:
        return None
    return [a.reshape(a.size) for a in arrays]


@register("Relu")
def relu(ctx, x):
    flat = _flat_floats(x)
    if flat is None:
        return reference_nn.relu(ctx, x)
    out = np.empty_like(x)
    twins.launch(_RELU, x.size, flat[0], out.reshape(out.size))
    return out


@register("ReluGrad")
def relu_grad(ctx, dy, features):
    flat = _flat_floats(dy, features)
    if flat is None:
        return grad.relu_grad(ctx, dy, features)
    out = np.empty_like(dy)
    twins.launch(_RELU_GRAD, dy.size, *flat, out.reshape(out.size))
    return out
