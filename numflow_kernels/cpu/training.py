"""CPU kernels of the training ops: one Numba pass over the variable and its slots per update.

The host functions (``adam(var, m, v, grad, lr_t, beta1, beta2, epsilon, use_nesterov)``...) take
1-D C-contiguous arrays of one dtype and scalars of that dtype, and update the arrays in place;
``numflow_kernels/cuda/training.py`` has the same functions for device arrays. Both run the update of
one element written in ``numflow_kernels/training_steps.py`` (the spec and the formulas are there), so
every element is read once and written once: every slot is updated in the same loop as the
variable. Arrays of ``parallel.PARALLEL_THRESHOLD`` elements or more run the ``parallel=True`` twin.

The op kernels update the variable and every slot together through the variable's handle
(``update(..., slots=...)``), which holds all their locks, whatever the op's ``use_locking`` says
(numflow's rule: every update holds its variable's lock).
"""

import numpy as np

from numflow_kernels.buffer_ops import update_buffers
from numflow_kernels.cpu import twins
from numflow_kernels.cpu.twins import LazyTwin
from numflow_kernels.registry import register

# Numba is imported when a kernel first runs (``LazyTwin``), not when the kernels are registered: a
# program that never trains never loads it. Until then the loops below see Python's range, and
# ``steps`` (``training_steps``, compiled with Numba) is imported by ``_run`` before the first launch.
prange = range
steps = None

__all__ = ["gradient_descent", "momentum", "adam", "adagrad", "rms_prop", "centered_rms_prop", "adadelta",
           "proximal_gradient_descent", "proximal_adagrad", "ftrl"]

_NUMBA_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


# -- the loops -------------------------------------------------------------------------------
def _gradient_descent(var, grad, alpha):
    for i in prange(var.shape[0]):
        steps.gradient_descent(var, grad, i, alpha)


def _momentum(var, accum, grad, lr, momentum, nesterov):
    for i in prange(var.shape[0]):
        steps.momentum(var, accum, grad, i, lr, momentum, nesterov)


def _adam(var, m, v, grad, lr_t, one_minus_beta1, one_minus_beta2, epsilon, beta1, nesterov):
    for i in prange(var.shape[0]):
        steps.adam(var, m, v, grad, i, lr_t, one_minus_beta1, one_minus_beta2, epsilon, beta1, nesterov)


def _adagrad(var, accum, grad, lr, update_slots):
    for i in prange(var.shape[0]):
        steps.adagrad(var, accum, grad, i, lr, update_slots)


def _rms_prop(var, ms, mom, grad, lr, one_minus_rho, momentum, epsilon):
    for i in prange(var.shape[0]):
        steps.rms_prop(var, ms, mom, grad, i, lr, one_minus_rho, momentum, epsilon)


def _centered_rms_prop(var, mg, ms, mom, grad, lr, one_minus_rho, momentum, epsilon):
    for i in prange(var.shape[0]):
        steps.centered_rms_prop(var, mg, ms, mom, grad, i, lr, one_minus_rho, momentum, epsilon)


def _adadelta(var, accum, accum_update, grad, lr, rho, one_minus_rho, epsilon, one):
    for i in prange(var.shape[0]):
        steps.adadelta(var, accum, accum_update, grad, i, lr, rho, one_minus_rho, epsilon, one)


def _proximal_gradient_descent(var, grad, lr, l1, l2_lr, one):
    for i in prange(var.shape[0]):
        steps.proximal_gradient_descent(var, grad, i, lr, l1, l2_lr, one)


def _proximal_adagrad(var, accum, grad, lr, l1, l2, one):
    for i in prange(var.shape[0]):
        steps.proximal_adagrad(var, accum, grad, i, lr, l1, l2, one)


def _ftrl(var, accum, linear, grad, lr, l1, two_l2, two_l2_shrinkage, lr_power, one, sqrt_power):
    for i in prange(var.shape[0]):
        steps.ftrl(var, accum, linear, grad, i, lr, l1, two_l2, two_l2_shrinkage, lr_power, sqrt_power, one)


_GD = LazyTwin(_gradient_descent)
_MOMENTUM = LazyTwin(_momentum)
_ADAM = LazyTwin(_adam)
_ADAGRAD = LazyTwin(_adagrad)
_RMS_PROP = LazyTwin(_rms_prop)
_CENTERED_RMS_PROP = LazyTwin(_centered_rms_prop)
_ADADELTA = LazyTwin(_adadelta)
_PROXIMAL_GD = LazyTwin(_proximal_gradient_descent)
_PROXIMAL_ADAGRAD = LazyTwin(_proximal_adagrad)
_FTRL = LazyTwin(_ftrl)


# -- host functions: flat arrays of one dtype, updated in place -------------------------------
def _run(kernels, arrays, *scalars, flag=None):
    """Launch ``kernels`` over ``arrays``, then ``flag`` (a bool) where the kernel takes one; dtypes
    without a Numba path (float16) go through float32."""
    global steps
    if steps is None:
        from numflow_kernels import training_steps as steps
    flags = () if flag is None else (bool(flag),)
    dtype = arrays[0].dtype
    if dtype in _NUMBA_DTYPES:
        # Scalars in the arrays' own dtype: a Python float would turn a float32 loop into float64.
        t = dtype.type
        twins.launch(kernels, arrays[0].shape[0], *arrays, *[t(s) for s in scalars], *flags)
        return
    work = [a.astype(np.float32) for a in arrays]
    twins.launch(kernels, work[0].shape[0], *work, *[np.float32(s) for s in scalars], *flags)
    for a, w in zip(arrays[:-1], work[:-1]):  # the last array is the gradient: read only
        a[...] = w


def gradient_descent(var, grad, alpha):
    """``var -= grad * alpha``."""
    _run(_GD, (var, grad), alpha)


def momentum(var, accum, grad, lr, momentum, use_nesterov=False):
    """``accum = accum * momentum + grad``; ``var -= accum * lr`` (or TF's Nesterov step)."""
    _run(_MOMENTUM, (var, accum, grad), lr, momentum, flag=use_nesterov)


def adam(var, m, v, grad, lr_t, beta1, beta2, epsilon, use_nesterov=False):
    """One Adam step with the bias-corrected rate ``lr_t`` (see ``training_steps``)."""
    t = var.dtype.type
    one, b1 = t(1), t(beta1)
    _run(_ADAM, (var, m, v, grad), lr_t, one - b1, one - t(beta2), epsilon, b1, flag=use_nesterov)


def adagrad(var, accum, grad, lr, update_slots=True):
    """``accum += grad * grad`` (when ``update_slots``); ``var -= grad * lr / sqrt(accum)``."""
    _run(_ADAGRAD, (var, accum, grad), lr, flag=update_slots)


def rms_prop(var, ms, mom, grad, lr, rho, momentum, epsilon):
    """One RMSProp step (TensorFlow's ``ApplyRMSProp``)."""
    one_minus_rho = var.dtype.type(1) - var.dtype.type(rho)
    _run(_RMS_PROP, (var, ms, mom, grad), lr, one_minus_rho, momentum, epsilon)


def centered_rms_prop(var, mg, ms, mom, grad, lr, rho, momentum, epsilon):
    """One centered RMSProp step (TensorFlow's ``ApplyCenteredRMSProp``)."""
    one_minus_rho = var.dtype.type(1) - var.dtype.type(rho)
    _run(_CENTERED_RMS_PROP, (var, mg, ms, mom, grad), lr, one_minus_rho, momentum, epsilon)


def adadelta(var, accum, accum_update, grad, lr, rho, epsilon):
    """One Adadelta step (TensorFlow's ``ApplyAdadelta``)."""
    t = var.dtype.type
    _run(_ADADELTA, (var, accum, accum_update, grad), lr, rho, t(1) - t(rho), epsilon, 1)


def proximal_gradient_descent(var, grad, lr, l1, l2):
    """``v = var - grad * lr``, then TensorFlow's proximal step with ``l1`` and ``l2``."""
    t = var.dtype.type
    _run(_PROXIMAL_GD, (var, grad), lr, l1, t(l2) * t(lr), 1)


def proximal_adagrad(var, accum, grad, lr, l1, l2):
    """``accum += grad * grad``, then the proximal step with the rate ``lr * rsqrt(accum)``."""
    _run(_PROXIMAL_ADAGRAD, (var, accum, grad), lr, l1, l2, 1)


def ftrl_scalars(var, l2, l2_shrinkage, lr_power):
    """``2 * l2``, ``2 * l2_shrinkage`` in ``var``'s dtype, and whether ``lr_power`` is TF's sqrt case (-0.5)."""
    t = var.dtype.type
    return t(2) * t(l2), t(2) * t(l2_shrinkage), t(lr_power) == t(-0.5)


def ftrl(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    """One FTRL-proximal step (TensorFlow's ``ApplyFtrlV2``; ``ApplyFtrl`` is ``l2_shrinkage = 0``)."""
    two_l2, two_shrinkage, sqrt_power = ftrl_scalars(var, l2, l2_shrinkage, lr_power)
    _run(_FTRL, (var, accum, linear, grad), lr, l1, two_l2, two_shrinkage, lr_power, 1, flag=sqrt_power)


def adam_lr(lr, beta1_power, beta2_power, dtype):
    """Adam's bias-corrected rate ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)`` in ``dtype``."""
    t = np.dtype(dtype).type
    one = t(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return t(t(lr) * np.sqrt(one - t(beta2_power)) / (one - t(beta1_power)))


# -- op kernels ------------------------------------------------------------------------------
def _scalars(dtype, *values):
    t = np.dtype(dtype).type
    return [t(v) for v in values]


@register("ApplyGradientDescent")
def apply_gradient_descent(ctx, var, alpha, delta):
    var.update(_gradient_descent_step, ctx, alpha, delta)
    return var


def _gradient_descent_step(w, ctx, alpha, delta):
    v, g = update_buffers(ctx, (w,), ("var",), delta, "delta")
    (alpha,) = _scalars(v.dtype, alpha)
    gradient_descent(v, g, alpha)


@register("ApplyMomentum")
def apply_momentum(ctx, var, accum, lr, grad, mom):
    var.update(_momentum_step, ctx, lr, grad, mom, slots=(accum,))
    return var


def _momentum_step(w, accum, ctx, lr, grad, mom):
    v, a, g = update_buffers(ctx, (w, accum), ("var", "accum"), grad)
    lr, mom = _scalars(v.dtype, lr, mom)
    momentum(v, a, g, lr, mom, ctx.attrs.get("use_nesterov", False))


@register("ApplyAdam")
def apply_adam(ctx, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    var.update(_adam_step, ctx, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, slots=(m, v))
    return var


def _adam_step(w, m, v, ctx, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    w, mf, vf, g = update_buffers(ctx, (w, m, v), ("var", "m", "v"), grad)
    lr_t = adam_lr(lr, beta1_power, beta2_power, w.dtype)
    (eps,) = _scalars(w.dtype, epsilon)
    adam(w, mf, vf, g, lr_t, beta1, beta2, eps, ctx.attrs.get("use_nesterov", False))


@register("ApplyAdagrad")
def apply_adagrad(ctx, var, accum, lr, grad):
    var.update(_adagrad_step, ctx, lr, grad, slots=(accum,))
    return var


def _adagrad_step(w, accum, ctx, lr, grad):
    v, a, g = update_buffers(ctx, (w, accum), ("var", "accum"), grad)
    (lr,) = _scalars(v.dtype, lr)
    adagrad(v, a, g, lr, ctx.attrs.get("update_slots", True))


@register("ApplyRMSProp")
def apply_rms_prop(ctx, var, ms, mom, lr, rho, momentum_, epsilon, grad):
    var.update(_rms_prop_step, ctx, lr, rho, momentum_, epsilon, grad, slots=(ms, mom))
    return var


def _rms_prop_step(w, ms, mom, ctx, lr, rho, momentum_, epsilon, grad):
    v, s, mo, g = update_buffers(ctx, (w, ms, mom), ("var", "ms", "mom"), grad)
    lr, momentum_, epsilon = _scalars(v.dtype, lr, momentum_, epsilon)
    rms_prop(v, s, mo, g, lr, rho, momentum_, epsilon)


@register("ApplyCenteredRMSProp")
def apply_centered_rms_prop(ctx, var, mg, ms, mom, lr, rho, momentum_, epsilon, grad):
    var.update(_centered_rms_prop_step, ctx, lr, rho, momentum_, epsilon, grad, slots=(mg, ms, mom))
    return var


def _centered_rms_prop_step(w, mg, ms, mom, ctx, lr, rho, momentum_, epsilon, grad):
    v, a, s, mo, g = update_buffers(ctx, (w, mg, ms, mom), ("var", "mg", "ms", "mom"), grad)
    lr, momentum_, epsilon = _scalars(v.dtype, lr, momentum_, epsilon)
    centered_rms_prop(v, a, s, mo, g, lr, rho, momentum_, epsilon)


@register("ApplyAdadelta")
def apply_adadelta(ctx, var, accum, accum_update, lr, rho, epsilon, grad):
    var.update(_adadelta_step, ctx, lr, rho, epsilon, grad, slots=(accum, accum_update))
    return var


def _adadelta_step(w, accum, accum_update, ctx, lr, rho, epsilon, grad):
    v, a, u, g = update_buffers(ctx, (w, accum, accum_update), ("var", "accum", "accum_update"), grad)
    adadelta(v, a, u, g, *_scalars(v.dtype, lr, rho, epsilon))


@register("ApplyProximalGradientDescent")
def apply_proximal_gradient_descent(ctx, var, alpha, l1, l2, delta):
    var.update(_proximal_gradient_descent_step, ctx, alpha, l1, l2, delta)
    return var


def _proximal_gradient_descent_step(w, ctx, alpha, l1, l2, delta):
    v, g = update_buffers(ctx, (w,), ("var",), delta, "delta")
    proximal_gradient_descent(v, g, *_scalars(v.dtype, alpha, l1, l2))


@register("ApplyProximalAdagrad")
def apply_proximal_adagrad(ctx, var, accum, lr, l1, l2, grad):
    var.update(_proximal_adagrad_step, ctx, lr, l1, l2, grad, slots=(accum,))
    return var


def _proximal_adagrad_step(w, accum, ctx, lr, l1, l2, grad):
    v, a, g = update_buffers(ctx, (w, accum), ("var", "accum"), grad)
    proximal_adagrad(v, a, g, *_scalars(v.dtype, lr, l1, l2))


def check_ftrl_attrs(ctx):
    if ctx.attrs.get("multiply_linear_by_lr", False):
        raise ValueError(f"{ctx.op_name}: multiply_linear_by_lr=True is not supported; build the op with False")


@register("ApplyFtrl")
def apply_ftrl(ctx, var, accum, linear, grad, lr, l1, l2, lr_power):
    check_ftrl_attrs(ctx)
    var.update(_ftrl_step, ctx, grad, lr, l1, l2, 0, lr_power, slots=(accum, linear))
    return var


@register("ApplyFtrlV2")
def apply_ftrl_v2(ctx, var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    check_ftrl_attrs(ctx)
    var.update(_ftrl_step, ctx, grad, lr, l1, l2, l2_shrinkage, lr_power, slots=(accum, linear))
    return var


def _ftrl_step(w, accum, linear, ctx, grad, lr, l1, l2, l2_shrinkage, lr_power):
    v, a, lin, g = update_buffers(ctx, (w, accum, linear), ("var", "accum", "linear"), grad)
    ftrl(v, a, lin, g, *_scalars(v.dtype, lr, l1, l2, l2_shrinkage, lr_power))
