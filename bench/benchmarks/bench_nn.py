"""tf.nn kernels: fused batch norm (forward and gradient, NHWC and NCHW), LRN (forward and gradient),
top_k and dilation2d (forward and both backprops), one ``Session.run`` of each graph, numflow vs the numpy
reference kernels vs TensorFlow.

asv runs it; so does ``bench/run.py``, and so does this file on its own::

    python bench/benchmarks/bench_nn.py [--quick]

The inputs are variables, so TensorFlow's graph optimizer cannot fold the work away; both engines
fetch the same tensors. The numpy column calls numflow's numpy reference kernels directly (no
graph): what numflow would do without its Numba kernels. TensorFlow's column needs TensorFlow
importable beside numflow.
"""

import os
import sys
from types import SimpleNamespace

import numpy as np

try:
    from .bench_session import graph_library
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library

LIBRARIES = ["numflow", "numpy", "tensorflow"]
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
BATCH = 4 if QUICK else 32


class _GraphCase:
    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 15
    timeout = 600

    def setup(self, library):
        rng = np.random.default_rng(0)
        self.inputs = self.make_inputs(rng)
        if library == "numpy":
            self.run = self.numpy_run(self.inputs)
            self.run()
            return
        tf = graph_library(library)
        self.graph = tf.Graph()
        with self.graph.as_default():
            variables = [tf.Variable(v) for v in self.inputs]
            fetches = self.build(tf, *variables)
            self.sess = tf.Session(graph=self.graph)
            self.sess.run(tf.global_variables_initializer())
        self.run = lambda: self.sess.run(fetches)
        self.run()  # compile or load the kernels

    def teardown(self, library):
        if library != "numpy":
            self.sess.close()


def _ctx(**attrs):
    return SimpleNamespace(attrs=attrs, op_name="bench")


class _BatchNorm(_GraphCase):
    data_format = "NHWC"

    def make_inputs(self, rng):
        shape = (BATCH, 32, 32, 64) if self.data_format == "NHWC" else (BATCH, 64, 32, 32)
        x = rng.normal(size=shape).astype(np.float32)
        dy = rng.normal(size=shape).astype(np.float32)
        return [x, dy, rng.uniform(0.5, 1.5, 64).astype(np.float32), rng.normal(size=64).astype(np.float32)]

    def build(self, tf, x, dy, scale, offset):
        y, mean, var = tf.nn.fused_batch_norm(x, scale, offset, data_format=self.data_format)
        return [y, mean, var] + tf.gradients(y, [x, scale, offset], grad_ys=dy)

    def numpy_run(self, inputs):
        from numflow_kernels import reference_norm

        x, dy, scale, offset = inputs
        ctx = _ctx(epsilon=1e-3, exponential_avg_factor=1.0, data_format=self.data_format, is_training=True)
        empty = np.zeros(0, np.float32)

        def run():
            out = reference_norm.fused_batch_norm(ctx, x, scale, offset, empty, empty)
            reference_norm.fused_batch_norm_grad(ctx, dy, x, scale, out[3], out[4], out[5])

        return run


class FusedBatchNormNHWC(_BatchNorm):
    """FusedBatchNormV3 in training and its FusedBatchNormGradV3, [32, 32, 32, 64] float32."""

    def time_run(self, library):
        self.run()


class FusedBatchNormNCHW(_BatchNorm):
    """As FusedBatchNormNHWC in NCHW ([32, 64, 32, 32])."""

    data_format = "NCHW"

    def time_run(self, library):
        self.run()


class LRN(_GraphCase):
    """LRN (depth_radius 2, as AlexNet) and LRNGrad over [32, 28, 28, 64] float32."""

    def time_run(self, library):
        self.run()

    def make_inputs(self, rng):
        shape = (BATCH, 28, 28, 64)
        return [rng.normal(size=shape).astype(np.float32), rng.normal(size=shape).astype(np.float32)]

    def build(self, tf, x, dy):
        y = tf.nn.lrn(x, depth_radius=2, bias=1.0, alpha=1e-4, beta=0.75)
        return [y] + tf.gradients(y, x, grad_ys=dy)

    def numpy_run(self, inputs):
        from numflow_kernels import reference_norm

        x, dy = inputs
        ctx = _ctx(depth_radius=2, bias=1.0, alpha=1e-4, beta=0.75)
        return lambda: reference_norm.lrn_grad(ctx, dy, x, reference_norm.lrn(ctx, x))


class TopK(_GraphCase):
    """top_k, k = 10, over [256, 10000] float32 rows (sorted output)."""

    def time_run(self, library):
        self.run()

    def make_inputs(self, rng):
        return [rng.normal(size=(32 if QUICK else 256, 10000)).astype(np.float32)]

    def build(self, tf, x):
        return list(tf.nn.top_k(x, 10))

    def numpy_run(self, inputs):
        from numflow.framework import dtypes
        from numflow_kernels import reference_topk

        ctx = _ctx(sorted=True, index_type=dtypes.int32)
        return lambda: reference_topk.top_k(ctx, inputs[0], np.int32(10))


class Dilation2D(_GraphCase):
    """dilation2d, 3x3 filter, SAME, and its two backprops over [32, 32, 32, 16] float32."""

    def time_run(self, library):
        self.run()

    def make_inputs(self, rng):
        shape = (BATCH, 32, 32, 16)
        return [rng.normal(size=shape).astype(np.float32), rng.normal(size=(3, 3, 16)).astype(np.float32),
                rng.normal(size=shape).astype(np.float32)]

    def build(self, tf, x, f, dy):
        y = tf.nn.dilation2d(x, f, [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
        return [y] + tf.gradients(y, [x, f], grad_ys=dy)

    def numpy_run(self, inputs):
        from numflow_kernels import reference_morphology

        x, f, dy = inputs
        ctx = _ctx(strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME")

        def run():
            reference_morphology.dilation2d(ctx, x, f)
            reference_morphology.dilation2d_backprop_input(ctx, x, f, dy)
            reference_morphology.dilation2d_backprop_filter(ctx, x, f, dy)

        return run


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import run

    run.main(["--filter", r"^bench_nn\.", *sys.argv[1:]])
