"""The kernels of the iterator ops: an iterator is a resource of the session's container, so it keeps
its place across runs, and two sessions have their own.

``IteratorV2`` looks its iterator up (made on first use, by ``shared_name`` or the op's name);
``MakeIterator`` starts it on a dataset; ``IteratorGetNext`` takes the next element, or raises
``OutOfRangeError`` ("End of sequence") once there is none, as TensorFlow does. ``OneShotIterator``
starts itself on its first run in a session, running the ops that make its dataset as a sub-plan.
A string handle names an iterator of the container, for ``Iterator.from_string_handle``.
"""

import threading

import numpy as np

from numflow.framework import errors
from numflow.runtime import executor, subplan
from numflow.runtime import plan as _plan
from numflow_kernels.registry import register

_HANDLE_PREFIX = b"numflow-iterator:"


class IteratorResource:
    """One iterator of one container: the pass over a dataset that ``get_next`` continues."""

    def __init__(self, name):
        self.name = name
        self.lock = threading.Lock()
        self.elements = None

    def initialize(self, dataset):
        with self.lock:
            self.elements = dataset.elements()

    def get_next(self):
        with self.lock:
            if self.elements is None:
                raise errors.FailedPreconditionError(
                    None, None, "GetNext() failed because the iterator has not been initialized. Ensure that you have "
                    "run the initializer operation for this iterator before getting the next element.")
            element = next(self.elements, None)
        if element is None:
            raise errors.OutOfRangeError(None, None, "End of sequence")
        return element

    @property
    def handle(self):
        return _HANDLE_PREFIX + self.name.encode()


def _key(name):
    return ("iterator", name)


def _iterator(ctx):
    name = ctx.attrs.get("shared_name") or ctx.op_name
    return ctx.resources.get_or_create(_key(name), lambda: IteratorResource(name))


@register("IteratorV2")
def _iterator_v2(ctx):
    return _iterator(ctx)


@register("MakeIterator")
def _make_iterator(ctx, dataset, iterator):
    iterator.initialize(dataset)
    return ()


@register("IteratorGetNext")
def _get_next(ctx, iterator):
    element = iterator.get_next()
    return element[0] if len(element) == 1 else element


@register("IteratorToStringHandle")
def _to_string_handle(ctx, iterator):
    return np.array(iterator.handle, dtype=object)


@register("IteratorFromStringHandleV2")
def _from_string_handle(ctx, handle):
    handle = handle.item() if isinstance(handle, np.ndarray) else handle
    if isinstance(handle, str):
        handle = handle.encode()
    if not isinstance(handle, bytes) or not handle.startswith(_HANDLE_PREFIX):
        raise ValueError(f"Could not parse string_handle {handle!r} as an iterator's handle (from "
                         "Iterator.string_handle()).")
    name = handle[len(_HANDLE_PREFIX):].decode()

    def missing():
        raise errors.NotFoundError(None, None, f"The iterator {name} of the handle does not exist in this session.")

    return ctx.resources.get_or_create(_key(name), missing)


@subplan.builds("OneShotIterator")
class _DatasetPlan:
    """A OneShotIterator's sub-plan: the ops that make its dataset, run once per session."""

    calls_blas = False

    def __init__(self, op, session, needed=None):
        dataset = op._attrs["dataset"]
        self.plan = _plan.build(op.graph, [dataset], [], [], session)

    def dataset(self):
        values = self.plan.slots.copy()
        executor.steps_runner()(self.plan.alone_steps, values)
        return values[self.plan.fetch_slots[0]]


@register("OneShotIterator")
def _one_shot(ctx):
    iterator = _iterator(ctx)
    with iterator.lock:
        if iterator.elements is None:
            iterator.elements = ctx.subplans.dataset().elements()
    return iterator
