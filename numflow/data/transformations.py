"""The transformations of ``tf.data.Dataset`` beyond the first ones of ``dataset_ops``: listing files,
sharding, unbatching, windows, reductions, grouping and sampling, each with TensorFlow's ops, names,
static shapes and errors. :class:`Transformations` is a base of ``dataset_ops.Dataset``.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ds = tf.data.Dataset.range(10).shard(3, 1).batch(2).unbatch()
...     element = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [int(sess.run(element)) for _ in range(3)]
[1, 4, 7]
"""

from numflow.data import function as _function
from numflow.data import structure
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import Dimension, TensorShape
from numflow.ops import control_flow_util as cfu
from numflow.ops.constant_op import convert_to_tensor


def _int64(value, name):
    return convert_to_tensor(value, dtype=dtypes.int64, name=name)


def _dataset_class():
    from numflow.data.dataset_ops import Dataset

    return Dataset


class Transformations:
    """Methods of ``Dataset``; they build on its ``_make``, ``_specs`` and ``map``."""

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """A dataset of the file names matching ``file_pattern`` (a pattern or a list of them), sorted,
        then shuffled unless ``shuffle=False`` (with ``seed``, in TensorFlow's order).

        A pattern matching no file gives an InvalidArgumentError when the dataset is made.
        """
        from numflow.ops import array_ops, check_ops, file_ops, math_ops, string_transform_ops

        graph = get_default_graph()
        with graph.name_scope("list_files"):
            pattern = convert_to_tensor(file_pattern, dtype=dtypes.string, name="file_pattern")
            matching = file_ops.matching_files(pattern)
            condition = math_ops.greater(array_ops.shape(matching)[0], 0, name="match_not_empty")
            message = math_ops.add("No files matched pattern: ",
                                   string_transform_ops.reduce_join(pattern, separator=", "), name="message")
            assert_not_empty = check_ops.Assert(condition, [message], summarize=1, name="assert_not_empty")
            with graph.control_dependencies([assert_not_empty]):
                matching = array_ops.identity(matching)
            dataset = _dataset_class().from_tensor_slices(matching, name=name)
            if shuffle is None or shuffle:
                size = math_ops.maximum(array_ops.shape(matching, out_type=dtypes.int64)[0], 1)
                dataset = dataset.shuffle(size, seed=seed, name=name)
        return dataset

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """See :func:`numflow.data.sampling.random`."""
        from numflow.data import sampling

        return sampling.random(seed, rerandomize_each_iteration, name)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """See :func:`numflow.data.sampling.choose_from_datasets`."""
        from numflow.data import sampling

        return sampling.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """See :func:`numflow.data.sampling.sample_from_datasets`."""
        from numflow.data import sampling

        return sampling.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                             rerandomize_each_iteration)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """A dataset without end of ``start``, ``start + step``... (a ``scan``, as TensorFlow builds it)."""
        from numflow.data import scanning

        return scanning.counter(start, step, dtype)

    def scan(self, initial_state, scan_func, name=None):
        """The second values of ``scan_func(state, element)``, which also gives each next state
        (from ``initial_state``; its shapes relaxed where they change)."""
        from numflow.data import scanning

        return scanning.scan(self, initial_state, scan_func, name)

    def take_while(self, predicate, name=None):
        """The elements up to the first for which ``predicate`` (a bool scalar) is false."""
        from numflow.data import scanning

        return scanning.take_while(self, predicate, name)

    def unique(self, name=None):
        """The elements (single int32, int64 or string components) without repeats, first seen first."""
        from numflow.data import scanning

        return scanning.unique(self, name)

    def with_options(self, options, name=None):
        """The same elements, with ``options`` (a ``tf.data.Options``) over those of the input."""
        from numflow.data import options as _options

        return _options.with_options(self, options, name)

    def options(self):
        """The options of this dataset: those given to ``with_options`` along its inputs, merged."""
        from numflow.data import options as _options

        return _options.options_of(self)

    def cardinality(self):
        """An int64 scalar tensor: the number of elements, ``INFINITE_CARDINALITY`` (-1) or
        ``UNKNOWN_CARDINALITY`` (-2) where it depends on the elements (a filter)."""
        from numflow.data import options as _options

        return _options.cardinality_of(self)

    def as_numpy_iterator(self):
        """Only in eager mode, which ``tf.compat.v1`` graphs are not: RuntimeError, as in TensorFlow."""
        raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in eager mode.")

    def shard(self, num_shards, index, name=None):
        """Every ``num_shards``-th element, from the ``index``-th (``0 <= index < num_shards``)."""
        inputs = [_int64(num_shards, "num_shards"), _int64(index, "index")]
        return self._make("ShardDataset", inputs, self._specs, name, require_non_empty=False)

    def unbatch(self, name=None):
        """The rows of each element: its components split along their first dimension, which they share.

        Raises
        ------
        ValueError
            A scalar component, or components of different known first dimensions.
        """
        flat = self._flat_specs()
        if any(s.shape.ndims == 0 for s in flat):
            raise ValueError("Cannot unbatch an input with scalar components.")
        known = Dimension(None)
        for s in flat:
            if s.shape.ndims is None:
                continue
            first = s.shape.dims[0]
            if not known.is_compatible_with(first):
                raise ValueError(f"`unbatch()` is only supported for datasets of elements whose components have a "
                                 f"matching leading dimension. Encountered both {known} and {first}.")
            known = known.merge_with(first)
        specs = structure.map_structure(lambda s: Spec(s.dtype, _rows(s.shape)), self._specs)
        normalized = self._map_flat("normalize")
        return normalized._make("UnbatchDataset", [], specs, name)

    def ignore_errors(self, log_warning=False, name=None):
        """The elements, less those whose computation fails (a map's or filter's function, a CSV
        record's parsing), as TensorFlow's ``IgnoreErrorsDataset`` leaves them out."""
        return self._make("IgnoreErrorsDataset", [], self._specs, name, log_warning=log_warning)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """A dataset of windows: each of ``size`` elements (fewer at the end unless
        ``drop_remainder``), every ``stride``-th, a new window every ``shift`` elements (``size`` by
        default). A window is a structure of datasets, one per component; read it with ``flat_map``."""
        inputs = [_int64(size, "size"), _int64(size if shift is None else shift, "shift"), _int64(stride, "stride"),
                  convert_to_tensor(drop_remainder, dtype=dtypes.bool, name="drop_remainder")]
        specs = structure.map_structure(lambda s: structure.DatasetSpec(s), self._specs)
        return self._make("WindowDataset", inputs, specs, name)

    def reduce(self, initial_state, reduce_func, name=None):
        """The state after ``reduce_func(state, element)`` over every element, from ``initial_state``:
        a structure of tensors of the state's structure and dtypes (shapes relaxed where they change).

        Raises
        ------
        TypeError
            ``reduce_func`` returns another structure or other dtypes than the state's.
        """
        from numflow.data.dataset_ops import _normalize

        graph = get_default_graph()
        with graph.name_scope("initial_state"):
            initial_state = _normalize(initial_state)
        state_specs = structure.map_structure(lambda t: Spec(t.dtype, t.shape), initial_state)
        while True:
            fn = _function.trace(reduce_func, (state_specs, self._specs), "reduce_" + _name_of(reduce_func))
            state, new = structure.flatten(state_specs), structure.flatten(fn.output_specs)
            if not structure.same_structure(state_specs, fn.output_specs) or \
                    [s.dtype for s in state] != [s.dtype for s in new]:
                raise TypeError(f"The element types for the new state must match the initial state. Expected "
                                f"{structure.types_of(state_specs)} but got {structure.types_of(fn.output_specs)}.")
            relaxed = [Spec(s.dtype, cfu.most_specific_compatible_shape(s.shape, n.shape)) for s, n in zip(state, new)]
            if all(r.shape.as_list() == s.shape.as_list() if s.shape.ndims is not None else True
                   for r, s in zip(relaxed, state)):
                break
            state_specs = structure.pack(state_specs, relaxed)
        flat_state = structure.flatten(state_specs)
        attrs = {"output_types": [s.dtype for s in flat_state], "output_shapes": [s.shape for s in flat_state],
                 "Tstate": [s.dtype for s in flat_state], "functions": [fn], "use_inter_op_parallelism": True}
        op = graph.create_op("ReduceDataset", [self._variant_tensor, *structure.flatten(initial_state), *fn.captured],
                             attrs, name=name or "ReduceDataset")
        return structure.pack(state_specs, op.outputs)

    def get_single_element(self, name=None):
        """The one element of the dataset, as tensors (InvalidArgumentError when it has none or more)."""
        flat = self._flat_specs()
        attrs = {"output_types": [s.dtype for s in flat], "output_shapes": [s.shape for s in flat]}
        op = get_default_graph().create_op("DatasetToSingleElement", [self._variant_tensor], attrs,
                                           name=name or "DatasetToSingleElement")
        return structure.pack(self._specs, op.outputs)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """The datasets ``reduce_func(key, group)`` makes of the elements grouped by ``key_func``
        (an int64 scalar), each group as soon as it holds ``window_size`` elements (or
        ``window_size_func(key)``), the groups left at the end of the input in the order of their keys.

        Raises
        ------
        ValueError
            Both or neither of ``window_size`` and ``window_size_func``; a key or window size that
            is no int64 scalar.
        TypeError
            ``reduce_func`` returns no dataset.
        """
        if (window_size is not None and window_size_func) or not (window_size is not None or window_size_func):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be specified.")
        if window_size is not None:
            def constant_window_func(unused_key):
                return convert_to_tensor(window_size, dtype=dtypes.int64)

            window_size_func = constant_window_func

        def key_func_wrapper(*args):
            return convert_to_tensor(key_func(*args), dtype=dtypes.int64)

        def window_size_func_wrapper(key):
            return convert_to_tensor(window_size_func(key), dtype=dtypes.int64)

        scalar = Spec(dtypes.int64, TensorShape([]))
        key = _function.trace(key_func_wrapper, self._specs, "Dataset_group_by_window_key_func_wrapper")
        _check_scalar_int64(key, "key_func")
        reduce = _function.trace(reduce_func, (scalar, structure.DatasetSpec(self._specs)),
                                 f"Dataset_group_by_window_{_name_of(reduce_func)}", returns=_returned_window)
        size = _function.trace(window_size_func_wrapper, scalar, "Dataset_group_by_window_window_size_func_wrapper")
        _check_scalar_int64(size, "window_size_func")
        functions = [key, reduce, size]
        attrs = {f"T{kind}_other_arguments": [t.dtype for t in fn.captured]
                 for kind, fn in zip(("key_func", "reduce_func", "window_size_func"), functions)}
        captured = [t for fn in functions for t in fn.captured]
        return self._make("GroupByWindowDataset", captured, reduce.output_specs, name, functions=functions, **attrs)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Batches of elements of similar lengths: ``element_length_func``'s value picks the
        bucket (the boundaries split the lengths), each bucket batched by its size of
        ``bucket_batch_sizes`` and padded (to the batch's longest, or to the bucket's boundary)."""
        from numflow.data.bucketing import bucket_by_sequence_length

        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder, name)

    def _map_flat(self, kind):
        """A ``MapDataset`` giving each element's components as a flat tuple (TensorFlow's
        ``normalize_to_dense``, which its ``unbatch`` runs first)."""
        def flat(*components):
            return tuple(components)

        flat.__name__ = kind
        specs = tuple(self._flat_specs())
        fn = _function.trace(flat, specs, f"Dataset_map_{kind}")
        return self._make("MapDataset", fn.captured, fn.output_specs, None, functions=[fn])


def _returned_window(raw):
    """A ``group_by_window`` reduction's result: a dataset, traced as its variant tensor."""
    from numflow.data.dataset_ops import _returned_dataset

    if not isinstance(raw, _dataset_class()):
        specs = structure.map_structure(lambda t: Spec(t.dtype, t.shape) if isinstance(t, Tensor) else t, raw)
        raise TypeError(f"Invalid `reduce_func`. `reduce_func` must return a single `tf.data.Dataset` object but "
                        f"its return type is {specs}.")
    return _returned_dataset(raw)


def _check_scalar_int64(fn, kind):
    out = structure.flatten(fn.output_specs)
    if structure.is_nested(fn.output_specs) or out[0].dtype != dtypes.int64 or \
            not out[0].shape.is_compatible_with([]):
        raise ValueError(f"Invalid `{kind}`. `{kind}` must return a single `tf.int64` scalar tensor but its return "
                         f"type is {fn.output_specs}.")


def _name_of(fn):
    return getattr(fn, "__name__", "fn").replace("<", "").replace(">", "")


def _rows(shape):
    return TensorShape(None) if shape.ndims is None else TensorShape(shape.dims[1:])
