"""CPU kernels of the sparse training ops, and of ``Unique``, which the optimizers use to sum the rows
of a repeated index before them.

Spec: TensorFlow's ``training_ops.cc`` (``SparseApplyMomentum``, ``SparseApplyAdagrad``,
``SparseApplyRMSProp``, ``SparseApplyCenteredRMSProp``, ``SparseApplyAdadelta``,
``SparseApplyProximalGradientDescent``, ``SparseApplyProximalAdagrad``, ``SparseApplyFtrl``,
``SparseApplyFtrlV2``). Row ``i`` of ``grad`` updates row
``indices[i]`` of the variable and of its slots with TensorFlow's operations in TensorFlow's order,
in the variable's dtype, so the bits are TensorFlow's; other rows stay as they are::

    momentum:  accum = accum * momentum + g;  var -= lr * accum  (nesterov: var -= lr * g + (lr * momentum) * accum)
    adagrad:   accum += g * g;  var -= lr * g * rsqrt(accum)
    rmsprop:   ms = ms * rho + g * g * (1 - rho);  mom = mom * momentum + rsqrt(ms + epsilon) * lr * g;  var -= mom
    centered:  also mg = mg * rho + g * (1 - rho), and the rsqrt of ms + epsilon - mg * mg
    adadelta:  as the dense ``ApplyAdadelta`` (``numflow_kernels/training_steps.py``)
    proximal:  v = var - g * lr;  var = sign(v) * max(|v| - lr * l1, 0) / (1 + l2 * lr)
    proximal adagrad:  accum += g * g, then the proximal step at the rate lr * (1 / sqrt(accum))
    ftrl:      as the dense ``ApplyFtrl``, with clip(linear, -l1, l1) - linear as the numerator

The proximal kernels of a variable with one column take TensorFlow's scalar loop: its rate is
``lr / sqrt(accum)`` (one rounding) and its denominator ``1.0 + l2 * lr`` is a double.

``rsqrt(x)`` is ``1 / sqrt(x)``, rounded twice, as Eigen computes it element by element (rows
narrower than a SIMD packet); on whole packets Eigen's fast approximation may differ in the last bit.

The rows are gathered and scattered with numpy fancy indexing, so an index must not repeat (the
optimizers remove repeats first, as TensorFlow's do). Every index is checked before anything is
written, and the kernels update the variable and every slot together through the variable's handle.
"""

import numpy as np

from numflow_kernels.buffer_ops import checked_shape
from numflow_kernels.cpu.training import check_ftrl_attrs
from numflow_kernels.registry import register


@register("Unique")
def unique(ctx, x):
    """``(y, idx)`` with ``y`` in the order of first appearance, as TensorFlow's ``Unique``."""
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return values[order], rank[inverse.reshape(-1)].astype(ctx.attrs["out_idx"])


def _tables(buffers, names, grad, indices):
    """The variable's and slots' host ``buffers`` as ``(rows, width)`` tables, ``grad``'s rows and the
    indices, after TensorFlow's checks."""
    shape = checked_shape(buffers, names)
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
    width = buffers[0].size // max(rows, 1)
    rows_of_grad = np.asarray(grad, dtype=buffers[0].dtype).reshape(len(indices), width)
    return [b.reshape(rows, width) for b in buffers], rows_of_grad, indices.astype(np.intp)


def _scalars(dtype, *values):
    t = np.dtype(dtype).type
    return [t(v) for v in values]


# Each kernel updates the variable and its slots through the variable's handle, on host buffers
# (``host=True``: a variable on a GPU, whose update soft placement put here, is copied out and back).
@register("SparseApplyMomentum")
def sparse_apply_momentum(ctx, var, accum, lr, grad, indices, momentum):
    var.update(_momentum_rows, ctx, lr, grad, indices, momentum, slots=(accum,), host=True)
    return var


def _momentum_rows(var, accum, ctx, lr, grad, indices, momentum):
    (v, a), g, idx = _tables((var, accum), ("var", "accum"), grad, indices)
    lr, momentum = _scalars(v.dtype, lr, momentum)
    a_rows = a[idx] * momentum + g
    a[idx] = a_rows
    if ctx.attrs.get("use_nesterov", False):
        v[idx] -= lr * g + (lr * momentum) * a_rows
    else:
        v[idx] -= a_rows * lr


@register("SparseApplyAdagrad")
def sparse_apply_adagrad(ctx, var, accum, lr, grad, indices):
    var.update(_adagrad_rows, ctx, lr, grad, indices, slots=(accum,), host=True)
    return var


def _adagrad_rows(var, accum, ctx, lr, grad, indices):
    (v, a), g, idx = _tables((var, accum), ("var", "accum"), grad, indices)
    (lr,) = _scalars(v.dtype, lr)
    a_rows = a[idx]
    if ctx.attrs.get("update_slots", True):
        a_rows = a_rows + g * g
        a[idx] = a_rows
    v[idx] -= lr * g * (1 / np.sqrt(a_rows))


@register("SparseApplyRMSProp")
def sparse_apply_rms_prop(ctx, var, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    var.update(_rms_prop_rows, lr, rho, momentum, epsilon, grad, indices, slots=(ms, mom), host=True)
    return var


def _rms_prop_rows(var, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    (v, s, m), g, idx = _tables((var, ms, mom), ("var", "ms", "mom"), grad, indices)
    lr, rho, momentum, epsilon = _scalars(v.dtype, lr, rho, momentum, epsilon)
    s_rows = s[idx] * rho + g * g * (v.dtype.type(1) - rho)
    s[idx] = s_rows
    m_rows = m[idx] * momentum + (1 / np.sqrt(s_rows + epsilon)) * lr * g
    m[idx] = m_rows
    v[idx] -= m_rows


@register("SparseApplyCenteredRMSProp")
def sparse_apply_centered_rms_prop(ctx, var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    var.update(_centered_rms_prop_rows, lr, rho, momentum, epsilon, grad, indices, slots=(mg, ms, mom), host=True)
    return var


def _centered_rms_prop_rows(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    (v, mgt, s, m), g, idx = _tables((var, mg, ms, mom), ("var", "mg", "ms", "mom"), grad, indices)
    lr, rho, momentum, epsilon = _scalars(v.dtype, lr, rho, momentum, epsilon)
    one_minus_rho = v.dtype.type(1) - rho
    s_rows = s[idx] * rho + g * g * one_minus_rho
    s[idx] = s_rows
    mg_rows = mgt[idx] * rho + g * one_minus_rho
    mgt[idx] = mg_rows
    m_rows = m[idx] * momentum + (1 / np.sqrt(s_rows + epsilon - mg_rows * mg_rows)) * lr * g
    m[idx] = m_rows
    v[idx] -= m_rows


@register("SparseApplyAdadelta")
def sparse_apply_adadelta(ctx, var, accum, accum_update, lr, rho, epsilon, grad, indices):
    var.update(_adadelta_rows, lr, rho, epsilon, grad, indices, slots=(accum, accum_update), host=True)
    return var


def _adadelta_rows(var, accum, accum_update, lr, rho, epsilon, grad, indices):
    (v, a, u), g, idx = _tables((var, accum, accum_update), ("var", "accum", "accum_update"), grad, indices)
    lr, rho, epsilon, one = _scalars(v.dtype, lr, rho, epsilon, 1)
    a_rows = a[idx] * rho + g * g * (one - rho)
    a[idx] = a_rows
    u_rows = u[idx]
    update = np.sqrt(u_rows + epsilon) * (one / np.sqrt(a_rows + epsilon)) * g
    v[idx] -= update * lr
    u[idx] = u_rows * rho + update * update * (one - rho)


def _proximal_rows(v_rows, rate, l1, l2):
    """TensorFlow's proximal step of the rows ``v_rows`` (``var - g * rate``) in the variable's dtype."""
    one = v_rows.dtype.type(1)
    denominator = one + l2 * rate
    if v_rows.shape[1] == 1:  # TensorFlow's scalar loop divides by the double 1.0 + l2 * rate
        denominator = 1.0 + np.asarray(l2 * rate, dtype=np.float64)
    if l1 > 0:
        shrunk = np.sign(v_rows) * np.maximum(np.abs(v_rows) - rate * l1, v_rows.dtype.type(0))
        return (shrunk / denominator).astype(v_rows.dtype)
    return (v_rows / denominator).astype(v_rows.dtype)


@register("SparseApplyProximalGradientDescent")
def sparse_apply_proximal_gradient_descent(ctx, var, alpha, l1, l2, grad, indices):
    var.update(_proximal_gradient_descent_rows, alpha, l1, l2, grad, indices, host=True)
    return var


def _proximal_gradient_descent_rows(var, alpha, l1, l2, grad, indices):
    (v,), g, idx = _tables((var,), ("var",), grad, indices)
    alpha, l1, l2 = _scalars(v.dtype, alpha, l1, l2)
    v[idx] = _proximal_rows(v[idx] - g * alpha, alpha, l1, l2)


@register("SparseApplyProximalAdagrad")
def sparse_apply_proximal_adagrad(ctx, var, accum, lr, l1, l2, grad, indices):
    var.update(_proximal_adagrad_rows, lr, l1, l2, grad, indices, slots=(accum,), host=True)
    return var


def _proximal_adagrad_rows(var, accum, lr, l1, l2, grad, indices):
    (v, a), g, idx = _tables((var, accum), ("var", "accum"), grad, indices)
    lr, l1, l2, one = _scalars(v.dtype, lr, l1, l2, 1)
    a_rows = a[idx] + g * g
    a[idx] = a_rows
    rate = lr / np.sqrt(a_rows) if v.shape[1] == 1 else lr * (one / np.sqrt(a_rows))
    v[idx] = _proximal_rows(v[idx] - g * rate, rate, l1, l2)


@register("SparseApplyFtrl")
def sparse_apply_ftrl(ctx, var, accum, linear, grad, indices, lr, l1, l2, lr_power):
    check_ftrl_attrs(ctx)
    var.update(_ftrl_rows, grad, indices, lr, l1, l2, 0, lr_power, slots=(accum, linear), host=True)
    return var


@register("SparseApplyFtrlV2")
def sparse_apply_ftrl_v2(ctx, var, accum, linear, grad, indices, lr, l1, l2, l2_shrinkage, lr_power):
    check_ftrl_attrs(ctx)
    var.update(_ftrl_rows, grad, indices, lr, l1, l2, l2_shrinkage, lr_power, slots=(accum, linear), host=True)
    return var


def _ftrl_rows(var, accum, linear, grad, indices, lr, l1, l2, l2_shrinkage, lr_power):
    (v, a, lin), g, idx = _tables((var, accum, linear), ("var", "accum", "linear"), grad, indices)
    lr, l1, l2, l2_shrinkage, lr_power, two = _scalars(v.dtype, lr, l1, l2, l2_shrinkage, lr_power, 2)

    def power(x):
        # libm's powf, as TensorFlow calls it: correctly rounded from double, where numpy's float32
        # power may take a SIMD approximation an ulp away.
        if lr_power == v.dtype.type(-0.5):
            return np.sqrt(x)
        return np.power(x.astype(np.float64), -np.float64(lr_power)).astype(x.dtype)

    w, a_rows = v[idx], a[idx]
    shrunk = g + two * l2_shrinkage * w
    new_a = a_rows + g * g
    new_power = power(new_a)
    lin_rows = lin[idx] + (shrunk - (new_power - power(a_rows)) / lr * w)
    lin[idx] = lin_rows
    v[idx] = (np.clip(lin_rows, -l1, l1) - lin_rows) / (new_power / lr + two * l2)
    a[idx] = new_a
