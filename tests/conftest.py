"""Shared fixtures: a fresh default graph per test, and test-only ops for the executor's behaviour.

The test ops are declared and given CPU kernels once, when this file is imported:

- ``NfTestBarrier(x)``: waits on ``attrs["barrier"]`` (a ``threading.Barrier``), then returns ``x``.
  Its output shape is unknown, so the plan never counts it as cheap work to run inline.
- ``NfTestFail(x)``: raises ``ValueError(attrs["message"])``; the executor reports it as an
  ``InvalidArgumentError`` naming the op.
- ``NfTestRecord(x)``: appends ``(op name, thread id)`` to ``attrs["log"]`` and returns ``x``.

Build them with the ``test_ops`` fixture: ``test_ops.barrier(x, barrier)``.

Hypothesis runs without its "too slow" health check: on a machine busy with other work, drawing
examples can take long enough to fail it, which says nothing about the code under test.
"""

import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

import numflow as tf
from numflow.framework import graph as _graph
from numflow.framework import registry as _op_registry
from numflow.framework.shapes import TensorShape
from numflow.runtime.executor import SyncExecutor
from numflow_kernels import registry as _kernel_registry

settings.register_profile("numflow", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("numflow")

BARRIER_TIMEOUT_S = 10


def _declare_test_ops():
    if "NfTestBarrier" in _op_registry.declared_types():
        return

    def unknown_shape(op):
        return [(op.inputs[0].dtype, TensorShape(None))]

    _op_registry.declare("NfTestBarrier", blocking=True)(unknown_shape)
    for op_type in ("NfTestFail", "NfTestRecord"):
        _op_registry.declare(op_type)(unknown_shape)

    @_kernel_registry.register("NfTestBarrier")
    def _barrier(ctx, x):
        ctx.attrs["barrier"].wait(timeout=BARRIER_TIMEOUT_S)
        return x

    @_kernel_registry.register("NfTestFail")
    def _fail(ctx, x):
        raise ValueError(ctx.attrs["message"])

    @_kernel_registry.register("NfTestRecord")
    def _record(ctx, x):
        ctx.attrs["log"].append((ctx.op_name, threading.get_ident()))
        return x


_declare_test_ops()


def _add(op_type, x, attrs, name):
    graph = tf.get_default_graph()
    return graph.create_op(op_type, [tf.convert_to_tensor(x)], attrs, name=name or op_type).outputs[0]


@pytest.fixture
def test_ops():
    """Builders of the test ops above, in the default graph."""
    return SimpleNamespace(
        barrier=lambda x, barrier, name=None: _add("NfTestBarrier", x, {"barrier": barrier}, name),
        fail=lambda x, message="boom", name=None: _add("NfTestFail", x, {"message": message}, name),
        record=lambda x, log, name=None: _add("NfTestRecord", x, {"log": log}, name),
    )


@pytest.fixture(autouse=True)
def _fresh_default_graph():
    """Each test starts on a new, empty default graph with no default session."""
    if not _graph._default_graph_stack.stack:
        tf.reset_default_graph()
    yield
    if not _graph._default_graph_stack.stack:
        tf.reset_default_graph()


@pytest.fixture
def graph():
    """A new graph, made the default for the test's duration."""
    g = tf.Graph()
    with g.as_default():
        yield g


@pytest.fixture(params=["threads", "sync"])
def pool(request):
    """The pools a session can run on: a thread pool, and the serial SyncExecutor."""
    if request.param == "sync":
        yield SyncExecutor()
        return
    executor = ThreadPoolExecutor(4, thread_name_prefix="test-pool")
    yield executor
    executor.shutdown(wait=True)
