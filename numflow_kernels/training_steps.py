"""The training ops' update of one element, written once for the CPU loops and the CUDA kernels.

Spec: TensorFlow's ``training_ops.cc`` (``ApplyGradientDescent``, ``ApplyMomentum``, ``ApplyAdam``,
``ApplyAdagrad``, ``ApplyRMSProp``, ``ApplyCenteredRMSProp``, ``ApplyAdadelta``,
``ApplyProximalGradientDescent``, ``ApplyProximalAdagrad``), computed in the variable's dtype
with the same operations in the same order, so float32 results match TensorFlow's to rounding::

    adam:      m += (g - m) * (1 - beta1);  v += (g*g - v) * (1 - beta2)
               var -= (m * lr_t) / (sqrt(v) + epsilon),  lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)
               (nesterov: m in the numerator is g * (1 - beta1) + beta1 * m)
    momentum:  accum = accum * momentum + g;  var -= accum * lr
               (nesterov: var -= g * lr + accum * momentum * lr)
    adagrad:   accum += g*g;  var -= g * lr / sqrt(accum)
    rmsprop:   ms += (g*g - ms) * (1 - rho);  mom = mom * momentum + g * lr / sqrt(ms + epsilon);  var -= mom
    centered:  also mg += (g - mg) * (1 - rho), and the denominator is sqrt(ms - mg*mg + epsilon)
    adadelta:  accum = accum * rho + g*g * (1 - rho);  u = sqrt(accum_update + epsilon) * rsqrt(accum + epsilon) * g
               var -= u * lr;  accum_update = accum_update * rho + u*u * (1 - rho)
    proximal:  v = var - g * lr;  var = sign(v) * max(|v| - lr * l1, 0) / (1 + l2 * lr)  (l1 = 0: v / (1 + l2 * lr))
    proximal adagrad:  accum += g*g, then the proximal step with lr * rsqrt(accum) as the rate
    ftrl:      gs = g + 2*l2_shrinkage * var (V2; else g);  p(a) = sqrt(a) (lr_power = -0.5) or a^-lr_power
               linear += gs - (p(accum + g*g) - p(accum)) / lr * var;  accum += g*g
               var = |linear| > l1 ? (l1 * sign(linear) - linear) / (p(accum) / lr + 2*l2) : 0

``rsqrt(x)`` is ``one / sqrt(x)``, rounded twice as Eigen's scalar path rounds it; ``one`` is passed in
the arrays' dtype, so that Numba keeps float32 arithmetic in float32.

Each function updates element ``i`` of the variable and its slots in place, reading and writing
each once. They are ``portable.shared``: ``numflow_kernels/cpu/training.py`` calls them in its
``prange`` loops, ``numflow_kernels/cuda/training.py`` as device functions (``device_functions()``) in
grid-stride loops. The flags (``nesterov``, ``update_slots``) are the same for every element.

Editing this file: Numba's cache of the CPU loops does not follow calls into it, so after a change
delete ``numflow_kernels/cpu/__pycache__`` (``*.nbi``, ``*.nbc``) or the cached loops keep the old steps.
"""

import math

from numflow_kernels.portable import shared

__all__ = ["gradient_descent", "momentum", "adam", "adagrad", "rms_prop", "centered_rms_prop", "adadelta",
           "proximal_gradient_descent", "proximal_adagrad", "ftrl"]


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


@shared(inline="always")
def adadelta(var, accum, accum_update, grad, i, lr, rho, one_minus_rho, epsilon, one):
    g = grad[i]
    a = accum[i] * rho + g * g * one_minus_rho
    accum[i] = a
    u = accum_update[i]
    update = math.sqrt(u + epsilon) * (one / math.sqrt(a + epsilon)) * g
    var[i] -= update * lr
    accum_update[i] = u * rho + update * update * one_minus_rho


@shared(inline="always")
def _shrink(v, lr, l1, l2_lr, one):
    """TensorFlow's proximal step of ``v`` (``var - lr * grad``) with rate ``lr`` and ``l2_lr = l2 * lr``."""
    zero = one - one
    if l1 > zero:
        sign = one if v > zero else (-one if v < zero else zero)
        return sign * max(abs(v) - lr * l1, zero) / (one + l2_lr)
    return v / (one + l2_lr)


@shared(inline="always")
def proximal_gradient_descent(var, grad, i, lr, l1, l2_lr, one):
    var[i] = _shrink(var[i] - grad[i] * lr, lr, l1, l2_lr, one)


@shared(inline="always")
def proximal_adagrad(var, accum, grad, i, lr, l1, l2, one):
    g = grad[i]
    a = accum[i] + g * g
    accum[i] = a
    rate = lr * (one / math.sqrt(a))
    var[i] = _shrink(var[i] - g * rate, rate, l1, l2 * rate, one)


@shared(inline="always")
def _ftrl_power(a, lr_power, sqrt_power):
    return math.sqrt(a) if sqrt_power else a ** -lr_power


@shared(inline="always")
def ftrl(var, accum, linear, grad, i, lr, l1, two_l2, two_l2_shrinkage, lr_power, sqrt_power, one):
    g = grad[i]
    a = accum[i]
    w = var[i]
    new_a = a + g * g
    new_power = _ftrl_power(new_a, lr_power, sqrt_power)
    shrunk = g + two_l2_shrinkage * w
    lin = linear[i] + (shrunk - (new_power - _ftrl_power(a, lr_power, sqrt_power)) / lr * w)
    linear[i] = lin
    zero = one - one
    if abs(lin) > l1:
        sign = one if lin > zero else -one
        var[i] = (l1 * sign - lin) / (new_power / lr + two_l2)
    else:
        var[i] = zero
    accum[i] = new_a
