"""CPU kernels of the sparse training ops, and of ``Unique``, which the optimizers use to sum the rows
of a repeated index before them.

Spec: TensorFlow's ``training_ops.cc`` (``SparseApplyMomentum``, ``SparseApplyAdagrad``,
``SparseApplyRMSProp``, ``SparseApplyCenteredRMSProp``). Row ``i`` of ``grad`` updates row
``indices[i]`` of the variable and of its slots with TensorFlow's operations in TensorFlow's order,
in the variable's dtype, so the bits are TensorFlow's; other rows stay as they are::

    momentum:  accum = accum * momentum + g;  var -= lr * accum  (nesterov: var -= lr * g + (lr * momentum) * accum)
    adagrad:   accum += g * g;  var -= lr * g * rsqrt(accum)
    rmsprop:   ms = ms * rho + g * g * (1 - rho);  mom = mom * momentum + rsqrt(ms + epsilon) * lr * g;  var -= mom
    centered:  also mg = mg * rho + g * (1 - rho), and the rsqrt of ms + epsilon - mg * mg

``rsqrt(x)`` is ``1 / sqrt(x)``, rounded twice, as Eigen computes it element by element (rows
narrower than a SIMD packet); on whole packets Eigen's fast approximation may differ in the last bit.

The rows are gathered and scattered with numpy fancy indexing, so an index must not repeat (the
optimizers remove repeats first, as TensorFlow's do). Every index is checked before anything is
written, and the kernels hold the locks of the variable and of every slot while they update.
"""

import contextlib

import numpy as np

from numflow_kernels.buffer_ops import checked_shape
from numflow_kernels.registry import register


@register("Unique")
def unique(ctx, x):
    """``(y, idx)`` with ``y`` in the order of first appearance, as TensorFlow's ``Unique``."""
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return values[order], rank[inverse.reshape(-1)].astype(ctx.attrs["out_idx"])


@contextlib.contextmanager
def _tables(states, names, grad, indices):
    """The variable's and slots' buffers as host ``(rows, width)`` tables, ``grad``'s rows and the
    indices, after TensorFlow's checks; buffers on a device (a variable on a GPU, whose update soft
    placement put here) are copied back on exit. Enter with every state's lock held."""
    shape = checked_shape(states, names)
    if len(shape) < 1:
        raise ValueError("var must be at least 1 dimensional")
    if indices.ndim != 1:
        raise ValueError("indices must be one-dimensional")
    for d in range(1, len(shape)):
        if d >= grad.ndim or grad.shape[d] != shape[d]:
            raise ValueError(f"var and grad must match in dimension {d}")
    if grad.ndim != len(shape) or grad.shape[0] != indices.shape[0]:
        raise ValueError("grad must be the same size as indices in the first dimension.")
    rows = shape[0]
    bad = np.flatnonzero((indices < 0) | (indices >= rows))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"Index {int(indices[i])} at offset {i} in indices is out of range")
    on_device = [state.device is not None and not state.device.is_host for state in states]
    hosts = [state.device.copy_out(state.value) if away else state.writable()
             for state, away in zip(states, on_device)]
    width = hosts[0].size // max(rows, 1)
    yield ([h.reshape(rows, width) for h in hosts], np.asarray(grad, dtype=hosts[0].dtype).reshape(len(indices), width),
           indices.astype(np.intp))
    for state, host, away in zip(states, hosts, on_device):
        if away:
            state.value = state.device.copy_in(host)


def _scalars(dtype, *values):
    t = np.dtype(dtype).type
    return [t(v) for v in values]


@register("SparseApplyMomentum")
def sparse_apply_momentum(ctx, var, accum, lr, grad, indices, momentum):
    with var.lock, accum.lock, _tables((var, accum), ("var", "accum"), grad, indices) as ((v, a), g, idx):
        lr, momentum = _scalars(v.dtype, lr, momentum)
        a_rows = a[idx] * momentum + g
        a[idx] = a_rows
        if ctx.attrs.get("use_nesterov", False):
            v[idx] -= lr * g + (lr * momentum) * a_rows
        else:
            v[idx] -= a_rows * lr
    return var


@register("SparseApplyAdagrad")
def sparse_apply_adagrad(ctx, var, accum, lr, grad, indices):
    with var.lock, accum.lock, _tables((var, accum), ("var", "accum"), grad, indices) as ((v, a), g, idx):
        (lr,) = _scalars(v.dtype, lr)
        a_rows = a[idx]
        if ctx.attrs.get("update_slots", True):
            a_rows = a_rows + g * g
            a[idx] = a_rows
        v[idx] -= lr * g * (1 / np.sqrt(a_rows))
    return var


@register("SparseApplyRMSProp")
def sparse_apply_rms_prop(ctx, var, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    with var.lock, ms.lock, mom.lock, _tables((var, ms, mom), ("var", "ms", "mom"), grad, indices) as tables:
        (v, s, m), g, idx = tables
        lr, rho, momentum, epsilon = _scalars(v.dtype, lr, rho, momentum, epsilon)
        s_rows = s[idx] * rho + g * g * (v.dtype.type(1) - rho)
        s[idx] = s_rows
        m_rows = m[idx] * momentum + (1 / np.sqrt(s_rows + epsilon)) * lr * g
        m[idx] = m_rows
        v[idx] -= m_rows
    return var


@register("SparseApplyCenteredRMSProp")
def sparse_apply_centered_rms_prop(ctx, var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    states = (var, mg, ms, mom)
    with var.lock, mg.lock, ms.lock, mom.lock, _tables(states, ("var", "mg", "ms", "mom"), grad, indices) as tables:
        (v, mgt, s, m), g, idx = tables
        lr, rho, momentum, epsilon = _scalars(v.dtype, lr, rho, momentum, epsilon)
        one_minus_rho = v.dtype.type(1) - rho
        s_rows = s[idx] * rho + g * g * one_minus_rho
        s[idx] = s_rows
        mg_rows = mgt[idx] * rho + g * one_minus_rho
        mgt[idx] = mg_rows
        m_rows = m[idx] * momentum + (1 / np.sqrt(s_rows + epsilon - mg_rows * mg_rows)) * lr * g
        m[idx] = m_rows
        v[idx] -= m_rows
    return var
