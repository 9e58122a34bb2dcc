"""CPU kernels of Adagrad dual averaging: ``ApplyAdagradDA`` and ``SparseApplyAdagradDA``, numpy on host
buffers, in the variable's dtype with TensorFlow's operations in its order (``training_ops.cc``)::

    ga += g;  gga += g * g;  T = float(global_step)
    dense:   var = lr * -1 * sign(ga) * max(|ga| - T * l1, 0) / (l2 * (T * lr) + sqrt(gga))
             (l1 = 0: lr * ga * -1 / (l2 * (T * lr) + sqrt(gga)))
    sparse:  var = -1 * sign(ga) * max(|ga| / T - l1, 0) / (l2 + sqrt(gga) / (T * lr))
             (l1 = 0: -1 * (ga / T) / (l2 + sqrt(gga) / (T * lr))), on the rows of ``indices``

The variable and both accumulators are updated together through the variable's handle.
"""

import numpy as np

from numflow_kernels.buffer_ops import checked_shape
from numflow_kernels.cpu.training_sparse import _scalars, _tables
from numflow_kernels.errors import dims_text
from numflow_kernels.registry import register

_NAMES = ("var", "gradient_accumulator", "gradient_squared_accumulator")


@register("ApplyAdagradDA")
def apply_adagrad_da(ctx, var, ga, gga, grad, lr, l1, l2, global_step):
    var.update(_dense, grad, lr, l1, l2, global_step, slots=(ga, gga), host=True)
    return var


def _dense(var, ga, gga, grad, lr, l1, l2, global_step):
    shape = checked_shape((var, ga, gga), _NAMES)
    if tuple(grad.shape) != shape:
        raise ValueError(f"var and grad do not have the same shape{dims_text(shape)} {dims_text(grad.shape)}")
    lr, l1, l2, step, minus_one, zero = _scalars(var.dtype, lr, l1, l2, int(global_step), -1, 0)
    g = np.asarray(grad, var.dtype)
    ga += g
    gga += g * g
    if l1 > 0:
        var[...] = lr * minus_one * np.sign(ga) * np.maximum(np.abs(ga) - step * l1, zero) / (
            l2 * (step * lr) + np.sqrt(gga))
    else:
        var[...] = lr * ga * minus_one / (l2 * (step * lr) + np.sqrt(gga))


@register("SparseApplyAdagradDA")
def sparse_apply_adagrad_da(ctx, var, ga, gga, grad, indices, lr, l1, l2, global_step):
    var.update(_rows, grad, indices, lr, l1, l2, global_step, slots=(ga, gga), host=True)
    return var


def _rows(var, ga, gga, grad, indices, lr, l1, l2, global_step):
    (v, a, aa), g, idx = _tables((var, ga, gga), _NAMES, grad, indices)
    lr, l1, l2, step, minus_one, zero = _scalars(v.dtype, lr, l1, l2, int(global_step), -1, 0)
    a_rows = a[idx] + g
    aa_rows = aa[idx] + g * g
    a[idx], aa[idx] = a_rows, aa_rows
    denominator = l2 + np.sqrt(aa_rows) / (step * lr)
    if l1 > 0:
        v[idx] = minus_one * np.sign(a_rows) * np.maximum(np.abs(a_rows) / step - l1, zero) / denominator
    else:
        v[idx] = minus_one * (a_rows / step) / denominator
