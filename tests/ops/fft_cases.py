"""The graphs behind ``data/tf_fft_golden.npz``, written once for both engines: the complex and real FFTs of
``tf.signal`` (``tf.spectral``, ``tf.fft``), cropped and padded ``fft_length``s, and their gradients, each case
returning the tensors to fetch."""

import numpy as np

_RNG = np.random.RandomState(5)
Z = (_RNG.randn(2, 4, 6, 5) + 1j * _RNG.randn(2, 4, 6, 5)).astype(np.complex64)
X = _RNG.randn(2, 3, 6, 8).astype(np.float32)
X64 = _RNG.randn(3, 7)
WEIGHTS = _RNG.randn(2, 3, 6, 8).astype(np.float32)


def _complex(tf):
    z = tf.constant(Z)
    w = tf.constant(Z[..., ::-1].astype(np.complex128))
    return [tf.fft(z), tf.ifft(z), tf.signal.fft2d(z), tf.signal.ifft2d(z), tf.spectral.fft3d(z), tf.ifft3d(z),
            tf.signal.fft(w), tf.signal.ifft3d(w)]


def _real(tf):
    x, x64 = tf.constant(X), tf.constant(X64)
    outs = [tf.signal.rfft(x), tf.signal.rfft(x, [5]), tf.signal.rfft(x, [11]), tf.signal.rfft2d(x),
            tf.signal.rfft2d(x, [4, 9]), tf.signal.rfft3d(x), tf.signal.rfft3d(x, [2, 5, 6]), tf.spectral.rfft(x64),
            tf.signal.rfft(x64, [8])]
    spectra = tf.signal.rfft2d(x)
    outs += [tf.signal.irfft(spectra), tf.signal.irfft(spectra, [8]), tf.signal.irfft(spectra, [9]),
             tf.signal.irfft(spectra, [3]), tf.signal.irfft2d(spectra, [6, 8]), tf.signal.irfft2d(spectra, [4, 12]),
             tf.signal.irfft3d(tf.signal.rfft3d(x), [3, 6, 8]), tf.spectral.irfft(tf.spectral.rfft(x64), [7])]
    return outs


def _gradients(tf):
    z = tf.constant(Z)
    x, x64 = tf.constant(X), tf.constant(X64)
    weights = tf.constant(WEIGHTS)

    def loss(t):
        t = tf.abs(t) if t.dtype.is_complex else t
        flat = tf.reshape(t, [-1])
        return tf.reduce_sum(flat * tf.cast(tf.range(tf.size(flat)) % 7 - 3, flat.dtype))

    outs = [tf.gradients(loss(f(z)), z)[0] for f in (tf.fft, tf.ifft, tf.fft2d, tf.ifft2d, tf.fft3d, tf.ifft3d)]
    outs += [tf.gradients(loss(f(x)), x)[0] for f in (
        tf.signal.rfft, tf.signal.rfft2d, lambda t: tf.signal.rfft(t[..., :7]),
        lambda t: tf.signal.rfft2d(t[..., :5, :7]))]
    outs += [tf.gradients(loss(tf.signal.irfft(f(x)) * weights), x)[0] for f in (tf.signal.rfft,)]
    outs += [tf.gradients(loss(tf.signal.irfft(tf.signal.rfft(x[..., :7]), [7])), x)[0]]
    outs += [tf.gradients(loss(tf.signal.irfft2d(tf.signal.rfft2d(x)) * weights), x)[0]]
    outs += [tf.gradients(loss(tf.signal.rfft(x64)), x64)[0]]
    return outs


CASES = {"complex": _complex, "real": _real, "gradients": _gradients}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
