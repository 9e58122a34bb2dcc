"""The kernels of the dataset ops: each run makes a description of a dataset, whose ``elements()``
is a Python generator of elements (tuples of arrays) made anew for each iterator, as TensorFlow's
``MakeIterator`` makes a fresh iterator tree.

Elements are computed when an iterator asks for them, in order, on the thread asking: a pipeline's
values depend only on its inputs and seeds, never on timing. ``shuffle`` draws TensorFlow's order for
the same seeds (``shuffle_dataset_op.cc``): a ring buffer filled to ``buffer_size``; each element
out is at ``start + word % size`` for the next uint32 word of a Philox stream, swapped with the one at
``start``. With ``reshuffle_each_iteration`` each new iterator of the dataset (each epoch under
``repeat``) takes its stream's seeds from a seed generator: two words of the Philox stream of the
dataset's seeds.

Slices of arrays, shuffled and repeated, are batched without touching each element: such a dataset
(``can_index()``) gives each pass as an array of row indices (``indexed_pass()``; a shuffle's order
from a Numba loop over the same words), and ``batch`` gathers each batch's rows at once. The elements
are the ones the element-by-element path gives, in the same order.
"""

import itertools

import numpy as np

from numflow.framework import dtypes, errors
from numflow_kernels.context import compatible
from numflow_kernels.handle import VariableHandle
from numflow_kernels.padding import padded_batch
from numflow_kernels.philox_words import PhiloxWords, seeds_or_fresh
from numflow_kernels.registry import register


def _value(x):
    return x.read() if isinstance(x, VariableHandle) else x


def _scalar(x, name):
    x = _value(x)
    if np.ndim(x) != 0:
        raise ValueError(f"{name} must be a scalar, got shape {list(np.shape(x))}")
    return x.item()


def _read_only(array):
    view = np.asarray(array).view()
    view.flags.writeable = False
    return view


class Dataset:
    """A dataset made by one run of a dataset op; ``elements()`` starts a new pass over it."""

    def elements(self):
        raise NotImplementedError

    def elements_skipping_errors(self):
        """A pass over the elements leaving out those that fail (``ignore_errors``): where a dataset
        computes each element apart (a map, a filter, a CSV record) it goes on after a failure; here
        a failure ends the pass."""
        try:
            yield from self.elements()
        except Exception:  # noqa: BLE001  (TensorFlow's ignore_errors drops any error)
            return

    def can_index(self):
        """Whether the elements are rows of arrays, so that ``indexed_pass`` can stand for ``elements``."""
        return False

    def indexed_pass(self):
        """``(arrays, passes)``: a pass over the elements as index arrays into ``arrays``' rows (its
        side effects, a shuffle's new seeds, are those of ``elements()``)."""
        raise NotImplementedError


class SliceDataset(Dataset):
    """The slices of ``components`` along their first dimension (read-only views)."""

    def __init__(self, components):
        self.components = [_read_only(c) for c in components]
        sizes = {c.shape[0] for c in self.components}
        if len(sizes) > 1:
            raise ValueError(f"All components must have the same size in the 0th dimension, got sizes "
                             f"{[c.shape[0] for c in self.components]}")
        self.size = sizes.pop()

    def elements(self):
        components = self.components
        if len(components) == 1:
            (only,) = components
            for i in range(self.size):
                yield (only[i, ...],)
            return
        for i in range(self.size):
            yield tuple([c[i, ...] for c in components])

    def can_index(self):
        return True

    def indexed_pass(self):
        return self.components, iter([np.arange(self.size)])


class TensorDataset(Dataset):
    def __init__(self, components):
        self.element = tuple(_read_only(c) for c in components)

    def elements(self):
        yield self.element


class RangeDataset(Dataset):
    def __init__(self, start, stop, step, dtype):
        if step == 0:
            raise ValueError("step must be a non-zero integer.")
        self.values = range(start, stop, step)
        self.dtype = dtype

    def elements(self):
        dtype = self.dtype
        for v in self.values:
            yield (np.array(v, dtype),)


class ZipDataset(Dataset):
    def __init__(self, inputs):
        self.inputs = inputs

    def elements(self):
        for parts in zip(*[d.elements() for d in self.inputs]):
            yield tuple(itertools.chain.from_iterable(parts))


class ConcatenateDataset(Dataset):
    def __init__(self, first, second):
        self.parts = (first, second)

    def elements(self):
        for d in self.parts:
            yield from d.elements()


class FunctionDataset(Dataset):
    """A dataset of ``fn`` (a function instance bound to its captured values) and the elements of ``source``."""

    def __init__(self, source, fn):
        self.source, self.fn = source, fn


class MapDataset(FunctionDataset):
    """``fn`` applied to each element of ``source``."""

    def elements(self):
        fn = self.fn
        for element in self.source.elements():
            yield fn(element)

    def elements_skipping_errors(self):
        for element in self.source.elements_skipping_errors():
            try:
                result = self.result(element)
            except Exception:  # noqa: BLE001  (TensorFlow's ignore_errors drops any error)
                continue
            if result is not None:
                yield result

    def result(self, element):
        """What ``element`` gives (None: nothing, for a filter)."""
        return self.fn(element)


class FilterDataset(MapDataset):
    def elements(self):
        for element in self.source.elements():
            if self.result(element) is not None:
                yield element

    def result(self, element):
        keep = self.fn(element)[0]
        if np.ndim(keep) != 0:
            raise ValueError(f"Filter predicate `predicate` must return a scalar bool, got shape "
                             f"{list(np.shape(keep))}")
        return element if keep else None


class FlatMapDataset(FunctionDataset):
    def elements(self):
        for element in self.source.elements():
            yield from self.fn(element)[0].elements()


class InterleaveDataset(FunctionDataset):
    """TensorFlow's ``InterleaveDataset``: up to ``cycle_length`` of the datasets ``fn`` makes open at
    once, ``block_length`` elements taken from each in turn; one that ends gives its place in the
    cycle to the next element's dataset."""

    def __init__(self, source, fn, cycle_length, block_length):
        super().__init__(source, fn)
        self.cycle_length, self.block_length = cycle_length, block_length

    def elements(self):
        inputs, fn = self.source.elements(), self.fn
        cycle = [None] * self.cycle_length
        index = taken = 0
        open_count, input_ended = 0, False
        while not input_ended or open_count:
            current = cycle[index]
            if current is None and not input_ended:
                element = next(inputs, None)
                if element is None:
                    input_ended = True
                else:
                    cycle[index] = fn(element)[0].elements()
                    open_count += 1
                continue
            if current is not None:
                element = next(current, None)
                if element is not None:
                    yield element
                    taken += 1
                    if taken < self.block_length:
                        continue
                else:
                    cycle[index] = None
                    open_count -= 1
            index, taken = (index + 1) % self.cycle_length, 0


class GeneratorDataset(Dataset):
    """The elements a Python generator yields, converted to the dataset's dtypes and checked
    against its shapes (``from_generator``)."""

    def __init__(self, generator, args, types, shapes, structure_of):
        self.generator, self.args = generator, args
        self.types, self.shapes, self.structure_of = types, shapes, structure_of

    def elements(self):
        for value in self.generator(*self.args):
            yield tuple(self._component(v, i) for i, v in enumerate(self.structure_of(value)))

    def _component(self, value, i):
        from numflow.ops.constant_op import to_numpy

        dtype, shape = dtypes.as_dtype(self.types[i]), self.shapes[i]
        try:
            array = to_numpy(value, dtype)
        except (TypeError, ValueError) as e:
            raise errors.InvalidArgumentError(
                None, None, f"TypeError: `generator` yielded an element that could not be converted to the expected "
                f"type. The expected type was {dtype.name}, but the yielded element was {value!r}. ({e})") from None
        if not compatible(shape, array.shape):
            raise errors.InvalidArgumentError(
                None, None, f"`generator` yielded an element of shape {array.shape} where an element of shape "
                f"{shape} was expected.")
        return array


class BatchDataset(Dataset):
    def __init__(self, source, size, drop_remainder):
        if size <= 0:
            raise ValueError("Batch size must be greater than zero.")
        self.source, self.size, self.drop_remainder = source, size, drop_remainder

    def elements(self):
        if self.source.can_index() and type(self) is BatchDataset:
            yield from self._gathered()
            return
        elements, size = self.source.elements(), self.size
        while True:
            batch = list(itertools.islice(elements, size))
            if not batch or self.drop_remainder and len(batch) < size:
                return
            yield self.combine(batch)

    def combine(self, batch):
        """One batch's elements as one element."""
        return tuple(_stack(batch, i) for i in range(len(batch[0])))

    def _gathered(self):
        """The batches of an indexable source: each batch's rows gathered from its arrays at once."""
        arrays, passes = self.source.indexed_pass()
        size = self.size
        carry = np.empty(0, np.int64)
        for indices in passes:
            if carry.size:
                indices = np.concatenate([carry, indices])
            full = len(indices) - len(indices) % size
            for k in range(0, full, size):
                rows = indices[k:k + size]
                yield tuple(a[rows] for a in arrays)
            carry = indices[full:]
        if carry.size and not self.drop_remainder:
            yield tuple(a[carry] for a in arrays)


def _stack(batch, i):
    parts = [element[i] for element in batch]
    first = parts[0].shape
    for j, p in enumerate(parts):
        if p.shape != first:
            raise ValueError(f"Cannot batch tensors with different shapes in component {i}. First element had shape "
                             f"{list(first)} and element {j} had shape {list(p.shape)}.")
    dtype = parts[0].dtype
    # np.array copies equal-shaped arrays in one call, several times faster than np.stack; an object
    # array would hold the parts themselves, so strings take np.stack.
    return np.stack(parts) if dtype.kind == "O" else np.array(parts, dtype=dtype)


class PaddedBatchDataset(BatchDataset):
    def __init__(self, source, size, drop_remainder, shapes, values):
        super().__init__(source, size, drop_remainder)
        self.shapes, self.values = shapes, values

    def combine(self, batch):
        return padded_batch(batch, self.shapes, self.values)


class ShuffleDataset(Dataset):
    def __init__(self, source, buffer_size, seed, seed2, reshuffle):
        if buffer_size <= 0:
            raise ValueError("buffer_size must be greater than zero.")
        seed, seed2 = seeds_or_fresh(seed, seed2)
        self.source, self.buffer_size = source, buffer_size
        self.seeds = (seed, seed2)
        self.seed_generator = PhiloxWords(seed, seed2) if reshuffle else None

    def _words(self):
        """The Philox words of one pass: the dataset's seeds, or the seed generator's next two words."""
        if self.seed_generator is None:
            return PhiloxWords(*self.seeds)
        return PhiloxWords(self.seed_generator(), self.seed_generator())

    def can_index(self):
        return self.source.can_index()

    def indexed_pass(self):
        from numflow_kernels.cpu import sampling_loops

        words = self._words()
        arrays, passes = self.source.indexed_pass()
        rows = np.concatenate(list(passes))
        order = sampling_loops.shuffle_buffer_order(len(rows), self.buffer_size, words.take(len(rows)))
        return arrays, iter([rows[order]])

    def elements(self):
        words = self._words()
        size = self.buffer_size
        buffer = [None] * min(size, 1 << 16)  # grows to ``size`` as it fills
        source = self.source.elements()
        start = end = 0
        while True:
            while end - start < size:
                element = next(source, None)
                if element is None:
                    break
                slot = end % size
                if slot >= len(buffer):
                    buffer.extend([None] * len(buffer))
                buffer[slot] = element
                end += 1
            if start == end:
                return
            index = (start + words() % (end - start)) % size
            first = start % size
            element = buffer[index]
            buffer[index] = buffer[first]
            buffer[first] = None
            start += 1
            yield element


class RepeatDataset(Dataset):
    def __init__(self, source, count):
        self.source, self.count = source, count

    def elements(self):
        epoch = 0
        while self.count < 0 or epoch < self.count:
            produced = False
            for element in self.source.elements():
                produced = True
                yield element
            if not produced:
                return  # as TensorFlow: an empty pass ends the repetition, never a loop without end
            epoch += 1

    def can_index(self):
        return self.count != 0 and self.source.can_index()

    def indexed_pass(self):
        arrays, passes = self.source.indexed_pass()
        return arrays, self._passes(passes)

    def _passes(self, passes):
        epoch = 0
        while self.count < 0 or epoch < self.count:
            indices = np.concatenate(list(passes))
            if not indices.size:
                return
            yield indices
            epoch += 1
            if self.count < 0 or epoch < self.count:
                passes = self.source.indexed_pass()[1]


class TakeDataset(Dataset):
    def __init__(self, source, count):
        self.source, self.count = source, count

    def elements(self):
        if self.count < 0:
            return self.source.elements()
        return itertools.islice(self.source.elements(), self.count)


class SkipDataset(Dataset):
    def __init__(self, source, count):
        self.source, self.count = source, count

    def elements(self):
        if self.count < 0:
            return iter(())
        return itertools.islice(self.source.elements(), self.count, None)


class CacheDataset(Dataset):
    """The source's elements, recorded on the first complete pass and replayed by every later one."""

    def __init__(self, source):
        self.source, self.cached = source, None

    def elements(self):
        if self.cached is not None:
            yield from self.cached
            return
        seen = []
        for element in self.source.elements():
            seen.append(element)
            yield element
        self.cached = seen


# -- kernels ------------------------------------------------------------------------------------
@register("TensorSliceDataset")
def _tensor_slice(ctx, *components):
    return SliceDataset(components)


@register("TensorDataset")
def _tensor(ctx, *components):
    return TensorDataset(components)


@register("RangeDataset")
def _range(ctx, start, stop, step):
    dtype = ctx.attrs["output_types"][0]
    return RangeDataset(_scalar(start, "start"), _scalar(stop, "stop"), _scalar(step, "step"), dtype)


@register("ZipDataset")
def _zip(ctx, *inputs):
    return ZipDataset(inputs)


@register("ConcatenateDataset")
def _concatenate(ctx, first, second):
    return ConcatenateDataset(first, second)


def _bound(ctx, captured):
    """The op's function, bound to this run's captured values, in a new instance of it."""
    (instance,) = ctx.subplans.instances()
    return instance.bind([_value(c) for c in captured])


@register("MapDataset")
def _map(ctx, source, *captured):
    return MapDataset(source, _bound(ctx, captured))


@register("ParallelMapDatasetV2")
def _parallel_map(ctx, source, *inputs):
    calls = _scalar(inputs[-1], "num_parallel_calls")
    if calls <= 0 and calls != -1:
        raise ValueError("num_parallel_calls must be greater than zero.")
    return MapDataset(source, _bound(ctx, inputs[:-1]))


@register("FilterDataset")
def _filter(ctx, source, *captured):
    return FilterDataset(source, _bound(ctx, captured))


@register("FlatMapDataset")
def _flat_map(ctx, source, *captured):
    generator = ctx.attrs.get("generator")
    if generator is not None:
        return _generator_dataset(ctx, generator, captured)
    return FlatMapDataset(source, _bound(ctx, captured))


@register("InterleaveDataset")
def _interleave(ctx, source, *inputs):
    import os

    cycle_length, block_length = _scalar(inputs[-2], "cycle_length"), _scalar(inputs[-1], "block_length")
    if cycle_length == -1:  # AUTOTUNE: TensorFlow's MaxParallelism
        cycle_length = os.cpu_count() or 1
    if cycle_length <= 0:
        raise ValueError("cycle_length must be greater than zero.")
    if block_length <= 0:
        raise ValueError("block_length must be greater than zero.")
    return InterleaveDataset(source, _bound(ctx, inputs[:-2]), cycle_length, block_length)


def _generator_dataset(ctx, generator, args):
    from numflow.data import structure

    attrs = ctx.attrs
    template = attrs["structure"]
    return GeneratorDataset(generator, [_value(a) for a in args], attrs["output_types"], attrs["output_shapes"],
                            lambda value: structure.flatten_up_to(template, value, "generator's elements"))


@register("BatchDatasetV2")
def _batch(ctx, source, size, drop_remainder):
    return BatchDataset(source, _scalar(size, "batch_size"), bool(_scalar(drop_remainder, "drop_remainder")))


@register("PaddedBatchDatasetV2")
def _padded_batch(ctx, source, size, *inputs):
    n = ctx.attrs["N"]
    shapes, values = inputs[:n], inputs[n:2 * n]
    return PaddedBatchDataset(source, _scalar(size, "batch_size"), bool(_scalar(inputs[-1], "drop_remainder")),
                              [np.asarray(s).tolist() for s in shapes], values)


@register("ShuffleDataset")
def _shuffle(ctx, source, buffer_size, seed, seed2):
    return ShuffleDataset(source, _scalar(buffer_size, "buffer_size"), _scalar(seed, "seed"),
                          _scalar(seed2, "seed2"), ctx.attrs["reshuffle_each_iteration"])


@register("RepeatDataset")
def _repeat(ctx, source, count):
    return RepeatDataset(source, _scalar(count, "count"))


@register("TakeDataset")
def _take(ctx, source, count):
    return TakeDataset(source, _scalar(count, "count"))


@register("SkipDataset")
def _skip(ctx, source, count):
    return SkipDataset(source, _scalar(count, "count"))


@register("PrefetchDataset")
def _prefetch(ctx, source, buffer_size):
    size = _scalar(buffer_size, "buffer_size")
    if size < -1:
        raise ValueError("buffer_size must be >= 0 or set buffer_size to be AUTOTUNE.")
    return source


@register("RewriteDataset")
def _rewrite(ctx, source, rewrite_name):
    return source


@register("CacheDataset")
def _cache(ctx, source, filename):
    return CacheDataset(source)
