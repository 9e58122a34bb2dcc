"""Sliding-window geometry of the conv and pool kernels, by TensorFlow's rules: layouts, pads, output sizes.

Every kernel of the family computes in one layout: channels last, with three spatial dimensions
(depth, height, width). A 2-D op's ``[N, H, W, C]`` input is viewed as ``[N, 1, H, W, C]``, with a
window of depth 1, stride 1 and no padding in the added dimension; a channels-first input
(``NCHW``, ``NCDHW``) is transposed to it and its result transposed back. :func:`window` turns an
op's attrs (``strides``, ``dilations`` or ``ksize``, ``padding``, ``explicit_paddings``, all written
in the op's own layout) into that geometry, and raises TensorFlow's error when the output would be
empty.
"""

from typing import NamedTuple

import numpy as np

CHANNELS_FIRST = frozenset({"NCHW", "NCDHW"})


class Window(NamedTuple):
    """The geometry of one sliding window over ``[N, D, H, W, C]``: each field holds three values."""

    sizes: tuple  # input (depth, height, width)
    kernel: tuple  # window extent before dilation
    strides: tuple
    dilations: tuple
    pads: tuple  # (before, after) per dimension
    out: tuple  # output (depth, height, width)

    @property
    def effective(self):
        """The window's extent in the input, dilation included."""
        return tuple((k - 1) * d + 1 for k, d in zip(self.kernel, self.dilations))

    @property
    def padded(self):
        return tuple(s + p[0] + p[1] for s, p in zip(self.sizes, self.pads))

    @property
    def is_padded(self):
        return any(p for pair in self.pads for p in pair)

    @property
    def tiles(self):
        """Whether the windows tile the input: side by side, each input element in exactly one."""
        return not self.is_padded and all(k == s and d == 1 and o * s == n for k, s, d, o, n in zip(
            self.kernel, self.strides, self.dilations, self.out, self.sizes))


def spatial(values, data_format):
    """The spatial entries of a per-dimension attr written in ``data_format``'s order (``strides=[1, 2, 2, 1]``)."""
    values = list(values)
    return values[2:] if data_format in CHANNELS_FIRST else values[1:-1]


def _three(values, fill):
    """``values`` (one per spatial dimension, 2 or 3 of them) as three, a leading ``fill`` added for 2-D."""
    values = tuple(values)
    return (fill,) * (3 - len(values)) + values


def output_size(size, k, stride, dilation, padding, pair=(0, 0)):
    """``(out, (before, after))`` for one dimension; ValueError in TensorFlow's words when out < 0."""
    effective = (k - 1) * dilation + 1
    if padding == "SAME":
        out = (size + stride - 1) // stride
        total = max((out - 1) * stride + effective - size, 0)
        return out, (total // 2, total - total // 2)
    padded = size + pair[0] + pair[1]
    out = (padded - effective) // stride + 1
    if padded < effective:
        raise ValueError(
            f"Computed output size would be negative: {out} [input_size: {size}, "
            f"effective_filter_size: {effective}, stride: {stride}]"
        )
    return out, tuple(pair)


def window(data_format, sizes, kernel, strides, dilations, padding, explicit=()):
    """The :class:`Window` of an op: ``sizes`` and ``kernel`` are spatial (2 or 3 values); ``strides``,
    ``dilations`` and ``explicit`` (``explicit_paddings``, 2 per dimension) are the op's full attrs."""
    strides = spatial(strides, data_format)
    dilations = spatial(dilations, data_format) if dilations else [1] * len(strides)
    pairs = spatial([tuple(explicit[i:i + 2]) for i in range(0, len(explicit), 2)], data_format) \
        if padding == "EXPLICIT" else [(0, 0)] * len(strides)
    outs, pads = [], []
    for size, k, s, d, pair in zip(sizes, kernel, strides, dilations, pairs):
        out, pad = output_size(size, k, s, d, padding, pair)
        outs.append(out)
        pads.append(pad)
    return Window(_three(sizes, 1), _three(kernel, 1), _three(strides, 1), _three(dilations, 1),
                  _three(pads, (0, 0)), _three(outs, 1))


def channels_last(x, data_format):
    """``x`` (rank 4 or 5, in ``data_format``) as a ``[N, D, H, W, C]`` array: a view when it can be."""
    if data_format in CHANNELS_FIRST:
        x = np.moveaxis(x, 1, -1)
    return x.reshape(x.shape[0], 1, *x.shape[1:]) if x.ndim == 4 else x


def spatial_sizes(shape, data_format):
    """The spatial sizes of a tensor of ``shape`` in ``data_format``."""
    return tuple(shape[2:] if data_format in CHANNELS_FIRST else shape[1:-1])


def channels(shape, data_format):
    return shape[1] if data_format in CHANNELS_FIRST else shape[-1]


def restore_layout(out, data_format, rank):
    """``out`` (``[N, D, H, W, C]``) back in ``data_format`` with ``rank`` dimensions, C-contiguous."""
    if rank == 4:
        out = out.reshape(out.shape[0], *out.shape[2:])
    if data_format in CHANNELS_FIRST:
        out = np.moveaxis(out, -1, 1)
    return np.ascontiguousarray(out)

