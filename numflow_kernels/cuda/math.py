"""GPU kernels of the elementwise ops and constants that a variable's update path computes.

Binary ops take operands of the output's shape or single elements (a scalar learning rate, a
``v + 1``) in one grid-stride CUDA kernel; other broadcasts, the reductions, complex operands (the
kernels' ``math`` functions are real ones) and the complex and FFT ops compute on the host through the
device's copies, so any graph placed on a GPU still runs.
"""

import functools
import math

import numpy as np
from numba import cuda  # a module global, as the simulator requires; importing it touches no driver

from numflow_kernels import reference, tuning
from numflow_kernels.registry import _KERNELS, REFERENCE, register

GPU = "GPU"
_BINARY = {
    "AddV2": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "RealDiv": lambda a, b: a / b,
    "Maximum": lambda a, b: a if a >= b else b,
    "Minimum": lambda a, b: a if a <= b else b,
    "SquaredDifference": lambda a, b: (a - b) * (a - b),
}
_UNARY = {
    "Neg": lambda a: -a,
    "Square": lambda a: a * a,
    "Sqrt": lambda a: math.sqrt(a),
    "Exp": lambda a: math.exp(a),
    "Log": lambda a: math.log(a),
    "Tanh": lambda a: math.tanh(a),
    "Abs": lambda a: abs(a),
}
_THREADS = tuning.CUDA_ELEMENTWISE_THREADS


def _grid(n):
    return max(1, min(tuning.CUDA_MAX_BLOCKS, -(-n // _THREADS))), _THREADS


@functools.cache
def _binary_kernel(op_type):
    fn = cuda.jit(device=True)(_BINARY[op_type])

    @cuda.jit
    def kernel(out, x, y):
        start, stride = cuda.grid(1), cuda.gridsize(1)
        x_step = 1 if x.size > 1 else 0
        y_step = 1 if y.size > 1 else 0
        for i in range(start, out.size, stride):
            out[i] = fn(x[i * x_step], y[i * y_step])

    return kernel


@functools.cache
def _unary_kernel(op_type):
    fn = cuda.jit(device=True)(_UNARY[op_type])

    @cuda.jit
    def kernel(out, x):
        start, stride = cuda.grid(1), cuda.gridsize(1)
        for i in range(start, out.size, stride):
            out[i] = fn(x[i])

    return kernel


def _on_host(op_type):
    """``op_type``'s numpy kernel run on host copies of the inputs, its result copied back."""
    host_kernel = _KERNELS[(op_type, REFERENCE)]

    def kernel(ctx, *inputs):
        result = host_kernel(ctx, *[ctx.device.copy_out(x) for x in inputs])
        return ctx.device.copy_in(np.asarray(result))

    return kernel


def _register_binary(op_type):
    fallback = _on_host(op_type)

    @register(op_type, GPU)
    def kernel(ctx, x, y):
        shape = np.broadcast_shapes(x.shape, y.shape)
        if x.shape not in (shape, ()) and x.size != 1 or y.shape not in (shape, ()) and y.size != 1:
            return fallback(ctx, x, y)
        if x.dtype.kind == "c":
            return fallback(ctx, x, y)
        out = ctx.device.alloc(shape, np.result_type(x.dtype, y.dtype))
        if out.size:
            _binary_kernel(op_type)[_grid(out.size)](out.reshape(out.size), x.reshape(x.size), y.reshape(y.size))
        return out


def _register_unary(op_type):
    fallback = _on_host(op_type)

    @register(op_type, GPU)
    def kernel(ctx, x):
        if x.dtype.kind == "c":
            return fallback(ctx, x)
        out = ctx.device.alloc(x.shape, x.dtype)
        if out.size:
            _unary_kernel(op_type)[_grid(out.size)](out.reshape(out.size), x.reshape(x.size))
        return out


for _op in _BINARY:
    _register_binary(_op)
for _op in _UNARY:
    _register_unary(_op)
_COMPLEX_AND_FFT = ("Complex", "Real", "Imag", "Conj", "Angle", "ComplexAbs", "ConjugateTranspose", *(
    f"{kind}{rank}" for kind in ("FFT", "IFFT", "RFFT", "IRFFT") for rank in ("", "2D", "3D")))
for _op in ("Sum", "Mean", "Max", "Min", "Cast", "Reshape", "BroadcastTo", "MatMul", *_COMPLEX_AND_FFT):
    register(_op, GPU)(_on_host(_op))


@register("Const", GPU)
def const(ctx):
    return ctx.device.copy_in(reference.const(ctx))
