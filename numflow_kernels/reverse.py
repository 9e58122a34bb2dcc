"""Kernels of ReverseV2 and ReverseSequence (numpy)."""

import numpy as np

from numflow_kernels.registry import REFERENCE, register


@register("ReverseV2", REFERENCE)
def reverse(ctx, x, axis):
    axes = np.asarray(axis).reshape(-1)
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise ValueError(f"'axis'[0] = {a} is out of valid range [0, {x.ndim - 1}")
    if len({int(a) % x.ndim for a in axes}) != len(axes):
        raise ValueError(f"axis {int(axes[0]) % x.ndim} specified more than once.")
    return np.flip(x, tuple(int(a) for a in axes)).copy() if len(axes) else x


@register("ReverseSequence", REFERENCE)
def reverse_sequence(ctx, x, lengths):
    seq_dim, batch_dim = ctx.attrs["seq_dim"], ctx.attrs["batch_dim"]
    lengths = np.asarray(lengths).reshape(-1)
    if len(lengths) != x.shape[batch_dim]:
        raise ValueError(f"Length of seq_lengths != input.dims({batch_dim}), ({len(lengths)} vs. "
                         f"{x.shape[batch_dim]})")
    if (lengths < 0).any() or (lengths > x.shape[seq_dim]).any():
        bad = int(lengths[(lengths < 0) | (lengths > x.shape[seq_dim])][0])
        raise ValueError(f"seq_lens(...) <= input.dims({seq_dim}), ({bad} vs. {x.shape[seq_dim]})")
    out = x.copy()
    for i, n in enumerate(lengths):
        src = [slice(None)] * x.ndim
        src[batch_dim] = i
        src[seq_dim] = slice(0, int(n))
        src = tuple(src)
        out[src] = np.flip(x[src], seq_dim - (batch_dim < seq_dim))
    return out
