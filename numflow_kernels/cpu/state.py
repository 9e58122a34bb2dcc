"""CPU kernels of the variable ops; assignments, fills and random streams come from ``buffer_ops``."""

import functools

import numpy as np

from numflow_kernels import buffer_ops
from numflow_kernels.registry import register

# Below this many elements numpy's own loops beat a Numba call's dispatch.
_NUMBA_MIN_ELEMENTS = 1 << 15


@register("VariableV2")
def variable(ctx):
    return ctx.resources.variable(ctx.op_name, ctx.device)


@register("ReportUninitializedVariables")
def report_uninitialized(ctx, *refs):
    names = [name.encode() for ref, name in zip(refs, ctx.attrs["names"]) if ref.value is None]
    return np.array(names, dtype=object)


@register("IsVariableInitialized")
def is_initialized(ctx, ref):
    return np.array(ref.value is not None)


@register("InitializedValue")
def initialized_value(ctx, initialized, ref, initial_value):
    if ref.value is not None:
        return ref.read()
    return initial_value


class _HostUpdates:
    """``numflow_kernels.cpu.update``, with numpy's loops for arrays too small to pay for a Numba call."""

    @staticmethod
    def assign(dst, src):
        if dst.size < _NUMBA_MIN_ELEMENTS:
            np.copyto(dst, src)
        else:
            _update().assign(dst, src)

    @staticmethod
    def assign_add(dst, src):
        if dst.size < _NUMBA_MIN_ELEMENTS:
            np.add(dst, src, out=dst)
        else:
            _update().assign_add(dst, src)

    @staticmethod
    def assign_sub(dst, src):
        if dst.size < _NUMBA_MIN_ELEMENTS:
            np.subtract(dst, src, out=dst)
        else:
            _update().assign_sub(dst, src)

    def __getattr__(self, name):  # the scatters
        return getattr(_update(), name)


def _update():
    from numflow_kernels.cpu import update

    return update


@functools.cache
def _modules():
    from numflow_kernels.cpu.initializers import HostInit

    return HostInit(), _HOST_UPDATES


_HOST_UPDATES = _HostUpdates()
buffer_ops.register_for("CPU", _modules)
