"""``tf.signal``: the FFTs under the names ``tf.compat.v1.signal`` gives them; re-exports only."""

from numflow.ops.fft_ops import (
    fft,
    fft2d,
    fft3d,
    fftshift,
    ifft,
    ifft2d,
    ifft3d,
    ifftshift,
    irfft,
    irfft2d,
    irfft3d,
    rfft,
    rfft2d,
    rfft3d,
)

__all__ = ["fft", "fft2d", "fft3d", "fftshift", "ifft", "ifft2d", "ifft3d", "ifftshift", "irfft", "irfft2d", "irfft3d",
           "rfft", "rfft2d", "rfft3d"]
