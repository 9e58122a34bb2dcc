"""``Dataset.bucket_by_sequence_length``: TensorFlow's graph for it, a ``group_by_window`` whose key
is the bucket of an element's length and whose windows are padded batches of the bucket's size."""

import numpy as np

from numflow.data import structure
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import constant


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, pad_to_bucket_boundary, no_padding, drop_remainder, name):
    """See ``Dataset.bucket_by_sequence_length``.

    Raises
    ------
    ValueError
        ``bucket_batch_sizes`` not one longer than ``bucket_boundaries``.
    """
    from numflow.ops import array_ops, check_ops, math_ops

    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                         f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    batch_sizes = constant(bucket_batch_sizes, dtype=dtypes.int64)

    def element_to_bucket_id(*args):
        seq_length = element_length_func(*args)
        boundaries = list(bucket_boundaries)
        buckets_min = [np.iinfo(np.int32).min] + boundaries
        buckets_max = boundaries + [np.iinfo(np.int32).max]
        conditions_c = math_ops.logical_and(math_ops.less_equal(buckets_min, seq_length),
                                            math_ops.less(seq_length, buckets_max))
        return math_ops.reduce_min(array_ops.where(conditions_c))

    def window_size_fn(bucket_id):
        return batch_sizes[bucket_id]

    def batching_fn(bucket_id, grouped_dataset):
        batch_size = window_size_fn(bucket_id)
        if no_padding:
            return grouped_dataset.batch(batch_size, drop_remainder=drop_remainder, name=name)
        none_filler = None
        if pad_to_bucket_boundary:
            check = check_ops.assert_less(
                bucket_id, constant(len(bucket_batch_sizes) - 1, dtype=dtypes.int64),
                message="When pad_to_bucket_boundary=True, elements must have length < max(bucket_boundaries).")
            with get_default_graph().control_dependencies([check]):
                boundaries = constant(bucket_boundaries, dtype=dtypes.int64)
                none_filler = boundaries[bucket_id] - 1
        shapes = _padded_shapes(padded_shapes or structure.shapes_of(grouped_dataset._specs), none_filler)
        return grouped_dataset.padded_batch(batch_size, shapes, padding_values, drop_remainder=drop_remainder,
                                            name=name)

    return dataset.group_by_window(key_func=element_to_bucket_id, reduce_func=batching_fn,
                                   window_size_func=window_size_fn, name=name)


def _padded_shapes(shapes, none_filler):
    """``shapes`` with each unknown dimension as ``none_filler``."""
    padded = []
    for shape in structure.flatten(shapes):
        padded.append([none_filler if d is None else d for d in TensorShape(shape).as_list()])
    return structure.pack(shapes, padded)
