"""Kernels: random fills and assign_add of an 8192x8192 float32 buffer, numflow vs numpy vs TensorFlow.

asv runs it (``asv run --config bench/asv.conf.json --bench bench_kernels``); so does ``bench/run.py``,
and so does this file on its own, printing the table and the targets::

    python bench/benchmarks/bench_kernels.py [--quick]
    /opt/tfenv/bin/python bench/benchmarks/bench_kernels.py      # adds the TensorFlow column

- ``RandomNormal``/``RandomUniform``/``TruncatedNormal``: fill 64M float32 (1M with
  ``NUMFLOW_BENCH_QUICK=1``) with ``numflow_kernels.cpu.init`` (Philox, TensorFlow's bits, Numba's
  threads), numpy's ``Generator`` into a preallocated array (one thread; ziggurat normals, so
  different values), and TensorFlow's ``tf.random.*`` in eager mode (its intra-op threads; a new
  output tensor per call). All three scale by mean/stddev or minval/maxval as their APIs do.
- ``AssignAdd``: ``a += b`` in place: ``numflow_kernels.cpu.assign.assign_add``, numpy's ``a += b``,
  and a TensorFlow variable's ``assign_add``. Target: numflow within 1.15x of numpy.
- ``FirstCall``: a fresh interpreter importing the kernels and filling 1,000 normals, with Numba's
  cache empty (it compiles) and with the cache this checkout already has (it must only load).
- ``MatMul``: float32 products of the example MLP at batch 1024 (1024x784 by 784x200) and of
  2048x2048 matrices (512 with ``NUMFLOW_BENCH_QUICK=1``): ``numflow_kernels.cpu.matmul`` (one BLAS
  thread per block, blocks fixed by the shapes, so the bits never depend on the threads), numpy's
  ``a @ b`` (BLAS with every thread it wants), and TensorFlow's ``tf.matmul`` in eager mode.
"""

import os
import subprocess
import sys
import tempfile
import threading

import numpy as np

LIBRARIES = ["numflow", "numpy", "tensorflow"]
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
SIZE = (1024 if QUICK else 8192) ** 2
TARGET_ASSIGN_ADD = 1.15

_tf_lock = threading.Lock()
_tf_module = None


def tensorflow():
    """TensorFlow 2 (eager), or NotImplementedError when it is not installed."""
    global _tf_module
    with _tf_lock:
        if _tf_module is None:
            os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
            os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.layers and Keras 2, as TF 1.x programs use them
            try:
                import tensorflow as tf
            except ImportError:
                _tf_module = False
            else:
                _tf_module = tf
    if not _tf_module:
        raise NotImplementedError("tensorflow is not installed")
    return _tf_module


class _Fill:
    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 600
    kernel = numpy_method = tf_function = None

    def setup(self, library):
        self.out = np.empty(SIZE, np.float32)
        if library == "numflow":
            from numflow_kernels.cpu import init

            fill = getattr(init, self.kernel)
            self.run = lambda: fill(self.out, 1, 2)
        elif library == "numpy":
            rng = np.random.default_rng(1)
            method = getattr(rng, self.numpy_method)
            self.run = lambda: method(dtype=np.float32, out=self.out)
        else:
            tf = tensorflow()
            side = int(round(SIZE**0.5))
            fn = getattr(tf.random, self.tf_function)
            self.run = lambda: fn([side, side], dtype=tf.float32, seed=1)
        self.run()  # compile or load kernels, fault the pages in

    def teardown(self, library):
        del self.out, self.run


class RandomNormal(_Fill):
    kernel, numpy_method, tf_function = "random_normal", "standard_normal", "normal"

    def time_fill(self, library):
        self.run()


class RandomUniform(_Fill):
    kernel, numpy_method, tf_function = "random_uniform", "random", "uniform"

    def time_fill(self, library):
        self.run()


class TruncatedNormal(_Fill):
    kernel, tf_function = "truncated_normal", "truncated_normal"

    def setup(self, library):
        if library == "numpy":
            raise NotImplementedError("numpy has no truncated normal")
        super().setup(library)

    def time_fill(self, library):
        self.run()


class AssignAdd:
    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 7
    timeout = 600

    def setup(self, library):
        self.a = np.ones(SIZE, np.float32)
        self.b = np.full(SIZE, 1e-3, np.float32)
        if library == "numflow":
            from numflow_kernels.cpu import assign

            self.run = lambda: assign.assign_add(self.a, self.b)
        elif library == "numpy":
            self.run = lambda: np.add(self.a, self.b, out=self.a)
        else:
            tf = tensorflow()
            variable, delta = tf.Variable(self.a), tf.constant(self.b)
            self.run = lambda: variable.assign_add(delta, read_value=False)
        self.run()

    def teardown(self, library):
        del self.a, self.b, self.run

    def time_assign_add(self, library):
        self.run()


class MatMul:
    params = [LIBRARIES, ["1024x784x200", "square"]]
    param_names = ["library", "shape"]
    repeat = 7

    def setup(self, library, shape):
        side = 512 if QUICK else 2048
        m, k, n = (1024, 784, 200) if shape == "1024x784x200" else (side, side, side)
        rng = np.random.default_rng(0)
        self.a = rng.standard_normal((m, k), dtype=np.float32)
        self.b = rng.standard_normal((k, n), dtype=np.float32)
        if library == "numflow":
            from numflow_kernels import cpu_threads
            from numflow_kernels.cpu import matmul

            self.hold = cpu_threads.one_blas_thread()  # as every run of a session holds it
            self.hold.__enter__()
            self.run = lambda: matmul.matmul(self.a, self.b)
        elif library == "numpy":
            self.hold = None
            self.run = lambda: self.a @ self.b
        else:
            self.hold = None
            tf = tensorflow()
            a, b = tf.constant(self.a), tf.constant(self.b)
            self.run = lambda: tf.matmul(a, b).numpy()
        self.run()

    def teardown(self, library, shape):
        if self.hold is not None:
            self.hold.__exit__(None, None, None)

    def time_matmul(self, library, shape):
        self.run()


_FIRST_CALL = (
    "import numpy as np\n"
    "from numflow_kernels.cpu import init\n"
    "init.random_normal(np.empty(1000, np.float32), 1, 2)\n"
)


class FirstCall:
    params = [["numflow"]]
    param_names = ["library"]
    number = 1
    repeat = 1
    timeout = 600

    def setup(self, library):
        self.root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.run(os.environ)  # make sure this checkout's cache exists

    def run(self, env):
        env = dict(env, PYTHONPATH=os.pathsep.join(filter(None, [self.root, os.environ.get("PYTHONPATH")])))
        subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, check=True, cwd=self.root)

    def time_empty_cache(self, library):
        with tempfile.TemporaryDirectory() as cache:
            self.run(dict(os.environ, NUMBA_CACHE_DIR=cache))

    def time_cached(self, library):
        self.run(os.environ)


def summarize(results):
    """Ratios against numpy and TensorFlow, and the assign_add target."""
    lines = []

    def get(suite, method, library):
        return results.get((suite, method, (), library))

    megs = SIZE // 2**20
    for suite in ("RandomNormal", "RandomUniform", "TruncatedNormal"):
        mine = get(suite, "time_fill", "numflow")
        if mine is None:
            continue
        parts = [f"{suite} {megs}M float32: numflow {mine * 1e3:.0f} ms"]
        for other in ("numpy", "tensorflow"):
            theirs = get(suite, "time_fill", other)
            if theirs:
                parts.append(f"{other} {theirs * 1e3:.0f} ms ({mine / theirs:.2f}x)")
        lines.append(", ".join(parts))
    mine, numpy_time = get("AssignAdd", "time_assign_add", "numflow"), get("AssignAdd", "time_assign_add", "numpy")
    if mine and numpy_time:
        verdict = "meets" if mine <= TARGET_ASSIGN_ADD * numpy_time else "MISSES"
        lines.append(f"assign_add {megs}M float32: numflow {mine * 1e3:.1f} ms, numpy a += b {numpy_time * 1e3:.1f} ms "
                     f"= {mine / numpy_time:.2f}x ({verdict} the <= {TARGET_ASSIGN_ADD}x target)")
    for shape in MatMul.params[1]:
        times = {lib: results.get(("MatMul", "time_matmul", (("shape", shape),), lib)) for lib in LIBRARIES}
        if times["numflow"] and times["numpy"]:
            parts = [f"{lib} {t * 1e3:.2f} ms" for lib, t in times.items() if t]
            lines.append(f"matmul {shape}: " + ", ".join(parts)
                         + f" (numflow's blocks at {times['numpy'] / times['numflow']:.2f}x numpy's speed)")
    cold, warm = get("FirstCall", "time_empty_cache", "numflow"), get("FirstCall", "time_cached", "numflow")
    if cold and warm:
        lines.append(f"first call in a new process: {cold:.1f} s compiling, {warm:.1f} s from Numba's cache")
    return lines


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import run

    run.main(["--filter", r"^bench_kernels\.", *sys.argv[1:]])
