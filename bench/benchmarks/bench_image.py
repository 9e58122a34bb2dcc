"""tf.image's resize ops: ResizeBilinear with its gradient, ResizeNearestNeighbor and ResizeArea, one
``Session.run`` of each graph, numflow vs TensorFlow (numflow's kernels are numpy matrix products, so there is
no separate numpy column).

asv runs it; so does ``bench/run.py``, and so does this file on its own::

    python bench/benchmarks/bench_image.py [--quick]
"""

import os
import sys

try:
    from .bench_nn import QUICK, _GraphCase
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_nn import QUICK, _GraphCase

BATCH = 4 if QUICK else 32


class _Resize(_GraphCase):
    params = [["numflow", "tensorflow"]]
    size = [128, 128]

    def make_inputs(self, rng):
        import numpy as np

        shape = (BATCH, 64, 64, 3)
        out = (BATCH, *self.size, 3)
        return [rng.uniform(size=shape).astype(np.float32), rng.normal(size=out).astype(np.float32)]


class ResizeBilinearWithGradient(_Resize):
    """ResizeBilinear [32, 64, 64, 3] -> [32, 128, 128, 3] (half-pixel centers) and ResizeBilinearGrad."""

    def time_run(self, library):
        self.run()

    def build(self, tf, x, dy):
        y = tf.image.resize_bilinear(x, self.size, half_pixel_centers=True)
        return [y] + tf.gradients(y, x, grad_ys=dy)


class ResizeNearestNeighbor(_Resize):
    """ResizeNearestNeighbor [32, 64, 64, 3] -> [32, 128, 128, 3]."""

    def time_run(self, library):
        self.run()

    def build(self, tf, x, dy):
        return [tf.image.resize_nearest_neighbor(x, self.size)]


class ResizeArea(_Resize):
    """ResizeArea [32, 64, 64, 3] -> [32, 24, 24, 3]."""

    size = [24, 24]

    def time_run(self, library):
        self.run()

    def build(self, tf, x, dy):
        return [tf.image.resize_area(x, self.size)]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import run

    run.main(["--filter", r"^bench_image\.", *sys.argv[1:]])
