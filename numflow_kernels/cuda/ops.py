"""GPU op kernels: the variable ops on device arrays, through the CUDA kernels.

Fills, random streams, assignments and scatters are ``buffer_ops``' kernels over ``cuda/init.py``
and ``cuda/assign.py``, which take the same arguments as their CPU twins: a seed gives the same
bits on both. Registered under the device type ``"GPU"``.
"""

import functools

from numflow_kernels import buffer_ops
from numflow_kernels.cpu import state as cpu_state
from numflow_kernels.cuda import (  # noqa: E402, F401  (registration by import)
    conv,
    math,
    norm,
)
from numflow_kernels.registry import register

GPU = "GPU"

register("VariableV2", GPU)(cpu_state.variable)
register("IsVariableInitialized", GPU)(cpu_state.is_initialized)
register("NoOp", GPU)(lambda ctx: ())


@register("Identity", GPU)
def identity(ctx, x):
    return x


@functools.cache
def _modules():
    from numflow_kernels.cuda import assign, init

    return init, assign


buffer_ops.register_for(GPU, _modules)
