"""The kernels of the dataset ops that regroup their input's elements: ``ShardDataset``,
``UnbatchDataset``, ``IgnoreErrorsDataset`` (the elements that do not fail), the fused
``ShuffleAndRepeatDataset`` and ``MapAndBatchDataset`` (the elements of the shuffle then repeat, or
map then batch, they stand for), ``LegacyParallelInterleaveDatasetV2``, ``WindowDataset`` and
``GroupByWindowDataset`` (windows and groups as datasets of their elements), and the ops giving
tensors: ``ReduceDataset`` and ``DatasetToSingleElement``.

``parallel_interleave`` gives its elements in the order of TensorFlow's deterministic
(``sloppy=False``) legacy interleave, whatever its threads' timing: ``cycle_length`` datasets in the
cycle and ``prefetch_input_elements`` more staged; a dataset found ended hands its place to the first
staged one (and the next input element is staged), and the cycle moves on to the next place.
"""

import collections
import itertools

import numpy as np

from numflow.data.datasets import (
    BatchDataset,
    Dataset,
    FunctionDataset,
    MapDataset,
    RepeatDataset,
    ShuffleDataset,
    _bound,
    _scalar,
    _value,
)
from numflow_kernels.registry import register


class ShardDataset(Dataset):
    def __init__(self, source, num_shards, index):
        if num_shards <= 0:
            raise ValueError(f"Number of shards must be greater than zero (currently num_shards = {num_shards}).")
        if not 0 <= index < num_shards:
            raise ValueError(f"Index must be between 0 and {num_shards - 1} (currently index = {index}).")
        self.source, self.num_shards, self.index = source, num_shards, index

    def elements(self):
        return itertools.islice(self.source.elements(), self.index, None, self.num_shards)


class UnbatchDataset(Dataset):
    def __init__(self, source):
        self.source = source

    def elements(self):
        for element in self.source.elements():
            sizes = [np.shape(c)[0] for c in element]
            for i, size in enumerate(sizes[1:], 1):
                if size != sizes[0]:
                    raise ValueError(f"Input element must have the same batch size in each component. Component 0 "
                                     f"had size {sizes[0]} but component {i} had size, {size}.")
            for row in range(sizes[0] if sizes else 0):
                yield tuple(c[row] for c in element)


class LegacyInterleaveDataset(FunctionDataset):
    def __init__(self, source, fn, cycle_length, block_length, prefetch):
        super().__init__(source, fn)
        self.cycle_length, self.block_length, self.prefetch = cycle_length, block_length, prefetch

    def elements(self):
        inputs, fn = self.source.elements(), self.fn
        workers, cycle, staged = [], [], collections.deque()
        for i in range(self.cycle_length + self.prefetch):
            element = next(inputs, None)
            if element is None:
                inputs = None
                break
            workers.append(_Peeking(fn(element)[0].elements()))
            (cycle if i < self.cycle_length else staged).append(i)
        index = taken = 0
        while True:
            moved = False
            for step in range(len(cycle)):
                place = (index + step) % len(cycle)
                worker = cycle[place]
                if worker < 0:
                    continue
                if workers[worker].has_next():
                    taken += 1
                    index = place
                    if taken == self.block_length:
                        index, taken = (place + 1) % len(cycle), 0
                    yield workers[worker].pop()
                    moved = True
                    break
                cycle[place] = -1
                if inputs is not None:
                    element = next(inputs, None)
                    if element is None:
                        inputs = None
                    else:
                        workers[worker] = _Peeking(fn(element)[0].elements())
                        staged.append(worker)
                if staged:
                    cycle[place] = staged.popleft()
                    index, taken = (place + 1) % len(cycle), 0
                    moved = True
                    break
            if not moved:
                return


class _Peeking:
    """An iterator that can tell whether it has a next element."""

    _NONE = object()

    def __init__(self, iterator):
        self.iterator, self.head = iterator, self._NONE

    def has_next(self):
        if self.head is self._NONE:
            self.head = next(self.iterator, self._NONE)
        return self.head is not self._NONE

    def pop(self):
        head, self.head = self.head, self._NONE
        return head


class ElementsDataset(Dataset):
    """The elements of a list (a window's components, a group's elements)."""

    def __init__(self, elements):
        self.stored = elements

    def elements(self):
        return iter(self.stored)


class WindowDataset(Dataset):
    """Windows of ``size`` elements, every ``stride``-th, starting every ``shift`` elements (TensorFlow's
    ``window_dataset_op.cc``); each element of the dataset is one dataset per component."""

    def __init__(self, source, size, shift, stride, drop_remainder):
        for what, value in (("size", size), ("shift", shift), ("stride", stride)):
            if value <= 0:
                raise ValueError(f"Window {what} must be greater than zero.")
        self.source, self.size, self.shift, self.stride = source, size, shift, stride
        self.drop_remainder = drop_remainder

    def elements(self):
        inputs = self.source.elements()
        target = (self.size - 1) * self.stride + 1
        buffer = collections.deque()
        while True:
            while inputs is not None and len(buffer) < target:
                element = next(inputs, None)
                if element is None:
                    inputs = None
                else:
                    buffer.append(element)
            if not buffer or self.drop_remainder and len(buffer) < target:
                return
            window = list(itertools.islice(buffer, 0, None, self.stride))
            if self.shift >= len(buffer):
                for _ in range(self.shift - len(buffer)):
                    if inputs is not None and next(inputs, None) is None:
                        inputs = None
                buffer.clear()
            else:
                for _ in range(self.shift):
                    buffer.popleft()
            yield tuple(ElementsDataset([(e[i],) for e in window]) for i in range(len(window[0])))


class GroupByWindowDataset(Dataset):
    """TensorFlow's ``GroupByWindowDataset``: elements gathered by key until a group holds its
    key's window size, then the dataset ``reduce`` makes of ``(key, group)``; at the end of the
    input the groups left are flushed in the order of their keys."""

    def __init__(self, source, key, reduce, window_size):
        self.source, self.key, self.reduce, self.window_size = source, key, reduce, window_size

    def elements(self):
        sizes, groups = {}, {}
        for element in self.source.elements():
            key = self._scalar_int64(self.key(element), "`key_func` must return a scalar int64.")
            if key not in sizes:
                size = self._scalar_int64(self.window_size((np.array(key, np.int64),)),
                                          "`window_size_func` must return a scalar int64.")
                if size <= 0:
                    raise ValueError(f"Window size must be greater than zero, but got {size}.")
                sizes[key] = size
            group = groups.setdefault(key, [])
            group.append(element)
            if len(group) == sizes[key]:
                yield from self._flush(groups, key)
        while groups:
            yield from self._flush(groups, min(groups))

    def _flush(self, groups, key):
        group = groups.pop(key)
        return self.reduce((np.array(key, np.int64), ElementsDataset(group)))[0].elements()

    @staticmethod
    def _scalar_int64(outputs, message):
        if len(outputs) != 1 or np.asarray(outputs[0]).dtype != np.int64 or np.size(outputs[0]) != 1:
            raise ValueError(message)
        return int(np.asarray(outputs[0]).reshape(()))


@register("GroupByWindowDataset")
def _group_by_window(ctx, source, *captured):
    attrs, bound, start = ctx.attrs, [], 0
    instances = ctx.subplans.instances()
    for name, instance in zip(("key_func", "reduce_func", "window_size_func"), instances):
        size = len(attrs[f"T{name}_other_arguments"])
        bound.append(instance.bind([_value(c) for c in captured[start:start + size]]))
        start += size
    return GroupByWindowDataset(source, *bound)


@register("WindowDataset")
def _window(ctx, source, size, shift, stride, drop_remainder):
    return WindowDataset(source, _scalar(size, "size"), _scalar(shift, "shift"), _scalar(stride, "stride"),
                         bool(_scalar(drop_remainder, "drop_remainder")))


@register("ReduceDataset")
def _reduce(ctx, source, *inputs):
    count = len(ctx.attrs["output_types"])
    state, reduce_fn = tuple(inputs[:count]), _bound(ctx, inputs[count:])
    for element in source.elements():
        state = reduce_fn(state + element)
    return state if count > 1 else state[0]


@register("DatasetToSingleElement")
def _single_element(ctx, source):
    elements = source.elements()
    first = next(elements, None)
    if first is None:
        raise ValueError("Dataset was empty.")
    if next(elements, None) is not None:
        raise ValueError("Dataset had more than one element.")
    return first if len(first) > 1 else first[0]


@register("ShardDataset")
def _shard(ctx, source, num_shards, index):
    return ShardDataset(source, _scalar(num_shards, "num_shards"), _scalar(index, "index"))


@register("UnbatchDataset")
def _unbatch(ctx, source):
    return UnbatchDataset(source)


class IgnoreErrorsDataset(Dataset):
    def __init__(self, source):
        self.source = source

    def elements(self):
        return self.source.elements_skipping_errors()


@register("IgnoreErrorsDataset")
def _ignore_errors(ctx, source):
    return IgnoreErrorsDataset(source)


@register("ShuffleAndRepeatDataset")
def _shuffle_and_repeat(ctx, source, buffer_size, seed, seed2, count):
    shuffled = ShuffleDataset(source, _scalar(buffer_size, "buffer_size"), _scalar(seed, "seed"),
                              _scalar(seed2, "seed2"), ctx.attrs.get("reshuffle_each_iteration", True))
    return RepeatDataset(shuffled, _scalar(count, "count"))


@register("MapAndBatchDataset")
def _map_and_batch(ctx, source, *inputs):
    captured, (size, calls, drop) = inputs[:-3], inputs[-3:]
    size, calls = _scalar(size, "batch_size"), _scalar(calls, "num_parallel_calls")
    if size <= 0:
        raise ValueError("batch_size must be greater than zero.")
    if calls <= 0 and calls != -1:
        raise ValueError("num_parallel_calls must be greater than zero.")
    mapped = MapDataset(source, _bound(ctx, captured))
    return BatchDataset(mapped, size, bool(_scalar(drop, "drop_remainder")))


@register("LegacyParallelInterleaveDatasetV2")
def _parallel_interleave(ctx, source, *inputs):
    cycle_length, block_length = _scalar(inputs[-4], "cycle_length"), _scalar(inputs[-3], "block_length")
    if cycle_length <= 0:
        raise ValueError("`cycle_length` must be > 0")
    if block_length <= 0:
        raise ValueError("`block_length` must be > 0")
    prefetch = _scalar(inputs[-1], "prefetch_input_elements")
    return LegacyInterleaveDataset(source, _bound(ctx, inputs[:-4]), cycle_length, block_length, max(prefetch, 0))
