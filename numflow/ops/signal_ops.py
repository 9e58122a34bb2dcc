"""``tf.signal``'s framing, windows and short-time Fourier transforms: ``frame``, ``overlap_and_add``, the
Hann, Hamming, Kaiser, Kaiser-Bessel-derived and Vorbis windows, ``stft``, ``inverse_stft``,
``inverse_stft_window_fn``, ``mdct`` and ``inverse_mdct``, composed of other ops as TensorFlow's
``tf.signal`` composes them (so gradients come from those ops').

Frame lengths and steps may be tensors; where they and the signal's shape are known when the graph is
built, the frame indices are constants.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.fft_ops import irfft, rfft
from numflow.ops.op_util import check_rank, static_value
from numflow.ops.selection_ops import gather
from numflow.ops.sequence_ops import reverse
from numflow.ops.signal_dct_ops import dct
from numflow.ops.slice_ops import strided_slice
from numflow.ops.tile_pad_split_ops import pad, tile


def _scalar(value, name, dtype=None):
    t = convert_to_tensor(value, name=name, dtype=dtype)
    check_rank(t.shape, 0)
    return t


def _known_int(t):
    value = static_value(t)
    return None if value is None else int(value)


def _known(t):
    """``t``'s value when it is known at build time (a numpy array), else ``t``."""
    value = static_value(t)
    return t if value is None else value


def _frame_shape(signal, frame_length, frame_step, pad_end, axis):
    """The static shape of ``frame``'s result, as TensorFlow infers it."""
    dims = signal.shape.dim_values
    length, samples, step = dims[axis], _known_int(frame_length), _known_int(frame_step)
    frames = None
    if length is not None and step is not None and pad_end:
        frames = max(0, -(-length // step))
    elif length is not None and step is not None and samples is not None and not pad_end:
        frames = max(0, (length - samples + step) // step)
    return dims[:axis] + [frames, samples] + dims[axis + 1:]


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """The frames of ``signal`` along ``axis``: ``frame_length`` samples every ``frame_step``, which
    replace that axis by two (frames, samples).

    With ``pad_end`` the signal is padded with ``pad_value`` so that every sample starts a frame's hop
    (``ceil(length / frame_step)`` frames); otherwise only whole frames are kept. Built as TensorFlow
    builds it: the signal cut into subframes of ``gcd(frame_length, frame_step)`` samples, gathered.
    """
    with get_default_graph().name_scope(name or "frame"):
        signal = convert_to_tensor(signal, name="signal")
        frame_length = _scalar(frame_length, "frame_length")
        frame_step = _scalar(frame_step, "frame_step")
        axis = _scalar(axis, "axis")
        rank = signal.shape.ndims
        if rank is not None and rank < 1:
            raise ValueError(f"Shape {signal.shape} must have rank at least 1")
        if rank is not None and _known_int(axis) is not None:
            axis = range(rank)[_known_int(axis)]
            result_shape = _frame_shape(signal, frame_length, frame_step, pad_end, axis)
        else:  # the axis counted from the end or the rank known only at run time
            rank = array_ops.rank(signal) if rank is None else rank
            axis, result_shape = math_ops.range(rank)[axis], None
        if signal.shape.is_fully_defined() and not isinstance(axis, Tensor):
            signal_shape = np.asarray(signal.shape.as_list(), np.int32)
            outer, length, inner = signal_shape[:axis], int(signal_shape[axis]), signal_shape[axis + 1:]
        else:
            signal_shape = array_ops.shape(signal)
            outer, length, inner = array_ops.split(signal_shape, array_ops.stack([axis, 1, rank - 1 - axis]))
            length = array_ops.reshape(length, [])
        if pad_end:
            pad_value = _scalar(pad_value, "pad_value", signal.dtype.base_dtype)
            num_frames = -(-length // frame_step)
            pad_samples = math_ops.maximum(0, frame_length + frame_step * (num_frames - 1) - length)
            index_dtype = pad_samples.dtype.base_dtype
            paddings = array_ops.concat([array_ops.zeros(array_ops.stack([axis, 2]), dtype=index_dtype),
                                         array_ops.stack([array_ops.stack([0, pad_samples])]),
                                         array_ops.zeros(array_ops.stack([rank - 1 - axis, 2]), dtype=index_dtype)],
                                        0)
            signal = pad(signal, paddings, constant_values=pad_value)
            length = array_ops.shape(signal)[axis]
        else:
            num_frames = math_ops.maximum(constant(0, dtype=frame_length.dtype.base_dtype),
                                          1 + (length - frame_length) // frame_step)
        known = [_known_int(frame_length), _known_int(frame_step)]
        subframe_length = np.gcd(*known) if None not in known else _gcd(frame_length, frame_step)
        subframes_per_frame = frame_length // subframe_length
        subframes_per_hop = frame_step // subframe_length
        num_subframes = length // subframe_length
        sliced_length = num_subframes * subframe_length
        slice_shape = array_ops.concat([outer, array_ops.stack([sliced_length]) if isinstance(sliced_length, Tensor)
                                        else [sliced_length], inner], 0)
        subframe_shape = array_ops.concat([outer, array_ops.stack([num_subframes, subframe_length]), inner], 0)
        # Strides of 1 spelled out where the signal's rank, so the slice's length, is known only at run time.
        strides = array_ops.ones_like(signal_shape) if signal.shape.ndims is None else None
        subframes = array_ops.reshape(strided_slice(signal, array_ops.zeros_like(signal_shape), slice_shape, strides),
                                      subframe_shape)
        index_dtype = frame_length.dtype.base_dtype
        frame_selector = array_ops.reshape(math_ops.range(num_frames, dtype=index_dtype) * subframes_per_hop,
                                           array_ops.stack([num_frames, 1]))
        subframe_selector = array_ops.reshape(math_ops.range(subframes_per_frame, dtype=index_dtype),
                                              array_ops.stack([1, subframes_per_frame]))
        selector = frame_selector + subframe_selector
        frames = array_ops.reshape(gather(subframes, selector, axis=axis),
                                   array_ops.concat([outer, array_ops.stack([num_frames, frame_length]), inner], 0))
        if result_shape is not None:
            frames.set_shape(result_shape)
        return frames


def _gcd(a, b):
    """The greatest common divisor of two integer scalar tensors, by Euclid's loop (TensorFlow's util_ops.gcd)."""
    from numflow.ops.while_loop import while_loop

    with get_default_graph().name_scope("gcd"):
        return while_loop(lambda _, y: math_ops.greater(y, array_ops.zeros_like(y)),
                          lambda x, y: [y, math_ops.mod(x, y)], [a, b], back_prop=False)[0]


def overlap_and_add(signal, frame_step, name=None):
    """The frames of ``signal`` (``[..., frames, frame_length]``) added together, each ``frame_step``
    samples after the last: ``[..., (frames - 1) * frame_step + frame_length]``.

    Built as TensorFlow builds it: frames cut into segments of ``frame_step`` samples, which a skewed
    reshape lines up by hop for one sum.
    """
    with get_default_graph().name_scope(name or "overlap_and_add"):
        signal = convert_to_tensor(signal, name="signal")
        if signal.shape.ndims is not None and signal.shape.ndims < 2:
            raise ValueError(f"Shape {signal.shape} must have rank at least 2")
        frame_step = _scalar(frame_step, "frame_step")
        if not frame_step.dtype.base_dtype.is_integer:
            raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype}")
        step = _known(frame_step)
        if signal.shape.is_fully_defined():
            signal_shape = np.asarray(signal.shape.as_list(), np.int32)
            outer, outer_rank = signal_shape[:-2], signal.shape.ndims - 2
        else:
            signal_shape = array_ops.shape(signal)
            outer = signal_shape[:-2]
            outer_rank = signal.shape.ndims - 2 if signal.shape.ndims is not None else array_ops.rank(signal) - 2

        def full_shape(inner):
            return array_ops.concat([outer, array_ops.stack(inner) if _has_tensor(inner) else inner], 0)

        frame_length, frames = signal_shape[-1], signal_shape[-2]
        output_length = frame_length + step * (frames - 1)
        if not isinstance(step, Tensor) and signal.shape.ndims is not None and step == signal.shape.dim_values[-1]:
            return array_ops.reshape(signal, full_shape([output_length]), name="fast_path")
        segments = -(-frame_length // step)
        paddings = array_ops.concat([array_ops.zeros(array_ops.stack([outer_rank, 2]), dtypes.int32),
                                     _pairs([[0, segments], [0, segments * step - frame_length]])], 0)
        signal = pad(signal, paddings)
        signal = array_ops.reshape(signal, full_shape([frames + segments, segments, step]))
        perm = array_ops.concat([math_ops.range(outer_rank), outer_rank + np.array([1, 0, 2], np.int32)], 0)
        signal = array_ops.transpose(signal, _known(perm))
        signal = array_ops.reshape(signal, full_shape([(frames + segments) * segments, step]))
        signal = signal[..., :(frames + segments - 1) * segments, :]
        signal = array_ops.reshape(signal, full_shape([segments, frames + segments - 1, step]))
        signal = math_ops.reduce_sum(signal, -3)
        signal = array_ops.reshape(signal, full_shape([(frames + segments - 1) * step]))
        return signal[..., :output_length]


def _has_tensor(values):
    return any(isinstance(v, Tensor) for v in values)


def _pairs(rows):
    """``rows`` (pairs of ints and scalar tensors) as one int32 ``[n, 2]`` value."""
    if any(_has_tensor(row) for row in rows):
        return array_ops.stack([array_ops.stack([math_ops.cast(v, dtypes.int32) for v in row]) for row in rows])
    return np.asarray(rows, np.int32)


# -- windows ----------------------------------------------------------------------------------------
def _window_length(window_length, dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    return _scalar(window_length, "window_length", dtypes.int32), dtype


def _raised_cosine_window(name, default_name, window_length, periodic, dtype, a, b):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    with get_default_graph().name_scope(name or default_name):
        window_length, dtype = _window_length(window_length, dtype)
        if _known_int(window_length) == 1:
            return array_ops.ones([1], dtype=dtype)
        periodic = math_ops.cast(_scalar(periodic, "periodic", dtypes.bool), dtypes.int32)
        even = 1 - math_ops.mod(window_length, 2)
        n = math_ops.cast(window_length + periodic * even - 1, dtype=dtype)
        count = math_ops.cast(math_ops.range(window_length), dtype)
        cos_arg = constant(2 * np.pi, dtype=dtype) * count / n
        window = math_ops.cast(a - b * math_ops.cos(cos_arg), dtype=dtype)
        if _known_int(window_length) is None:  # a length of 1, known only at run time, gives [1.0]
            return array_ops.where(math_ops.equal(window_length, 1), array_ops.ones_like(window), window)
        return window


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)``; ``periodic`` windows (for spectral analysis) take
    ``N = window_length`` for an even length, symmetric ones ``N = window_length - 1``."""
    return _raised_cosine_window(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hamming window ``0.54 - 0.46 cos(2 pi n / N)``, ``N`` as for :func:`hann_window`."""
    return _raised_cosine_window(name, "hamming_window", window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser window of shape parameter ``beta``, from the exponentially scaled Bessel function I0."""
    from numflow.ops.nn_ops import relu
    from numflow.ops.special_math_ops import bessel_i0e

    with get_default_graph().name_scope(name or "kaiser_window"):
        window_length, dtype = _window_length(window_length, dtype)
        if _known_int(window_length) == 1:
            return array_ops.ones([1], dtype=dtype)
        halflen = (math_ops.cast(window_length, dtypes.float32) - 1.0) / 2.0
        arg = math_ops.cast(math_ops.range(-halflen, halflen + 0.1, dtype=dtypes.float32), dtype)
        beta = math_ops.cast(beta, dtype)
        halflen = math_ops.cast(halflen, dtype)
        num = beta * math_ops.sqrt(relu(math_ops.cast(1.0, dtype) - math_ops.square(arg / halflen)))
        return math_ops.exp(num - beta) * (bessel_i0e(num) / bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser-Bessel-derived window (for the MDCT): square roots of a Kaiser window's running sums."""
    from numflow.ops.scan_ops import cumsum

    with get_default_graph().name_scope(name or "kaiser_bessel_derived_window"):
        window_length, dtype = _window_length(window_length, dtype)
        sums = cumsum(kaiser_window(window_length // 2 + 1, beta, dtype=dtype))
        half = math_ops.sqrt(sums[:-1] / sums[-1])
        return array_ops.concat([half, half[::-1]], axis=0)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """The Vorbis power-complementary window ``sin(pi / 2 sin^2(pi (n + 0.5) / N))``."""
    with get_default_graph().name_scope(name or "vorbis_window"):
        window_length, dtype = _window_length(window_length, dtype)
        arg = math_ops.cast(math_ops.range(window_length), dtype)
        inner = math_ops.sin(np.pi / math_ops.cast(window_length, dtype) * (arg + 0.5))
        return math_ops.sin(np.pi / 2.0 * math_ops.pow(inner, 2.0))


# -- short-time transforms ---------------------------------------------------------------------------
def _enclosing_power_of_two(value):
    known = static_value(value)
    if known is not None:
        return constant(int(2 ** np.ceil(np.log(known) / np.log(2.0))), value.dtype.base_dtype)
    as_float = math_ops.cast(value, dtypes.float32)
    exponent = math_ops.ceil(math_ops.log(as_float) / np.log(2.0))
    return math_ops.cast(math_ops.pow(2.0, exponent), value.dtype.base_dtype)


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """The short-time Fourier transform of real ``signals`` (``[..., samples]``):
    ``[..., frames, fft_length // 2 + 1]``, each frame multiplied by ``window_fn(frame_length)``;
    ``fft_length`` defaults to the smallest power of 2 holding a frame."""
    with get_default_graph().name_scope(name or "stft"):
        signals = convert_to_tensor(signals, name="signals")
        if signals.shape.ndims is not None and signals.shape.ndims < 1:
            raise ValueError(f"Shape {signals.shape} must have rank at least 1")
        frame_length = _scalar(frame_length, "frame_length")
        frame_step = _scalar(frame_step, "frame_step")
        fft_length = (_enclosing_power_of_two(frame_length) if fft_length is None
                      else convert_to_tensor(fft_length, name="fft_length"))
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed *= window_fn(frame_length, dtype=framed.dtype.base_dtype)
        return rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window function for :func:`inverse_stft` that undoes ``forward_window_fn`` (Griffin and Lim's
    equation 7: the forward window over the sum of its squares at every overlap)."""

    def inverse_window(frame_length, dtype):
        with get_default_graph().name_scope(name or "inverse_stft_window_fn"):
            step = _scalar(frame_step, "frame_step")
            frame_length = _scalar(frame_length, "frame_length")
            forward = forward_window_fn(frame_length, dtype=dtype)
            denom = math_ops.square(forward)
            overlaps = -(-frame_length // step)
            denom = pad(denom, [(0, overlaps * step - frame_length)])
            denom = array_ops.reshape(denom, array_ops.stack([overlaps, step]))
            denom = math_ops.reduce_sum(denom, 0, keepdims=True)
            denom = tile(denom, array_ops.stack([overlaps, 1]))
            denom = array_ops.reshape(denom, array_ops.reshape(overlaps * step, [1]))[:frame_length]
            return array_ops.where(math_ops.equal(denom, 0.0), array_ops.zeros_like(forward), forward / denom)

    return inverse_window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """The signals whose :func:`stft` is ``stfts`` (``[..., frames, fft_length // 2 + 1]``): each frame's
    inverse real FFT cut or padded to ``frame_length``, windowed, and overlapped and added. Pass
    ``window_fn=inverse_stft_window_fn(frame_step)`` to invert a Hann-windowed stft exactly."""
    with get_default_graph().name_scope(name or "inverse_stft"):
        stfts = convert_to_tensor(stfts, name="stfts")
        if stfts.shape.ndims is not None and stfts.shape.ndims < 2:
            raise ValueError(f"Shape {stfts.shape} must have rank at least 2")
        frame_length = _scalar(frame_length, "frame_length")
        frame_step = _scalar(frame_step, "frame_step")
        fft_length = (_enclosing_power_of_two(frame_length) if fft_length is None
                      else _scalar(fft_length, "fft_length"))
        real_frames = irfft(stfts, [fft_length])
        length = _known_int(frame_length)
        last = real_frames.shape.dim_values[-1] if real_frames.shape.ndims is not None else None
        if length is None or last is None:
            real_frames = real_frames[..., :frame_length]
            missing = math_ops.maximum(0, frame_length - array_ops.shape(real_frames)[-1])
            leading = array_ops.zeros(array_ops.stack([array_ops.rank(real_frames) - 1, 2]), frame_length.dtype)
            real_frames = pad(real_frames, array_ops.concat([leading, array_ops.stack([array_ops.stack([0, missing])])],
                                                            0))
        elif last > length:
            real_frames = real_frames[..., :length]
        elif last < length:
            real_frames = pad(real_frames, [[0, 0]] * (real_frames.shape.ndims - 1) + [[0, length - last]])
        if length is not None and real_frames.shape.ndims is not None:
            real_frames.set_shape([None] * (real_frames.shape.ndims - 1) + [length])
        if window_fn is not None:
            real_frames *= window_fn(frame_length, dtype=stfts.dtype.real_dtype)
        return overlap_and_add(real_frames, frame_step)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified discrete cosine transform of frames of ``frame_length`` (a multiple of 4) every
    ``frame_length // 2`` samples: ``[..., frames, frame_length // 2]``, by a type-4 DCT of each windowed
    frame's folded halves."""
    with get_default_graph().name_scope(name or "mdct"):
        signals = convert_to_tensor(signals, name="signals")
        frame_length = _scalar(frame_length, "frame_length")
        length = _known_int(frame_length)
        if length is not None and length % 4:
            raise ValueError("The frame length must be a multiple of 4.")
        framed = frame(signals, frame_length, frame_length // 2, pad_end=pad_end)
        framed *= window_fn(frame_length, dtype=framed.dtype.base_dtype) if window_fn is not None else 1.0 / np.sqrt(2)
        split_frames = array_ops.split(framed, 4, axis=-1)
        frame_firsthalf = -reverse(split_frames[2], [-1]) - split_frames[3]
        frame_secondhalf = split_frames[0] - reverse(split_frames[1], [-1])
        folded = array_ops.concat([frame_firsthalf, frame_secondhalf], axis=-1)
        return dct(folded, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The signals whose :func:`mdct` is ``mdcts`` (time-domain aliasing cancelled by overlap and add)."""
    with get_default_graph().name_scope(name or "inverse_mdct"):
        mdcts = convert_to_tensor(mdcts, name="mdcts")
        if mdcts.shape.ndims is not None and mdcts.shape.ndims < 2:
            raise ValueError(f"Shape {mdcts.shape} must have rank at least 2")
        half_len = mdcts.shape.dim_values[-1]
        if half_len is None:
            raise ValueError("inverse_mdct needs the last dimension of mdcts known when the graph is built")
        if norm is None:
            result_idct4 = (0.5 / math_ops.cast(half_len, mdcts.dtype.base_dtype)) * dct(mdcts, type=4)
        else:
            result_idct4 = dct(mdcts, type=4, norm=norm)
        split_result = array_ops.split(result_idct4, 2, axis=-1)
        real_frames = array_ops.concat([split_result[1], -reverse(split_result[1], [-1]),
                                        -reverse(split_result[0], [-1]), -split_result[0]], axis=-1)
        if window_fn is not None:
            real_frames *= window_fn(2 * half_len, dtype=mdcts.dtype.base_dtype)
        else:
            real_frames *= 1.0 / np.sqrt(2)
        return overlap_and_add(real_frames, half_len)
