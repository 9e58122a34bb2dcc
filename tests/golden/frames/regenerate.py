"""Regenerate the goldens of graphs holding TensorFlow 1's control flow frames (Switch, Merge, Enter,
Exit, NextIteration, LoopCond), as TensorFlow 2.21's compat.v1 writes tf.cond and tf.while_loop by
default (control flow v1), with the MetaGraph's ``cond_context`` and ``while_context`` collections.

Run with a Python that has TensorFlow (2.x, through ``tensorflow.compat.v1`` in graph mode)::

    /opt/tfenv/bin/python tests/golden/frames/regenerate.py

It rewrites, beside this file, for each model of ``MODELS`` (``batch_norm``: a dense layer and
tf.layers.batch_normalization switched by a ``training`` placeholder; ``counter``: a tf.while_loop
counter and accumulator over a variable; ``lstm``: tf.nn.dynamic_rnn over an LSTM cell,
fed batches of two sizes; ``mixed``: a
cond over a variable, a loop with a cond in its body, map_fn, and a GRU's dynamic_rnn with sequence
lengths, with the gradients of the loss):

- ``<model>/model.meta`` and the checkpoint ``<model>/model``, saved before any training step;
- ``<model>/frozen.pb``: the model's GraphDef with its variables frozen into constants
  (``convert_variables_to_constants``) as far as its first output needs them;
- ``<model>.json``: its ``outputs`` collection's values for each feed of ``FEEDS[model]``, then the
  loss of three training steps (the ``train_op`` collection's op fed ``FEEDS[model][0]``);

and ``frames.pb``, the GraphDef of :func:`build_pure` (nested conds and loops, no variables), with
``pure.json`` its outputs.

``tests/framework/test_frames_import.py`` reads them (this module imports TensorFlow only in ``main``).
"""

import json
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
X = np.linspace(-1.0, 1.5, 12).reshape(4, 3).round(3).tolist()
SEQUENCE = np.sin(np.arange(24.0)).reshape(2, 4, 3).round(3).tolist()
FEEDS = {
    "batch_norm": [{"x:0": X, "training:0": True}, {"x:0": X, "training:0": False}],
    "counter": [{"x:0": X[0]}],
    "lstm": [{"x:0": SEQUENCE}, {"x:0": np.cos(np.arange(36.0)).reshape(3, 4, 3).round(3).tolist()}],
    "mixed": [{"x:0": X[:2], "flag:0": True, "lengths:0": [3, 2]},
              {"x:0": X[:2], "flag:0": False, "lengths:0": [1, 3]}],
}
PURE_OUTPUTS = ["nested:0", "looped:0", "looped_count:0", "mapped:0", "grown:0"]
PURE_X = [0.5, 2.0, -1.0]


def build_batch_norm(tf):
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    training = tf.placeholder(tf.bool, [], name="training")
    h = tf.layers.dense(x, 5, kernel_initializer=tf.constant_initializer(np.linspace(-1, 1, 15).reshape(3, 5)))
    h = tf.layers.batch_normalization(h, training=training)
    y = tf.layers.batch_normalization(tf.nn.relu(h), training=training, name="bn2")
    return y, tf.reduce_sum(tf.square(y - 0.5), name="loss"), [h]


def build_counter(tf):
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable([0.5, -0.25, 1.0], name="w")
    i, acc = tf.while_loop(lambda i, acc: i < 5, lambda i, acc: (i + 1, acc * w + x),
                           [tf.constant(0), tf.zeros([3])], name="counter")
    return acc, tf.reduce_sum(tf.square(acc), name="loss"), [i]


def build_lstm(tf):
    x = tf.placeholder(tf.float32, [None, 4, 3], name="x")  # the batch known only when run
    cell = tf.nn.rnn_cell.LSTMCell(5, initializer=tf.constant_initializer(0.1), name="cell")
    outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope="rnn")
    return outputs, tf.reduce_sum(tf.square(outputs), name="loss"), [state.c, state.h]


def build_mixed(tf):
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    lengths = tf.placeholder(tf.int32, [2], name="lengths")
    w = tf.Variable([[0.5, -0.25, 1.0], [0.75, 0.5, -0.5]], name="w")
    chosen = tf.cond(flag, lambda: tf.sin(x * w), lambda: tf.square(x - w), name="chosen")

    def body(i, acc):
        return i + 1, tf.cond(i < 2, lambda: acc * w + x, lambda: tf.sin(acc) - w)

    _, looped = tf.while_loop(lambda i, acc: i < 4, body, [tf.constant(0), x], name="looped")
    mapped = tf.map_fn(lambda row: tf.reduce_sum(row * w[0]) + row, x, name="mapped")
    cell = tf.nn.rnn_cell.GRUCell(4, kernel_initializer=tf.constant_initializer(0.2), name="gru")
    sequence = tf.stack([x, x * w, x - w], axis=1)
    out, state = tf.nn.dynamic_rnn(cell, sequence, sequence_length=lengths, dtype=tf.float32, scope="gru_rnn")
    loss = tf.add_n([tf.reduce_sum(chosen), tf.reduce_sum(looped), tf.reduce_sum(mapped),
                     tf.reduce_sum(tf.square(out)), tf.reduce_sum(state)], name="loss")
    return chosen, loss, [looped, mapped, out, state, *tf.gradients(loss, [x, w])]


def build_pure(tf):
    """Nested v1 control flow over a placeholder: a cond in a cond, a loop with a cond in its body
    and a loop inside it, map_fn, and a loop whose variable grows (a shape invariant the file has not)."""
    x = tf.placeholder(tf.float32, [3], name="x")
    s = tf.reduce_sum(x)
    inner = lambda: tf.cond(s < 2.0, lambda: x * 2.0, lambda: x - 1.0)  # noqa: E731
    tf.identity(tf.cond(s > 0.0, inner, lambda: tf.exp(x)), name="nested")

    def body(i, acc):
        acc = tf.cond(i < 2, lambda: acc * 1.5, lambda: acc + x)
        _, inner_acc = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + 0.25), [0, acc])
        return i + 1, inner_acc

    i, acc = tf.while_loop(lambda i, acc: i < 4, body, [tf.constant(0), x])
    tf.identity(acc, name="looped")
    tf.identity(i, name="looped_count")
    tf.identity(tf.map_fn(lambda v: v * v + 1.0, x), name="mapped")
    grow = lambda i, a: (i + 1, tf.concat([a, x[:1] * tf.cast(i, tf.float32)], 0))  # noqa: E731
    _, grown = tf.while_loop(lambda i, a: i < 3, grow, [0, tf.zeros([0])],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    tf.identity(grown, name="grown")


def _save_model(tf, name, build):
    model_dir = os.path.join(HERE, name)
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(0)
        y, loss, extra = build(tf)
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
            train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
        for t in [y, loss, *extra]:
            tf.add_to_collection("outputs", t)
        tf.add_to_collection("train_op", train)
        saver = tf.train.Saver()
        feeds = FEEDS[name]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            shutil.rmtree(model_dir, ignore_errors=True)
            saver.save(sess, os.path.join(model_dir, "model"), write_state=False)
            outputs = tf.get_collection("outputs")
            frozen = tf.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), [y.op.name])
            with open(os.path.join(model_dir, "frozen.pb"), "wb") as f:
                f.write(frozen.SerializeToString())
            record = {"outputs": [[np.asarray(sess.run(t, feed)).tolist() for t in outputs] for feed in feeds],
                      "losses": [float(sess.run([train, loss], feeds[0])[1]) for _ in range(3)]}
    with open(os.path.join(HERE, f"{name}.json"), "w") as f:
        json.dump(record, f, indent=1)


def _save_pure(tf):
    graph = tf.Graph()
    with graph.as_default():
        build_pure(tf)
        with tf.Session() as sess:
            values = sess.run(PURE_OUTPUTS, {"x:0": PURE_X})
    with open(os.path.join(HERE, "frames.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    with open(os.path.join(HERE, "pure.json"), "w") as f:
        json.dump([np.asarray(v).tolist() for v in values], f, indent=1)


MODELS = {"batch_norm": build_batch_norm, "counter": build_counter, "lstm": build_lstm, "mixed": build_mixed}


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.layers and tf.nn.rnn_cell need tf-keras
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()  # control flow v1: frames
    tf.disable_resource_variables()  # numflow's variables are TensorFlow 1's reference variables
    for name, build in MODELS.items():
        _save_model(tf, name, build)
    _save_pure(tf)
    print(f"wrote the goldens to {HERE}")


if __name__ == "__main__":
    main()
