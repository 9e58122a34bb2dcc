"""``tf.spectral``: TensorFlow 1's older name for the FFTs and cosine transforms of ``tf.signal``; re-exports
only."""

from numflow.signal import (
    dct,
    fft,
    fft2d,
    fft3d,
    idct,
    ifft,
    ifft2d,
    ifft3d,
    irfft,
    irfft2d,
    irfft3d,
    rfft,
    rfft2d,
    rfft3d,
)

__all__ = ["dct", "fft", "fft2d", "fft3d", "idct", "ifft", "ifft2d", "ifft3d", "irfft", "irfft2d", "irfft3d", "rfft",
           "rfft2d", "rfft3d"]
