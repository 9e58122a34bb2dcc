"""CPU kernels of the variable ops; assignments, fills and random streams come from ``buffer_ops``."""

import functools

import numpy as np

from numflow_kernels import buffer_ops, tuning
from numflow_kernels.registry import register


@register("VariableV2")
def variable(ctx):
    return ctx.resources.variable(ctx.op_name, ctx.device)


@register("ReportUninitializedVariables")
def report_uninitialized(ctx, *refs):
    names = [name.encode() for ref, name in zip(refs, ctx.attrs["names"]) if not ref.initialized]
    return np.array(names, dtype=object)


@register("IsVariableInitialized")
def is_initialized(ctx, ref):
    return np.array(ref.initialized)


@register("InitializedValue")
def initialized_value(ctx, initialized, ref, initial_value):
    if ref.initialized:
        return ref.read()
    return initial_value


def _numpy_below_threshold(name, numpy_update):
    """``assign.<name>(dst, src)``, or ``numpy_update`` for arrays too small to pay for a Numba call."""

    def run(dst, src):
        if dst.size < tuning.NUMBA_MIN_ELEMENTS:
            numpy_update(dst, src)
        else:
            getattr(_assign(), name)(dst, src)

    return staticmethod(run)


class _HostAssign:
    """``numflow_kernels.cpu.assign``, with numpy's loops for arrays too small to pay for a Numba call."""

    assign = _numpy_below_threshold("assign", np.copyto)
    assign_add = _numpy_below_threshold("assign_add", lambda dst, src: np.add(dst, src, out=dst))
    assign_sub = _numpy_below_threshold("assign_sub", lambda dst, src: np.subtract(dst, src, out=dst))

    def __getattr__(self, name):  # the scatters
        return getattr(_assign(), name)


def _assign():
    from numflow_kernels.cpu import assign

    return assign


@functools.cache
def _modules():
    from numflow_kernels.cpu.init_numpy import HostInit

    return HostInit(), _HOST_ASSIGN


_HOST_ASSIGN = _HostAssign()
buffer_ops.register_for("CPU", _modules)
