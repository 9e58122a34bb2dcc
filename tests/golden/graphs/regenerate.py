"""Regenerate the graph-file goldens: a model TensorFlow saved, a frozen GraphDef, and graphs of many ops.

Run with a Python that has TensorFlow (2.x, through ``tensorflow.compat.v1`` in graph mode)::

    /opt/tfenv/bin/python tests/golden/graphs/regenerate.py

It rewrites, beside this file:

- ``tf_model/model-2.meta`` and the checkpoint ``tf_model/model-2``: the model of :func:`build_model`
  after two Adam steps (``tf_model.json`` holds its outputs on ``X`` then, and the loss, global
  step and bias of three more steps);
- ``tf_frozen.pb``: the same model's inference graph with its variables frozen into constants;
- ``tf_ops.pbtxt``: the GraphDef of :func:`build_ops`, whose nodes numflow must write alike;
- ``tf_resource_model/model-2.meta`` and its checkpoint: :func:`build_resource_model`, whose
  variables are resource variables (Keras layers, ``use_resource=True``), after two Adam steps
  (``tf_resource_model.json``: the loss of three more steps, then the counter and the embedding);
- ``tf_resource_ops.pbtxt``: the GraphDef of :func:`build_resource_ops` (``tf_resource_ops.json``:
  its fetches' values after running ``RESOURCE_OPS_RUNS``).

``tests/framework/test_graph_files.py`` builds the same graphs with numflow (this module imports
TensorFlow only in ``main``).
"""

import json
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL_DIR = os.path.join(HERE, "tf_model")
RESOURCE_MODEL_DIR = os.path.join(HERE, "tf_resource_model")
X = [[0.1, -0.4, 0.3], [0.7, 0.2, -0.5]]
Y = [[0.2, 0.9], [0.6, 0.1]]
RESOURCE_FEED = {"x:0": np.linspace(-1, 1, 12).reshape(4, 3).tolist(), "y:0": [[1.0], [0.0], [1.0], [0.0]],
                 "ids:0": [0, 2, 2]}


def build_model(tf):
    """A two-layer model with Adam, a global step, collections and a Saver; returns its tensors."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 2], name="y")
    step = tf.train.get_or_create_global_step()
    w1 = tf.Variable(tf.constant([[0.5, -0.3, 0.8, 0.1], [0.2, 0.7, -0.6, 0.4], [-0.9, 0.3, 0.2, 0.6]]), name="w1")
    b1 = tf.Variable(tf.zeros([4]), name="b1")
    w2 = tf.get_variable("layer2/w", [4, 2], initializer=tf.constant_initializer(0.25))
    b2 = tf.get_variable("layer2/b", [2], initializer=tf.zeros_initializer())
    hidden = tf.tanh(tf.matmul(x, w1) + b1, name="hidden")
    out = tf.sigmoid(tf.matmul(hidden, w2) + b2, name="out")
    loss = tf.reduce_mean(tf.square(out - y), name="loss")
    train = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    tf.add_to_collection("train_op", train)
    tf.add_to_collection("outputs", out)
    tf.add_to_collection("sizes", 4)
    return x, y, out, loss, train, tf.train.Saver()


def build_resource_model(tf):
    """Keras layers and an embedding of resource variables, a counter updated by assign_add, Adam
    (dense updates, and sparse ones for the embedding); returns the train op, the counter and the embedding."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    ids = tf.placeholder(tf.int32, [None], name="ids")
    kernel = tf.constant_initializer(np.linspace(-1, 1, 12).reshape(3, 4))
    hidden = tf.keras.layers.Dense(4, activation="tanh", kernel_initializer=kernel)(x)
    emb = tf.get_variable("emb", [3, 4], initializer=tf.constant_initializer(np.arange(12.0).reshape(3, 4) / 10),
                          use_resource=True)
    looked = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids), axis=0)
    out = tf.keras.layers.Dense(1, kernel_initializer=tf.constant_initializer(0.3))(hidden + looked)
    loss = tf.reduce_mean(tf.square(out - y), name="loss")
    counter = tf.get_variable("counter", [], initializer=tf.zeros_initializer(), use_resource=True)
    with tf.control_dependencies([counter.assign_add(1.0)]):
        train = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=tf.train.get_or_create_global_step())
    tf.add_to_collection("train_op", train)
    return train, counter, emb


RESOURCE_OPS_FETCHES = ["shape:0", "gathered:0", "batch_gathered:0", "initialized:0", "value:0"]
RESOURCE_OPS_RUNS = ["init", "minus"]


def build_resource_ops(tf):
    """The ops on a resource variable's handle beyond a model's: its shape, gathers, assign_sub."""
    from tensorflow.python.ops import gen_resource_variable_ops as ops

    v = tf.get_variable("v", initializer=tf.constant(np.arange(6.0, dtype=np.float32).reshape(2, 3)),
                        use_resource=True)
    tf.identity(ops.variable_shape(v.handle), name="shape")
    tf.identity(ops.resource_gather(v.handle, [1, 0, 1], dtype=tf.float32), name="gathered")
    tf.identity(ops.resource_gather(v.handle, [[2], [0]], batch_dims=1, dtype=tf.float32), name="batch_gathered")
    tf.identity(ops.var_is_initialized_op(v.handle), name="initialized")
    tf.group(v.initializer, name="init")
    tf.group(v.assign_sub(tf.ones([2, 3])), name="minus")
    tf.identity(v.read_value(), name="value")


def build_ops(tf):
    """Ops numflow writes as TensorFlow does: every attr kind, type attrs, defaults, list inputs."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    i = tf.placeholder(tf.int64, [3], name="i")
    c = tf.constant([[1.0, 2.0, 3.0, 4.0]], name="c")
    tf.constant(7, name="scalar_int")
    tf.constant([True, False], name="bools")
    tf.constant([1.5, 2.5], dtype=tf.float64, name="doubles")
    tf.constant(["a", "bc"], name="strings")
    tf.constant(np.arange(6, dtype=np.int64).reshape(2, 3), name="int64s")
    tf.constant(np.array([0.5, -1.0], np.float16), name="halves")
    y = tf.matmul(x, c, transpose_b=True, name="matmul")
    tf.reduce_sum(x, axis=1, keepdims=True, name="sum")
    tf.cast(i, tf.float32, name="cast")
    tf.concat([x, x], axis=1, name="concat")
    tf.reshape(y, [-1], name="reshape")
    tf.argmax(x, axis=1, name="argmax")
    tf.add_n([x, x, x], name="add_n")
    tf.nn.relu(x, name="relu")
    tf.squeeze(y, axis=[1], name="squeeze")
    tf.transpose(x, [1, 0], name="transpose")
    tf.identity(x, name="identity")


def _save_model(tf):
    graph = tf.Graph()
    with graph.as_default():
        x, y, out, loss, train, saver = build_model(tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(train, {x: X, y: Y})
            shutil.rmtree(MODEL_DIR, ignore_errors=True)
            prefix = saver.save(sess, os.path.join(MODEL_DIR, "model"), global_step=2)
            frozen = tf.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["out"])
            record = {"outputs": sess.run(out, {x: X}).tolist(), "losses": [], "steps": [], "b2": []}
            for _ in range(3):
                _, value = sess.run([train, loss], {x: X, y: Y})
                record["losses"].append(float(value))
                record["steps"].append(int(sess.run(tf.train.get_global_step())))
                record["b2"].append(sess.run(graph.get_tensor_by_name("layer2/b:0")).tolist())
    os.remove(os.path.join(MODEL_DIR, "checkpoint"))  # the tests restore by prefix
    with open(os.path.join(HERE, "tf_frozen.pb"), "wb") as f:
        f.write(frozen.SerializeToString())
    with open(os.path.join(HERE, "tf_model.json"), "w") as f:
        json.dump(record, f, indent=1)
    return prefix


def _save_resource_model(tf):
    graph = tf.Graph()
    with graph.as_default():
        train, counter, emb = build_resource_model(tf)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(train, RESOURCE_FEED)
            shutil.rmtree(RESOURCE_MODEL_DIR, ignore_errors=True)
            saver.save(sess, os.path.join(RESOURCE_MODEL_DIR, "model"), global_step=2, write_state=False)
            losses = [float(sess.run([train, "loss:0"], RESOURCE_FEED)[1]) for _ in range(3)]
            record = {"losses": losses, "counter": float(sess.run(counter)), "emb": sess.run(emb).tolist()}
    with open(os.path.join(HERE, "tf_resource_model.json"), "w") as f:
        json.dump(record, f, indent=1)


def _save_resource_ops(tf):
    graph = tf.Graph()
    with graph.as_default():
        build_resource_ops(tf)
        with tf.Session() as sess:
            for op in RESOURCE_OPS_RUNS:
                sess.run(op)
            values = sess.run(RESOURCE_OPS_FETCHES)
    with open(os.path.join(HERE, "tf_resource_ops.pbtxt"), "w") as f:
        f.write(str(graph.as_graph_def()))
    with open(os.path.join(HERE, "tf_resource_ops.json"), "w") as f:
        json.dump([np.asarray(v).tolist() for v in values], f, indent=1)


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.keras.layers in graph mode need tf-keras
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    _save_model(tf)
    _save_resource_model(tf)
    _save_resource_ops(tf)
    graph = tf.Graph()
    with graph.as_default():
        build_ops(tf)
    with open(os.path.join(HERE, "tf_ops.pbtxt"), "w") as f:
        f.write(str(graph.as_graph_def()))
    print(f"wrote the goldens to {HERE}")


if __name__ == "__main__":
    main()
