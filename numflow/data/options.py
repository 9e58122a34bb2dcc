"""``tf.data.Options`` and ``Dataset.with_options``/``options``: a dataset's options, as TensorFlow's
``OptionsDataset`` holds them, and ``Dataset.cardinality`` (op ``DatasetCardinality``).

numflow computes each element when an iterator asks for it, in order, on the asking thread: the
threading, determinism and optimization options change nothing in what a pipeline gives, and are
kept only for ``options()`` to read back.

>>> import numflow as tf
>>> options = tf.data.Options()
>>> options.threading.private_threadpool_size = 4
>>> with tf.Graph().as_default():
...     ds = tf.data.Dataset.range(8).with_options(options).batch(3)
...     count = tf.data.experimental.cardinality(ds)
...     with tf.Session() as sess:
...         ds.options().threading.private_threadpool_size, int(sess.run(count))
(4, 3)
"""

from numflow.data.datasets import (
    BatchDataset,
    CacheDataset,
    ConcatenateDataset,
    RangeDataset,
    RepeatDataset,
    ShuffleDataset,
    SkipDataset,
    SliceDataset,
    TakeDataset,
    TensorDataset,
    ZipDataset,
)
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow_kernels.registry import register

INFINITE = -1
UNKNOWN = -2


class _OptionsBase:
    """Options with a fixed set of fields (others are refused, as in TensorFlow), nested options
    made on first read, and ``None`` for a field left unset."""

    _FIELDS = {}
    _ALIASES = {}

    def __init__(self):
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name):
        name = self._ALIASES.get(name, name)
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        values = object.__getattribute__(self, "_values")
        if name not in values and isinstance(fields[name], type):
            values[name] = fields[name]()
        return values.get(name)

    def __setattr__(self, name, value):
        name = self._ALIASES.get(name, name)
        if name not in type(self)._FIELDS:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        self._values[name] = value

    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, f) == getattr(other, f) for f in self._FIELDS)

    def __hash__(self):
        return id(self)

    def merge(self, other):
        """These options with those set in ``other`` over them."""
        merged = type(self)()
        for name, kind in self._FIELDS.items():
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(kind, type):
                setattr(merged, name, mine.merge(theirs))
            else:
                setattr(merged, name, mine if theirs is None else theirs)
        return merged


class ThreadingOptions(_OptionsBase):
    """``tf.data.ThreadingOptions``: ``max_intra_op_parallelism`` and ``private_threadpool_size``."""

    _FIELDS = {"max_intra_op_parallelism": None, "private_threadpool_size": None}


class AutotuneOptions(_OptionsBase):
    _FIELDS = {"enabled": None, "cpu_budget": None, "ram_budget": None, "autotune_algorithm": None,
               "initial_parallelism": None, "min_parallelism": None}


class DistributeOptions(_OptionsBase):
    _FIELDS = {"auto_shard_policy": None, "num_devices": None}


class OptimizationOptions(_OptionsBase):
    _FIELDS = dict.fromkeys(("apply_default_optimizations", "filter_fusion", "filter_parallelization",
                             "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
                             "map_parallelization", "noop_elimination", "parallel_batch", "seq_interleave_prefetch",
                             "shuffle_and_repeat_fusion", "warm_start"))


class Options(_OptionsBase):
    """``tf.data.Options``: the options of a dataset (``Dataset.with_options``)."""

    _FIELDS = {"autotune": AutotuneOptions, "deterministic": None, "experimental_distribute": DistributeOptions,
               "experimental_external_state_policy": None, "experimental_optimization": OptimizationOptions,
               "experimental_slack": None, "experimental_symbolic_checkpoint": None,
               "experimental_warm_start": None, "dataset_name": None, "framework_type": None,
               "threading": ThreadingOptions}
    _ALIASES = {"experimental_deterministic": "deterministic", "experimental_threading": "threading"}


def with_options(dataset, options, name=None):
    """See ``Dataset.with_options``."""
    if not isinstance(options, Options):
        raise TypeError(f"`options` must be a `tf.data.Options` object, got {type(options).__name__}.")
    return dataset._make("OptionsDataset", [], dataset._specs, name, serialized_options="", options=options)


def options_of(dataset):
    """The options of the ``OptionsDataset`` ops ``dataset`` is made from, merged inputs first."""
    merged, seen, order = Options(), set(), []

    def visit(op):
        if op in seen:
            return
        seen.add(op)
        for t in op.inputs:
            if t.dtype == dtypes.variant:
                visit(t.op)
        order.append(op)

    visit(dataset._variant_tensor.op)
    for op in order:
        if op.type == "OptionsDataset" and "options" in op._attrs:
            merged = merged.merge(op._attrs["options"])
    return merged


def cardinality_of(dataset):
    """``Dataset.cardinality()``: an int64 scalar, the number of elements (or INFINITE, UNKNOWN)."""
    return get_default_graph().create_op("DatasetCardinality", [dataset._variant_tensor], {"cardinality_options": ""},
                                         name="DatasetCardinality").outputs[0]


@declare("DatasetCardinality", stateful=True)
def _cardinality_infer(op):
    return [(dtypes.int64, TensorShape([]))]


def count(value):
    """The number of elements of a made dataset, as TensorFlow's ``Cardinality()`` counts them (a
    ``map`` of TensorFlow 1, which does not promise to keep its input's count, has UNKNOWN)."""
    if isinstance(value, SliceDataset):
        return value.size
    if isinstance(value, TensorDataset):
        return 1
    if isinstance(value, RangeDataset):
        return len(value.values)
    if isinstance(value, ZipDataset | ConcatenateDataset):
        parts = [count(d) for d in (value.inputs if isinstance(value, ZipDataset) else value.parts)]
        if UNKNOWN in parts:
            return UNKNOWN
        if isinstance(value, ZipDataset):
            finite = [p for p in parts if p != INFINITE]
            return min(finite) if finite else INFINITE
        return INFINITE if INFINITE in parts else sum(parts)
    if isinstance(value, ShuffleDataset | CacheDataset):
        return count(value.source)
    return _count_of_counted(value)


def _count_of_counted(value):
    """The cardinality of the datasets that take, skip, repeat or batch their input's elements."""
    from numflow.data.regrouping import ShardDataset

    if not isinstance(value, RepeatDataset | TakeDataset | SkipDataset | BatchDataset | ShardDataset):
        return UNKNOWN
    n = count(value.source)
    if n == UNKNOWN:
        return UNKNOWN
    if isinstance(value, ShardDataset):
        return INFINITE if n == INFINITE else n // value.num_shards + (value.index < n % value.num_shards)
    if isinstance(value, RepeatDataset):
        if value.count == 0 or n == 0:
            return 0
        return INFINITE if value.count < 0 or n == INFINITE else n * value.count
    if isinstance(value, TakeDataset):
        if value.count < 0:
            return n
        return value.count if n == INFINITE else min(n, value.count)
    if isinstance(value, SkipDataset):
        if n == INFINITE:
            return INFINITE
        return 0 if value.count < 0 else max(0, n - value.count)
    if n == INFINITE:
        return INFINITE
    return n // value.size if value.drop_remainder else -(-n // value.size)


@register("OptionsDataset")
def _options_dataset(ctx, source):
    return source


@register("DatasetCardinality")
def _cardinality(ctx, dataset):
    import numpy as np

    return np.array(count(dataset), np.int64)
