"""Kernels of ``numflow/ops/fft_ops.py``: the complex FFTs (``FFT``, ``IFFT``, ``FFT2D``... over the inner 1-3
axes) and the real ones (``RFFT``, ``IRFFT``... with ``fft_length``: each inner axis cropped or padded with
zeros to its length), by numpy's pocketfft in the input's precision; an inverse divides by the size, as
TensorFlow's."""

import numpy as np

from numflow_kernels.reference_math import kernel


def _axes(rank):
    return tuple(range(-rank, 0))


def _complex_fft(op_type, rank, inverse):
    transform = np.fft.ifftn if inverse else np.fft.fftn

    @kernel(op_type)
    def fft(ctx, x):
        if x.ndim < rank:
            raise ValueError(f"Input must have rank of at least {rank} but got: {list(x.shape)}")
        if x.size == 0:
            return np.zeros_like(x)
        return transform(x, axes=_axes(rank)).astype(x.dtype, copy=False)


def _lengths(fft_length, rank, x):
    lengths = [int(n) for n in np.ravel(fft_length)]
    if len(lengths) != rank:
        raise ValueError(f"fft_length must be a vector of {rank} elements, got {lengths}")
    if x.ndim < rank:
        raise ValueError(f"Input must have rank of at least {rank} but got: {list(x.shape)}")
    if any(n < 0 for n in lengths):
        raise ValueError(f"fft_length must be non-negative, got {lengths}")
    return lengths


def _real_fft(op_type, rank):
    @kernel(op_type)
    def rfft(ctx, x, fft_length):
        lengths = _lengths(fft_length, rank, x)
        out_shape = x.shape[:-rank] + tuple(lengths[:-1]) + (lengths[-1] // 2 + 1,)
        if x.size == 0 or 0 in lengths:
            return np.zeros(out_shape, ctx.attrs["Tcomplex"])
        return np.fft.rfftn(x, s=lengths, axes=_axes(rank)).astype(ctx.attrs["Tcomplex"], copy=False)


def _inverse_real_fft(op_type, rank):
    @kernel(op_type)
    def irfft(ctx, x, fft_length):
        lengths = _lengths(fft_length, rank, x)
        out_shape = x.shape[:-rank] + tuple(lengths)
        if x.size == 0 or 0 in lengths:
            return np.zeros(out_shape, ctx.attrs["Treal"])
        return np.fft.irfftn(x, s=lengths, axes=_axes(rank)).astype(ctx.attrs["Treal"], copy=False)


for _rank, _suffix in ((1, ""), (2, "2D"), (3, "3D")):
    _complex_fft(f"FFT{_suffix}", _rank, inverse=False)
    _complex_fft(f"IFFT{_suffix}", _rank, inverse=True)
    _real_fft(f"RFFT{_suffix}", _rank)
    _inverse_real_fft(f"IRFFT{_suffix}", _rank)
