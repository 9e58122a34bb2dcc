"""CNN training: the Deep MNIST tutorial's training step against TensorFlow's, and its costliest layers
alone against TensorFlow and against numpy's floor.

- ``DeepMnistStep.time_train_step``: one step (forward, backward, Adam) of examples/deep_mnist.py at
  batch 50: 28x28x1 images, 5x5 convolutions of 32 and 64 filters each followed by a 2x2 max pool,
  a 1024-unit dense layer, dropout. The example's own graph code runs on both libraries; the target
  is numflow's steps per second at least TensorFlow's.
- ``LayersCnnStep.time_train_step``: the same network written with ``tf.layers``, its training step with
  and without ``tf.layers.batch_normalization`` after each convolution (the convolutions then have no
  bias; ``training`` is a bool placeholder fed True, the train op runs after ``UPDATE_OPS``). The target
  of the batch-norm net is numflow's steps per second at least TensorFlow's; the difference between its
  two rows is batch normalization's own cost in each library.
- ``Conv2dLayer``: the tutorial's second convolution (50x14x14x32 by 5x5x32x64, SAME), forward
  (``Conv2D``) and backward (``Conv2DBackpropInput`` and ``Conv2DBackpropFilter`` of a fixed
  ``dy``). numpy's floor: the same im2col and matrix products in plain numpy (a strided view
  copied, one ``matmul`` on every core; the input gradient's window adds as 25 strided adds).
- ``MaxPoolLayer``: the first pool (50x28x28x32, 2x2 stride 2), forward and backward
  (``MaxPoolGrad``). numpy's floor: a reshape and a max; the backward as a mask of the maxima
  times the repeated gradient (ties are not split as TensorFlow's are, so it only bounds the cost).

Inputs live in variables in both libraries, so no feed is copied. Run with the other suites
(``python bench/run.py --filter bench_cnn``) or alone, beside TensorFlow::

    PYTHONPATH=/opt/tfenv/lib/python3.11/site-packages .venv/bin/python bench/benchmarks/bench_cnn.py --stat min
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

LIBRARIES = ["numflow", "numpy", "tensorflow"]
BATCH = 50


class _TrainStep:
    """One training step at batch 50 of a network on the Deep MNIST example's synthetic digits."""

    repeat = 15

    def prepare(self, library, build):
        """``build(tf)`` makes the graph in a fresh default graph and returns ``(train op, loss, feed of
        (images, labels))``; the session runs every batch once (compiling, allocating, and letting numflow
        time its two ways of running)."""
        tf = graph_library(library)
        example = example_module(tf, "deep_mnist.py")
        images, labels = example["make_data"](16 * BATCH, seed=1)
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.set_random_seed(1)
            train_step, loss, feed_of = build(tf, example)
            self.train = [train_step, loss]
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=self.graph)
        self.sess.run(init)
        self.feeds = [feed_of(images[i:i + BATCH], labels[i:i + BATCH]) for i in range(0, len(images), BATCH)]
        self.i = 0
        for feed in self.feeds:
            self.sess.run(self.train, feed)

    def teardown(self, *params):
        self.sess.close()

    def time_train_step(self, *params):
        self.i = (self.i + 1) % len(self.feeds)
        self.sess.run(self.train, self.feeds[self.i])


class DeepMnistStep(_TrainStep):
    """One training step of the Deep MNIST tutorial's CNN at batch 50."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]

    def setup(self, library):
        def build(tf, example):
            x, y_, keep_prob, train_step, loss, _ = example["build"]()
            return train_step, loss, lambda images, labels: {x: images, y_: labels, keep_prob: 0.5}

        self.prepare(library, build)


def layers_cnn(tf, x, is_training, batch_norm):
    """The Deep MNIST network written with tf.layers; with ``batch_norm``, batch normalization after each
    convolution. Returns the logits."""
    net = tf.reshape(x, [-1, 28, 28, 1])
    for filters in (32, 64):
        net = tf.layers.conv2d(net, filters, 5, padding="same", use_bias=not batch_norm)
        if batch_norm:
            net = tf.layers.batch_normalization(net, training=is_training)
        net = tf.layers.max_pooling2d(tf.nn.relu(net), 2, 2)
    net = tf.layers.dense(tf.layers.flatten(net), 1024, activation=tf.nn.relu)
    net = tf.layers.dropout(net, rate=0.5, training=is_training)
    return tf.layers.dense(net, 10)


class LayersCnnStep(_TrainStep):
    """One training step of the tf.layers CNN at batch 50, with batch norm (``bn``) or without (``plain``)."""

    params = [["numflow", "tensorflow"], ["bn", "plain"]]
    param_names = ["library", "net"]

    def setup(self, library, net):
        def build(tf, example):
            x = tf.placeholder(tf.float32, [None, 784])
            y_ = tf.placeholder(tf.float32, [None, 10])
            is_training = tf.placeholder(tf.bool, [])
            logits = layers_cnn(tf, x, is_training, batch_norm=net == "bn")
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                train_step = tf.train.AdamOptimizer(1e-4).minimize(loss)
            return train_step, loss, lambda images, labels: {x: images, y_: labels, is_training: True}

        self.prepare(library, build)


class _Layer:
    """A layer's forward and backward ops on variables, or their numpy floor."""

    params = [LIBRARIES]
    param_names = ["library"]
    repeat = 15

    def setup(self, library):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal(self.x_shape, dtype=np.float32)
        self.sess = None
        if library == "numpy":
            self.numpy_setup(rng)
            return
        tf = graph_library(library)
        self.graph = tf.Graph()
        with self.graph.as_default():
            x = tf.Variable(self.x)
            out = self.forward_op(tf, x, rng)
            dy = tf.Variable(rng.standard_normal(out.shape.as_list(), dtype=np.float32))
            self.forward = out.op
            self.backward = [t.op for t in self.backward_ops(tf, x, out, dy)]
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=self.graph)
        self.sess.run(init)
        for _ in range(3):
            self.sess.run(self.forward)
            self.sess.run(self.backward)

    def teardown(self, library):
        if self.sess is not None:
            self.sess.close()

    def run_forward(self):
        if self.sess is None:
            self.numpy_forward()
        else:
            self.sess.run(self.forward)

    def run_backward(self):
        if self.sess is None:
            self.numpy_backward()
        else:
            self.sess.run(self.backward)


class Conv2dLayer(_Layer):
    """The tutorial's second convolution: 50x14x14x32 by 5x5x32x64, stride 1, SAME."""

    x_shape = (BATCH, 14, 14, 32)
    w_shape = (5, 5, 32, 64)

    def time_forward(self, library):
        self.run_forward()

    def time_backward(self, library):
        self.run_backward()

    def forward_op(self, tf, x, rng):
        self.w = tf.Variable(rng.standard_normal(self.w_shape, dtype=np.float32) * 0.1)
        return tf.nn.conv2d(x, self.w, [1, 1, 1, 1], "SAME")

    def backward_ops(self, tf, x, out, dy):
        return [tf.nn.conv2d_backprop_input(list(self.x_shape), self.w, dy, [1, 1, 1, 1], "SAME"),
                tf.nn.conv2d_backprop_filter(x, list(self.w_shape), dy, [1, 1, 1, 1], "SAME")]

    def numpy_setup(self, rng):
        self.w2 = (rng.standard_normal(self.w_shape, dtype=np.float32) * 0.1).reshape(-1, self.w_shape[3])
        self.padded = np.pad(self.x, ((0, 0), (2, 2), (2, 2), (0, 0)))
        self.dy2 = rng.standard_normal((BATCH * 14 * 14, self.w_shape[3]), dtype=np.float32)

    def _patches(self):
        s0, s1, s2, s3 = self.padded.strides
        view = np.lib.stride_tricks.as_strided(self.padded, (BATCH, 14, 14, 5, 5, 32), (s0, s1, s2, s1, s2, s3))
        return np.ascontiguousarray(view).reshape(BATCH * 14 * 14, -1)

    def numpy_forward(self):
        return self._patches() @ self.w2

    def numpy_backward(self):
        dw = self._patches().T @ self.dy2
        cols = (self.dy2 @ self.w2.T).reshape(BATCH, 14, 14, 5, 5, 32)
        dx = np.zeros_like(self.padded)
        for i in range(5):
            for j in range(5):
                dx[:, i:i + 14, j:j + 14] += cols[:, :, :, i, j]
        return dw, dx


class MaxPoolLayer(_Layer):
    """The tutorial's first pool: 50x28x28x32, 2x2, stride 2, SAME."""

    x_shape = (BATCH, 28, 28, 32)

    def time_forward(self, library):
        self.run_forward()

    def time_backward(self, library):
        self.run_backward()

    def forward_op(self, tf, x, rng):
        return tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")

    def backward_ops(self, tf, x, out, dy):
        return tf.gradients(out, x, grad_ys=dy)

    def numpy_setup(self, rng):
        self.dy = rng.standard_normal((BATCH, 14, 14, 32), dtype=np.float32)

    def numpy_forward(self):
        return self.x.reshape(BATCH, 14, 2, 14, 2, 32).max(axis=(2, 4))

    def numpy_backward(self):
        top = self.numpy_forward()[:, :, None, :, None, :]
        hit = self.x.reshape(BATCH, 14, 2, 14, 2, 32) == top
        return (hit * self.dy[:, :, None, :, None, :]).reshape(self.x.shape)


def summarize(results):
    """The target (the tutorial's training steps per second against TensorFlow's) and the layers' ratios."""
    lines = []
    ours = results.get(("DeepMnistStep", "time_train_step", (), "numflow"))
    theirs = results.get(("DeepMnistStep", "time_train_step", (), "tensorflow"))
    if ours is not None and theirs is not None:
        lines.append(f"Deep MNIST training step at batch {BATCH}: numflow {ours * 1e3:.1f} ms, TensorFlow "
                     f"{theirs * 1e3:.1f} ms: {theirs / ours:.2f}x TensorFlow's steps per second (target >= 1.0x)")
    step = {(lib, net): results.get(("LayersCnnStep", "time_train_step", (("net", net),), lib))
            for lib in ("numflow", "tensorflow") for net in ("bn", "plain")}
    if None not in step.values():
        ours, theirs = step["numflow", "bn"], step["tensorflow", "bn"]
        lines.append(f"tf.layers CNN with batch norm, training step at batch {BATCH}: numflow {ours * 1e3:.1f} ms, "
                     f"TensorFlow {theirs * 1e3:.1f} ms: {theirs / ours:.2f}x TensorFlow's steps per second "
                     f"(target >= 1.0x); batch norm's own cost: numflow "
                     f"{(ours - step['numflow', 'plain']) * 1e3:.1f} ms, TensorFlow "
                     f"{(theirs - step['tensorflow', 'plain']) * 1e3:.1f} ms")
    for suite in ("Conv2dLayer", "MaxPoolLayer"):
        for method in ("time_forward", "time_backward"):
            ours = results.get((suite, method, (), "numflow"))
            if ours is None:
                continue
            parts = [f"{suite} {method[5:]}: numflow {ours * 1e3:.2f} ms"]
            for library in ("tensorflow", "numpy"):
                other = results.get((suite, method, (), library))
                if other is not None:
                    parts.append(f"{library} {other * 1e3:.2f} ms ({other / ours:.2f}x numflow's speed)")
            lines.append(", ".join(parts))
    return lines


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    import run

    run.main(["--filter", "bench_cnn", *sys.argv[1:]])
