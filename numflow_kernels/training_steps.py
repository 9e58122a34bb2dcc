"""The training ops' update of one element, written once for the CPU loops and the CUDA kernels.

Spec: TensorFlow's ``training_ops.cc`` (``ApplyGradientDescent``, ``ApplyMomentum``, ``ApplyAdam``,
``ApplyAdagrad``, ``ApplyRMSProp``, ``ApplyCenteredRMSProp``), computed in the variable's dtype
with the same operations in the same order, so float32 results match TensorFlow's to rounding::

    adam:      m += (g - m) * (1 - beta1);  v += (g*g - v) * (1 - beta2)
               var -= (m * lr_t) / (sqrt(v) + epsilon),  lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)
               (nesterov: m in the numerator is g * (1 - beta1) + beta1 * m)
    momentum:  accum = accum * momentum + g;  var -= accum * lr
               (nesterov: var -= g * lr + accum * momentum * lr)
    adagrad:   accum += g*g;  var -= g * lr / sqrt(accum)
    rmsprop:   ms += (g*g - ms) * (1 - rho);  mom = mom * momentum + g * lr / sqrt(ms + epsilon);  var -= mom
    centered:  also mg += (g - mg) * (1 - rho), and the denominator is sqrt(ms - mg*mg + epsilon)

Each function updates element ``i`` of the variable and its slots in place, reading and writing
each once. They are ``portable.shared``: ``numflow_kernels/cpu/training.py`` calls them in its
``prange`` loops, ``numflow_kernels/cuda/training.py`` as device functions (``device_functions()``) in
grid-stride loops. The flags (``nesterov``, ``update_slots``) are the same for every element.

Editing this file: Numba's cache of the CPU loops does not follow calls into it, so after a change
delete ``numflow_kernels/cpu/__pycache__`` (``*.nbi``, ``*.nbc``) or the cached loops keep the old steps.
"""

import math

from numflow_kernels.portable import shared

__all__ = ["gradient_descent", "momentum", "adam", "adagrad", "rms_prop", "centered_rms_prop"]


@shared(inline="always")
def gradient_descent(var, grad, i, alpha):
    var[i] -= grad[i] * alpha


@shared(inline="always")
def momentum(var, accum, grad, i, lr, momentum, nesterov):
    g = grad[i]
    a = accum[i] * momentum + g
    accum[i] = a
    var[i] -= (g * lr + a * momentum * lr) if nesterov else a * lr


@shared(inline="always")
def adam(var, m, v, grad, i, lr_t, one_minus_beta1, one_minus_beta2, epsilon, beta1, nesterov):
    g = grad[i]
    mi = m[i]
    vi = v[i]
    mi += (g - mi) * one_minus_beta1
    vi += (g * g - vi) * one_minus_beta2
    m[i] = mi
    v[i] = vi
    step = g * one_minus_beta1 + beta1 * mi if nesterov else mi
    var[i] -= (step * lr_t) / (math.sqrt(vi) + epsilon)


@shared(inline="always")
def adagrad(var, accum, grad, i, lr, update_slots):
    g = grad[i]
    a = accum[i]
    if update_slots:
        a += g * g
        accum[i] = a
    var[i] -= g * lr / math.sqrt(a)


@shared(inline="always")
def rms_prop(var, ms, mom, grad, i, lr, one_minus_rho, momentum, epsilon):
    g = grad[i]
    s = ms[i]
    s += (g * g - s) * one_minus_rho
    ms[i] = s
    mo = mom[i] * momentum + (g * lr) / math.sqrt(s + epsilon)
    mom[i] = mo
    var[i] -= mo


@shared(inline="always")
def centered_rms_prop(var, mg, ms, mom, grad, i, lr, one_minus_rho, momentum, epsilon):
    g = grad[i]
    s = ms[i]
    s += (g * g - s) * one_minus_rho
    ms[i] = s
    a = mg[i]
    a += (g - a) * one_minus_rho
    mg[i] = a
    mo = mom[i] * momentum + (g * lr) / math.sqrt(s - a * a + epsilon)
    mom[i] = mo
    var[i] -= mo
