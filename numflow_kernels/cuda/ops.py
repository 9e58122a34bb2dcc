"""GPU op kernels: the variable, initializer and update ops on device arrays, through CUDA kernels.

Each mirrors its CPU twin in ``numflow_kernels/cpu`` and calls the ``numba.cuda`` kernels of
``cuda/init.py`` and ``cuda/update.py``, which take the same arguments as the CPU ones; a seed gives
the same bits on both. Registered under the device type ``"GPU"``.
"""

import numpy as np

from numflow.framework import errors
from numflow_kernels.cpu import initializers as cpu_initializers
from numflow_kernels.cpu import state as cpu_state
from numflow_kernels.cuda import math  # noqa: F401  (registers the elementwise GPU kernels)
from numflow_kernels.registry import register

GPU = "GPU"

register("VariableV2", GPU)(cpu_state.variable)
register("IsVariableInitialized", GPU)(cpu_state.is_initialized)
register("NoOp", GPU)(lambda ctx: ())


@register("Identity", GPU)
def identity(ctx, x):
    return x


def _device_array(ctx, shape, dtype):
    return ctx.device.alloc(tuple(shape), np.dtype(dtype))


@register("FillValue", GPU)
def fill_value(ctx):
    from numflow_kernels.cuda import init

    a = ctx.attrs
    out = _device_array(ctx, a["shape"].as_list(), a["dtype"].as_numpy_dtype)
    init.fill(out.reshape(out.size), a["value"])
    return out


def _random_kernel(op_type, fn_name, params):
    @register(op_type, GPU)
    def kernel(ctx, *shape_input):
        from numflow_kernels.cuda import init

        a = ctx.attrs
        shape = a["shape"].as_list() if a["shape"] is not None else [int(d) for d in np.asarray(shape_input[0])]
        out = _device_array(ctx, shape, a["dtype"].as_numpy_dtype)
        stream = cpu_initializers._stream(ctx)
        start = stream.reserve(out.size)
        getattr(init, fn_name)(out.reshape(out.size), stream.seed, stream.seed2, *(a[p] for p in params),
                               counter=start)
        return out

    return kernel


_random_kernel("RandomStandardNormal", "random_normal", ("mean", "stddev"))
_random_kernel("TruncatedNormal", "truncated_normal", ("mean", "stddev"))
_random_kernel("RandomUniform", "random_uniform", ("minval", "maxval"))
_random_kernel("RandomUniformInt", "random_uniform_int", ("minval", "maxval"))


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


@register("Assign", GPU)
def assign(ctx, ref, value):
    from numflow_kernels.cuda import update

    with ref.lock:
        current = ref.value
        if current is not None and current.shape == value.shape:
            update.assign(current.reshape(current.size), value.reshape(value.size))
            return ref
        if ctx.attrs["validate_shape"]:
            declared = ctx.op._inputs[0].shape
            if current is not None or not declared.is_compatible_with(value.shape):
                lhs = current.shape if current is not None else declared
                raise errors.InvalidArgumentError(
                    None, None, "Assign requires shapes of both tensors to match. "
                    f"lhs shape= {_shape_text(lhs)} rhs shape= {_shape_text(value.shape)}")
        ref.value = ctx.device.copy(value)
    return ref


def _in_place(name):
    @register(name, GPU)
    def kernel(ctx, ref, value):
        from numflow_kernels.cuda import update

        with ref.lock:
            current = ref.value
            if current is None:
                raise ref.uninitialized_error()
            if current.shape != value.shape:
                raise errors.InvalidArgumentError(
                    None, None, f"Parameters and update must be the same size: {_shape_text(current.shape)} vs "
                    f"{_shape_text(value.shape)}")
            getattr(update, _UPDATE_FUNCTIONS[name])(current.reshape(current.size), value.reshape(value.size))
        return ref

    return kernel


_UPDATE_FUNCTIONS = {"AssignAdd": "assign_add", "AssignSub": "assign_sub", "ScatterUpdate": "scatter_update",
                     "ScatterAdd": "scatter_add", "ScatterSub": "scatter_sub"}
_in_place("AssignAdd")
_in_place("AssignSub")


def _scatter(name):
    @register(name, GPU)
    def kernel(ctx, ref, indices, updates):
        from numflow_kernels.cuda import update

        indices = np.ascontiguousarray(ctx.device.copy_out(indices)).reshape(-1)
        with ref.lock:
            current = ref.value
            if current is None:
                raise ref.uninitialized_error()
            rows = current.shape[0]
            bad = np.flatnonzero((indices < 0) | (indices >= rows))
            if bad.size:
                i = int(bad[0])
                raise errors.InvalidArgumentError(None, None, f"indices[{i}] = {int(indices[i])} is not in [0, {rows})")
            table = current.reshape(rows, current.size // max(rows, 1))
            getattr(update, _UPDATE_FUNCTIONS[name])(
                table, ctx.device.copy_in(indices), updates.reshape(len(indices), table.shape[1]))
        return ref

    return kernel


for _name in ("ScatterUpdate", "ScatterAdd", "ScatterSub"):
    _scatter(_name)
