"""``tf.signal`` against TensorFlow's values, gradients and names (``data/tf_signal_golden.npz``, made by
``data/make_tf_case_goldens.py`` from ``signal_cases.py``), against numpy formulas, with shapes known only at
run time, and its argument errors in TensorFlow's words."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from signal_cases import CASES, DCT_INPUT, FRAMES, SIGNALS, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_signal_golden.npz")
# The last tensor of "cosine" is a gradient through Pad, whose gradient numflow builds with one Slice less.
_NAMED = {"cosine": -1}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_gradients_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=2e-5, atol=2e-5, named=_NAMED.get(name))


def _frames_by_loop(signal, length, step):
    count = max(0, (signal.shape[-1] - length) // step + 1)
    return np.stack([signal[..., i * step:i * step + length] for i in range(count)], axis=-2)


def _overlap_add_by_loop(frames, step):
    count, length = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + ((count - 1) * step + length,), frames.dtype)
    for i in range(count):
        out[..., i * step:i * step + length] += frames[..., i, :]
    return out


def test_by_numpy():
    framing, _ = run_case(tf, "framing")
    np.testing.assert_array_equal(framing[0], _frames_by_loop(SIGNALS, 16, 8))
    np.testing.assert_allclose(framing[7], _overlap_add_by_loop(FRAMES, 5), rtol=1e-6, atol=1e-6)
    windows, _ = run_case(tf, "windows")
    np.testing.assert_allclose(windows[0], np.hanning(17)[:16], atol=1e-7)
    np.testing.assert_allclose(windows[4], np.hamming(9), atol=1e-7)
    np.testing.assert_allclose(windows[6], np.kaiser(9, 4.0), rtol=1e-12)
    cosine, _ = run_case(tf, "cosine")
    n = np.arange(8)
    dct2 = 2 * np.cos(np.pi * (2 * n[None, :] + 1) * n[:, None] / 16) @ DCT_INPUT.T
    np.testing.assert_allclose(cosine[1], dct2.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(cosine[12], cosine[4] * 0 + np.asarray(cosine[12]), rtol=0)  # float64 stays float64
    assert cosine[12].dtype == np.float64


def test_stft_round_trip_with_shapes_known_at_run_time():
    with tf.Graph().as_default():
        signals = tf.placeholder(tf.float32, [None, None])
        step = tf.placeholder(tf.int32, [])
        spectrograms = tf.signal.stft(signals, 32, step)
        assert spectrograms.shape.as_list() == [None, None, 17]
        inverse = tf.signal.inverse_stft(spectrograms, 32, step, window_fn=tf.signal.inverse_stft_window_fn(step))
        frames = tf.signal.frame(signals, 16, step, pad_end=True)
        added = tf.signal.overlap_and_add(tf.placeholder_with_default(FRAMES, [None, None, None]), step)
        with tf.Session() as sess:
            got, framed, summed = sess.run([inverse, frames, added], {signals: SIGNALS, step: 8})
            framed_5 = sess.run(frames, {signals: SIGNALS, step: 5})
    # The first and last frame_length - frame_step samples see fewer windows: only the middle is exact.
    np.testing.assert_allclose(got[:, 24:72], SIGNALS[:, 24:72], rtol=1e-4, atol=1e-5)
    padded = np.pad(SIGNALS, [(0, 0), (0, 12)])
    np.testing.assert_array_equal(framed, _frames_by_loop(padded, 16, 8)[:, :13])
    np.testing.assert_array_equal(framed_5, _frames_by_loop(np.pad(SIGNALS, [(0, 0), (0, 11)]), 16, 5)[:, :20])
    np.testing.assert_allclose(summed, _overlap_add_by_loop(FRAMES, 8), rtol=1e-6, atol=1e-6)


def test_frame_of_unknown_rank_and_axis():
    multi = np.random.RandomState(4).randn(2, 20, 3).astype(np.float32)
    with tf.Graph().as_default():
        signal = tf.placeholder(tf.float32)
        axis = tf.placeholder(tf.int32, [])
        framed = tf.signal.frame(signal, 4, 3, axis=1)
        padded = tf.signal.frame(signal, 5, 2, pad_end=True, axis=-2)
        by_axis = tf.signal.frame(tf.constant(multi), 4, 3, axis=axis)
        assert framed.shape.ndims is None and by_axis.shape.ndims is None
        with tf.Session() as sess:
            got = sess.run([framed, padded, by_axis], {signal: multi, axis: 1})
    moved = np.moveaxis(multi, 1, -1)
    want = np.moveaxis(_frames_by_loop(moved, 4, 3), [-2, -1], [1, 2])
    np.testing.assert_array_equal(got[0], want)
    np.testing.assert_array_equal(got[2], want)
    want_padded = np.moveaxis(_frames_by_loop(np.pad(moved, [(0, 0), (0, 0), (0, 3)]), 5, 2), [-2, -1], [1, 2])
    np.testing.assert_array_equal(got[1], want_padded)


def test_overlap_and_add_and_inverse_stft_of_unknown_rank():
    with tf.Graph().as_default():
        frames = tf.placeholder(tf.float32)
        spectra = tf.placeholder(tf.complex64)
        added = tf.signal.overlap_and_add(frames, 4)
        inverse = tf.signal.inverse_stft(spectra, 24, 8)
        known = tf.signal.inverse_stft(tf.placeholder_with_default(spectra, [2, None, 17]), 24, 8)
        with tf.Session() as sess:
            stfts = sess.run(tf.signal.stft(SIGNALS, 24, 8))
            got, got_inverse, want_inverse = sess.run([added, inverse, known], {frames: FRAMES, spectra: stfts})
    np.testing.assert_allclose(got, _overlap_add_by_loop(FRAMES, 4), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(got_inverse, want_inverse)


def test_static_shapes():
    with tf.Graph().as_default():
        signals = tf.placeholder(tf.float32, [None, 100])
        assert tf.signal.frame(signals, 30, 16, pad_end=True).shape.as_list() == [None, 7, 30]
        assert tf.signal.frame(signals, 30, 16).shape.as_list() == [None, 5, 30]
        assert tf.signal.stft(signals, 24, 8).shape.as_list() == [None, 10, 17]
        assert tf.signal.overlap_and_add(tf.placeholder(tf.float32, [3, 5, 12]), 4).shape.as_list() == [3, 28]
        assert tf.signal.linear_to_mel_weight_matrix().shape.as_list() == [129, 20]
        assert tf.signal.mdct(signals, 16).shape.as_list() == [None, 11, 8]


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="dtype must be a floating point type. Found <dtype: 'int32'>"):
            tf.signal.hann_window(8, dtype=tf.int32)
        with pytest.raises(ValueError, match="Type-I DCT requires the dimension to be greater than one."):
            tf.signal.dct(tf.constant([[1.0]]), type=1)
        with pytest.raises(ValueError, match="Normalization is not supported for the Type-I DCT."):
            tf.signal.dct(tf.constant(DCT_INPUT), type=1, norm="ortho")
        with pytest.raises(ValueError, match="Unknown normalization. Expected None or 'ortho', got: l2"):
            tf.signal.idct(tf.constant(DCT_INPUT), norm="l2")
        with pytest.raises(NotImplementedError, match="axis must be -1. Got: 0"):
            tf.signal.dct(tf.constant(DCT_INPUT), axis=0)
        with pytest.raises(ValueError, match="upper_edge_hertz must not be larger than the Nyquist frequency"):
            tf.signal.linear_to_mel_weight_matrix(sample_rate=4000)
        with pytest.raises(ValueError, match="lower_edge_hertz 200.0 >= upper_edge_hertz 100.0"):
            tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=200.0, upper_edge_hertz=100.0)
        with pytest.raises(ValueError, match="The frame length must be a multiple of 4."):
            tf.signal.mdct(tf.constant(SIGNALS), 10)
        with pytest.raises(ValueError, match="frame_step must be an integer. Got <dtype: 'float32'>"):
            tf.signal.overlap_and_add(tf.constant(FRAMES), 2.0)
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.signal.frame(tf.constant(SIGNALS), [4], 2)
