"""CPU kernels of the sampling ops (``RandomShuffle``, ``Multinomial``, ``StatelessMultinomial``, ``RandomGamma``,
``RandomPoissonV2``):
TensorFlow's checks, the op's Philox stream in the session's container (advanced per run as TensorFlow's
``GuardedPhiloxRandom`` is), and the Numba loops of ``sampling_loops.py``, imported when one first runs."""

import numpy as np

from numflow_kernels import buffer_ops
from numflow_kernels.reference_math import dims_text
from numflow_kernels.registry import register

RESERVED_PER_OUTPUT = buffer_ops.RESERVED_PER_OUTPUT


def _loops():
    from numflow_kernels.cpu import sampling_loops

    return sampling_loops


def _stream(ctx, calls):
    """The op's Philox stream for this run, ``calls`` Philox calls reserved for it (TF's ReserveSamples128)."""
    from numflow_kernels import philox

    state = buffer_ops.random_stream(ctx)
    return philox.make_stream(state.seed, state.seed2, state.reserve_calls(calls))


@register("RandomShuffle")
def random_shuffle(ctx, value):
    if value.ndim == 0 or value.shape[0] <= 1 or value.size <= 1:
        return value
    n = value.shape[0]
    perm = _loops().shuffle_permutation(n, _stream(ctx, (n + 2) // 4))
    return np.ascontiguousarray(value[perm])


def _multinomial(ctx, logits, num_samples, stream_for):
    """TensorFlow's checks, then ``num_samples`` draws per row from the stream ``stream_for(calls)`` gives."""
    if logits.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {dims_text(logits.shape)}")
    if np.ndim(num_samples) != 0:
        raise ValueError(f"num_samples should be a scalar, got shape {dims_text(np.shape(num_samples))}")
    samples = int(num_samples)
    if samples < 0:
        raise ValueError(f"num_samples should be non-negative, got {samples}")
    batch, classes = logits.shape
    if classes <= 0:
        raise ValueError(f"num_classes should be positive, got {classes}")
    out = np.zeros((batch, samples), dtype=ctx.attrs["output_dtype"])
    if out.size:
        doubles = (samples + 3) // 4 * 4 * 2  # TF reserves this per row: two words per double
        stream = stream_for(RESERVED_PER_OUTPUT * batch * doubles)
        lowest = float(np.finfo(logits.dtype).min) if logits.dtype.kind == "f" else float(np.iinfo(logits.dtype).min)
        _loops().multinomial(np.asarray(logits, np.float64), samples, stream, lowest, out)
    return out


@register("Multinomial")
def multinomial(ctx, logits, num_samples):
    return _multinomial(ctx, logits, num_samples, lambda calls: _stream(ctx, calls))


@register("StatelessMultinomial")
def stateless_multinomial(ctx, logits, num_samples, seed):
    """Multinomial's draws from the stream of a ``[2]`` seed, as TensorFlow's stateless kernel makes them."""
    from numflow_kernels import philox
    from numflow_kernels.reference_stateless import key_and_counter

    key, counter = key_and_counter(seed)
    return _multinomial(ctx, logits, num_samples, lambda calls: philox.make_stream(key, counter, 0))


def _sample_shape(shape):
    if shape.ndim != 1:
        raise ValueError(f"shape must be a vector of {{int32,int64}}, got shape: {dims_text(shape.shape)}")
    dims = [int(d) for d in shape.tolist()]
    if any(d < 0 for d in dims):
        raise ValueError(f"Dimension {min(dims)} must be >= 0")
    return dims


def _per_output(ctx, loop, shape, params, out_dtype, *extra):
    """Run a sampler drawing ``prod(shape)`` samples for each of ``params`` (256 Philox calls each)."""
    dims = _sample_shape(shape)
    out = np.zeros(tuple(dims) + params.shape, dtype=np.float64)
    count = out.size
    if count:
        stream = _stream(ctx, RESERVED_PER_OUTPUT * count)
        loop(np.asarray(params, np.float64).reshape(-1), count // params.size, stream, *extra, out.reshape(-1))
    with np.errstate(over="ignore", invalid="ignore"):
        return out.astype(out_dtype)


@register("RandomGamma")
def random_gamma(ctx, shape, alpha):
    return _per_output(ctx, _loops().gamma, shape, alpha, alpha.dtype)


@register("RandomPoissonV2")
def random_poisson(ctx, shape, rate):
    dtype = np.dtype(ctx.attrs["dtype"])
    highest = float(np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max)
    return _per_output(ctx, _loops().poisson, shape, rate, dtype, highest)


@register("RandomGammaGrad")
def random_gamma_grad(ctx, alpha, sample):
    """d sample / d alpha of Gamma(alpha, 1) samples (Eigen's ``gamma_sample_der_alpha``, in double)."""
    a, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(sample, np.float64))
    out = np.empty(a.size)
    _loops().gamma_sample_derivative(np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(x).reshape(-1), out)
    return out.reshape(a.shape).astype(sample.dtype)
