"""CUDA twins of ``numflow_kernels/cpu/training.py``: the training ops' updates on device arrays.

The host functions take the same arguments as the CPU ones (``adam(var, m, v, grad, lr_t, beta1,
beta2, epsilon, use_nesterov)``...), with 1-D Numba device arrays of float32 or float64, and run one
grid-stride kernel that reads and writes each element once, with the CPU kernel's arithmetic: both
call the update of one element written in ``numflow_kernels/training_steps.py``, here as device
functions. The GPU op kernels (device type ``"GPU"``) update the variable and its slots together
through its handle, as on the CPU; their scalar inputs are copied to the host first (a few bytes).

Nothing touches CUDA until the first call: importing this module needs no GPU and no simulator.
"""

import numpy as np
from numba import cuda

from numflow_kernels.buffer_ops import update_buffers
from numflow_kernels.cpu.training import adam_lr, check_ftrl_attrs, ftrl_scalars
from numflow_kernels.cuda.init import launch_config
from numflow_kernels.portable import device_functions, once
from numflow_kernels.registry import register

__all__ = ["gradient_descent", "momentum", "adam", "adagrad", "rms_prop", "centered_rms_prop", "adadelta",
           "proximal_gradient_descent", "proximal_adagrad", "ftrl"]

GPU = "GPU"


@once
def _kernels():
    D = device_functions()

    @cuda.jit
    def gradient_descent(var, grad, alpha):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.gradient_descent(var, grad, i, alpha)

    @cuda.jit
    def momentum(var, accum, grad, lr, momentum_, nesterov):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.momentum(var, accum, grad, i, lr, momentum_, nesterov)

    @cuda.jit
    def adam(var, m, v, grad, lr_t, one_minus_beta1, one_minus_beta2, epsilon, beta1, nesterov):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.adam(var, m, v, grad, i, lr_t, one_minus_beta1, one_minus_beta2, epsilon, beta1, nesterov)

    @cuda.jit
    def adagrad(var, accum, grad, lr, update_slots):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.adagrad(var, accum, grad, i, lr, update_slots)

    @cuda.jit
    def rms_prop(var, ms, mom, grad, lr, one_minus_rho, momentum_, epsilon):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.rms_prop(var, ms, mom, grad, i, lr, one_minus_rho, momentum_, epsilon)

    @cuda.jit
    def centered_rms_prop(var, mg, ms, mom, grad, lr, one_minus_rho, momentum_, epsilon):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.centered_rms_prop(var, mg, ms, mom, grad, i, lr, one_minus_rho, momentum_, epsilon)

    @cuda.jit
    def adadelta(var, accum, accum_update, grad, lr, rho, one_minus_rho, epsilon, one):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.adadelta(var, accum, accum_update, grad, i, lr, rho, one_minus_rho, epsilon, one)

    @cuda.jit
    def proximal_gradient_descent(var, grad, lr, l1, l2_lr, one):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.proximal_gradient_descent(var, grad, i, lr, l1, l2_lr, one)

    @cuda.jit
    def proximal_adagrad(var, accum, grad, lr, l1, l2, one):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.proximal_adagrad(var, accum, grad, i, lr, l1, l2, one)

    @cuda.jit
    def ftrl(var, accum, linear, grad, lr, l1, two_l2, two_l2_shrinkage, lr_power, sqrt_power, one):
        for i in range(cuda.grid(1), var.shape[0], cuda.gridsize(1)):
            D.ftrl(var, accum, linear, grad, i, lr, l1, two_l2, two_l2_shrinkage, lr_power, sqrt_power, one)

    return dict(locals())


def _launch(name, var, *args):
    if var.dtype not in (np.float32, np.float64):
        raise TypeError(f"The GPU training kernels take float32 and float64 variables, not {var.dtype}.")
    t = var.dtype.type
    args = [t(a) if isinstance(a, float | np.floating) else a for a in args]
    blocks, threads = launch_config(var.shape[0])
    _kernels()[name][blocks, threads](var, *args)


def gradient_descent(var, grad, alpha):
    _launch("gradient_descent", var, grad, alpha)


def momentum(var, accum, grad, lr, momentum, use_nesterov=False):
    _launch("momentum", var, accum, grad, lr, momentum, bool(use_nesterov))


def adam(var, m, v, grad, lr_t, beta1, beta2, epsilon, use_nesterov=False):
    t = var.dtype.type
    one, b1, b2 = t(1), t(beta1), t(beta2)
    _launch("adam", var, m, v, grad, lr_t, one - b1, one - b2, epsilon, b1, bool(use_nesterov))


def adagrad(var, accum, grad, lr, update_slots=True):
    _launch("adagrad", var, accum, grad, lr, bool(update_slots))


def rms_prop(var, ms, mom, grad, lr, rho, momentum, epsilon):
    t = var.dtype.type
    _launch("rms_prop", var, ms, mom, grad, lr, t(1) - t(rho), momentum, epsilon)


def centered_rms_prop(var, mg, ms, mom, grad, lr, rho, momentum, epsilon):
    t = var.dtype.type
    _launch("centered_rms_prop", var, mg, ms, mom, grad, lr, t(1) - t(rho), momentum, epsilon)


def adadelta(var, accum, accum_update, grad, lr, rho, epsilon):
    t = var.dtype.type
    _launch("adadelta", var, accum, accum_update, grad, lr, rho, t(1) - t(rho), epsilon, t(1))


def proximal_gradient_descent(var, grad, lr, l1, l2):
    t = var.dtype.type
    _launch("proximal_gradient_descent", var, grad, lr, l1, t(l2) * t(lr), t(1))


def proximal_adagrad(var, accum, grad, lr, l1, l2):
    _launch("proximal_adagrad", var, accum, grad, lr, l1, l2, var.dtype.type(1))


def ftrl(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    two_l2, two_shrinkage, sqrt_power = ftrl_scalars(var, l2, l2_shrinkage, lr_power)
    _launch("ftrl", var, accum, linear, grad, lr, l1, two_l2, two_shrinkage, lr_power, bool(sqrt_power),
            var.dtype.type(1))


# -- GPU op kernels -------------------------------------------------------------------------------
def _host(ctx, dtype, *values):
    t = np.dtype(dtype).type
    return [t(np.asarray(ctx.device.copy_out(v)).reshape(())) for v in values]


@register("ApplyGradientDescent", GPU)
def apply_gradient_descent(ctx, var, alpha, delta):
    var.update(_gradient_descent_step, ctx, alpha, delta)
    return var


def _gradient_descent_step(w, ctx, alpha, delta):
    v, g = update_buffers(ctx, (w,), ("var",), delta)
    gradient_descent(v, g, *_host(ctx, v.dtype, alpha))


@register("ApplyMomentum", GPU)
def apply_momentum(ctx, var, accum, lr, grad, mom):
    var.update(_momentum_step, ctx, lr, grad, mom, slots=(accum,))
    return var


def _momentum_step(w, accum, ctx, lr, grad, mom):
    v, a, g = update_buffers(ctx, (w, accum), ("var", "accum"), grad)
    momentum(v, a, g, *_host(ctx, v.dtype, lr, mom), ctx.attrs.get("use_nesterov", False))


@register("ApplyAdam", GPU)
def apply_adam(ctx, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    var.update(_adam_step, ctx, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, slots=(m, v))
    return var


def _adam_step(w, m, v, ctx, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    w, mf, vf, g = update_buffers(ctx, (w, m, v), ("var", "m", "v"), grad)
    b1p, b2p, lr, b1, b2, eps = _host(ctx, w.dtype, beta1_power, beta2_power, lr, beta1, beta2, epsilon)
    adam(w, mf, vf, g, adam_lr(lr, b1p, b2p, w.dtype), b1, b2, eps, ctx.attrs.get("use_nesterov", False))


@register("ApplyAdagrad", GPU)
def apply_adagrad(ctx, var, accum, lr, grad):
    var.update(_adagrad_step, ctx, lr, grad, slots=(accum,))
    return var


def _adagrad_step(w, accum, ctx, lr, grad):
    v, a, g = update_buffers(ctx, (w, accum), ("var", "accum"), grad)
    adagrad(v, a, g, *_host(ctx, v.dtype, lr), ctx.attrs.get("update_slots", True))


@register("ApplyRMSProp", GPU)
def apply_rms_prop(ctx, var, ms, mom, lr, rho, momentum_, epsilon, grad):
    var.update(_rms_prop_step, ctx, lr, rho, momentum_, epsilon, grad, slots=(ms, mom))
    return var


def _rms_prop_step(w, ms, mom, ctx, lr, rho, momentum_, epsilon, grad):
    v, s, mo, g = update_buffers(ctx, (w, ms, mom), ("var", "ms", "mom"), grad)
    rms_prop(v, s, mo, g, *_host(ctx, v.dtype, lr, rho, momentum_, epsilon))


@register("ApplyCenteredRMSProp", GPU)
def apply_centered_rms_prop(ctx, var, mg, ms, mom, lr, rho, momentum_, epsilon, grad):
    var.update(_centered_rms_prop_step, ctx, lr, rho, momentum_, epsilon, grad, slots=(mg, ms, mom))
    return var


def _centered_rms_prop_step(w, mg, ms, mom, ctx, lr, rho, momentum_, epsilon, grad):
    v, a, s, mo, g = update_buffers(ctx, (w, mg, ms, mom), ("var", "mg", "ms", "mom"), grad)
    centered_rms_prop(v, a, s, mo, g, *_host(ctx, v.dtype, lr, rho, momentum_, epsilon))


@register("ApplyAdadelta", GPU)
def apply_adadelta(ctx, var, accum, accum_update, lr, rho, epsilon, grad):
    var.update(_adadelta_step, ctx, lr, rho, epsilon, grad, slots=(accum, accum_update))
    return var


def _adadelta_step(w, accum, accum_update, ctx, lr, rho, epsilon, grad):
    v, a, u, g = update_buffers(ctx, (w, accum, accum_update), ("var", "accum", "accum_update"), grad)
    adadelta(v, a, u, g, *_host(ctx, v.dtype, lr, rho, epsilon))


@register("ApplyProximalGradientDescent", GPU)
def apply_proximal_gradient_descent(ctx, var, alpha, l1, l2, delta):
    var.update(_proximal_gradient_descent_step, ctx, alpha, l1, l2, delta)
    return var


def _proximal_gradient_descent_step(w, ctx, alpha, l1, l2, delta):
    v, g = update_buffers(ctx, (w,), ("var",), delta, "delta")
    proximal_gradient_descent(v, g, *_host(ctx, v.dtype, alpha, l1, l2))


@register("ApplyProximalAdagrad", GPU)
def apply_proximal_adagrad(ctx, var, accum, lr, l1, l2, grad):
    var.update(_proximal_adagrad_step, ctx, lr, l1, l2, grad, slots=(accum,))
    return var


def _proximal_adagrad_step(w, accum, ctx, lr, l1, l2, grad):
    v, a, g = update_buffers(ctx, (w, accum), ("var", "accum"), grad)
    proximal_adagrad(v, a, g, *_host(ctx, v.dtype, lr, l1, l2))


@register("ApplyFtrl", GPU)
def apply_ftrl(ctx, var, accum, linear, grad, lr, l1, l2, lr_power):
    check_ftrl_attrs(ctx)
    var.update(_ftrl_step, ctx, grad, lr, l1, l2, None, lr_power, slots=(accum, linear))
    return var


@register("ApplyFtrlV2", GPU)
def apply_ftrl_v2(ctx, var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    check_ftrl_attrs(ctx)
    var.update(_ftrl_step, ctx, grad, lr, l1, l2, l2_shrinkage, lr_power, slots=(accum, linear))
    return var


def _ftrl_step(w, accum, linear, ctx, grad, lr, l1, l2, l2_shrinkage, lr_power):
    v, a, lin, g = update_buffers(ctx, (w, accum, linear), ("var", "accum", "linear"), grad)
    lr, l1, l2, lr_power = _host(ctx, v.dtype, lr, l1, l2, lr_power)
    shrinkage = 0 if l2_shrinkage is None else _host(ctx, v.dtype, l2_shrinkage)[0]
    ftrl(v, a, lin, g, lr, l1, l2, shrinkage, lr_power)
