"""The kernel registry: (op type, device type) -> the function that computes the op there.

A kernel is called as ``kernel(ctx, *inputs)`` and returns one array, or a tuple of arrays for an op
with several outputs. ``ctx`` carries the op's name and attrs, its device and the resource container
of the session running it (see ``numflow_kernels.context.KernelContext``). Kernels never mutate their
inputs: several consumers may share one array.

The numpy kernels of ``reference.py`` are registered under the device type ``"reference"``; a device
without a kernel of its own for an op type falls back to them when it runs on the host (CPU).
"""

import os
import threading

REFERENCE = "reference"
_HOST_DEVICE_TYPES = ("CPU",)
_KERNELS = {}
_CALLS_BLAS = set()  # the (op type, device type) keys whose kernels call BLAS or LAPACK


def register(op_type, device_type="CPU", *, calls_blas=False):
    """Register the decorated function as ``op_type``'s kernel on ``device_type``.

    ``calls_blas``: the kernel calls BLAS or LAPACK (numpy's matmul, ``numpy.linalg``). The kernel
    states the fact; the runtime decides what to do about it (``numflow_kernels.cpu_threads``: BLAS
    on one thread in every run that calls it, so that its products round alike).
    """

    def wrap(fn):
        key = (op_type, device_type)
        if key in _KERNELS:
            raise KeyError(f"A kernel for op {op_type!r} on {device_type} is registered twice")
        _KERNELS[key] = fn
        if calls_blas:
            _CALLS_BLAS.add(key)
        return fn

    return wrap


def lookup(op_type, device_type):
    """The kernel computing ``op_type`` on ``device_type``, or None when there is none."""
    _load(device_type)
    kernel = _KERNELS.get((op_type, device_type))
    if kernel is None and device_type in _HOST_DEVICE_TYPES:
        kernel = _KERNELS.get((op_type, REFERENCE))
    elif kernel is not None and device_type in _HOST_DEVICE_TYPES and _VALIDATE:
        reference = _KERNELS.get((op_type, REFERENCE))
        if reference is not None and reference is not kernel:
            kernel = _validated(kernel, reference, op_type)
    return kernel


def calls_blas(op_type, device_type):
    """Whether the kernel ``lookup(op_type, device_type)`` gives was registered with ``calls_blas``."""
    key = (op_type, device_type)
    if key not in _KERNELS and device_type in _HOST_DEVICE_TYPES:
        key = (op_type, REFERENCE)
    return key in _CALLS_BLAS


def device_types_for(op_type):
    """The device types with a kernel for ``op_type`` (host types included via the reference)."""
    _load("GPU")
    types = {d for (t, d) in _KERNELS if t == op_type and d != REFERENCE}
    if (op_type, REFERENCE) in _KERNELS:
        types.update(_HOST_DEVICE_TYPES)
    return types


_VALIDATE = os.environ.get("NUMFLOW_VALIDATE", "") not in ("", "0")
_loaded = set()
_load_lock = threading.Lock()


def _load(device_type):
    """Import the kernel modules of ``device_type`` (GPU kernels only once a GPU is used)."""
    group = "GPU" if device_type == "GPU" else "host"
    if group in _loaded:
        return
    with _load_lock:
        if group not in _loaded:
            if group == "host":
                from numflow_kernels import cpu, reference  # noqa: F401  (registration by import)
            else:
                from numflow_kernels.cuda import ops  # noqa: F401
            _loaded.add(group)


def _validated(kernel, reference, op_type):
    """With NUMFLOW_VALIDATE=1: run the numpy reference beside ``kernel`` and compare the results."""
    import numpy as np

    def run(ctx, *inputs):
        got = kernel(ctx, *inputs)
        want = reference(ctx, *inputs)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            g, w = np.asarray(g), np.asarray(w)
            if g.shape != w.shape or not np.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True):
                raise AssertionError(f"{op_type} kernel of {ctx.op_name} disagrees with the numpy reference")
        return got

    return run
