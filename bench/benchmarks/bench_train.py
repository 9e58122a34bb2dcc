"""Training: one Adam update of 64M float32 parameters against the memory-traffic floor, and the
example's training step against TensorFlow's.

An Adam step must read the variable, both slots and the gradient and write the variable and both
slots: 7 x 256 MB for 64M float32 parameters. ``TrafficFloor`` measures those bytes moved by numpy
(one copy each of var, m and v into spare buffers, and one read of the gradient); the target is an
Adam update within 1.2x of that time.

- ``AdamApply.time_kernel``: numflow's CPU kernel alone (``numflow_kernels.cpu.training.adam``).
- ``AdamApply.time_step``: one ``sess.run`` of ``AdamOptimizer.apply_gradients`` on one variable
  (the ``ApplyAdam`` op under the locks, and the beta-power updates); the gradient is fed through a
  placeholder (no copy). TensorFlow: the same graph in ``tensorflow.compat.v1``, the gradient held in
  a variable (its feed would copy). numpy: the same formulas in place with numpy's ufuncs.

- ``TrainingExample.time_train_step``: one step (forward, backward, Adam) of examples/train_mlp.py's
  MLP at batch 64 (the target: at least TensorFlow's steps per second) and 1024, the example's own
  graph code run on numflow and on TensorFlow.
- ``NullDeviceStep.time_train_step``: the batch-64 step on the null device (``numflow/devices/null.py``):
  the engine's own cost per step, with kernels that compute nothing.

Run with the other suites (``python bench/run.py --filter bench_train``), with asv, or alone:
``python bench/benchmarks/bench_train.py`` prints the table and the targets. ``NUMFLOW_BENCH_QUICK=1``
shrinks the arrays to 4M elements.
"""

import os
import sys

import numpy as np

try:
    from .bench_session import graph_library
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library

LIBRARIES = ["numflow", "numpy", "tensorflow"]
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
SIZE = (4 if QUICK else 64) * 1024 * 1024
LR, BETA1, BETA2, EPSILON = 0.001, 0.9, 0.999, 1e-8



class TrafficFloor:
    """The bytes of one Adam step moved by numpy: copies of var, m, v and a read of the gradient."""

    params = [["numpy"]]
    param_names = ["library"]
    number = 1
    repeat = 7

    def setup(self, library):
        rng = np.random.default_rng(0)
        self.src = [rng.random(SIZE, dtype=np.float32) for _ in range(4)]
        self.dst = [np.empty(SIZE, np.float32) for _ in range(3)]

    def teardown(self, library):
        del self.src, self.dst

    def time_traffic(self, library):
        for dst, src in zip(self.dst, self.src):
            np.copyto(dst, src)
        self.src[3].max()


class AdamApply:
    """One Adam update of SIZE float32 parameters."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 7

    def setup(self, library):
        rng = np.random.default_rng(1)
        self.grad = rng.standard_normal(SIZE, dtype=np.float32)
        self.library = library
        self.sess = None
        if library == "numpy":
            self.var = rng.random(SIZE, dtype=np.float32)
            self.m = np.zeros(SIZE, np.float32)
            self.v = np.zeros(SIZE, np.float32)
            self.tmp = np.empty(SIZE, np.float32)
            self.t = 0
            return
        tf = graph_library(library)
        if library == "numflow":
            from numflow_kernels.cpu import training

            self.kernel = training
            self.arrays = [rng.random(SIZE, dtype=np.float32), np.zeros(SIZE, np.float32),
                           np.zeros(SIZE, np.float32)]
        graph = tf.Graph()
        with graph.as_default():
            var = tf.Variable(tf.ones([SIZE]), name="w")
            if library == "numflow":
                grad = tf.placeholder(tf.float32, [SIZE])
                self.feed = {grad: self.grad}
            else:
                grad = tf.Variable(tf.constant(0.5, shape=[SIZE]), name="g").value()
                self.feed = None
            self.train = tf.train.AdamOptimizer(LR, BETA1, BETA2, EPSILON).apply_gradients([(grad, var)])
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=graph)
        self.sess.run(init)
        self.sess.run(self.train, self.feed)  # compile, allocate

    def teardown(self, library):
        if self.sess is not None:
            self.sess.close()

    def time_step(self, library):
        if library == "numpy":
            self._numpy_step()
        else:
            self.sess.run(self.train, self.feed)

    def time_kernel(self, library):
        if library != "numflow":
            raise NotImplementedError
        var, m, v = self.arrays
        self.kernel.adam(var, m, v, self.grad, np.float32(LR), BETA1, BETA2, np.float32(EPSILON))

    def _numpy_step(self):
        self.t += 1
        lr_t = np.float32(LR * np.sqrt(1 - BETA2 ** self.t) / (1 - BETA1 ** self.t))
        m, v, g, tmp = self.m, self.v, self.grad, self.tmp
        np.subtract(g, m, out=tmp)
        m += tmp * np.float32(1 - BETA1)
        np.multiply(g, g, out=tmp)
        tmp -= v
        v += tmp * np.float32(1 - BETA2)
        np.sqrt(v, out=tmp)
        tmp += np.float32(EPSILON)
        np.divide(m, tmp, out=tmp)
        tmp *= lr_t
        self.var -= tmp


def summarize(results):
    """The issue's targets: numflow's Adam update against the traffic floor, and its training steps
    per second against TensorFlow's."""
    lines = []
    floor = results.get(("TrafficFloor", "time_traffic", (), "numpy"))
    if floor is not None:
        gigabytes = 7 * SIZE * 4 / 1e9
        lines.append(f"Adam on {SIZE // 2**20}M float32: traffic floor {floor * 1e3:.0f} ms "
                     f"({gigabytes / floor:.1f} GB/s by numpy copies of the same {gigabytes:.2f} GB)")
        for method, what in (("time_kernel", "numflow kernel"), ("time_step", "numflow sess.run step"),
                             ("time_step", "numpy ufuncs"), ("time_step", "tensorflow sess.run step")):
            library = what.split()[0]
            seconds = results.get(("AdamApply", method, (), library))
            if seconds is not None:
                target = " (target <= 1.2x)" if library == "numflow" else ""
                lines.append(f"  {what}: {seconds * 1e3:.0f} ms = {seconds / floor:.2f}x the floor{target}")
    for batch in TrainingExample.params[1]:
        ours = results.get(("TrainingExample", "time_train_step", (("batch", batch),), "numflow"))
        theirs = results.get(("TrainingExample", "time_train_step", (("batch", batch),), "tensorflow"))
        if ours is not None and theirs is not None:
            target = " (target >= 1.0x)" if batch == 64 else ""
            lines.append(f"example MLP training step at batch {batch}: numflow {ours * 1e3:.2f} ms, TensorFlow "
                         f"{theirs * 1e3:.2f} ms: {theirs / ours:.2f}x TensorFlow's steps per second{target}")
    null = results.get(("NullDeviceStep", "time_train_step", (("batch", 64),), "numflow"))
    if null is not None:
        lines.append(f"example MLP training step at batch 64 on the null device (the engine's cost around the "
                     f"kernels): {null * 1e6:.0f} us")
    return lines


def example_module(tf, filename="train_mlp.py"):
    """An example of examples/ with ``tf`` in place of its numflow import, as a namespace."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", filename)
    with open(path) as f:
        source = f.read().replace("import numflow as tf\n", "")
    namespace = {"tf": tf, "__name__": filename[:-3]}
    exec(compile(source, path, "exec"), namespace)
    return namespace


class TrainingExample:
    """One training step (forward, backward, Adam) of the README's example MLP.

    The same graph-building code runs on both libraries; the target, at batch 64, is numflow's steps
    per second at least TensorFlow's (time per step at most TensorFlow's). At batch 1024 the matrix
    products and the elementwise ops over 1024x200 activations take most of the step.
    """

    params = [["numflow", "tensorflow"], [64, 1024]]
    param_names = ["library", "batch"]
    device = None  # where the graph's ops are placed (None: where the library places them)

    def setup(self, library, batch):
        tf = graph_library(library)
        example = self._example(tf)
        self.graph = tf.Graph()
        with self.graph.as_default(), tf.device(self.device):
            x, y, self.train_op, self.loss, _, _, self.step = example["build"]()
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=self.graph, config=self._config(tf))
        self.sess.run(init)
        data_x, data_y = example["make_data"](2048, seed=1)
        rng = np.random.default_rng(0)
        self.feeds = [{x: data_x[b], y: data_y[b]} for b in (rng.integers(0, 2048, batch) for _ in range(64))]
        self.i = 0
        for feed in self.feeds[:16]:
            self.sess.run([self.train_op, self.loss, self.step], feed)

    def _example(self, tf):
        """The example's namespace (a subclass may change its model)."""
        return example_module(tf)

    def _config(self, tf):
        """The session's ConfigProto (a subclass may ask for devices)."""
        return None

    def teardown(self, library, batch):
        self.sess.close()

    def time_train_step(self, library, batch):
        self.i = (self.i + 1) % len(self.feeds)
        self.sess.run([self.train_op, self.loss, self.step], self.feeds[self.i])


class NullDeviceStep(TrainingExample):
    """The same step with every op on the null device, whose kernels compute nothing: what
    ``Session.run`` costs around the kernels of a real step (plan lookup, feeds, executor, kernel
    calls, fetches)."""

    params = [["numflow"], [64]]
    device = "/device:NULL:0"

    def _config(self, tf):
        return tf.ConfigProto(device_count={"NULL": 1})


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    import run

    run.main(["--filter", "bench_train", *sys.argv[1:]])
