"""TensorFlow 1.x's queue-based input pipelines: ``tf.train.batch``, ``shuffle_batch``, the input
producers and ``limit_epochs``, built as TensorFlow builds them (the same queues, names, summaries
and queue runners), for ``start_queue_runners`` to fill.

With ``num_threads=1`` (the default) a pipeline gives the same elements in every run for the same
seeds: one thread enqueues in order, and a shuffle queue fed by a runner dequeues from a full queue
(``numflow.runtime.queues``). With several threads the order of their enqueues is left to timing,
as in TensorFlow.
"""

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, Tensor, get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.queue_ops import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from numflow.train.queue_runner import QueueRunner, add_queue_runner


def _summary(name, value):
    from numflow.ops.summary_ops import scalar

    scalar(name, value)


def limit_epochs(tensor, num_epochs=None, name=None):
    """``tensor``, for ``num_epochs`` runs only: then ``OutOfRangeError`` (a local ``epochs`` counter)."""
    from numflow.ops.array_ops import identity
    from numflow.variables.variable import Variable

    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    graph = get_default_graph()
    with graph.name_scope(name or "limit_epochs") as scope:
        zero = constant(0, dtypes.int64)
        epochs = Variable(zero, name="epochs", trainable=False, collections=[GraphKeys.LOCAL_VARIABLES])
        counter = epochs.count_up_to(num_epochs)
        with graph.control_dependencies([counter]):
            return identity(tensor, name=scope)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    """A FIFOQueue filled by a QueueRunner with the rows of ``input_tensor`` (shuffled each epoch
    when ``shuffle``), ``num_epochs`` times over (forever when None)."""
    from numflow.ops.sampling_ops import random_shuffle

    graph = get_default_graph()
    with graph.name_scope(name or "input_producer") as scope:
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        shape = input_tensor.shape
        element_shape = (TensorShape(shape.as_list()[1:]) if shape.ndims else TensorShape(None)).merge_with(
            TensorShape(element_shape))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        queue = FIFOQueue(capacity, [input_tensor.dtype.base_dtype], shapes=[element_shape],
                          shared_name=shared_name, name=scope)
        enqueue = queue.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(queue, [enqueue], cancel_op=cancel_op))
        if summary_name is not None:
            from numflow.ops.math_ops import cast

            _summary(summary_name, cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        return queue


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                          name=None, cancel_op=None):
    """A queue of the strings of ``string_tensor`` (file names, say), as :func:`input_producer`."""
    from numflow.ops.array_ops import identity
    from numflow.ops.check_ops import Assert
    from numflow.ops.math_ops import greater
    from numflow.ops.sequence_ops import size

    graph = get_default_graph()
    with graph.name_scope(name or "input_producer") as scope:
        string_tensor = convert_to_tensor(string_tensor, dtype=dtypes.string)
        not_empty = Assert(greater(size(string_tensor), 0),
                           ["string_input_producer requires a non-null input tensor"])
        with graph.control_dependencies([not_empty]):
            string_tensor = identity(string_tensor)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope, cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None, name=None):
    """A queue of the integers ``0 .. limit - 1``, as :func:`input_producer`."""
    from numflow.ops.math_ops import range as _range

    graph = get_default_graph()
    with graph.name_scope(name or "input_producer") as scope:
        return input_producer(_range(limit), [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """One row of each tensor of ``tensor_list`` per dequeue (the same row index for all), drawn
    through a shuffled range producer."""
    from numflow.ops.array_ops import gather, shape

    graph = get_default_graph()
    with graph.name_scope(name or "input_producer"):
        tensors = [convert_to_tensor(t) for t in tensor_list]
        if not tensors:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        queue = range_input_producer(shape(tensors[0])[0], num_epochs, shuffle, seed, capacity, shared_name)
        index = queue.dequeue()
        return [gather(t, index) for t in tensors]


def _flat(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors)]
    if isinstance(tensors, Tensor):
        return [tensors]
    return list(tensors)


def _restore(tensors, dequeued):
    if isinstance(tensors, dict):
        values = [dequeued] if len(tensors) == 1 else dequeued
        return dict(zip(sorted(tensors), values))
    return dequeued


def _shapes(tensors, shapes, enqueue_many):
    if shapes is not None:
        return [TensorShape(s) for s in shapes]
    out = []
    for t in tensors:
        shape = t.shape
        if enqueue_many:
            shape = TensorShape(shape.as_list()[1:]) if shape.ndims else TensorShape(None)
        if not shape.is_fully_defined():
            raise ValueError(f"All shapes must be fully defined: {[str(x.shape) for x in tensors]}")
        out.append(shape)
    return out


def _keep_input(keep_input, enqueue_many):
    """``keep_input`` as a tensor, checked as TensorFlow checks it."""
    keep_input = constant(True, name="Const") if keep_input is True else convert_to_tensor(keep_input)
    rank = keep_input.shape.ndims
    if rank is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and rank == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if rank > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _enqueue_kept(enqueue, tensor_list, keep_input):
    """The op enqueueing ``tensor_list`` where ``keep_input`` says: the rows it marks (a vector), or all
    of it or nothing (a scalar; decided when built if its value is known then, else by a cond)."""
    from numflow.ops.cond import cond
    from numflow.ops.control_flow_ops import no_op
    from numflow.ops.data_flow_ops import dynamic_partition
    from numflow.ops.math_ops import cast
    from numflow.ops.op_util import static_value

    if keep_input.shape.ndims == 1:
        select = cast(keep_input, dtypes.int32)
        return enqueue([dynamic_partition(x, select, num_partitions=2)[1] for x in tensor_list])
    known = static_value(keep_input)
    if known is not None:
        return enqueue(tensor_list) if known else no_op()
    return cond(keep_input, lambda: enqueue(tensor_list), no_op)


def _batch(queue_fn, tensors_list, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch, scope,
           summary, keep_input=True):
    """A queue that ``num_threads`` threads per structure of ``tensors_list`` fill with what ``keep_input``
    keeps, and its batch."""
    lists = [[convert_to_tensor(t) for t in _flat(tensors)] for tensors in tensors_list]
    types = [t.dtype.base_dtype for t in lists[0]]
    if any([t.dtype.base_dtype for t in tensor_list] != types for tensor_list in lists[1:]):
        raise TypeError(f"Expected types to be consistent: {[[t.dtype.name for t in tl] for tl in lists]}.")
    keep_input = _keep_input(keep_input, enqueue_many)
    queue = queue_fn(types, _shapes(lists[0], shapes, enqueue_many))
    enqueue = queue.enqueue_many if enqueue_many else queue.enqueue
    enqueues = [_enqueue_kept(enqueue, tensor_list, keep_input) for tensor_list in lists]
    add_queue_runner(QueueRunner(queue, enqueues * num_threads))
    summary(queue)
    if allow_smaller_final_batch:
        return _restore(tensors_list[0], queue.dequeue_up_to(batch_size, name=scope))
    return _restore(tensors_list[0], queue.dequeue_many(batch_size, name=scope))


def _fifo_batch(tensors_list, num_threads, default_name, batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                allow_smaller_final_batch, shared_name, name, keep_input=True):
    from numflow.ops.math_ops import cast

    with get_default_graph().name_scope(name or default_name) as scope:
        kind = PaddingFIFOQueue if dynamic_pad else FIFOQueue

        def summary(queue):
            _summary(f"fraction_of_{capacity}_full", cast(queue.size(), dtypes.float32) * (1.0 / capacity))

        return _batch(lambda types, shapes_: kind(capacity, types, shapes=shapes_, shared_name=shared_name),
                      tensors_list, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch, scope,
                      summary, keep_input)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    """``batch_size`` elements of ``tensors`` stacked, in the order a FIFOQueue got them (padded to the
    batch's largest with ``dynamic_pad``); its QueueRunner runs ``num_threads`` enqueue threads."""
    return _fifo_batch([tensors], num_threads, "batch", batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, shared_name, name)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
               allow_smaller_final_batch=False, shared_name=None, name=None):
    """:func:`batch` of several structures of tensors alike (one per reader, say): one enqueue thread
    per structure feeds one queue."""
    return _fifo_batch(list(tensors_list), 1, "batch_join", batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, shared_name, name)


def _shuffle_batch(tensors_list, num_threads, default_name, batch_size, capacity, min_after_dequeue, seed,
                   enqueue_many, shapes, allow_smaller_final_batch, shared_name, name, keep_input=True):
    from numflow.ops.math_ops import cast, maximum

    if capacity <= min_after_dequeue:
        raise ValueError(f"capacity {capacity} must be bigger than min_after_dequeue {min_after_dequeue}.")
    with get_default_graph().name_scope(name or default_name) as scope:

        def summary(queue):
            full = cast(maximum(0, queue.size() - min_after_dequeue), dtypes.float32) * (
                1.0 / (capacity - min_after_dequeue))
            _summary(f"fraction_over_{min_after_dequeue}_of_{capacity - min_after_dequeue}_full", full)

        return _batch(lambda types, shapes_: RandomShuffleQueue(capacity, min_after_dequeue, types, shapes=shapes_,
                                                                seed=seed, shared_name=shared_name),
                      tensors_list, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch, scope,
                      summary, keep_input)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """``batch_size`` elements of ``tensors`` drawn at random from a RandomShuffleQueue of
    ``capacity`` that keeps ``min_after_dequeue`` elements in until it is closed."""
    return _shuffle_batch([tensors], num_threads, "shuffle_batch", batch_size, capacity, min_after_dequeue, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None, enqueue_many=False,
                       shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """:func:`shuffle_batch` of several structures of tensors alike, one enqueue thread each."""
    return _shuffle_batch(list(tensors_list), 1, "shuffle_batch_join", batch_size, capacity, min_after_dequeue, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """:func:`batch` of the elements ``keep_input`` keeps: a bool scalar for the one element, or with
    ``enqueue_many`` a bool vector, one per row."""
    return _fifo_batch([tensors], num_threads, "batch", batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, shared_name, name, keep_input)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """:func:`batch_join` of the elements ``keep_input`` keeps (as :func:`maybe_batch`)."""
    return _fifo_batch(list(tensors_list), 1, "batch_join", batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, shared_name, name, keep_input)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """:func:`shuffle_batch` of the elements ``keep_input`` keeps (as :func:`maybe_batch`)."""
    return _shuffle_batch([tensors], num_threads, "shuffle_batch", batch_size, capacity, min_after_dequeue, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name, keep_input)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    """:func:`shuffle_batch_join` of the elements ``keep_input`` keeps (as :func:`maybe_batch`)."""
    return _shuffle_batch(list(tensors_list), 1, "shuffle_batch_join", batch_size, capacity, min_after_dequeue, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name, keep_input)


def match_filenames_once(pattern, name=None):
    """A local variable holding the paths matching ``pattern`` (``tf.matching_files``), computed once
    when local variables are initialized."""
    from numflow.ops.file_ops import matching_files
    from numflow.variables.variable import Variable

    with get_default_graph().name_scope(name or "matching_filenames") as scope:
        return Variable(matching_files(pattern), name=scope, trainable=False, validate_shape=False,
                        collections=[GraphKeys.LOCAL_VARIABLES])
