"""Math, array, linear-algebra and sampling ops TF1 programs use, one ``Session.run`` each, beside numpy and TF.

Run plainly for the table (TensorFlow's column comes from running this same file with TensorFlow's
interpreter, ``--tensorflow-python``, default ``/opt/tfenv/bin/python``)::

    python bench/benchmarks/bench_math_ops.py [--quick] [--repeat N] [--stat min|median]

or through asv or ``bench/run.py`` (the classes below, parametrized by ``library``). Each numflow and
TensorFlow case is a graph with its inputs fed through placeholders (so nothing folds), run with
``sess.run``; numpy computes the same result directly where it has a counterpart.

- ``Cumsum``: ``tf.cumsum`` of a [1000, 1000] float32 along axis 1 (numpy: ``np.cumsum``).
- ``SegmentSum``: ``tf.segment_sum`` of [200000, 16] float32 rows into 2,000 sorted segments
  (numpy: ``np.add.reduceat``).
- ``UnsortedSegmentMax``: ``tf.unsorted_segment_max`` of the same rows into 2,000 segments in random
  order (numpy: ``np.maximum.at``).
- ``GatherNd``: 200,000 index pairs into a [1000, 1000] float32 (numpy: fancy indexing).
- ``Einsum``: ``"bij,bjk->bik"`` of [64, 128, 128] float32 batches (numpy: ``np.matmul``).
- ``MatrixInverse``: 512 float64 32x32 matrices (numpy: ``np.linalg.inv``).
- ``RandomShuffle``: 1,000,000 int32 (numpy: ``Generator.permutation``).
- ``Multinomial``: 100 draws from each of 512 rows of 1,000 logits.
- ``RandomGamma``: 1,000,000 float32 samples of Gamma(2.5) (numpy: ``Generator.gamma``, float64).

``NUMFLOW_BENCH_QUICK=1`` (``--quick``) divides the sizes by about ten.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0") or (__name__ == "__main__" and "--quick" in sys.argv)
SCALE = 10 if QUICK else 1
LIBRARIES = ["numflow", "numpy", "tensorflow"]


def _library(library):
    sys.path.insert(0, HERE)
    from bench_variables import graph_library

    return graph_library(library)


class _OpSuite:
    """One op: ``build(tf, placeholders)`` gives the fetched tensor, ``numpy(*arrays)`` the same result."""

    params = [LIBRARIES]
    param_names = ["library"]
    repeat = 5
    timeout = 600

    def inputs(self, rng):
        return []

    def setup(self, library):
        rng = np.random.default_rng(0)
        arrays = self.inputs(rng)
        if library == "numpy":
            if not hasattr(self, "numpy"):
                raise NotImplementedError("numpy has no counterpart")
            self.call = lambda: self.numpy(rng, *arrays)
        else:
            tf = _library(library)
            graph = tf.Graph()
            with graph.as_default():
                holders = [tf.placeholder(a.dtype, a.shape) for a in arrays]
                out = self.build(tf, *holders)
            self.sess = tf.Session(graph=graph)
            feed = dict(zip(holders, arrays))
            self.call = lambda: self.sess.run(out, feed)
        self.call()  # compile or load the kernels

    def teardown(self, library):
        if library != "numpy":
            self.sess.close()

    def time_run(self, library):
        self.call()


class Cumsum(_OpSuite):
    def inputs(self, rng):
        return [rng.standard_normal((1000 // SCALE, 1000), dtype=np.float32)]

    def build(self, tf, x):
        return tf.cumsum(x, axis=1)

    def numpy(self, rng, x):
        return np.cumsum(x, axis=1)


def _rows(rng):
    return rng.standard_normal((200000 // SCALE, 16), dtype=np.float32)


class SegmentSum(_OpSuite):
    def inputs(self, rng):
        data = _rows(rng)
        return [data, np.sort(rng.integers(0, 2000, data.shape[0])).astype(np.int32)]

    def build(self, tf, data, ids):
        return tf.segment_sum(data, ids)

    def numpy(self, rng, data, ids):
        return np.add.reduceat(data, np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]]), axis=0)


class UnsortedSegmentMax(_OpSuite):
    def inputs(self, rng):
        data = _rows(rng)
        return [data, rng.integers(0, 2000, data.shape[0]).astype(np.int32)]

    def build(self, tf, data, ids):
        return tf.unsorted_segment_max(data, ids, 2000)

    def numpy(self, rng, data, ids):
        out = np.full((2000, data.shape[1]), np.finfo(np.float32).min, np.float32)
        np.maximum.at(out, ids, data)
        return out


class GatherNd(_OpSuite):
    def inputs(self, rng):
        return [rng.standard_normal((1000, 1000), dtype=np.float32),
                rng.integers(0, 1000, (200000 // SCALE, 2)).astype(np.int32)]

    def build(self, tf, params, indices):
        return tf.gather_nd(params, indices)

    def numpy(self, rng, params, indices):
        return params[indices[:, 0], indices[:, 1]]


class Einsum(_OpSuite):
    def inputs(self, rng):
        return [rng.standard_normal((64 // SCALE + 1, 128, 128), dtype=np.float32) for _ in range(2)]

    def build(self, tf, a, b):
        return tf.einsum("bij,bjk->bik", a, b)

    def numpy(self, rng, a, b):
        return np.matmul(a, b)


class MatrixInverse(_OpSuite):
    def inputs(self, rng):
        return [rng.standard_normal((512 // SCALE, 32, 32)) + 8 * np.eye(32)]

    def build(self, tf, x):
        return tf.matrix_inverse(x)

    def numpy(self, rng, x):
        return np.linalg.inv(x)


class RandomShuffle(_OpSuite):
    def inputs(self, rng):
        return [np.arange(1000000 // SCALE, dtype=np.int32)]

    def build(self, tf, x):
        return tf.random_shuffle(x, seed=1)

    def numpy(self, rng, x):
        return rng.permutation(x)


class Multinomial(_OpSuite):
    def inputs(self, rng):
        return [rng.standard_normal((512 // SCALE, 1000), dtype=np.float32)]

    def build(self, tf, logits):
        return tf.multinomial(logits, 100, seed=1)


class RandomGamma(_OpSuite):
    def build(self, tf):
        return tf.random_gamma([1000000 // SCALE], 2.5, seed=1)

    def numpy(self, rng):
        return rng.gamma(2.5, size=1000000 // SCALE)


SUITES = ("Cumsum", "SegmentSum", "UnsortedSegmentMax", "GatherNd", "Einsum", "MatrixInverse", "RandomShuffle",
          "Multinomial", "RandomGamma")


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import bench_variables

    bench_variables.main(module=sys.modules[__name__], suites=SUITES)
