"""Input pipelines: the example MLP (examples/train_mlp.py) trained from a tf.data pipeline against the
same model fed numpy batches through ``feed_dict``, on numflow and on TensorFlow in the same run.

- ``InputPipeline.time_train_step``: one training step at batch 64. ``feed="feed_dict"``: 64 random
  rows picked from numpy arrays and fed to placeholders, as the example does in each step; ``feed="dataset"``:
  ``from_tensor_slices((x, y)).shuffle(10000).repeat().batch(64).prefetch(1)`` read by a one-shot
  iterator inside the step (the shuffle, the 64 slices and their stacking are part of the step).
  The target: numflow's dataset step within 1.25x of its feed_dict step.
- ``InputPipeline.time_next_batch``: the pipeline alone, one ``get_next`` of a batch of 64.

Run with the other suites (``python bench/run.py --filter bench_data``), with asv, or alone:
``python bench/benchmarks/bench_data.py``.
"""

import os
import sys

import numpy as np

try:
    from .bench_session import graph_library
    from .bench_train import example_module
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library
    from bench_train import example_module

BATCH = 64
ROWS = 20000


class InputPipeline:
    """One training step of the example MLP, fed by feed_dict or by a tf.data pipeline."""

    params = [["numflow", "tensorflow"], ["feed_dict", "dataset"]]
    param_names = ["library", "feed"]

    def setup(self, library, feed):
        tf = graph_library(library)
        example = example_module(tf)
        data_x, data_y = example["make_data"](ROWS, seed=1)
        self.graph = tf.Graph()
        with self.graph.as_default():
            if feed == "dataset":
                ds = tf.data.Dataset.from_tensor_slices((data_x, data_y))
                ds = ds.shuffle(10000, seed=1).repeat().batch(BATCH).prefetch(1)
                x, y = tf.data.make_one_shot_iterator(ds).get_next()
                self.next_batch = (x, y)
            else:
                x = tf.placeholder(tf.float32, [None, 784], name="x")
                y = tf.placeholder(tf.int64, [None], name="y")
            with tf.variable_scope("model"):
                loss = example["loss_of"](example["mlp"](x), y)
            self.train = [tf.train.AdamOptimizer(1e-3).minimize(loss), loss]
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=self.graph)
        self.sess.run(init)
        self.rng = np.random.default_rng(0)
        self.placeholders = (x, y) if feed == "feed_dict" else None
        self.data = data_x, data_y
        for _ in range(16):
            self.time_train_step(library, feed)

    def teardown(self, library, feed):
        self.sess.close()

    def time_train_step(self, library, feed):
        if self.placeholders is None:
            self.sess.run(self.train)
            return
        rows = self.rng.integers(0, ROWS, BATCH)
        x, y = self.placeholders
        self.sess.run(self.train, {x: self.data[0][rows], y: self.data[1][rows]})

    def time_next_batch(self, library, feed):
        if feed != "dataset":
            raise NotImplementedError
        self.sess.run(self.next_batch)


def summarize(results):
    """The pipeline's step against the feed_dict step, and each against TensorFlow's."""
    lines = []
    step = {(lib, feed): results.get(("InputPipeline", "time_train_step", (("feed", feed),), lib))
            for lib in ("numflow", "tensorflow") for feed in ("feed_dict", "dataset")}
    for lib in ("numflow", "tensorflow"):
        fed, piped = step[(lib, "feed_dict")], step[(lib, "dataset")]
        if fed is not None and piped is not None:
            target = " (target <= 1.25x)" if lib == "numflow" else ""
            lines.append(f"{lib}: MLP step fed by tf.data {piped * 1e3:.2f} ms, by feed_dict {fed * 1e3:.2f} ms: "
                         f"{piped / fed:.2f}x{target}")
    for feed in ("feed_dict", "dataset"):
        ours, theirs = step[("numflow", feed)], step[("tensorflow", feed)]
        if ours is not None and theirs is not None:
            lines.append(f"{feed}: numflow {ours * 1e3:.2f} ms, TensorFlow {theirs * 1e3:.2f} ms per step: "
                         f"{theirs / ours:.2f}x TensorFlow's steps per second")
    return lines


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    import run

    run.main(["--filter", "bench_data", *sys.argv[1:]])
