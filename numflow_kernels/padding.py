"""``padded_batch``'s kernel side: a batch of elements, each component padded to its padded shape
(-1: the batch's largest size there) with its padding value, as ``PaddedBatchDatasetV2`` pads them."""

import numpy as np


def padded_batch(batch, shapes, values):
    """The components of ``batch`` (a list of elements) stacked, each padded per ``shapes``/``values``."""
    return tuple(_pad_component(batch, i, shape, values[i]) for i, shape in enumerate(shapes))


def _pad_component(batch, i, shape, value):
    parts = [element[i] for element in batch]
    if len(shape) != parts[0].ndim:
        raise ValueError(f"Component {i} of the batch has rank {parts[0].ndim}, but its padded shape {shape} has "
                         f"rank {len(shape)}.")
    sizes = [max(p.shape[d] for p in parts) if n < 0 else n for d, n in enumerate(shape)]
    for j, p in enumerate(parts):
        if any(have > want for have, want in zip(p.shape, sizes)):
            raise ValueError(f"Attempted to pad to a smaller size than the input element. Component {i} of element "
                             f"{j} has shape {list(p.shape)}, padded shape {sizes}.")
    value = np.asarray(value)
    out = np.full([len(parts), *sizes], value, dtype=parts[0].dtype if value.dtype != object else object)
    for j, p in enumerate(parts):
        out[(j, *[slice(0, n) for n in p.shape])] = p
    return out
