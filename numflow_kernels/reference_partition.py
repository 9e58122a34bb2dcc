"""NumPy kernels of DynamicPartition, DynamicStitch and ParallelDynamicStitch (spec: TensorFlow's
``dynamic_partition_op.cc`` and ``dynamic_stitch_op.cc``)."""

import numpy as np

from numflow_kernels.registry import REFERENCE, list_results, register


@register("DynamicPartition", REFERENCE)
def dynamic_partition(ctx, data, partitions):
    num = ctx.attrs["num_partitions"]
    if data.shape[:partitions.ndim] != partitions.shape:
        raise ValueError(f"data.shape must start with partitions.shape, got data.shape = {list(data.shape)}, "
                         f"partitions.shape = {list(partitions.shape)}")
    flat = partitions.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= num))
    if bad.size:
        where = ",".join(str(int(i)) for i in np.unravel_index(bad[0], partitions.shape))
        raise ValueError(f"partitions[{where}] = {int(flat[bad[0]])} is not in [0, {num})")
    rows = data.reshape((flat.size,) + data.shape[partitions.ndim:])
    return list_results(tuple(rows[flat == p] for p in range(num)))


def _stitch(ctx, *inputs):
    n = ctx.attrs["N"]
    indices, data = inputs[:n], inputs[n:]
    rest = None
    for k, (i, d) in enumerate(zip(indices, data)):
        if d.shape[:i.ndim] != i.shape:
            raise ValueError(f"data[{k}].shape = {list(d.shape)} does not start with indices[{k}].shape = "
                             f"{list(i.shape)}")
        rest = d.shape[i.ndim:] if rest is None else rest
        if d.shape[i.ndim:] != rest:
            raise ValueError(f"Need data[0].shape[{indices[0].ndim}:] = data[{k}].shape[{i.ndim}:], got "
                             f"data[0].shape = {list(data[0].shape)}, data[{k}].shape = {list(d.shape)}, "
                             f"indices[0].shape = {list(indices[0].shape)}, indices[{k}].shape = {list(i.shape)}")
    rows = 1 + max((int(i.max()) for i in indices if i.size), default=-1)
    merged = np.zeros((rows,) + rest, dtype=data[0].dtype)
    for k, (i, d) in enumerate(zip(indices, data)):
        flat = i.reshape(-1)
        if flat.size and flat.min() < 0:
            raise ValueError(f"indices[{k}] = {int(flat.min())} is not in [0, {rows})")
        merged[flat] = d.reshape((flat.size,) + rest)
    return merged


register("DynamicStitch", REFERENCE)(_stitch)
register("ParallelDynamicStitch", REFERENCE)(_stitch)
