"""CUDA kernels: ``numba.cuda.jit`` twins of the CPU kernels, and the GPU op kernels built on them.

Importing this package needs no GPU: the CUDA kernels compile on first use.
"""
