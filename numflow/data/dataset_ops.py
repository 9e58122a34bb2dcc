"""``tf.data.Dataset`` in graph mode (``tf.compat.v1``): each transformation adds one dataset op.

A dataset is a scalar ``variant`` tensor (``TensorSliceDataset:0``, ``MapDataset:0``...) and the
structure of its elements. Its ops are TensorFlow's, named as TensorFlow names them, with their
scalar arguments as constants of TensorFlow's names (``batch_size``, ``drop_remainder``, ``count``,
``buffer_size``, ``seed`` and the ``seed2`` select). Running a dataset op makes a description of the
dataset (``numflow.data.datasets``); nothing is read until an iterator pulls elements.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ds = tf.data.Dataset.range(5).map(lambda x: x * 2).batch(2)
...     next_batch = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [sess.run(next_batch).tolist() for _ in range(3)]
[[0, 2], [4, 6], [8]]
"""

import numpy as np

from numflow.data import datasets as _datasets  # noqa: F401  (the dataset kernels, registered by import)
from numflow.data import function as _function
from numflow.data import op_types, structure
from numflow.data import options as _options  # noqa: F401  (their kernels, registered by import)
from numflow.data import regrouping as _regrouping  # noqa: F401  (their kernels, registered by import)
from numflow.data import scanning as _scanning  # noqa: F401  (their kernels, registered by import)
from numflow.data.structure import Spec
from numflow.data.transformations import Transformations
from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops import control_flow_util as cfu
from numflow.ops.constant_op import constant, convert_to_tensor

AUTOTUNE = -1
_SCALAR = TensorShape([])
_INT64_MAX = np.iinfo(np.int64).max


def _variant_infer(op):
    return [(dtypes.variant, _SCALAR)]


def _element_infer(op):
    return list(zip(op._attrs["output_types"], op._attrs["output_shapes"]))


# Dataset ops are stateful, as TensorFlow's: each run makes a new dataset (a new shuffle seed, cache).
# Ops with functions run them as sub-plans (``numflow.data.function``).
for _op_type in (*op_types.PLAIN, *op_types.FUNCTION_ATTRS):
    declare(_op_type, stateful=True, functional=_op_type in op_types.FUNCTION_ATTRS)(
        _element_infer if _op_type in op_types.ELEMENT_OUTPUTS else _variant_infer)


def _int64(value, name):
    return convert_to_tensor(value, dtype=dtypes.int64, name=name)


def _seeds(seed):
    """The ``seed`` and ``seed2`` tensors of a shuffle, as TensorFlow's ``random_seed.get_seed``
    builds them: (0, 0) becomes (0, 2**31 - 1) unless both come from the graph; no seed at all
    gives two zero constants."""
    from numflow.framework.seeds import get_seed
    from numflow.ops.math_ops import equal, logical_and
    from numflow.ops.selection_ops import where_v2

    graph = get_default_graph()
    seed, seed2 = get_seed(seed)
    seed_t = constant(0 if seed is None else seed, dtypes.int64, name="seed")
    if seed2 is None:  # no seed at all: (0, 0), fresh seeds in each run
        return seed_t, constant(0, dtypes.int64, name="seed2")
    with graph.name_scope("seed2") as scope:
        seed2_t = constant(seed2, dtypes.int64)
        both_zero = logical_and(equal(seed_t, 0), equal(seed2_t, 0))
        seed2_t = where_v2(both_zero, constant(2**31 - 1, dtypes.int64), seed2_t, name=scope)
    return seed_t, seed2_t


class Dataset(Transformations, structure.Described):
    """A dataset of elements, each a structure of tensors (TensorFlow's ``DatasetV1``).

    Built from tensors (``from_tensor_slices``, ``from_tensors``, ``range``, ``from_generator``,
    ``zip``) and transformed (``map``, ``filter``, ``batch``, ``shuffle``, ``repeat``...); read through
    an iterator (``make_one_shot_iterator``, ``make_initializable_iterator``).
    """

    def __init__(self, variant, specs):
        self._variant_tensor = variant
        self._specs = specs

    def _flat_specs(self):
        return structure.flatten(self._specs)

    def _make(self, op_type, inputs, specs, name=None, **attrs):
        return _make(op_type, [self._variant_tensor, *inputs], specs, name, **attrs)

    # -- sources -----------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """A dataset of the slices of ``tensors`` along their first dimension (which they share)."""
        components = _normalize(tensors)
        flat = structure.flatten(components)
        first = None
        for t in flat:
            if t.shape.ndims == 0:
                raise ValueError(f"Unbatching a tensor is only supported for rank >= 1, got {t.name} of shape "
                                 f"{t.shape}.")
            if t.shape.ndims is not None:
                size = t.shape.as_list()[0]
                if first is not None and size is not None and first != size:
                    raise ValueError(f"Dimensions {first} and {size} are not compatible")
                first = first if size is None else size
        specs = structure.map_structure(lambda t: Spec(t.dtype, _rest(t.shape)), components)
        return _make("TensorSliceDataset", flat, specs, name)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element: ``tensors``."""
        components = _normalize(tensors)
        specs = structure.map_structure(lambda t: Spec(t.dtype, t.shape), components)
        return _make("TensorDataset", structure.flatten(components), specs, name)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None):
        """``range(stop)``, ``range(start, stop)`` or ``range(start, stop, step)`` as int64 scalars."""
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid arguments to range: {args}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
        inputs = [_int64(start, "start"), _int64(stop, "stop"), _int64(step, "step")]
        return _make("RangeDataset", inputs, Spec(dtypes.as_dtype(output_type), _SCALAR), name)

    @staticmethod
    def zip(datasets, name=None):
        """A dataset of the elements of ``datasets`` (a structure of datasets) side by side, as long
        as the shortest."""
        flat = structure.flatten(datasets)
        for d in flat:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                                f"`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                                f"`tuple` instead. Got {type(d).__name__}.")
        specs = structure.pack(datasets, [d._specs for d in flat])
        return _make("ZipDataset", [d._variant_tensor for d in flat], specs, name)

    @staticmethod
    def from_generator(generator, output_types, output_shapes=None, args=None):
        """A dataset of the elements ``generator(*args)`` yields, converted to ``output_types`` and
        checked against ``output_shapes``. The generator runs in Python, as TensorFlow runs it."""
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        specs = structure.specs_from(output_types, output_shapes)
        arg_tensors = [convert_to_tensor(a, name=f"generator_arg_{i}") for i, a in enumerate(args or ())]
        with get_default_graph().name_scope("normalize_element"):
            seed = convert_to_tensor(np.int64(0), name="component_0")
        ids = _make("TensorDataset", [seed], Spec(dtypes.int64, _SCALAR))
        return ids._make("FlatMapDataset", arg_tensors, specs, functions=[], generator=generator,
                         structure=specs)

    # -- transformations ---------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        """A dataset of ``map_func(element)`` for each element, the function traced once.

        With ``num_parallel_calls`` (TensorFlow's ``ParallelMapDatasetV2``) elements still come in
        order, and the same every run.
        """
        fn = _function.trace(map_func, self._specs, _fn_name(map_func, "Dataset_map"))
        if num_parallel_calls is None:
            return self._make("MapDataset", fn.captured, fn.output_specs, name, functions=[fn])
        inputs = [*fn.captured, _int64(num_parallel_calls, "num_parallel_calls")]
        return self._make("ParallelMapDatasetV2", inputs, fn.output_specs, name, functions=[fn])

    def filter(self, predicate, name=None):
        """A dataset of the elements for which ``predicate`` gives a true bool scalar."""
        fn = _function.trace(predicate, self._specs, _fn_name(predicate, "Dataset_filter"))
        out = structure.flatten(fn.output_specs)
        if len(out) != 1 or out[0].dtype != dtypes.bool or out[0].shape.ndims not in (None, 0):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return "
                             f"type was {structure.types_of(fn.output_specs)} of shape "
                             f"{structure.shapes_of(fn.output_specs)}.")
        return self._make("FilterDataset", fn.captured, self._specs, name, functions=[fn])

    def flat_map(self, map_func, name=None):
        """A dataset of the elements of the datasets ``map_func`` returns, one after another."""
        fn = _function.trace(map_func, self._specs, _fn_name(map_func, "Dataset_flat_map"), returns=_returned_dataset)
        return self._make("FlatMapDataset", fn.captured, fn.output_specs, name, functions=[fn])

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None, deterministic=None,
                   name=None):
        """A dataset of the elements of the datasets ``map_func`` returns, ``cycle_length`` of them
        read at once, ``block_length`` elements from each in turn.

        ``cycle_length`` None reads as many at once as the machine has processors, as TensorFlow's
        default does. ``num_parallel_calls`` changes nothing: the elements come in the order of
        TensorFlow's ``deterministic`` interleave (``InterleaveDataset``), the same every run.
        """
        fn = _function.trace(map_func, self._specs, _fn_name(map_func, "Dataset_interleave"), returns=_returned_dataset)
        cycle = _int64(AUTOTUNE if cycle_length is None else cycle_length, "cycle_length")
        block = _int64(1 if block_length is None else block_length, "block_length")
        return self._make("InterleaveDataset", [*fn.captured, cycle, block], fn.output_specs, name, functions=[fn])

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        """A dataset of ``batch_size`` consecutive elements stacked (the last one smaller unless
        ``drop_remainder``)."""
        size = _int64(batch_size, "batch_size")
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool, name="drop_remainder")
        specs = structure.map_structure(lambda s: Spec(s.dtype, _batched(s.shape, size, drop)), self._specs)
        return self._make("BatchDatasetV2", [size, drop], specs, name, parallel_copy=False)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        """A dataset of ``batch_size`` consecutive elements, each padded to ``padded_shapes`` (unknown
        dimensions: to the batch's largest) with ``padding_values`` (default 0, or empty strings)."""
        from numflow.data.padding import padded_batch_inputs

        size = _int64(batch_size, "batch_size")
        shapes, values, specs = padded_batch_inputs(self._specs, padded_shapes, padding_values)
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool, name="drop_remainder")
        specs = structure.map_structure(lambda s: Spec(s.dtype, _batched(s.shape, size, drop)), specs)
        return self._make("PaddedBatchDatasetV2", [size, *shapes, *values, drop], specs, name, parallel_copy=False,
                          N=len(shapes))

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        """The elements in an order drawn through a buffer of ``buffer_size`` elements, as
        TensorFlow's shuffle draws it from the same seeds (a new order each epoch unless
        ``reshuffle_each_iteration=False``)."""
        size = _int64(buffer_size, "buffer_size")
        seed_t, seed2_t = _seeds(seed)
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        return self._make("ShuffleDataset", [size, seed_t, seed2_t], self._specs, name,
                          reshuffle_each_iteration=reshuffle)

    def repeat(self, count=None, name=None):
        """The elements ``count`` times over (forever when None or -1)."""
        return self._make("RepeatDataset", [_int64(-1 if count is None else count, "count")], self._specs, name)

    def take(self, count, name=None):
        """The first ``count`` elements (all when -1)."""
        return self._make("TakeDataset", [_int64(count, "count")], self._specs, name)

    def skip(self, count, name=None):
        """The elements after the first ``count`` (none when -1)."""
        return self._make("SkipDataset", [_int64(count, "count")], self._specs, name)

    def prefetch(self, buffer_size, name=None):
        """The same elements (numflow computes each when it is asked for, so a run's numbers never
        depend on timing)."""
        return self._make("PrefetchDataset", [_int64(buffer_size, "buffer_size")], self._specs, name)

    def cache(self, filename="", name=None):
        """The same elements, kept in memory after the first full pass and replayed after."""
        if filename:
            raise NotImplementedError("numflow caches datasets in memory only: call cache() without a filename.")
        file = convert_to_tensor(filename, dtype=dtypes.string, name="filename")
        return self._make("CacheDataset", [file], self._specs, name)

    def concatenate(self, dataset, name=None):
        """This dataset's elements, then ``dataset``'s (of the same structure and types)."""
        if not structure.same_structure(self._specs, dataset._specs) or \
                self._flat_types() != dataset._flat_types():
            raise TypeError(f"Incompatible types of input datasets: {self.output_types} vs. {dataset.output_types}.")
        flat = [Spec(a.dtype, cfu.most_specific_compatible_shape(a.shape, b.shape))
                for a, b in zip(self._flat_specs(), dataset._flat_specs())]
        return _make("ConcatenateDataset", [self._variant_tensor, dataset._variant_tensor],
                     structure.pack(self._specs, flat), name)

    def _flat_types(self):
        return [s.dtype for s in self._flat_specs()]

    def enumerate(self, start=0, name=None):
        """``(index, element)`` pairs, the index an int64 counting from ``start``."""
        indices = Dataset.range(start, _INT64_MAX)
        with get_default_graph().name_scope("RewriteDataset") as scope:
            rewrite = convert_to_tensor("replicate_on_split", dtype=dtypes.string, name="rewrite_name")
            indices = indices._make("RewriteDataset", [rewrite], indices._specs, scope)
        return Dataset.zip((indices, self))

    def apply(self, transformation_func):
        """``transformation_func(self)``, which must return a dataset."""
        dataset = transformation_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError(f"`transformation_func` must return a `tf.data.Dataset` object. Got {type(dataset)}.")
        return dataset

    # -- iterators ---------------------------------------------------------------------------
    def make_one_shot_iterator(self):
        """An iterator that initializes itself on first use (in each session)."""
        from numflow.data.iterator_ops import one_shot_iterator

        return one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        """An iterator whose ``initializer`` op (re)starts it at the first element."""
        from numflow.data.iterator_ops import initializable_iterator

        return initializable_iterator(self, shared_name)

    _make_one_shot_iterator = make_one_shot_iterator
    _make_initializable_iterator = make_initializable_iterator


DatasetV1 = Dataset


def _make(op_type, inputs, specs, name=None, **attrs):
    flat = structure.flatten(specs)
    attrs = {"output_types": [s.dtype for s in flat], "output_shapes": [s.shape for s in flat], **attrs}
    op = get_default_graph().create_op(op_type, inputs, attrs, name=name or op_type)
    return Dataset(op.outputs[0], specs)


def _normalize(tensors):
    """The components of ``tensors`` as tensors, each a constant ``normalize_element/component_<i>``
    when given as a value, as TensorFlow names them."""
    flat = structure.flatten(tensors)
    with get_default_graph().name_scope("normalize_element"):
        converted = [t if isinstance(t, Tensor) else convert_to_tensor(t, name=f"component_{i}")
                     for i, t in enumerate(flat)]
    return structure.pack(tensors, converted)


def _rest(shape):
    return TensorShape(None) if shape.ndims is None else TensorShape(shape.as_list()[1:])


def _batched(shape, size, drop):
    from numflow.ops.op_util import static_value

    known = static_value(size) if static_value(drop) else None
    leading = None if known is None else int(known)
    return TensorShape([leading]).concatenate(as_shape(shape)) if shape.ndims is not None else TensorShape(None)


def _returned_dataset(raw):
    """A ``flat_map`` function's result: a dataset, traced as its variant tensor."""
    if not isinstance(raw, Dataset):
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got {type(raw)}.")
    return [raw._variant_tensor], raw._specs


def _fn_name(fn, kind):
    return f"{kind}_{getattr(fn, '__name__', 'fn').replace('<', '').replace('>', '')}"
