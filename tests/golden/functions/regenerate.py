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
- ``control_flow.pb``: the GraphDef of :func:`build_pure` (no variables), ``pure.json`` its outputs;
- ``datasets.meta``: the graph of :func:`build_datasets` (map, filter, flat_map, interleave...),
  ``datasets.json`` the elements each iterator of its ``iterators`` collection gives.

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


def build_datasets(tf):
    """Datasets with functions (conds and loops in them too), each read by an iterator whose ``get_next``
    goes into the ``elements`` collection (an initializable iterator's initializer into ``initializers``)."""
    scale = tf.placeholder_with_default(tf.constant(3, tf.int64), [], name="scale")
    offset = tf.constant(10, tf.int64, name="offset")
    mapped = tf.data.Dataset.range(6).map(lambda i: (i * scale, tf.cast(i, tf.float32) / 2.0))
    filtered = mapped.filter(lambda i, f: tf.equal(i % 2, 0)).map(lambda i, f: i + offset)
    flat = tf.data.Dataset.range(1, 4).flat_map(lambda n: tf.data.Dataset.range(n).map(lambda k: k * n))
    interleaved = tf.data.Dataset.range(3).interleave(
        lambda n: tf.data.Dataset.from_tensors(n).repeat(n + 1), cycle_length=2, block_length=1)
    parallel = tf.data.Dataset.range(4).interleave(lambda n: tf.data.Dataset.range(n, n + 3).map(lambda k: k + offset),
                                                   cycle_length=2, block_length=2, num_parallel_calls=2)
    branchy = tf.data.Dataset.range(6).map(lambda x: tf.cond(x % 2 > 0, lambda: x * 10, lambda: x - 1)).map(
        lambda x: tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + x), [0, x])[1])
    batched = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.float32)).map(tf.square).batch(4)
    limit = tf.placeholder(tf.int64, [], name="limit")
    counted = tf.data.Dataset.range(limit).map(lambda i: i * offset)
    for dataset in (filtered, flat, interleaved, parallel, branchy, batched):
        tf.add_to_collection("elements", tf.data.make_one_shot_iterator(dataset).get_next())
    iterator = tf.data.make_initializable_iterator(counted)
    tf.add_to_collection("elements", iterator.get_next())
    tf.add_to_collection("initializers", iterator.initializer)


DATASETS_FEED = {"limit:0": 4}


def read_all(sess, element, limit=20):
    """The values ``element`` gives until the end of its dataset (at most ``limit``), as lists."""
    values = []
    for _ in range(limit):
        try:
            values.append(np.asarray(sess.run(element)).tolist())
        except Exception as exc:  # OutOfRangeError, by its name: the module runs with either library
            if type(exc).__name__ != "OutOfRangeError":
                raise
            return values
    return values


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


def _save_datasets(tf):
    graph = tf.Graph()
    with graph.as_default():
        build_datasets(tf)
        with tf.Session() as sess:
            sess.run(tf.get_collection("initializers"), DATASETS_FEED)
            values = [read_all(sess, element) for element in tf.get_collection("elements")]
        tf.train.export_meta_graph(os.path.join(HERE, "datasets.meta"))
    with open(os.path.join(HERE, "datasets.json"), "w") as f:
        json.dump(values, f)


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.nn.rnn_cell needs tf-keras
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    tf.enable_control_flow_v2()
    tf.disable_resource_variables()  # numflow's variables are TensorFlow 1's reference variables
    _save_control_flow(tf)
    _save_pure(tf)
    _save_datasets(tf)
    print(f"wrote the goldens to {HERE}")


if __name__ == "__main__":
    main()
