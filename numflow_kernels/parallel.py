"""How parallel CPU kernels are built and launched: the threading layer, the size threshold, twins.

The engine runs kernels from several Python threads at once. Numba's ``workqueue`` threading layer
aborts the process when two ``parallel=True`` kernels launch concurrently, so importing this module
selects a thread-safe layer before any parallel kernel of ours runs: ``threadsafe`` (TBB when it is
installed, else OpenMP). A layer named by the user in ``NUMBA_THREADING_LAYER`` (or set on
``numba.config`` before this import) is kept. Where the layer in use turns out to be
``workqueue`` anyway (the user's choice, or no TBB/OpenMP on the machine), :func:`launch_lock`
serializes parallel launches instead, so they stay correct, only slower.

Each kernel is written once as a Python function with ``prange`` loops; :func:`twin` compiles it
twice, serial and ``parallel=True``, and :func:`launch` picks one by size.
"""

import contextlib
import os
import threading
import types
import warnings

import numba
import numpy as np

from numflow_kernels import cpu_threads
from numflow_kernels.tuning import PARALLEL_THRESHOLD

__all__ = ["PARALLEL_THRESHOLD", "twin", "variant", "launch", "launch_lock", "threading_layer"]


# OpenMP's threads spin while they wait for work by default. Beside the executor's own threads on a
# few cores they take the CPU from the kernels that would give them work, and a parallel kernel
# ran at half the speed of its serial twin on two busy cores; passive waiting (a user's setting
# wins) must be set before Numba starts OpenMP.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
_USER_CHOSE = "NUMBA_THREADING_LAYER" in os.environ or numba.config.THREADING_LAYER != "default"
if not _USER_CHOSE:
    numba.config.THREADING_LAYER = "threadsafe"

_probe_lock = threading.Lock()
_workqueue_lock = threading.Lock()
_layer = None


@numba.njit(parallel=True, cache=True)
def _touch(a):
    for i in numba.prange(a.shape[0]):
        a[i] += 1.0


def threading_layer():
    """The Numba threading layer parallel kernels run on; starts it if it has not started."""
    global _layer
    if _layer is None:
        with _probe_lock:
            if _layer is None:
                try:
                    _touch(np.zeros(2))
                except ValueError as err:  # no TBB and no OpenMP here: fall back, serialized
                    warnings.warn(f"{err}; parallel kernels will run one at a time on 'workqueue'",
                                  RuntimeWarning, stacklevel=2)
                    numba.config.THREADING_LAYER = "workqueue"
                    _touch(np.zeros(2))
                _layer = numba.threading_layer()
    return _layer


def launch_lock():
    """What to hold around a parallel launch: nothing, or a process-wide lock on ``workqueue``."""
    if threading_layer() == "workqueue":
        return _workqueue_lock
    return contextlib.nullcontext()


def twin(fn):
    """``(serial, parallel)`` dispatchers compiled from one Python function with ``prange`` loops.

    Both are ``nogil`` and cached; the parallel one gets its own name so the two caches differ.
    Floats divide as IEEE does (numpy's error model): 0/0 is nan and x/0 inf, as in TensorFlow,
    where Python's model would raise ZeroDivisionError.
    """
    serial = numba.njit(nogil=True, cache=True, error_model="numpy")(fn)
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + "_parallel"
    copy.__module__ = fn.__module__
    return serial, numba.njit(nogil=True, cache=True, parallel=True, error_model="numpy")(copy)


def variant(template, suffix, **bindings):
    """The ``twin`` of a copy of ``template`` that reads ``bindings`` (``combine=_plus``) as globals,
    named ``<template name>_<suffix>``.

    One template makes a kernel's per-dtype or per-operator variants. Each needs a name of its own:
    Numba caches a function in a file named after it and keys an entry by its code and argument
    types, not by the globals it reads, so copies of one template under one name would load each
    other's machine code. Named apart, each compiles once per machine, as any cached kernel does.
    Every global ``template`` reads must exist when this is called (the copy's globals are a copy).
    """
    name = f"{template.__name__}_{suffix}"
    fn = types.FunctionType(template.__code__, {**template.__globals__, **bindings}, name, template.__defaults__,
                            template.__closure__)
    fn.__qualname__ = name
    fn.__module__ = template.__module__
    return twin(fn)


def launch(kernels, size, *args):
    """Run the serial kernel of ``kernels`` (a twin) below PARALLEL_THRESHOLD or while other threads
    hold the cores (``cpu_threads.serial_kernels()``), else the parallel one."""
    serial, parallel = kernels
    if size < PARALLEL_THRESHOLD or cpu_threads.serial_kernels():
        return serial(*args)
    with launch_lock():
        return parallel(*args)
