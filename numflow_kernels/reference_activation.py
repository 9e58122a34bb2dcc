"""NumPy kernels of the activations and their gradient ops: LeakyRelu, Elu, Selu, Softplus, Softsign,
and LeakyReluGrad, EluGrad, SeluGrad, SoftsignGrad, Relu6Grad.

Formulas are TensorFlow's (``relu_op_functor.h``, ``softplus_op.h``, ``softsign_op.h``): Elu is
``exp(x) - 1`` below zero (not expm1), EluGrad and SeluGrad take the op's *outputs*, and Softplus
switches to ``x`` or ``exp(x)`` where ``log1p(exp(x))`` would round to them. Every operation runs
in the input's dtype, float16 included.
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register

SELU_SCALE = 1.0507009873554804934193349852946
SELU_SCALE_ALPHA = 1.7580993408473768599402175208123


def kernel(op_type):
    return register(op_type, REFERENCE)


def _quiet():
    return np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore")


def _c(x, value):
    return np.asarray(value, dtype=x.dtype)


@kernel("LeakyRelu")
def leaky_relu(ctx, x):
    with _quiet():
        return np.where(x > 0, x, x * _c(x, ctx.attrs["alpha"]))


@kernel("LeakyReluGrad")
def leaky_relu_grad(ctx, dy, x):
    with _quiet():
        return np.where(x > 0, dy, dy * _c(dy, ctx.attrs["alpha"]))


@kernel("Elu")
def elu(ctx, x):
    with _quiet():
        return np.where(x < 0, np.exp(x) - _c(x, 1), x)


@kernel("EluGrad")
def elu_grad(ctx, dy, y):
    with _quiet():
        return np.where(y < 0, (y + _c(y, 1)) * dy, dy)


@kernel("Selu")
def selu(ctx, x):
    with _quiet():
        return np.where(x < 0, _c(x, SELU_SCALE_ALPHA) * (np.exp(x) - _c(x, 1)), _c(x, SELU_SCALE) * x)


@kernel("SeluGrad")
def selu_grad(ctx, dy, y):
    with _quiet():
        return np.where(y < 0, dy * (y + _c(y, SELU_SCALE_ALPHA)), dy * _c(dy, SELU_SCALE))


@kernel("Softplus")
def softplus(ctx, x):
    threshold = _c(x, np.log(np.finfo(x.dtype).eps) + 2)
    with _quiet():
        e = np.exp(x)
        return np.where(x > -threshold, x, np.where(x < threshold, e, np.log1p(e)))


@kernel("Softsign")
def softsign(ctx, x):
    with _quiet():
        return x / (np.abs(x) + _c(x, 1))


@kernel("SoftsignGrad")
def softsign_grad(ctx, dy, x):
    with _quiet():
        d = _c(x, 1) + np.abs(x)
        return dy / (d * d)


@kernel("Relu6Grad")
def relu6_grad(ctx, dy, x):
    return np.where((x > 0) & (x < 6), dy, np.zeros((), dy.dtype))
