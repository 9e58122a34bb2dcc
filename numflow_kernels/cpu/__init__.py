"""CPU kernels: Numba ``njit(nogil=True, cache=True)`` functions and the op kernels built on them."""

from numflow_kernels import grad  # noqa: F401  (kernels of the gradient ops)
from numflow_kernels.cpu import (  # noqa: E402, F401  (registration by import)
    conv,
    crop_resize,
    ctc,
    depthwise,
    eigen_float32,
    image,
    init_numpy,
    matmul,
    morphology,
    nn,
    norm,
    pool,
    sampling,
    segments,
    state,
    topk,
    training,
    training_da,
    training_sparse,
)
