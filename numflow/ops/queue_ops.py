"""TensorFlow 1.x's queues: ``tf.FIFOQueue``, ``tf.RandomShuffleQueue`` and ``tf.PaddingFIFOQueue``, with
TensorFlow's ops (``FIFOQueueV2``, ``QueueEnqueueV2``, ``QueueDequeueManyV2``...) and names
(``fifo_queue``, ``fifo_queue_enqueue``, ``fifo_queue_DequeueMany``...). The queue itself lives in
the session's container (``numflow.runtime.queues``): its elements stay across runs, and a dequeue
waits for an enqueue of another run (a queue runner's thread).

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     q = tf.FIFOQueue(3, tf.float32, shapes=[[]])
...     fill = q.enqueue_many([[1.0, 2.0, 3.0]])
...     pair = q.dequeue_many(2)
...     with tf.Session() as sess:
...         sess.run(fill)
...         pair.name, sess.run(pair).tolist(), int(sess.run(q.size()))
('fifo_queue_DequeueMany:0', [1.0, 2.0], 1)
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import static_value
from numflow.runtime import queues  # noqa: F401  (the queue kernels, registered by import)

_SCALAR = TensorShape([])


def _resource_infer(op):
    return [(dtypes.resource, _SCALAR)]


for _op_type in ("FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2"):
    declare(_op_type, stateful=True)(_resource_infer)
for _op_type in ("QueueEnqueueV2", "QueueEnqueueManyV2"):
    declare(_op_type, stateful=True, blocking=True)(lambda op: [])
declare("QueueCloseV2", stateful=True)(lambda op: [])


@declare("QueueDequeueV2", stateful=True, blocking=True)
@declare("QueueDequeueManyV2", stateful=True, blocking=True)
@declare("QueueDequeueUpToV2", stateful=True, blocking=True)
def _dequeue_infer(op):
    """The components' dtypes, and their shapes as the queue op declares them (batched by a static
    ``n`` for DequeueMany, by an unknown size for DequeueUpTo)."""
    queue = op.inputs[0].op
    types = op._attrs["component_types"]
    shapes = queue._attrs.get("shapes") or [TensorShape(None)] * len(types)
    if op.type != "QueueDequeueV2":
        n = static_value(op.inputs[1]) if op.type == "QueueDequeueManyV2" else None
        lead = TensorShape([None if n is None else int(n)])
        shapes = [lead.concatenate(s) if s.ndims is not None else TensorShape(None) for s in shapes]
    return list(zip(types, shapes))


@declare("QueueSizeV2", stateful=True)
def _size_infer(op):
    return [(dtypes.int32, _SCALAR)]


def _as_list(values):
    return list(values) if isinstance(values, list | tuple) else [values]


class QueueBase:
    """A queue of elements, each a tuple of tensors of ``dtypes`` (and ``shapes``, when given)."""

    def __init__(self, dtypes_, shapes, names, queue_ref):
        self._dtypes = dtypes_
        self._shapes = shapes
        self._names = names
        self._queue_ref = queue_ref
        self._name = queue_ref.op.name.split("/")[-1]

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._queue_ref.op.name

    @property
    def dtypes(self):
        return self._dtypes

    @property
    def shapes(self):
        return self._shapes

    @property
    def names(self):
        return self._names

    def _element_shapes(self):
        return self._shapes or [TensorShape(None)] * len(self._dtypes)

    def _components(self, vals, scope, many):
        if isinstance(vals, dict):
            if self._names is None:
                raise ValueError("Queue must have names to enqueue a dictionary")
            vals = [vals[n] for n in self._names]
        vals = _as_list(vals)
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components for queue {self.name}, got {len(vals)}.")
        tensors = []
        for i, (v, dtype, shape) in enumerate(zip(vals, self._dtypes, self._element_shapes())):
            t = convert_to_tensor(v, dtype=dtype, name=f"component_{i}")
            have = t.shape
            if many and have.ndims is not None:
                if have.ndims == 0:
                    raise ValueError(f"Shape must be at least rank 1 but is rank 0 for '{scope}' (component {i})")
                have = TensorShape(have.as_list()[1:])
            if not shape.is_compatible_with(have):
                raise ValueError(f"Shapes {shape} and {have} are incompatible (component {i} of '{scope}')")
            tensors.append(t)
        return tensors

    def enqueue(self, vals, name=None):
        """An op adding one element; it waits while the queue is full."""
        graph = get_default_graph()
        with graph.name_scope(name or f"{self._name}_enqueue") as scope:
            tensors = self._components(vals, scope, many=False)
            return graph.create_op("QueueEnqueueV2", [self._queue_ref, *tensors], {"timeout_ms": -1}, name=scope)

    def enqueue_many(self, vals, name=None):
        """An op adding the slices of ``vals`` along their first dimension, one element each."""
        graph = get_default_graph()
        with graph.name_scope(name or f"{self._name}_EnqueueMany") as scope:
            tensors = self._components(vals, scope, many=True)
            return graph.create_op("QueueEnqueueManyV2", [self._queue_ref, *tensors], {"timeout_ms": -1},
                                   name=scope)

    def _dequeue(self, op_type, default, n, name):
        graph = get_default_graph()
        with graph.name_scope(name or f"{self._name}_{default}") as scope:
            inputs = [self._queue_ref]
            if n is not None:
                inputs.append(convert_to_tensor(n, dtype=dtypes.int32, name="n"))
            attrs = {"component_types": list(self._dtypes), "timeout_ms": -1}
            op = graph.create_op(op_type, inputs, attrs, name=scope)
        return self._pack(op.outputs)

    def _pack(self, outputs):
        if self._names is not None:
            return dict(zip(self._names, outputs))
        return outputs[0] if len(outputs) == 1 else list(outputs)

    def dequeue(self, name=None):
        """One element; the run waits until there is one (``OutOfRangeError`` once closed and empty)."""
        return self._dequeue("QueueDequeueV2", "Dequeue", None, name)

    def dequeue_many(self, n, name=None):
        """``n`` elements stacked; the run waits until there are ``n``."""
        return self._dequeue("QueueDequeueManyV2", "DequeueMany", n, name)

    def dequeue_up_to(self, n, name=None):
        """Up to ``n`` elements stacked: fewer once the queue is closed."""
        return self._dequeue("QueueDequeueUpToV2", "DequeueUpTo", n, name)

    def close(self, cancel_pending_enqueues=False, name=None):
        """An op closing the queue: no more enqueues; dequeues drain it, then raise OutOfRangeError."""
        return get_default_graph().create_op("QueueCloseV2", [self._queue_ref],
                                             {"cancel_pending_enqueues": bool(cancel_pending_enqueues)},
                                             name=name or f"{self._name}_Close")

    def size(self, name=None):
        """The number of elements in the queue, as an int32 scalar."""
        return get_default_graph().create_op("QueueSizeV2", [self._queue_ref],
                                             name=name or f"{self._name}_Size").outputs[0]


def _queue_args(dtypes_, shapes, names, what):
    dtypes_ = [dtypes.as_dtype(d) for d in _as_list(dtypes_)]
    if shapes is not None:
        shapes = [as_shape(s) for s in (shapes if isinstance(shapes, list | tuple) and (
            not shapes or isinstance(shapes[0], list | tuple | TensorShape)) else [shapes])]
        if len(shapes) != len(dtypes_):
            raise ValueError("Queue shapes must have the same length as dtypes")
    if names is not None:
        names = _as_list(names)
        if len(names) != len(dtypes_):
            raise ValueError("Queue names must have the same length as dtypes")
    return dtypes_, shapes, names


def _create(op_type, default_name, capacity, dtypes_, shapes, shared_name, name, **extra):
    attrs = {"component_types": dtypes_, "shapes": shapes or [], "capacity": int(capacity),
             "container": "", "shared_name": shared_name or "", **extra}
    return get_default_graph().create_op(op_type, [], attrs, name=name or default_name).outputs[0]


class FIFOQueue(QueueBase):
    """A queue giving elements out in the order they came in."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        dtypes_, shapes, names = _queue_args(dtypes, shapes, names, "FIFOQueue")
        ref = _create("FIFOQueueV2", "fifo_queue", capacity, dtypes_, shapes, shared_name, name)
        super().__init__(dtypes_, shapes, names, ref)


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose ``dequeue_many`` pads each component to the batch's largest size (``shapes``
    may hold unknown dimensions; ranks must be known)."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        dtypes_, shapes, names = _queue_args(dtypes, shapes, names, "PaddingFIFOQueue")
        if any(s.ndims is None for s in shapes):
            raise ValueError("All shapes must have a defined rank")
        ref = _create("PaddingFIFOQueueV2", "padding_fifo_queue", capacity, dtypes_, shapes, shared_name, name)
        super().__init__(dtypes_, shapes, names, ref)


class RandomShuffleQueue(QueueBase):
    """A queue giving elements out in an order drawn from its seeds, keeping at least
    ``min_after_dequeue`` in until it is closed."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        from numflow.framework.seeds import get_seed

        dtypes_, shapes, names = _queue_args(dtypes, shapes, names, "RandomShuffleQueue")
        seed1, seed2 = get_seed(seed)
        ref = _create("RandomShuffleQueueV2", "random_shuffle_queue", capacity, dtypes_, shapes, shared_name, name,
                      min_after_dequeue=int(min_after_dequeue), seed=seed1 or 0, seed2=seed2 or 0)
        super().__init__(dtypes_, shapes, names, ref)


@declare("CountUpTo", stateful=True, ref_inputs=(0,))
def _count_up_to_infer(op):
    ref = op.inputs[0]
    return [(ref.dtype.base_dtype, ref.shape)]


def count_up_to(ref, limit, name=None):
    """Increment the int variable ``ref`` and return its value before; ``OutOfRangeError`` once it
    reached ``limit``."""
    tensor = ref._ref() if hasattr(ref, "_ref") else ref
    return get_default_graph().create_op("CountUpTo", [tensor], {"limit": int(limit)},
                                         name=name or "CountUpTo").outputs[0]
