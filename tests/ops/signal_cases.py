"""The graphs behind ``data/tf_signal_golden.npz``, written once for both engines: ``tf.signal``'s framing,
windows, short-time transforms, cosine transforms and mel features (values, and gradients through them),
each case returning the tensors to fetch."""

import numpy as np

_RNG = np.random.RandomState(11)
SIGNALS = _RNG.randn(2, 100).astype(np.float32)
MULTI = _RNG.randn(3, 13, 2)
FRAMES = _RNG.randn(2, 5, 12).astype(np.float32)
SPECTRA = (_RNG.rand(2, 7, 16) * 3).astype(np.float32)
DCT_INPUT = _RNG.randn(3, 8).astype(np.float32)


def _framing(tf):
    signals, multi, frames = tf.constant(SIGNALS), tf.constant(MULTI), tf.constant(FRAMES)
    return [tf.signal.frame(signals, 16, 8), tf.signal.frame(signals, 30, 16, pad_end=True, pad_value=-1.0),
            tf.signal.frame(multi, 4, 3, axis=1), tf.signal.frame(multi, 5, 2, pad_end=True, axis=-2),
            tf.signal.frame(signals, 120, 10), tf.signal.overlap_and_add(frames, 4),
            tf.signal.overlap_and_add(frames, 12), tf.signal.overlap_and_add(frames, 5),
            tf.signal.overlap_and_add(tf.constant(MULTI.reshape(3, 2, 13)), 3),
            tf.signal.fftshift(tf.constant(FRAMES)), tf.signal.ifftshift(frames, axes=[1]),
            tf.signal.fftshift(tf.range(7), axes=0)]


def _windows(tf):
    return [tf.signal.hann_window(16), tf.signal.hann_window(15, periodic=False), tf.signal.hann_window(1),
            tf.signal.hamming_window(10, dtype=tf.float64), tf.signal.hamming_window(9, periodic=False),
            tf.signal.kaiser_window(12), tf.signal.kaiser_window(9, beta=4.0, dtype=tf.float64),
            tf.signal.kaiser_bessel_derived_window(16), tf.signal.vorbis_window(12),
            tf.signal.inverse_stft_window_fn(4)(16, tf.float32),
            tf.signal.inverse_stft_window_fn(3, tf.signal.hamming_window)(10, tf.float64)]


def _stft(tf):
    signals = tf.constant(SIGNALS)
    spectrograms = tf.signal.stft(signals, 24, 8)
    padded = tf.signal.stft(signals, 20, 10, fft_length=32, pad_end=True, window_fn=tf.signal.hamming_window)
    inverse = tf.signal.inverse_stft(spectrograms, 24, 8, window_fn=tf.signal.inverse_stft_window_fn(8))
    cut = tf.signal.inverse_stft(padded, 20, 10, fft_length=32)
    longer = tf.signal.inverse_stft(tf.signal.stft(signals, 40, 16, fft_length=32), 40, 16, fft_length=32)
    weights = np.linspace(-1, 1, 10 * 17).reshape(10, 17).astype(np.float32)
    loss = tf.reduce_sum(tf.abs(spectrograms[0]) * weights) + tf.reduce_sum(tf.square(inverse))
    return [spectrograms, padded, inverse, cut, longer, tf.gradients(loss, signals)[0]]


def _cosine(tf):
    x = tf.constant(DCT_INPUT)
    x64 = tf.constant(DCT_INPUT.astype(np.float64))
    outs = [tf.signal.dct(x, type=1), tf.signal.dct(x), tf.signal.dct(x, norm="ortho"), tf.signal.dct(x, type=3),
            tf.signal.dct(x64, type=3, norm="ortho"), tf.signal.dct(x, type=4), tf.signal.dct(x, type=4, norm="ortho"),
            tf.signal.dct(x, n=5), tf.signal.dct(x, n=11, norm="ortho"), tf.signal.idct(x), tf.spectral.idct(x, type=1),
            tf.signal.idct(x, type=2, norm="ortho"), tf.signal.idct(x64, type=3), tf.signal.idct(x, type=4)]
    outs += [tf.gradients(tf.reduce_sum(tf.signal.dct(x, norm="ortho") * DCT_INPUT[::-1]), x)[0]]
    return outs


def _mel(tf):
    spectra = tf.constant(SPECTRA)
    matrix = tf.signal.linear_to_mel_weight_matrix(10, 16, 8000, 100.0, 3500.0)
    mel = tf.tensordot(spectra, matrix, 1)
    log_mel = tf.log(mel + 1e-6)
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)
    return [matrix, tf.signal.linear_to_mel_weight_matrix(), tf.signal.linear_to_mel_weight_matrix(
        num_mel_bins=6, num_spectrogram_bins=33, sample_rate=16000, lower_edge_hertz=0.0, upper_edge_hertz=8000.0,
        dtype=tf.float64), mfccs, tf.gradients(tf.reduce_sum(mfccs[..., :4]), spectra)[0]]


def _mdct(tf):
    signals = tf.constant(SIGNALS)
    mdcts = tf.signal.mdct(signals, 16)
    ortho = tf.signal.mdct(signals, 8, pad_end=True, norm="ortho", window_fn=tf.signal.kaiser_bessel_derived_window)
    return [mdcts, ortho, tf.signal.inverse_mdct(mdcts), tf.signal.inverse_mdct(ortho, norm="ortho",
                                                                              window_fn=None)]


CASES = {"framing": _framing, "windows": _windows, "stft": _stft, "cosine": _cosine, "mel": _mel, "mdct": _mdct}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
