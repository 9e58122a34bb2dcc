"""``tf.data.experimental``: transformations for ``Dataset.apply`` (each a function of a dataset) and
the experimental sources, with TensorFlow's ops and names.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ds = tf.data.Dataset.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 10, 2))
...     element = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [sess.run(element).tolist() for _ in range(3)]
[[0, 10], [20, 30], [40]]
"""

from numflow.data import function as _function
from numflow.data import structure
from numflow.data.csv import CsvDataset, make_csv_dataset
from numflow.data.dataset_ops import AUTOTUNE, _batched, _fn_name, _int64, _returned_dataset, _seeds
from numflow.data.options import INFINITE as INFINITE_CARDINALITY
from numflow.data.options import UNKNOWN as UNKNOWN_CARDINALITY
from numflow.data.options import AutotuneOptions, DistributeOptions, OptimizationOptions, ThreadingOptions
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.ops.constant_op import constant, convert_to_tensor

__all__ = ["AUTOTUNE", "AutotuneOptions", "Counter", "CsvDataset", "DistributeOptions", "INFINITE_CARDINALITY",
           "OptimizationOptions", "RandomDataset", "ThreadingOptions", "UNKNOWN_CARDINALITY",
           "bucket_by_sequence_length", "cardinality", "choose_from_datasets", "enumerate_dataset",
           "get_single_element", "group_by_window", "ignore_errors", "make_csv_dataset", "map_and_batch",
           "parallel_interleave", "prefetch_to_device", "sample_from_datasets", "scan", "shuffle_and_repeat",
           "take_while", "unbatch", "unique"]


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    """See :func:`numflow.data.sampling.choose_from_datasets` (here an ended input is skipped by
    default, as in TensorFlow's ``tf.data.experimental``)."""
    from numflow.data.sampling import choose_from_datasets as choose

    return choose(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    """See :func:`numflow.data.sampling.sample_from_datasets`."""
    from numflow.data.sampling import sample_from_datasets as sample

    return sample(datasets, weights, seed, stop_on_empty_dataset)


def RandomDataset(seed=None):  # noqa: N802  (TensorFlow's class name)
    """``Dataset.random(seed)``."""
    from numflow.data.sampling import random

    return random(seed)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """``Dataset.group_by_window`` as a transformation for ``apply``."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """``Dataset.bucket_by_sequence_length`` as a transformation for ``apply``."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


def scan(initial_state, scan_func):
    """``Dataset.scan`` as a transformation for ``apply``."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


def take_while(predicate):
    """``Dataset.take_while`` as a transformation for ``apply``."""
    return lambda dataset: dataset.take_while(predicate)


def unique():
    """``Dataset.unique`` as a transformation for ``apply``."""
    return lambda dataset: dataset.unique()


def enumerate_dataset(start=0):
    """``Dataset.enumerate(start)`` as a transformation for ``apply``."""
    return lambda dataset: dataset.enumerate(start)


def prefetch_to_device(device, buffer_size=None):
    """``Dataset.prefetch(buffer_size)`` (numflow's datasets live on the host: nothing to copy)."""
    return lambda dataset: dataset.prefetch(AUTOTUNE if buffer_size is None else buffer_size)


def Counter(start=0, step=1, dtype=dtypes.int64):  # noqa: N802  (TensorFlow's name)
    """``Dataset.counter(start, step, dtype)``."""
    from numflow.data.scanning import counter

    return counter(start, step, dtype)


def cardinality(dataset):
    """``dataset.cardinality()``."""
    return dataset.cardinality()


def get_single_element(dataset):
    """``dataset.get_single_element()``: its one element, as tensors."""
    return dataset.get_single_element()


def ignore_errors(log_warning=False):
    """``Dataset.ignore_errors`` as a transformation for ``apply``."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def unbatch():
    """``Dataset.unbatch`` as a transformation for ``apply``."""
    return lambda dataset: dataset.unbatch()


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """``shuffle(buffer_size, seed)`` then ``repeat(count)`` in one op (``ShuffleAndRepeatDataset``),
    a new order each epoch: the same elements in the same order as the two apart."""

    def apply(dataset):
        size = _int64(buffer_size, "buffer_size")
        repeats = constant(-1, dtypes.int64, name="count") if count is None else _int64(count, "count")
        seed_t, seed2_t = _seeds(seed)
        return dataset._make("ShuffleAndRepeatDataset", [size, seed_t, seed2_t, repeats], dataset._specs,
                             reshuffle_each_iteration=True)

    return apply


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    """``map(map_func)`` then ``batch(batch_size, drop_remainder)`` in one op (``MapAndBatchDataset``).

    Raises
    ------
    ValueError
        Both ``num_parallel_batches`` and ``num_parallel_calls`` given.
    """
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError(f"`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to be "
                         f"set, but `num_parallel_batches` was set to {num_parallel_batches} and `num_parallel_calls` "
                         f"as set to {num_parallel_calls}.")
    if num_parallel_calls is None:
        num_parallel_calls = batch_size if num_parallel_batches is None else batch_size * num_parallel_batches

    def apply(dataset):
        fn = _function.trace(map_func, dataset._specs, _fn_name(map_func, "tf_data_experimental_map_and_batch"))
        size = _int64(batch_size, "batch_size")
        calls = _int64(num_parallel_calls, "num_parallel_calls")
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool, name="drop_remainder")
        specs = structure.map_structure(lambda s: Spec(s.dtype, _batched(s.shape, size, drop)), fn.output_specs)
        return dataset._make("MapAndBatchDataset", [*fn.captured, size, calls, drop], specs, functions=[fn],
                             preserve_cardinality=True)

    return apply


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """``Dataset.interleave`` read ``cycle_length`` datasets at a time (``LegacyParallelInterleaveDatasetV2``).

    The elements come in the deterministic order whatever ``sloppy`` says, the same every run.
    """

    def apply(dataset):
        fn = _function.trace(map_func, dataset._specs, _fn_name(map_func, "tf_data_experimental_parallel_interleave"),
                             returns=_returned_dataset)
        inputs = [_int64(cycle_length, "cycle_length"), _int64(block_length, "block_length"),
                  _optional(buffer_output_elements, "buffer_output_elements", 2 * block_length),
                  _optional(prefetch_input_elements, "prefetch_input_elements", 2 * cycle_length)]
        deterministic = "default" if sloppy is None else "false" if sloppy else "true"
        return dataset._make("LegacyParallelInterleaveDatasetV2", [*fn.captured, *inputs], fn.output_specs,
                             functions=[fn], deterministic=deterministic)

    return apply


def _optional(value, name, default):
    return _int64(default if value is None else value, name)

