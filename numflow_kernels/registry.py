"""The kernel registry: (op type, device type) -> the function that computes the op there.

A kernel is called as ``kernel(ctx, *inputs)`` and returns one array, or a tuple of arrays for an op
with several outputs. ``ctx`` is a ``numflow_kernels.context.KernelContext``: the op's name, attrs
and static shapes and dtypes as plain values, the device it runs on and the session's resources.
An input that is a variable taken by reference (an Assign's first) is the variable's handle
(``numflow_kernels.handle``), the only way to its value. Kernels never mutate their inputs (several
consumers may share one array), never see the op or the graph, import nothing from ``numflow``, and
raise the plain exceptions of ``numflow_kernels.errors``.

The registry knows no device: a device (``numflow.devices``, one module per device type) names the
modules that register its kernels (``load``), and whether its op types without a kernel of their
own fall back to the numpy kernels of ``reference.py``, registered under the device type
``"reference"`` (the host devices' do).
"""

import importlib
import os
import threading

REFERENCE = "reference"
_KERNELS = {}
_CALLS_BLAS = set()  # the (op type, device type) keys whose kernels call BLAS or LAPACK


def register(op_type, device_type="CPU", *, calls_blas=False):
    """Register the decorated function as ``op_type``'s kernel on ``device_type``.

    ``calls_blas``: the kernel calls BLAS or LAPACK (numpy's matmul, ``numpy.linalg``). The kernel
    states the fact; the runtime decides what to do about it (it holds BLAS to one thread in every
    run that calls it, ``cpu_threads.one_blas_thread``, so that products round alike).
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


def list_results(values):
    """What a kernel returns for an op whose outputs are one list of any length (ShapeN's, IdentityN's):
    ``values``, but a list of one as its value, since the runtime stores an op's one result as it is."""
    return values[0] if len(values) == 1 else values


def load(modules):
    """Import ``modules`` (a tuple of module names, whose import registers kernels), once."""
    if modules in _loaded:
        return
    with _load_lock:
        if modules not in _loaded:
            for name in modules:
                importlib.import_module(name)
            _loaded.add(modules)


def lookup(op_type, device_type, fallback=None):
    """The kernel computing ``op_type`` on ``device_type`` (else ``fallback``'s), or None when there is none.

    With NUMFLOW_VALIDATE=1, a kernel that has a ``fallback`` twin runs it alongside and compares.
    """
    kernel = _KERNELS.get((op_type, device_type))
    if fallback is None:
        return kernel
    if kernel is None:
        return _KERNELS.get((op_type, fallback))
    if _VALIDATE:
        twin = _KERNELS.get((op_type, fallback))
        if twin is not None and twin is not kernel:
            return _validated(kernel, twin, op_type)
    return kernel


def calls_blas(op_type, device_type, fallback=None):
    """Whether the kernel ``lookup`` gives was registered with ``calls_blas=True``."""
    key = (op_type, device_type)
    if key not in _KERNELS and fallback is not None:
        key = (op_type, fallback)
    return key in _CALLS_BLAS


def reference(op_type):
    """The numpy kernel of ``op_type`` (the living spec), or None."""
    load(_REFERENCE_MODULES)
    return _KERNELS.get((op_type, REFERENCE))


_REFERENCE_MODULES = ("numflow_kernels.reference",)
_VALIDATE = os.environ.get("NUMFLOW_VALIDATE", "") not in ("", "0")
_loaded = set()
_load_lock = threading.Lock()


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
