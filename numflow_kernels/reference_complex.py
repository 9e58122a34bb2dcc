"""Kernels of ``numflow/ops/complex_ops.py``: ``Complex``, ``Real``, ``Imag``, ``Conj``, ``Angle`` and
``ConjugateTranspose`` and ``ComplexAbs`` (``hypot`` of the parts, as Eigen's ``abs`` of a complex number;
numpy's ``abs`` computes it so, ten times faster than ``hypot`` of the parts' strided views)."""

import numpy as np

from numflow_kernels.reference import transpose
from numflow_kernels.reference_math import kernel


@kernel("Complex")
def complex_(ctx, real, imag):
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), ctx.attrs["Tout"])
    out.real, out.imag = real, imag
    return out


@kernel("Real")
def real(ctx, x):
    return x.real.copy()


@kernel("Imag")
def imag(ctx, x):
    return x.imag.copy()


@kernel("Conj")
def conj(ctx, x):
    return np.conj(x)


@kernel("ConjugateTranspose")
def conjugate_transpose(ctx, x, perm):
    return np.conj(transpose(ctx, x, perm))


@kernel("Angle")
def angle(ctx, x):
    return np.arctan2(x.imag, x.real)


@kernel("ComplexAbs")
def complex_abs(ctx, x):
    return np.abs(x)
