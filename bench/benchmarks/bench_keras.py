"""Keras in TF1 mode: one epoch of ``model.fit`` and one ``predict`` of a small MLP classifier, numflow against
tf-keras' v1 loops in TensorFlow.

- ``KerasFit.time_epoch``: one epoch of ``fit`` (verbose 0, shuffled) of a 64-128-64-10 MLP with dropout,
  Adam and categorical cross entropy with accuracy, on 2048 examples in batches of 64 (32 training steps,
  each a ``Session.run`` of the loss, the metric and the updates in the Keras session, plus the loop's
  numpy slicing). The target: numflow's epochs per second at least TensorFlow's.
- ``KerasFit.time_predict``: ``predict`` of the 2048 examples (batches of 32).
- ``KerasLSTM.time_epoch``: one epoch of ``fit`` of a text classifier: Embedding(1000, 32, mask_zero) ->
  LSTM(32) -> Dense(1, sigmoid), Adam and binary cross entropy, on 512 padded sequences of 40 ids in batches
  of 32 (16 steps, each a while loop of 40 LSTM steps and its gradient loop). The target: numflow's epochs per
  second at least TensorFlow's.
- ``KerasLSTM.time_predict``: ``predict`` of the 512 sequences. Minimum of 5-7 runs on the 2-core machine
  at load 0.7-1: epoch 361 ms against TensorFlow's 176 ms, predict 84 ms against 38 ms; with the kernel
  and bias gradients summed after the loop and the cell's weights split by gate once per loop (not per
  step): epoch 340-345 ms against 163-174 ms, predict 71-73 ms against 37-38 ms. The cell is TensorFlow
  1.x's (eight products and about 50 ops a step): numflow's step runs at 2-3 us an op, TensorFlow's at
  about 1.3 us. With the loops' steps as straight code (no walk over step objects) and cheaper small
  kernels (products straight to numpy, SelectV2 and ZerosLike without numpy's wrappers, a gradient
  already of its operand's shape passed on as it is): epoch 209-230 ms against 187-225 ms, predict
  47.5-49.5 ms against 40-45 ms (load 0.4-0.9).

Run with the other suites (``python bench/run.py --filter bench_keras``) or beside TensorFlow::

    PYTHONPATH=/opt/tfenv/lib/python3.11/site-packages .venv/bin/python bench/run.py \\
        --filter bench_keras --stat min
"""

import os

import numpy as np

try:
    from .bench_session import graph_library
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library

EXAMPLES = 256 if os.environ.get("NUMFLOW_BENCH_QUICK") else 2048


class KerasFit:
    """One epoch of fit, and one predict, of a small MLP."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    repeat = 7

    def setup(self, library):
        tf = graph_library(library)
        keras = tf.keras
        rng = np.random.RandomState(0)
        self.x = rng.rand(EXAMPLES, 64).astype(np.float32)
        self.y = keras.utils.to_categorical(rng.randint(0, 10, EXAMPLES), 10)
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.set_random_seed(1)
            self.model = keras.Sequential([keras.layers.Dense(128, activation="relu", input_shape=(64,)),
                                           keras.layers.Dropout(0.2), keras.layers.Dense(64, activation="relu"),
                                           keras.layers.Dense(10, activation="softmax")])
            self.model.compile("adam", "categorical_crossentropy", metrics=["accuracy"])
            self.model.fit(self.x, self.y, batch_size=64, epochs=1, verbose=0)  # builds, compiles, warms
            self.model.predict(self.x)

    def time_epoch(self, library):
        with self.graph.as_default():
            self.model.fit(self.x, self.y, batch_size=64, epochs=1, verbose=0)

    def time_predict(self, library):
        with self.graph.as_default():
            self.model.predict(self.x)


class KerasLSTM:
    """One epoch of fit, and one predict, of an Embedding-LSTM text classifier on masked, padded ids."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    repeat = 5

    def setup(self, library):
        tf = graph_library(library)
        keras = tf.keras
        rng = np.random.RandomState(0)
        examples = EXAMPLES // 4
        lengths = rng.randint(5, 41, examples)
        self.x = keras.preprocessing.sequence.pad_sequences([rng.randint(1, 1000, n) for n in lengths], maxlen=40)
        self.y = (lengths > 20).astype(np.float32)
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.set_random_seed(1)
            self.model = keras.Sequential([keras.layers.Embedding(1000, 32, mask_zero=True, input_length=40),
                                           keras.layers.LSTM(32), keras.layers.Dense(1, activation="sigmoid")])
            self.model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
            self.model.fit(self.x, self.y, batch_size=32, epochs=1, verbose=0)  # builds, compiles, warms
            self.model.predict(self.x)

    def time_epoch(self, library):
        with self.graph.as_default():
            self.model.fit(self.x, self.y, batch_size=32, epochs=1, verbose=0)

    def time_predict(self, library):
        with self.graph.as_default():
            self.model.predict(self.x)
