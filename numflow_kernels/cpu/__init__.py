"""CPU kernels: Numba ``njit(nogil=True, cache=True)`` functions and the op kernels built on them."""

from numflow_kernels import grad  # noqa: F401  (kernels of the gradient ops)
from numflow_kernels.cpu import apply, initializers, io, nn, sparse_apply, state, summary  # noqa: F401  (registers kernels)
