"""tf.signal: a log-mel spectrogram front end (stft, magnitude, mel matrix, log, MFCCs) with its gradient, and
a batch of 2-D real FFTs and their inverse, one ``Session.run`` of each graph, numflow vs TensorFlow (numflow's
FFT kernels are numpy's pocketfft, so there is no separate numpy column).

asv runs it; so does ``bench/run.py``, and so does this file on its own::

    python bench/benchmarks/bench_signal.py [--quick]
"""

import os
import sys

try:
    from .bench_nn import QUICK, _GraphCase
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_nn import QUICK, _GraphCase

CLIPS = 2 if QUICK else 16


class LogMelMfccWithGradient(_GraphCase):
    """stft (frame 400, step 160, fft 512) of [16, 16000] samples, |.|, 40 mel bins, log, 13 MFCCs, and the
    gradient with respect to the samples."""

    params = [["numflow", "tensorflow"]]

    def make_inputs(self, rng):
        import numpy as np

        return [rng.normal(size=(CLIPS, 16000)).astype(np.float32)]

    def time_run(self, library):
        self.run()

    def build(self, tf, signals):
        spectrograms = tf.abs(tf.signal.stft(signals, 400, 160, 512))
        matrix = tf.signal.linear_to_mel_weight_matrix(40, 257, 16000, 20.0, 7600.0)
        log_mel = tf.log(tf.tensordot(spectrograms, matrix, 1) + 1e-6)
        mfccs = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :13]
        return [mfccs] + tf.gradients(tf.reduce_sum(mfccs), signals)


class RealFft2dRoundTrip(_GraphCase):
    """rfft2d and irfft2d of [16, 128, 128] float32."""

    params = [["numflow", "tensorflow"]]

    def make_inputs(self, rng):
        import numpy as np

        return [rng.normal(size=(CLIPS, 128, 128)).astype(np.float32)]

    def time_run(self, library):
        self.run()

    def build(self, tf, images):
        return [tf.signal.irfft2d(tf.signal.rfft2d(images))]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import run

    run.main(["--filter", r"^bench_signal\.", *sys.argv[1:]])
