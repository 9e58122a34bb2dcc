"""CUDA kernels: ``numba.cuda.jit`` twins of the CPU kernels, and the GPU op kernels built on them.

Importing this package needs no GPU: the CUDA kernels compile on first use.
"""

from numflow_kernels.cuda import training  # noqa: E402, F401  (GPU kernels of the training ops)
