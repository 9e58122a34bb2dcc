"""Summaries: what writing a scalar summary every step adds to a training step.

``ScalarEveryStep`` runs examples/train_mlp.py's training step at batch 64 (as ``bench_train``'s
``TrainingExample``) plainly (``time_step``) and with a ``tf.summary.scalar`` of the loss fetched in
the same run and handed to a ``FileWriter`` at each step (``time_step_with_summary``: the summary
kernel, ``add_summary`` and the writer thread's serializing and writing). ``track_ratio`` times the
two in turn, which a busy machine disturbs less. Target: the ratio under 1.05 for numflow.
TensorFlow's figures are beside them for reference.

Run with the other suites (``python bench/run.py --filter bench_summary``, ``--stat min`` on a busy
machine), or alone: ``python bench/benchmarks/bench_summary.py``.
"""

import os
import shutil
import sys
import tempfile
import time

import numpy as np

try:
    from .bench_session import graph_library
    from .bench_train import example_module
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library
    from bench_train import example_module


class ScalarEveryStep:
    """One training step of the example MLP at batch 64, without and with a scalar summary written."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    repeat = 15

    def setup(self, library):
        tf = graph_library(library)
        example = example_module(tf)
        self.graph = tf.Graph()
        with self.graph.as_default():
            x, y, self.train_op, self.loss, _, _, self.step = example["build"]()
            self.summary = tf.summary.scalar("loss", self.loss)
            init = tf.global_variables_initializer()
            self.logdir = tempfile.mkdtemp(prefix="bench_summary_")
            self.writer = tf.summary.FileWriter(self.logdir)
        self.sess = tf.Session(graph=self.graph)
        self.sess.run(init)
        data_x, data_y = example["make_data"](2048, seed=1)
        rng = np.random.default_rng(0)
        self.feeds = [{x: data_x[b], y: data_y[b]} for b in (rng.integers(0, 2048, 64) for _ in range(64))]
        self.i = 0
        for _ in range(16):
            self.time_step(library)
            self.time_step_with_summary(library)

    def teardown(self, library):
        self.writer.close()
        self.sess.close()
        shutil.rmtree(self.logdir, ignore_errors=True)

    def time_step(self, library):
        self.i = (self.i + 1) % len(self.feeds)
        self.sess.run([self.train_op, self.loss, self.step], self.feeds[self.i])

    def time_step_with_summary(self, library):
        self.i = (self.i + 1) % len(self.feeds)
        _, _, step, summary = self.sess.run([self.train_op, self.loss, self.step, self.summary], self.feeds[self.i])
        self.writer.add_summary(summary, step)

    def track_ratio(self, library):
        """Steps with the summary over plain steps, each the fastest of many blocks of 20 taken in
        turn, so that a change of the machine's load weighs on both alike."""
        best = {self.time_step: float("inf"), self.time_step_with_summary: float("inf")}
        for _ in range(40):
            for fn in best:
                start = time.perf_counter()
                for _ in range(20):
                    fn(library)
                best[fn] = min(best[fn], time.perf_counter() - start)
        return best[self.time_step_with_summary] / best[self.time_step]


def summarize(results):
    """The target: a scalar summary every step adds under 5% to numflow's step."""
    lines = []
    for library in ScalarEveryStep.params[0]:
        plain = results.get(("ScalarEveryStep", "time_step", (), library))
        with_summary = results.get(("ScalarEveryStep", "time_step_with_summary", (), library))
        ratio = results.get(("ScalarEveryStep", "track_ratio", (), library))
        if plain is not None and with_summary is not None and ratio is not None:
            target = " (target < 1.05x)" if library == "numflow" else ""
            lines.append(f"{library}: example MLP step {plain * 1e3:.3f} ms, with a scalar summary written "
                         f"{with_summary * 1e3:.3f} ms; measured in turn: {ratio:.3f}x{target}")
    return lines


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    import run

    run.main(["--filter", "bench_summary", *sys.argv[1:]])
