"""Control flow: a while loop's cost per iteration, an LSTM's training step, and a cond inside the example
MLP, numflow beside TensorFlow in the same run.

- ``EmptyLoop.time_run``: one ``sess.run`` of ``tf.while_loop(lambda i: i < 10000, lambda i: i + 1, [0])``
  (the target: numflow's time per iteration at most TensorFlow's). On the 2-core development machine
  (shared, load 3-15, minimum of 15 runs): numflow 3.1-3.2 us per iteration of CPU time before its
  loops ran prepared runners and one-ufunc kernels returned arrays by ``out=...``, 1.31-1.38 us after;
  TensorFlow 1.43 us (CPU time; 1.43 us of wall time at load 3). With the condition and body as
  straight code: 1.15 us of wall time against TensorFlow's 1.45 us (load 0.5).
- ``LstmTraining.time_train_step``: one step (forward, backward, Adam) of a ``dynamic_rnn`` over a
  BasicLSTMCell of 128 units, 50 time steps, batch 32, inputs of 64 features fed each step, a linear
  read-out of every output and a mean squared error (the target: at least TensorFlow's steps/s).
  ``track_mean_step``: the same step's mean over a loop of 128 steps, slow ones included.
  Same machine, minimum of 25 steps' process CPU time: numflow 34.1 ms before cheaper float-error
  states, ufunc calls and Split, 30.2-33.5 ms after (noisy, load 12-15); TensorFlow 21.1 ms. The 150
  matrix products are ~16 ms of it; the target is still missed. Minimum of 80 steps' process CPU
  time, three rounds at load 10-12: numflow 29.0-36.7 ms before the loops quieted float errors once,
  summed their accumulators in place and read captured variables once per run, and MatMul swapped
  its short transposed products and multiplied its outer products; 24.8-26.2 ms after; TensorFlow
  19.0-19.4 ms on one thread, 20.9-21.6 ms on its own threads. On one core the products are near
  the core's peak (77-83 us each, 2 x 3.1 M flops); numflow's other 2,700 kernels of a step cost
  1.5-7 us each against TensorFlow's 2-4 us. Minimum of 10-15 steps' wall time on a quiet machine (load
  0.7-1.1): numflow 25.5 ms, TensorFlow 17.5 ms; then 21.5 ms (TensorFlow 16.6) once the loop's
  gradient of the kernel and bias became one product and one sum over the 50 steps' rows, after the
  loop (the products of 32 rows took 90-97 us each, the one of 1,600 rows 1.75 ms on two cores);
  20.2 ms (TensorFlow 16.5) with Sigmoid over one array. TensorFlow's trace shows where it gains:
  its kernels are no faster (its products 65-132 us), but its executor runs the 50 weight-gradient
  products and their sums beside the recurrence on the second core. The same step was 18.8-20.9 ms
  against TensorFlow's 16.2-17.3 ms (load 0.3-0.9; one run at 18.9 against 22.7) once the loops ran
  their steps as straight code and a session fixed glibc's heap thresholds: before that, about half
  of the processes faulted 1,690 pages (7 MiB) in every step, at 22-25 ms. The mean over 128 steps
  was 20.4-21.5 ms against TensorFlow's 18.7-22.1 ms. Of the step, the 100 products in the two loops
  take 8.6 ms and the weight gradient after the loop 2.4 ms; the forward loop's other kernels about
  68 us an iteration, the backward loop's 69 us. Once Sigmoid's loops vectorized (3.1 us for 4,096
  floats, from 5.6-7.3) and medium products were shared with a helper thread spinning between them
  (``numflow_kernels/cpu/gemm_blocks.py``: the forward product 34-35 us from 80, the backward one
  52-62 us from 88-108), the step took 15.1-16.2 ms against TensorFlow's 17.2-20.6 ms (1.14-1.31x its
  steps per second, four runs at load about 1), the mean over 128 steps 16.5-20.6 ms against
  18.6-20.9 ms. In separate processes, each warmed up as here: 14.7-16.9 ms, against 19.1-19.3 ms for
  the code before (0844a1e), in alternate runs. Steps vary from process to process on this machine
  (15-19 ms in runs minutes apart, for the old code as for the new), so single runs compare only
  beside each other. The step's runs the other way (ops on the pool, kernels on one thread each:
  21-22 ms), one in every 32 as the executor probes it, add about 0.2 ms to the mean.
- ``CondSwitch.time_train_step``: the example MLP's training step (examples/train_mlp.py, batch 64), its
  layers built by the example's own code, plain or with the hidden layer's output chosen by
  ``tf.cond(is_training, lambda: h, lambda: h * 1.0)`` (a train/eval switch; ``is_training`` a
  placeholder defaulting to True).
  The target: the cond costs under 5% of numflow's step. With the shared products the MLP's step
  (0.65-0.75 ms) varied more, and its plan ran the slower way more often, until the helper gave its
  core away while idle and a way was judged by its last 6 runs; then, at 61 samples: +0.7%, +2.1%,
  and -12.2% in a run whose plain steps were the slow ones (TensorFlow: -15.4% to +16.4%).

TensorFlow's graphs are built as a ``tensorflow.compat.v1`` program with ``disable_v2_behavior()`` gets
them: with TensorFlow 1's control flow (Switch, Merge, Enter, Exit, NextIteration), which the suite
turns on while it builds them and restores after. Its cells are those of TF's legacy Keras
(``TF_USE_LEGACY_KERAS=1``, set where the suites import TensorFlow). ``NUMFLOW_BENCH_QUICK=1``
shrinks the loop to 1,000 iterations and the LSTM to 10 time steps.
"""

import os
import sys

import numpy as np

try:
    from .bench_session import graph_library
    from .bench_train import TrainingExample
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library
    from bench_train import TrainingExample

QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
ITERATIONS = 1000 if QUICK else 10_000
UNITS, STEPS, BATCH, FEATURES = 128, (10 if QUICK else 50), 32, 64
LIBRARIES = ["numflow", "tensorflow"]
WARM_UP = 12
MEAN_STEPS = 32 if QUICK else 128  # four of the executor's shortest probe intervals


class _TensorFlow1ControlFlow:
    """While building TensorFlow's graph: its version 1 control flow, as disable_v2_behavior() sets it."""

    def __init__(self, tf, library):
        self._toggles = tf.compat.v1 if library == "tensorflow" and hasattr(tf, "compat") else None

    def __enter__(self):
        if self._toggles is not None:
            self._was_v2 = self._toggles.control_flow_v2_enabled()
            self._toggles.disable_control_flow_v2()

    def __exit__(self, *exc):
        if self._toggles is not None and self._was_v2:
            self._toggles.enable_control_flow_v2()


def _v1(tf):
    return tf.compat.v1 if hasattr(tf, "compat") else tf


class EmptyLoop:
    """A while loop whose body adds one: what one iteration costs."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 7

    def setup(self, library):
        tf = graph_library(library)
        self.graph = tf.Graph()
        with self.graph.as_default(), _TensorFlow1ControlFlow(tf, library):
            self.loop = _v1(tf).while_loop(lambda i: i < ITERATIONS, lambda i: i + 1, [0])
        self.sess = _v1(tf).Session(graph=self.graph)
        assert self.sess.run(self.loop) == ITERATIONS

    def teardown(self, library):
        self.sess.close()

    def time_run(self, library):
        self.sess.run(self.loop)


def lstm_model(tf, library):
    """The LSTM benchmark's graph: ``(inputs, targets, train_op, loss)``."""
    v1 = _v1(tf)
    x = v1.placeholder(tf.float32, [BATCH, STEPS, FEATURES], name="x")
    y = v1.placeholder(tf.float32, [BATCH, STEPS, 1], name="y")
    with _TensorFlow1ControlFlow(tf, library):
        outputs, _ = v1.nn.dynamic_rnn(v1.nn.rnn_cell.BasicLSTMCell(UNITS), x, dtype=tf.float32)
        w = v1.get_variable("readout", [UNITS, 1], initializer=v1.glorot_uniform_initializer(seed=1))
        predictions = tf.reshape(tf.matmul(tf.reshape(outputs, [-1, UNITS]), w), [BATCH, STEPS, 1])
        loss = tf.reduce_mean(tf.square(predictions - y))
        train = v1.train.AdamOptimizer(1e-3).minimize(loss)
    return x, y, train, loss


class LstmTraining:
    """Forward, backward and Adam through dynamic_rnn of a 128-unit LSTM over 50 steps, batch 32."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 9

    def setup(self, library):
        tf = graph_library(library)
        self.graph = tf.Graph()
        with self.graph.as_default():
            x, y, self.train, self.loss = lstm_model(tf, library)
            init = _v1(tf).global_variables_initializer()
        self.sess = _v1(tf).Session(graph=self.graph)
        self.sess.run(init)
        rng = np.random.default_rng(0)
        self.feeds = [{x: rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32),
                       y: rng.standard_normal((BATCH, STEPS, 1)).astype(np.float32)} for _ in range(4)]
        self.i = 0
        for i in range(WARM_UP):  # numflow's executor times its ways of running a plan over the first runs
            self.sess.run([self.train, self.loss], self.feeds[i % len(self.feeds)])

    def teardown(self, library):
        self.sess.close()

    def time_train_step(self, library):
        self.i = (self.i + 1) % len(self.feeds)
        self.sess.run([self.train, self.loss], self.feeds[self.i])

    def track_mean_step(self, library):
        """The mean step of a loop of MEAN_STEPS steps, in ms: what a training loop's steps average,
        numflow's runs of its slower way (to see whether it got faster) included."""
        import time

        start = time.perf_counter()
        for _ in range(MEAN_STEPS):
            self.time_train_step(library)
        return (time.perf_counter() - start) / MEAN_STEPS * 1e3

    track_mean_step.unit = " ms"


class CondSwitch(TrainingExample):
    """The example MLP's training step, with and without a tf.cond train/eval switch in its model."""

    params = [LIBRARIES, ["plain", "cond"]]
    param_names = ["library", "model"]
    # One step per sample: numflow's executor now and then times its other way of running a plan, a
    # sample of many steps would hold one.
    number = 1
    repeat = 61

    def setup(self, library, model):
        self.library, self.model = library, model
        super().setup(library, 64)

    def _example(self, tf):
        example = super()._example(tf)
        if self.model == "plain":
            return example
        v1, dense, library = _v1(tf), example["dense"], self.library

        def mlp(x):
            is_training = v1.placeholder_with_default(True, [], name="is_training")
            with v1.variable_scope("hidden"):
                h = dense(x, 200, tf.nn.relu)
            with _TensorFlow1ControlFlow(tf, library):
                h = v1.cond(is_training, lambda: h, lambda: h * 1.0)
            with v1.variable_scope("logits"):
                return dense(h, 10)

        example["mlp"] = mlp
        return example

    def teardown(self, library, model):
        super().teardown(library, 64)

    def time_train_step(self, library, model):
        super().time_train_step(library, 64)


def summarize(results):
    """The targets: per-iteration cost of a loop, LSTM steps per second, the cond's share of the MLP step."""
    lines = []
    ours, theirs = (results.get(("EmptyLoop", "time_run", (), lib)) for lib in LIBRARIES)
    if ours is not None and theirs is not None:
        lines.append(f"empty while_loop: numflow {ours / ITERATIONS * 1e6:.2f} us per iteration, TensorFlow "
                     f"{theirs / ITERATIONS * 1e6:.2f} us (target: numflow <= TensorFlow)")
    ours, theirs = (results.get(("LstmTraining", "time_train_step", (), lib)) for lib in LIBRARIES)
    if ours is not None and theirs is not None:
        lines.append(f"dynamic_rnn LSTM training step: numflow {ours * 1e3:.1f} ms, TensorFlow {theirs * 1e3:.1f} ms: "
                     f"{theirs / ours:.2f}x TensorFlow's steps per second (target >= 1.0x)")
    for lib in LIBRARIES:
        plain = results.get(("CondSwitch", "time_train_step", (("model", "plain"),), lib))
        switched = results.get(("CondSwitch", "time_train_step", (("model", "cond"),), lib))
        if plain is not None and switched is not None:
            target = " (target < 5%)" if lib == "numflow" else ""
            lines.append(f"tf.cond train/eval switch in the example MLP ({lib}): {plain * 1e3:.3f} ms plain, "
                         f"{switched * 1e3:.3f} ms with the cond: {(switched / plain - 1) * 100:+.1f}%{target}")
    return lines


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    import run

    run.main(["--filter", "bench_control_flow", *sys.argv[1:]])
