"""The FFTs of ``tf.signal`` (and ``tf.spectral``, ``tf.fft``...): ``FFT``/``IFFT`` over the inner 1, 2 or 3
axes of a complex tensor, and ``RFFT``/``IRFFT`` of real signals with ``fft_length``, built as TensorFlow's
``fft_ops.py`` builds them, with its gradients. Kernels: ``numflow_kernels/reference_fft.py``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient
from numflow.ops.complex_ops import COMPLEX, conj, real
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, static_value

_RANKS = {"": 1, "2D": 2, "3D": 3}
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _complex_infer(rank):
    def infer(op):
        x = op.inputs[0]
        check_dtype(x, COMPLEX, "input")
        if x.shape.ndims is not None and x.shape.ndims < rank:
            raise ValueError(f"Shape must be at least rank {rank} but is rank {x.shape.ndims}")
        return [(x.dtype.base_dtype, x.shape)]

    return infer


def _real_infer(rank, inverse):
    def infer(op):
        x, fft_length = op.inputs
        check_dtype(x, (dtypes.float32, dtypes.float64) if not inverse else COMPLEX, "input")
        check_dtype(fft_length, (dtypes.int32,), "fft_length")
        if x.shape.ndims is not None and x.shape.ndims < rank:
            raise ValueError(f"Shape must be at least rank {rank} but is rank {x.shape.ndims}")
        out_dtype = op._attrs["Treal"] if inverse else op._attrs["Tcomplex"]
        if x.shape.ndims is None:
            return [(out_dtype, TensorShape(None))]
        lengths = static_value(fft_length)
        if lengths is None:
            inner = [None] * rank
        else:
            lengths = [int(n) for n in np.ravel(lengths)]
            inner = lengths if inverse else lengths[:-1] + [lengths[-1] // 2 + 1]
        return [(out_dtype, TensorShape(x.shape.dim_values[:-rank] + inner))]

    return infer


for _suffix, _rank in _RANKS.items():
    declare(f"FFT{_suffix}")(_complex_infer(_rank))
    declare(f"IFFT{_suffix}")(_complex_infer(_rank))
    declare(f"RFFT{_suffix}")(_real_infer(_rank, inverse=False))
    declare(f"IRFFT{_suffix}")(_real_infer(_rank, inverse=True))


def _complex_transform(op_type):
    def fn(input, name=None):  # noqa: A002 - TensorFlow's argument name
        x = convert_to_tensor(input, name="input")
        return _out(op_type, [x], name=name or op_type)[0]

    fn.__name__ = op_type.lower()
    inverse = "inverse " if op_type.startswith("I") else ""
    fn.__doc__ = (f"The {inverse}discrete Fourier transform over the inner {_RANKS[op_type.lstrip('I')[3:]]} "
                  f"axes of a complex tensor (op ``{op_type}``).")
    return fn


fft, ifft, fft2d, ifft2d, fft3d, ifft3d = (_complex_transform(t) for t in
                                           ("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D"))


def _inferred_length(x, rank, inverse):
    """TensorFlow's default ``fft_length``: the inner dimensions (the last as ``2 * (n - 1)`` for an inverse)."""
    inner = x.shape[-rank:]
    if inner.is_fully_defined():
        lengths = inner.as_list()
        if inverse:
            lengths[-1] = max(0, 2 * (lengths[-1] - 1))
        return constant(lengths, dtype=dtypes.int32)
    dims = array_ops.shape(x, out_type=dtypes.int32)[-rank:]
    if not inverse:
        return dims
    return array_ops.concat([dims[:-1], math_ops.maximum(0, 2 * (dims[-1:] - 1))], 0)


def _padded(x, rank, fft_length, inverse):
    """``x`` padded with zeros up to ``fft_length`` where both are known, as TensorFlow pads it (the kernels
    pad a signal the graph left short themselves)."""
    lengths = static_value(fft_length)
    if lengths is None or x.shape.ndims is None or not x.shape[-rank:].is_fully_defined():
        return x
    lengths = [int(n) for n in np.ravel(lengths)]
    if 0 in x.shape.dim_values:
        return x
    if inverse:
        lengths[-1] = lengths[-1] // 2 + 1
    paddings = [[0, max(n - d, 0)] for n, d in zip(lengths, x.shape.dim_values[-rank:])]
    if not any(pad for _, pad in paddings):
        return x
    return array_ops.pad(x, [[0, 0]] * (x.shape.ndims - rank) + paddings)


def _real_transform(op_type, default_name):
    rank = _RANKS[op_type[-2:]] if op_type[-2:] in _RANKS else 1
    inverse = op_type.startswith("I")

    def fn(input_tensor, fft_length=None, name=None):
        with get_default_graph().name_scope(name or default_name) as scope:
            x = convert_to_tensor(input_tensor, name="input_tensor",
                                  preferred_dtype=dtypes.complex64 if inverse else dtypes.float32)
            if inverse and x.dtype.base_dtype not in COMPLEX:
                raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x}")
            if not inverse and x.dtype.base_dtype not in _COMPLEX_OF:
                raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
            if x.shape.ndims is not None and x.shape.ndims < rank:
                raise ValueError(f"Shape {x.shape} must have rank at least {rank}")
            if fft_length is None:
                fft_length = _inferred_length(x, rank, inverse)
            else:
                fft_length = convert_to_tensor(fft_length, dtype=dtypes.int32)
            x = _padded(x, rank, fft_length, inverse)
            known = static_value(fft_length)
            if known is not None:
                fft_length = constant(known.astype(np.int32), name="fft_length")
            if inverse:
                attrs = {"Treal": x.dtype.real_dtype, "Tcomplex": x.dtype.base_dtype}
            else:
                attrs = {"Treal": x.dtype.base_dtype, "Tcomplex": _COMPLEX_OF[x.dtype.base_dtype]}
            return _out(op_type, [x, fft_length], attrs, name=scope)[0]

    fn.__name__ = default_name
    kind = "real signal's" if not inverse else "real signal from its"
    fn.__doc__ = (f"The {kind} discrete Fourier transform over the inner {rank} axes (op ``{op_type}``); each axis "
                  "is cropped or padded with zeros to ``fft_length`` (default: the inner dimensions"
                  f"{', the last as 2 * (n - 1)' if inverse else ''}).")
    return fn


rfft, irfft, rfft2d, irfft2d, rfft3d, irfft3d = (_real_transform(t, t.lower()) for t in
                                                 ("RFFT", "IRFFT", "RFFT2D", "IRFFT2D", "RFFT3D", "IRFFT3D"))


def fftshift(x, axes=None, name=None):
    """``x`` rolled so that the zero frequency is at the center of ``axes`` (all by default)."""
    return _shift(x, axes, name or "fftshift", forward=True)


def ifftshift(x, axes=None, name=None):
    """The inverse of :func:`fftshift`."""
    return _shift(x, axes, name or "ifftshift", forward=False)


def _shift(x, axes, name, forward):
    from numflow.ops.manip_ops import roll

    with get_default_graph().name_scope(name) as scope:
        x = convert_to_tensor(x)
        if axes is None:
            axes = list(range(x.shape.ndims))
            sizes = x.shape.dim_values
        elif isinstance(axes, int):
            sizes = x.shape.dim_values[axes]
        else:
            sizes = [x.shape.dim_values[a] for a in axes]
        if isinstance(sizes, list) and None not in sizes:
            shift = [s // 2 if forward else -(s // 2) for s in sizes]
        elif isinstance(sizes, int):
            shift = sizes // 2 if forward else -(sizes // 2)
        else:
            dims = array_ops.gather(array_ops.shape(x), axes)
            shift = math_ops.floordiv(dims, 2) if forward else -math_ops.floordiv(dims, 2)
        return roll(x, shift, axes, name=scope)


# -- gradients --------------------------------------------------------------------------------------
def _fft_size(t, rank):
    return math_ops.reduce_prod(array_ops.shape(t)[-rank:])


def _complex_grad(rank, inverse_fn, inverse):
    def grad_fn(op, grad):
        size = _fft_size(grad, rank)
        if inverse:  # IFFT's gradient: FFT(grad) / size
            scale = math_ops.cast(1.0 / math_ops.cast(size, grad.dtype.real_dtype), grad.dtype)
        else:
            scale = math_ops.cast(size, grad.dtype)
        return [inverse_fn(grad) * scale]

    return grad_fn


for _suffix, _rank in _RANKS.items():
    gradient(f"FFT{_suffix}")(_complex_grad(_rank, globals()[f"ifft{_suffix.lower()}"], inverse=False))
    gradient(f"IFFT{_suffix}")(_complex_grad(_rank, globals()[f"fft{_suffix.lower()}"], inverse=True))


def _rfft_grad(rank, irfft_fn):
    """TensorFlow's RFFT gradient: the IRFFT of ``grad`` times the size, plus the terms of the components
    that Hermitian symmetry dropped."""

    def grad_fn(op, grad):
        fft_length = op.inputs[1]
        complex_dtype = grad.dtype.base_dtype
        shape = array_ops.shape(op.inputs[0])
        is_even = math_ops.cast(1 - math_ops.mod(fft_length[-1], 2), complex_dtype)

        def y_mask(length):
            return math_ops.cast(1 - 2 * math_ops.mod(math_ops.range(length), 2), complex_dtype)

        y0 = grad[..., 0:1]
        if rank == 1:
            extra = y0 + is_even * grad[..., -1:] * y_mask(shape[-1])
        else:
            mask = _dft_matrix(shape[-2], complex_dtype)
            extra = math_ops.matmul(mask, conj(y0))
            y_last = math_ops.matmul(mask, conj(grad[..., -1:]))
            extra += is_even * y_last * y_mask(shape[-1])
        size = math_ops.cast(_fft_size(op.inputs[0], rank), grad.dtype.real_dtype)
        return [0.5 * (irfft_fn(grad, fft_length) * size + real(extra)), None]

    return grad_fn


def _dft_matrix(length, dtype):
    """``exp(-2 pi i j k / length)`` for ``j, k`` in ``range(length)``."""
    steps = math_ops.range(length)
    products = math_ops.cast(array_ops.expand_dims(steps, 1) * array_ops.expand_dims(steps, 0), dtype)
    return math_ops.exp(np.asarray(-2j * np.pi, dtype.as_numpy_dtype) * products / math_ops.cast(length, dtype))


def _irfft_grad(rank, rfft_fn):
    """TensorFlow's IRFFT gradient: the RFFT of ``grad`` over the size, the components Hermitian symmetry
    pairs counted twice."""

    def grad_fn(op, grad):
        fft_length = op.inputs[1]
        known = static_value(fft_length)
        real_dtype = grad.dtype.base_dtype
        is_odd = math_ops.mod(fft_length[-1], 2) if known is None else int(known[-1]) % 2
        last = array_ops.shape(op.inputs[0])[-1]
        mask = array_ops.concat([constant([1.0], real_dtype),
                                 2.0 * array_ops.ones([last - 2 + is_odd], real_dtype),
                                 array_ops.ones([1 - is_odd], real_dtype)], 0)
        rsize = math_ops.reciprocal(math_ops.cast(_fft_size(grad, rank), real_dtype))
        the_rfft = rfft_fn(grad, fft_length if known is None else known)
        return [the_rfft * math_ops.cast(rsize * mask, _COMPLEX_OF[real_dtype]), None]

    return grad_fn


# TensorFlow defines no gradient of RFFT3D and IRFFT3D.
gradient("RFFT")(_rfft_grad(1, irfft))
gradient("RFFT2D")(_rfft_grad(2, irfft2d))
gradient("IRFFT")(_irfft_grad(1, rfft))
gradient("IRFFT2D")(_irfft_grad(2, rfft2d))
