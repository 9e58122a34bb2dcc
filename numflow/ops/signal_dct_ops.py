"""``tf.signal``'s cosine transforms and mel features: ``dct``/``idct`` (types I-IV, ``norm="ortho"``) through
real FFTs, ``linear_to_mel_weight_matrix`` and ``mfccs_from_log_mel_spectrograms``, composed as TensorFlow's
``dct_ops.py``, ``mel_ops.py`` and ``mfcc_ops.py`` compose them."""

import math

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.ops import array_ops, math_ops
from numflow.ops.complex_ops import complex, real
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.fft_ops import irfft, rfft
from numflow.ops.op_util import static_value
from numflow.ops.tile_pad_split_ops import pad


def _check_dct_arguments(x, dct_type, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        last = x.shape.dim_values[-1] if getattr(x, "shape", None) is not None and x.shape.ndims else None
        if last is not None and last < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TensorFlow's argument names
    """The discrete cosine transform of type ``type`` (1-4) along the last axis, cut or padded with zeros to
    ``n``; ``norm="ortho"`` scales it to be orthonormal (types 2-4). Type 2 is scipy's ``dct`` with the
    same arguments."""
    _check_dct_arguments(input, type, n, axis, norm)
    return _dct(input, type, n, norm, name)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TensorFlow's argument names
    """The inverse of :func:`dct` of ``type`` (the DCT of the inverse type: 1 for 1, 3 for 2, 2 for 3, 4 for
    4), up to a factor ``2 * N`` unless ``norm="ortho"``."""
    _check_dct_arguments(input, type, n, axis, norm)
    return _dct(input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm, name)


def _last_dim(x):
    known = x.shape.dim_values[-1] if x.shape.ndims else None
    return known or array_ops.shape(x)[-1]


def _dct(x, dct_type, n, norm, name):
    with get_default_graph().name_scope(name or "dct"):
        x = convert_to_tensor(x)
        zero = convert_to_tensor(0.0, dtype=x.dtype.base_dtype)
        if n is not None:
            length = _last_dim(x)
            if isinstance(length, int) and n <= length:
                x = x[..., 0:n]
            elif isinstance(length, int):
                x = pad(x, [[0, 0]] * (x.shape.ndims - 1) + [[0, n - length]])
            else:
                raise ValueError("dct with n needs the last dimension known when the graph is built")
        size = _last_dim(x)
        size_float = math_ops.cast(size, x.dtype.base_dtype)
        if dct_type == 1:
            return real(rfft(array_ops.concat([x, x[..., -2:0:-1]], axis=-1)))
        if dct_type == 2:
            scale = 2.0 * math_ops.exp(complex(zero, -math_ops.range(size_float) * math.pi * 0.5 / size_float))
            result = real(rfft(x, fft_length=[2 * size])[..., :size] * scale)
            if norm == "ortho":
                n1 = 0.5 * math_ops.rsqrt(size_float)
                n2 = n1 * math.sqrt(2.0)
                result *= pad(array_ops.expand_dims(n1, 0), [[0, size - 1]], constant_values=n2)
            return result
        if dct_type == 3:
            if norm == "ortho":
                n1 = math_ops.sqrt(size_float)
                n2 = n1 * math.sqrt(0.5)
                x *= pad(array_ops.expand_dims(n1, 0), [[0, size - 1]], constant_values=n2)
            else:
                x *= size_float
            scale = 2.0 * math_ops.exp(complex(zero, math_ops.range(size_float) * math.pi * 0.5 / size_float))
            return real(irfft(scale * complex(x, zero), fft_length=[2 * size]))[..., :size]
        result = _dct(x, 2, 2 * size, None, None)[..., 1::2]
        if norm == "ortho":
            result *= math.sqrt(0.5) * math_ops.rsqrt(size_float)
        return result


# -- mel features -------------------------------------------------------------------------------------
_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(frequencies_hertz):
    with get_default_graph().name_scope("hertz_to_mel"):
        frequencies_hertz = convert_to_tensor(frequencies_hertz)
        return _MEL_HIGH_FREQUENCY_Q * math_ops.log(1.0 + (frequencies_hertz / _MEL_BREAK_FREQUENCY_HERTZ))


def _check_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype):
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz {upper_edge_hertz:.1f}")
    if not isinstance(sample_rate, Tensor):
        if sample_rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                             f"Got {upper_edge_hertz} for sample_rate: {sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype}")


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """The ``[num_spectrogram_bins, num_mel_bins]`` matrix taking linear-frequency magnitudes (from 0 Hz to
    ``sample_rate / 2``) to ``num_mel_bins`` triangular mel bands between the two edges (HTK's mel scale);
    the DC bin gets no weight."""
    from numflow.ops.sequence_ops import linspace
    from numflow.ops.signal_ops import frame

    dtype = dtypes.as_dtype(dtype)
    with get_default_graph().name_scope(name or "linear_to_mel_weight_matrix") as scope:
        if isinstance(sample_rate, Tensor):
            known = static_value(sample_rate)
            sample_rate = known if known is not None else sample_rate
        _check_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype)
        sample_rate = math_ops.cast(sample_rate, dtype, name="sample_rate")
        lower_edge_hertz = convert_to_tensor(lower_edge_hertz, dtype, name="lower_edge_hertz")
        upper_edge_hertz = convert_to_tensor(upper_edge_hertz, dtype, name="upper_edge_hertz")
        zero = convert_to_tensor(0.0, dtype)
        linear_frequencies = linspace(zero, sample_rate / 2.0, num_spectrogram_bins)[1:]
        spectrogram_bins_mel = array_ops.expand_dims(_hertz_to_mel(linear_frequencies), 1)
        band_edges_mel = frame(linspace(_hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz),
                                        num_mel_bins + 2), frame_length=3, frame_step=1)
        lower_edge_mel, center_mel, upper_edge_mel = (array_ops.reshape(t, [1, num_mel_bins])
                                                      for t in array_ops.split(band_edges_mel, 3, axis=1))
        lower_slopes = (spectrogram_bins_mel - lower_edge_mel) / (center_mel - lower_edge_mel)
        upper_slopes = (upper_edge_mel - spectrogram_bins_mel) / (upper_edge_mel - center_mel)
        weights = math_ops.maximum(zero, math_ops.minimum(lower_slopes, upper_slopes))
        return pad(weights, [[1, 0], [0, 0]], name=scope)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """The mel-frequency cepstral coefficients of ``[..., num_mel_bins]`` log-magnitude mel spectrograms:
    their orthonormal type-2 DCT."""
    with get_default_graph().name_scope(name or "mfccs_from_log_mel_spectrograms"):
        spectrograms = convert_to_tensor(log_mel_spectrograms)
        bins = spectrograms.shape.dim_values[-1] if spectrograms.shape.ndims else None
        if bins == 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {spectrograms}")
        if bins is None:
            bins = array_ops.shape(spectrograms)[-1]
        dct2 = dct(spectrograms, type=2)
        return dct2 * math_ops.rsqrt(math_ops.cast(bins, dct2.dtype.base_dtype) * 2.0)
