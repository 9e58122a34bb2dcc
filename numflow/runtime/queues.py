"""The kernels of TensorFlow 1.x's queues (``FIFOQueueV2``, ``RandomShuffleQueueV2``,
``PaddingFIFOQueueV2`` and their enqueue, dequeue, close and size ops) and of ``CountUpTo``.

A queue is a resource of the session's container (made by its queue op on first use), holding
elements (tuples of arrays) under one condition variable. Enqueues wait while it is full, dequeues
while it holds too few; both are ``blocking`` ops, which the executor gives a thread of their own.
``close`` lets the queue drain: a dequeue of more than is left raises ``OutOfRangeError``, an enqueue
``CancelledError``, as in TensorFlow (with ``cancel_pending_enqueues``, waiting enqueues are
cancelled too). Closing a session cancels its queues (:meth:`Queue.cancel`), so that no run, and no
queue runner's thread, is left waiting.

A RandomShuffleQueue dequeues as TensorFlow's (``random_shuffle_queue_op.cc``): each element out is
at ``word % size`` for the next uint32 word of the Philox stream of its seeds, and the last element
takes its place. Which elements a dequeue chooses from depends on how many are in: in TensorFlow, on
timing, whenever a thread fills the queue. Here, once a queue runner's thread has enqueued into it,
a dequeue waits until the queue is full (or closed), so the same seeds draw the same elements in
every run; a queue filled by the program itself dequeues as soon as ``min_after_dequeue`` elements
would stay, as TensorFlow's.
"""

import collections
import threading

import numpy as np

from numflow.framework import errors
from numflow_kernels.context import compatible
from numflow_kernels.padding import padded_batch
from numflow_kernels.philox_words import PhiloxWords, seeds_or_fresh
from numflow_kernels.registry import register

# Set by a queue runner's threads (``numflow.train.queue_runner``): enqueues they run mark their queue.
runner_thread = threading.local()

_KINDS = {"FIFOQueueV2": "FIFOQueue", "RandomShuffleQueueV2": "RandomShuffleQueue",
          "PaddingFIFOQueueV2": "PaddingFIFOQueue"}


class Queue:
    """One queue of one container: its elements, and the condition its enqueues and dequeues wait on."""

    def __init__(self, name, kind, attrs):
        self.name, self.kind = name, kind
        self.capacity = attrs["capacity"] if attrs["capacity"] >= 0 else float("inf")
        self.shapes = attrs["shapes"]
        self.num_components = len(attrs["component_types"])
        self.elements = collections.deque() if kind != "RandomShuffleQueue" else []
        self.condition = threading.Condition()
        self.closed = False
        self.cancel_pending = False
        self.min_after_dequeue = attrs.get("min_after_dequeue", 0)
        self.fed_by_runners = False
        self.words = None
        if kind == "RandomShuffleQueue":
            self.words = PhiloxWords(*seeds_or_fresh(attrs["seed"], attrs["seed2"]))

    def _closed_error(self):
        return errors.CancelledError(None, None, f"{self.kind} '{self.name}' is closed.")

    def enqueue(self, elements):
        """Add ``elements`` one at a time, each waiting for room; CancelledError once closed."""
        with self.condition:
            if self.closed:
                raise self._closed_error()
            if getattr(runner_thread, "active", False):
                self.fed_by_runners = True
            for element in elements:
                while len(self.elements) >= self.capacity:
                    if self.cancel_pending:
                        raise self._closed_error()
                    self.condition.wait()
                self.elements.append(element)
                self.condition.notify_all()

    def _ready(self, n):
        size = len(self.elements)
        if self.words is None or self.closed:
            return size >= n
        if self.fed_by_runners:
            return size >= self.capacity and size >= n
        return size >= n + self.min_after_dequeue

    def dequeue(self, n, allow_smaller=False):
        """Take ``n`` elements once the queue is ready (see the module docstring); after a close, what
        is left (``allow_smaller``) or OutOfRangeError."""
        with self.condition:
            while not self._ready(n):
                if self.closed:
                    size = len(self.elements)
                    if allow_smaller and size:
                        n = size
                        break
                    raise errors.OutOfRangeError(
                        None, None, f"{self.kind} '{self.name}' is closed and has insufficient elements (requested "
                        f"{n}, current size {size})")
                self.condition.wait()
            taken = [self._take() for _ in range(n)]
            self.condition.notify_all()
            return taken

    def _take(self):
        if self.words is None:
            return self.elements.popleft()
        elements = self.elements
        index = self.words() % len(elements)
        element = elements[index]
        elements[index] = elements[-1]
        elements.pop()
        return element

    def close(self, cancel_pending_enqueues=False):
        with self.condition:
            self.closed = True
            self.cancel_pending = self.cancel_pending or cancel_pending_enqueues
            self.condition.notify_all()

    def cancel(self):
        """Close the queue and cancel every waiting enqueue: its session is closing."""
        self.close(cancel_pending_enqueues=True)

    def size(self):
        with self.condition:
            return len(self.elements)

    def batch(self, elements):
        """``elements`` stacked per component (padded to the batch's largest, for a PaddingFIFOQueue)."""
        if self.kind == "PaddingFIFOQueue":
            shapes = [[-1 if d is None else d for d in s] for s in self.shapes]
            zeros = [np.array(b"", object) if c.dtype == object else np.zeros((), c.dtype) for c in elements[0]]
            return padded_batch(elements, shapes, zeros)
        return tuple(np.stack([e[i] for e in elements]) for i in range(len(elements[0])))


def _queue_kernel(op_type):
    kind = _KINDS[op_type]

    @register(op_type)
    def make(ctx):
        attrs = ctx.attrs
        name = attrs.get("shared_name") or ctx.op_name
        return ctx.resources.get_or_create(("queue", name), lambda: Queue(name, kind, attrs))


for _op_type in _KINDS:
    _queue_kernel(_op_type)


def _check_components(queue, components, many):
    if len(components) != queue.num_components:
        raise ValueError(f"Enqueue of {len(components)} components to {queue.kind} '{queue.name}' of "
                         f"{queue.num_components} components")
    if many:
        sizes = {np.shape(c)[0] if np.ndim(c) else None for c in components}
        if None in sizes or len(sizes) != 1:
            raise ValueError(f"Shape mismatch in tuple component 0. Expected [?,...] with a common first dimension "
                             f"for every component, got shapes {[list(np.shape(c)) for c in components]}")
    for i, (c, shape) in enumerate(zip(components, queue.shapes or ())):
        have = np.shape(c)[1:] if many else np.shape(c)
        if not compatible(shape, have):
            raise ValueError(f"Shape mismatch in tuple component {i}. Expected {list(shape)}, got "
                             f"{list(have)}")


def _element(components):
    return tuple(np.asarray(c) for c in components)


@register("QueueEnqueueV2")
def _enqueue(ctx, queue, *components):
    _check_components(queue, components, many=False)
    queue.enqueue([_element(components)])
    return ()


@register("QueueEnqueueManyV2")
def _enqueue_many(ctx, queue, *components):
    _check_components(queue, components, many=True)
    queue.enqueue([tuple(c[i] for c in components) for i in range(np.shape(components[0])[0])])
    return ()


def _result(values):
    return values[0] if len(values) == 1 else values


@register("QueueDequeueV2")
def _dequeue(ctx, queue):
    (element,) = queue.dequeue(1)
    return _result(element)


def _count(n):
    n = int(n)
    if n < 0:
        raise ValueError(f"Requested negative number of elements: {n}")
    return n


@register("QueueDequeueManyV2")
def _dequeue_many(ctx, queue, n):
    n = _count(n)
    if n == 0:
        return _result(_empty(ctx, queue))
    return _result(queue.batch(queue.dequeue(n)))


@register("QueueDequeueUpToV2")
def _dequeue_up_to(ctx, queue, n):
    n = _count(n)
    if n == 0:
        return _result(_empty(ctx, queue))
    return _result(queue.batch(queue.dequeue(n, allow_smaller=True)))


def _empty(ctx, queue):
    shapes = queue.shapes or [None] * queue.num_components
    return tuple(np.zeros([0, *[d or 0 for d in s]] if s else [0], dtype)
                 for dtype, s in zip(ctx.attrs["component_types"], shapes))


@register("QueueCloseV2")
def _close(ctx, queue):
    queue.close(ctx.attrs["cancel_pending_enqueues"])
    return ()


@register("QueueSizeV2")
def _size(ctx, queue):
    return np.int32(queue.size())


@register("CountUpTo")
def _count_up_to(ctx, ref):
    limit = ctx.attrs["limit"]

    def count(buffer):
        before = buffer.item()
        if before >= limit:
            raise errors.OutOfRangeError(None, None, f"Reached limit of {limit}")
        buffer[...] = before + 1
        return np.array(before, buffer.dtype)

    return ref.update(count, host=True)
