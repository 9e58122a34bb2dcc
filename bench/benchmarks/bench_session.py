"""Engine core: Session.run latency, graph construction, independent kernels on the thread pool.

Each suite is parametrized by ``library`` (numflow, numpy, tensorflow), as the other suites here:
asv runs it (``asv run --config bench/asv.conf.json --bench bench_session``), ``bench/run.py`` prints
every suite as one table. A library that is not installed, or that has no counterpart of a case
(numpy builds no graph), raises NotImplementedError in ``setup``, which both runners skip.

- ``RunLatency``: ``sess.run`` of a cached one-op graph (a scalar add of two constants; a scalar
  ``assign_add`` of a variable). numpy: the same add / in-place add, the floor.
- ``GraphConstruction``: building 1,001 ops (constants, adds, multiplies, identities) in a new graph.
- ``IndependentKernels``: two independent elementwise squares of 64M float32 each (4M with
  ``NUMFLOW_BENCH_QUICK=1``), with 1 and 2 inter-op threads (intra-op: 1). Inputs are fed by
  placeholders for numflow (no copy) and held in variables for TensorFlow (a feed would copy them).
  numpy: the two squares one after the other, or on two Python threads.
- ``ParallelSpeedup``: the same step's 1-thread over 2-thread time, from samples taken in turns
  (an asv ``track_`` benchmark), so that other jobs on the machine weigh on both alike.

TensorFlow runs as ``tensorflow.compat.v1``, every graph built and run in graph mode (sessions).
"""

import os

import numpy as np

try:
    from .bench_kernels import tensorflow
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_kernels import tensorflow

LIBRARIES = ["numflow", "numpy", "tensorflow"]
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
BIG = (4 if QUICK else 64) * 1024 * 1024
OPS_PER_GRAPH = 1 + 4 * 250

def tensorflow_v1():
    """``tensorflow.compat.v1`` in graph mode, or None when TensorFlow is not installed."""
    try:
        tf = tensorflow()
    except NotImplementedError:
        return None
    # No tf.disable_v2_behavior(): it is process-wide and other suites use TF 2. Every graph here is
    # built inside `with graph.as_default()`, which is graph mode anyway.
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    return tf.compat.v1


def graph_library(library):
    """The TF-1-style module for ``library``; NotImplementedError for numpy or a missing library."""
    if library == "numflow":
        import numflow

        return numflow
    if library == "tensorflow":
        tf = tensorflow_v1()
        if tf is None:
            raise NotImplementedError("tensorflow is not installed")
        return tf
    raise NotImplementedError(f"{library} builds no graph")


class RunLatency:
    """Session.run of a cached one-op graph; numpy does the op directly."""

    params = [LIBRARIES]
    param_names = ["library"]

    def setup(self, library):
        self.sess = None
        if library == "numpy":
            a, b = np.float32(1.0), np.float32(2.0)
            self.add = lambda: np.add(a, b)
            v = np.zeros((), np.float32)
            self.assign_add = lambda: np.add(v, np.float32(1.0), out=v)
            return
        tf = graph_library(library)
        graph = tf.Graph()
        with graph.as_default():
            c = tf.add(tf.constant(1.0), tf.constant(2.0))
            v = tf.Variable(0.0)
            inc = tf.assign_add(v, 1.0)
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=graph)
        self.sess.run(init)
        run = self.sess.run
        self.add = lambda: run(c)
        self.assign_add = lambda: run(inc)
        for _ in range(100):
            self.add()
            self.assign_add()

    def teardown(self, library):
        if self.sess is not None:
            self.sess.close()

    def time_scalar_add(self, library):
        self.add()

    def time_scalar_assign_add(self, library):
        self.assign_add()


class GraphConstruction:
    """Adding 1,001 ops (a placeholder, then 250 x constant, add, multiply, identity) to a new graph."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    work = {"time_build_graph": (OPS_PER_GRAPH, "ops")}

    def setup(self, library):
        self.tf = graph_library(library)

    def time_build_graph(self, library):
        tf = self.tf
        with tf.Graph().as_default() as graph:
            x = tf.placeholder(tf.float32, shape=[None, 8], name="x")
            for i in range(250):
                c = tf.constant(float(i))
                x = tf.identity(tf.multiply(tf.add(x, c), x))
        return graph


class _TwoSquares:
    """``run()`` computes the squares of ``a`` and ``b`` in one step of ``library`` on ``threads``."""

    def __init__(self, library, threads, a, b):
        self.sess = self.pool = None
        if library == "numpy":
            if threads == 1:
                self.run = lambda: (np.square(a), np.square(b))
            else:
                from concurrent.futures import ThreadPoolExecutor

                self.pool = ThreadPoolExecutor(threads)
                self.run = lambda: [f.result() for f in (self.pool.submit(np.square, a),
                                                          self.pool.submit(np.square, b))]
            self.run()
            return
        tf = graph_library(library)
        config = tf.ConfigProto(inter_op_parallelism_threads=threads, intra_op_parallelism_threads=1)
        graph = tf.Graph()
        with graph.as_default():
            if library == "numflow":
                x = tf.placeholder(tf.float32, shape=[BIG])
                y = tf.placeholder(tf.float32, shape=[BIG])
                feeds, init = {x: a, y: b}, None
            else:
                px = tf.placeholder(tf.float32, shape=[BIG])
                py = tf.placeholder(tf.float32, shape=[BIG])
                x, y = tf.Variable(px), tf.Variable(py)
                feeds, init = None, (tf.global_variables_initializer(), {px: a, py: b})
            fetches = [tf.square(x), tf.square(y)]
        self.sess = tf.Session(graph=graph, config=config)
        if init is not None:
            self.sess.run(init[0], feed_dict=init[1])
        self.run = lambda: self.sess.run(fetches, feed_dict=feeds)
        self.run()

    def close(self):
        if self.sess is not None:
            self.sess.close()
        if self.pool is not None:
            self.pool.shutdown()


def _inputs():
    rng = np.random.default_rng(0)
    return rng.random(BIG, dtype=np.float32), rng.random(BIG, dtype=np.float32)


class IndependentKernels:
    """Two independent 64M-element squares in one run, on 1 or 2 inter-op threads."""

    params = [LIBRARIES, [1, 2]]
    param_names = ["library", "threads"]
    number = 1
    repeat = 7
    timeout = 600

    def setup(self, library, threads):
        self.step = _TwoSquares(library, threads, *_inputs())

    def teardown(self, library, threads):
        self.step.close()

    def time_two_squares(self, library, threads):
        self.step.run()

    def peakmem_two_squares(self, library, threads):
        self.step.run()


class ParallelSpeedup:
    """The 1-thread time of the two squares over the 2-thread time, samples taken in turns.

    Timing the two configurations one after the other lets load from other jobs fall on either;
    alternating their samples exposes both to the same conditions. The value is the ratio of
    their fastest samples (at least 1.6 is the target for numflow).
    """

    params = [LIBRARIES]
    param_names = ["library"]
    timeout = 600
    samples = 9

    def setup(self, library):
        a, b = _inputs()
        self.one = _TwoSquares(library, 1, a, b)
        self.two = _TwoSquares(library, 2, a, b)

    def teardown(self, library):
        self.one.close()
        self.two.close()

    def track_speedup(self, library):
        import time

        best = {1: float("inf"), 2: float("inf")}
        for _ in range(3 if QUICK else self.samples):
            for threads, step in ((1, self.one), (2, self.two)):
                start = time.perf_counter()
                step.run()
                best[threads] = min(best[threads], time.perf_counter() - start)
        return best[1] / best[2]

    track_speedup.unit = "x"


def summarize(results):
    """The issue's targets, from ``results[(suite, method, params, library)] = seconds per call``.

    The seconds are the runner's statistic of the samples (median by default; see bench/run.py).
    """
    lines = []

    def get(suite, method, library, params=()):
        return results.get((suite, method, tuple(params), library))

    add = get("RunLatency", "time_scalar_add", "numflow")
    if add is not None:
        tf_add = get("RunLatency", "time_scalar_add", "tensorflow")
        tf_text = f" (TensorFlow: {tf_add * 1e6:.1f} us)" if tf_add else ""
        lines.append(f"Session.run latency, cached scalar add: {add * 1e6:.1f} us (target <= 10 us){tf_text}")
    assign = get("RunLatency", "time_scalar_assign_add", "numflow")
    if assign is not None:
        tf_assign = get("RunLatency", "time_scalar_assign_add", "tensorflow")
        tf_text = f" (TensorFlow: {tf_assign * 1e6:.1f} us)" if tf_assign else ""
        lines.append(f"Session.run latency, cached scalar assign_add: {assign * 1e6:.1f} us (target <= 10 us){tf_text}")
    build = get("GraphConstruction", "time_build_graph", "numflow")
    if build is not None:
        tf_build = get("GraphConstruction", "time_build_graph", "tensorflow")
        tf_text = f" (TensorFlow: {OPS_PER_GRAPH / tf_build:,.0f} ops/s)" if tf_build else ""
        lines.append(f"graph construction: {OPS_PER_GRAPH / build:,.0f} ops/s (target >= 20,000){tf_text}")
    for library in ("numflow", "numpy", "tensorflow"):
        speedup = get("ParallelSpeedup", "track_speedup", library)
        if speedup:
            target = " (target >= 1.6x)" if library == "numflow" else ""
            lines.append(f"two independent {BIG // 2**20}M-element squares, {library}: 2 threads {speedup:.2f}x "
                         f"faster than 1, fastest samples taken in turns{target}")
    for library in ("numflow", "numpy", "tensorflow"):
        one = get("IndependentKernels", "time_two_squares", library, [("threads", 1)])
        two = get("IndependentKernels", "time_two_squares", library, [("threads", 2)])
        if one and two:
            target = " (target >= 1.6x)" if library == "numflow" else ""
            lines.append(f"two independent {BIG // 2**20}M-element squares, {library}: 1 thread {one * 1e3:.0f} ms, "
                         f"2 threads {two * 1e3:.0f} ms, speedup {one / two:.2f}x{target}")
    return lines
