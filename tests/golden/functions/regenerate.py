"""Regenerate the goldens of graphs holding functions: control flow and tf.data, as TensorFlow 2.21's
compat.v1 writes them with control flow v2 (``If``, ``Case``, ``While`` and their ``Stateless`` forms,
their branches and bodies FunctionDefs of the graph's library; dataset ops naming theirs in func attrs).

Run with a Python that has TensorFlow (2.x, through ``tensorflow.compat.v1`` in graph mode)::

    /opt/tfenv/bin/python tests/golden/functions/regenerate.py

It rewrites, beside this file:

- ``control_flow/model.meta`` and the checkpoint ``control_flow/model``: the graph of
  :func:`build_control_flow` (tf.cond, tf.case, switch_case, while_loop, map_fn, scan, dynamic_rnn
  and their gradients), saved after one training step; ``control_flow.json`` holds its outputs
  (``OUTPUTS``, in the order of the ``outputs`` collection) for each feed of ``FEEDS``, then the
  loss of two more steps;
- ``control_flow.pb``: the GraphDef of :func:`build_pure` (no variables), ``pure.json`` its outputs.

``tests/framework/test_function_graphs.py`` builds the same graphs with numflow (this module imports
TensorFlow only in ``main``).
"""

import json
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL_DIR = os.path.join(HERE, "control_flow")
X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
FEEDS = [{"x:0": X, "flag:0": True, "index:0": 0}, {"x:0": X, "flag:0": False, "index:0": 2}]


def build_control_flow(tf):
    """Control flow over a trained variable: each kind of cond and loop, their gradients, a train op.
    Adds the tensors to check to the ``outputs`` collection and the train op to ``train_op``."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    index = tf.placeholder(tf.int32, [], name="index")
    w = tf.Variable([[0.5, -0.25, 1.0], [0.75, 0.5, -0.5]], name="w")
    chosen = tf.cond(flag, lambda: tf.sin(x * w), lambda: tf.square(x - w), name="chosen")
    cased = tf.case([(tf.equal(index, 0), lambda: x + w), (tf.equal(index, 1), lambda: x * 2.0)],
                    default=lambda: tf.exp(w) - x, name="cased")
    switched = tf.switch_case(index, [lambda: w * 3.0, lambda: x - 1.0, lambda: tf.tanh(x * w)], name="switched")

    def body(i, acc):
        return i + 1, tf.cond(i < 2, lambda: acc * w + x, lambda: tf.sin(acc) - w)

    _, looped = tf.while_loop(lambda i, acc: i < 4, body, [tf.constant(0), x], name="looped")
    _, bounded = tf.while_loop(lambda i, acc: tf.reduce_sum(acc) < 100.0, lambda i, acc: (i + 1, acc * 2.0 + w),
                               [tf.constant(0), tf.ones([2, 3])], maximum_iterations=3, name="bounded")
    mapped = tf.map_fn(lambda row: tf.reduce_sum(row * w[0]) + row, x, name="mapped")
    scanned = tf.scan(lambda acc, row: acc * 0.5 + row * w[1], x, name="scanned")
    rnn_out, rnn_state = tf.nn.dynamic_rnn(_cell(tf, w), tf.reshape(x, [1, 2, 3]), dtype=tf.float32, scope="rnn")
    loss = tf.add_n([tf.reduce_sum(chosen), tf.reduce_sum(cased), tf.reduce_sum(switched), tf.reduce_sum(looped),
                     tf.reduce_sum(bounded), tf.reduce_sum(mapped), tf.reduce_sum(scanned),
                     tf.reduce_sum(rnn_out), tf.reduce_sum(rnn_state)], name="loss")
    grads = tf.gradients(loss, [x, w])
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    for t in [chosen, cased, switched, looped, bounded, mapped, scanned, rnn_out, rnn_state, loss, *grads]:
        tf.add_to_collection("outputs", t)
    tf.add_to_collection("train_op", train)
    return train, loss, tf.train.Saver()


def _cell(tf, w):
    """An RNN cell over the variable ``w``: ``tanh(input * w[0] + state * w[1])``."""

    class Cell(tf.nn.rnn_cell.RNNCell):
        @property
        def state_size(self):
            return 3

        @property
        def output_size(self):
            return 3

        def call(self, inputs, state):
            out = tf.tanh(inputs * w[0] + state * w[1])
            return out, out

    return Cell()


def build_pure(tf):
    """Control flow without variables (a GraphDef of its own): nested loops and conds, a bounded loop."""
    x = tf.placeholder(tf.float32, [3], name="x")

    def outer(i, acc):
        _, inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + tf.cast(j, tf.float32)), [0, acc])
        return i + 1, tf.cond(tf.reduce_sum(inner) > 10.0, lambda: inner * 0.5, lambda: inner + x)

    _, nested = tf.while_loop(lambda i, acc: i < 4, outer, [tf.constant(1), x], name="nested")
    tf.identity(nested, name="nested_out")
    counted = tf.while_loop(lambda k: k < 100, lambda k: k * 2 + 1, [tf.constant(1)], maximum_iterations=5)
    tf.identity(counted, name="counted_out")
    grad = tf.gradients(tf.reduce_sum(nested), x)[0]
    tf.identity(grad, name="grad_out")


PURE_OUTPUTS = ["nested_out:0", "counted_out:0", "grad_out:0"]
PURE_X = [0.5, 2.0, -1.0]


def _save_control_flow(tf):
    graph = tf.Graph()
    with graph.as_default():
        train, loss, saver = build_control_flow(tf)
        outputs = tf.get_collection("outputs")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, FEEDS[0])
            shutil.rmtree(MODEL_DIR, ignore_errors=True)
            saver.save(sess, os.path.join(MODEL_DIR, "model"), write_state=False)
            record = {"outputs": [[sess.run(t, feed).tolist() for t in outputs] for feed in FEEDS],
                      "losses": [float(sess.run([train, loss], FEEDS[1])[1]) for _ in range(2)]}
    with open(os.path.join(HERE, "control_flow.json"), "w") as f:
        json.dump(record, f, indent=1)


def _save_pure(tf):
    graph = tf.Graph()
    with graph.as_default():
        build_pure(tf)
        with tf.Session() as sess:
            values = sess.run(PURE_OUTPUTS, {"x:0": PURE_X})
    with open(os.path.join(HERE, "control_flow.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    with open(os.path.join(HERE, "pure.json"), "w") as f:
        json.dump([np.asarray(v).tolist() for v in values], f, indent=1)


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.nn.rnn_cell needs tf-keras
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    tf.enable_control_flow_v2()
    tf.disable_resource_variables()  # numflow's variables are TensorFlow 1's reference variables
    _save_control_flow(tf)
    _save_pure(tf)
    print(f"wrote the goldens to {HERE}")


if __name__ == "__main__":
    main()
