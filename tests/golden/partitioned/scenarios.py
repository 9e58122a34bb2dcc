"""Partitioned-variable scenarios run the same way by TensorFlow (to write the goldens) and by numflow.

Each function takes the ``tf`` module (``tensorflow.compat.v1`` or ``numflow``), builds a fresh graph
and returns ``{key: numpy value}``. ``regenerate.py`` stores TensorFlow's results in ``values.npz``;
``tests/variables/test_partitioned.py`` compares numflow's with them, bit for bit.
"""

import os
import tempfile

import numpy as np


def _names(variables):
    return np.array([v.name for v in variables])


def initial_values(tf):
    """Parts made by each initializer (graph seed, op seeds, values, tensors) and their collections."""
    out = {}
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        three = tf.fixed_size_partitioner(3)
        made = {
            "default_glorot": tf.get_variable("emb", [7, 4], partitioner=three),
            "glorot_seeded": tf.get_variable("g", [7, 5], initializer=tf.glorot_uniform_initializer(seed=4),
                                             partitioner=three),
            "truncated_normal_axis1": tf.get_variable(
                "w", [5, 3], initializer=tf.truncated_normal_initializer(seed=1),
                partitioner=tf.fixed_size_partitioner(2, axis=1)),
            "random_uniform": tf.get_variable("u", [6, 2], initializer=tf.random_uniform_initializer(-1, 1, seed=2),
                                              partitioner=three),
            "he_normal": tf.get_variable("h", [9, 2], initializer=tf.initializers.he_normal(seed=6),
                                         partitioner=tf.fixed_size_partitioner(4)),
            "from_tensor": tf.get_variable(
                "c", initializer=tf.constant(np.arange(10.0, dtype=np.float32).reshape(5, 2)), partitioner=three),
            "int_zeros": tf.get_variable("i", [4], dtype=tf.int32, partitioner=three, trainable=False),
        }
        with tf.variable_scope("scoped", partitioner=tf.fixed_size_partitioner(2)):
            made["scope_partitioner"] = tf.get_variable("s", [3, 3], initializer=tf.ones_initializer())
            made["scalar_unpartitioned"] = tf.get_variable("scalar", [], initializer=tf.zeros_initializer())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for key, var in made.items():
                out[key] = sess.run(tf.convert_to_tensor(var))
        out["global_names"] = _names(tf.global_variables())
        out["trainable_names"] = _names(tf.trainable_variables())
        out["concat_name"] = np.array(tf.convert_to_tensor(made["glorot_seeded"]).name)
        out["part_shapes"] = np.array([v.shape.as_list() for v in made["he_normal"]])
    return out


def created_lists(tf):
    """``create_partitioned_variables``: default and given names, an initializer and a value."""
    out = {}
    with tf.Graph().as_default():
        first = tf.create_partitioned_variables([5, 2], [2, 1], tf.random_uniform_initializer(seed=3))
        named = tf.create_partitioned_variables([3, 4], [1, 3], np.arange(12.0, dtype=np.float32).reshape(3, 4),
                                                name="given")
        with tf.variable_scope("outer"):
            inner = tf.create_partitioned_variables([4], [2], tf.ones_initializer(), dtype=tf.float64)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for key, parts in (("first", first), ("named", named), ("inner", inner)):
                out[f"{key}/names"] = _names(parts)
                for i, value in enumerate(sess.run(parts)):
                    out[f"{key}/{i}"] = value
    return out


def partitioners(tf):
    """The partition lists of the three partitioners for a few shapes and dtypes."""
    shape = tf.TensorShape
    cases = [
        tf.fixed_size_partitioner(5)(shape=shape([3, 2]), dtype=tf.float32),
        tf.min_max_variable_partitioner(4, min_slice_size=64)(shape=shape([100, 3]), dtype=tf.float32),
        tf.min_max_variable_partitioner(8, axis=1, min_slice_size=10)(shape=shape([2, 6]), dtype=tf.string),
        tf.min_max_variable_partitioner(3)(shape=shape([10]), dtype=tf.float64),
        tf.variable_axis_size_partitioner(100)(shape=shape([100, 3]), dtype=tf.float32),
        tf.variable_axis_size_partitioner(100, axis=1, max_shards=2)(shape=shape([3, 100]), dtype=tf.string),
        tf.variable_axis_size_partitioner(7)(shape=shape([5, 4]), dtype=tf.float64),
    ]
    return {f"case{i}": np.array(c) for i, c in enumerate(cases)}


def _lookup_model(tf, strategy):
    emb = tf.get_variable("emb", [7, 3], initializer=tf.random_uniform_initializer(-1, 1, seed=9),
                          partitioner=tf.fixed_size_partitioner(3))
    ids = tf.constant([[0, 6], [3, 3], [1, 5]])
    rows = tf.nn.embedding_lookup(emb, ids, partition_strategy=strategy)
    loss = tf.reduce_sum(rows * rows * tf.constant([1.0, 2.0, 3.0]))
    return emb, rows, loss


def lookups(tf):
    """embedding_lookup over a PartitionedVariable (both strategies), its rows and each part's gradient."""
    out = {}
    for strategy in ("mod", "div"):
        with tf.Graph().as_default():
            emb, rows, loss = _lookup_model(tf, strategy)
            grads = tf.gradients(loss, list(emb))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out[f"{strategy}/rows"] = sess.run(rows)
                for i, g in enumerate(sess.run(grads)):
                    out[f"{strategy}/grad{i}/indices"] = g.indices
                    out[f"{strategy}/grad{i}/values"] = g.values
    return out


def training(tf):
    """Three steps of SGD, Adagrad and Adam on the parts, through sparse gradients."""
    out = {}
    optimizers = {"sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
                  "adagrad": lambda: tf.train.AdagradOptimizer(0.2),
                  "adam": lambda: tf.train.AdamOptimizer(0.05)}
    for key, make in optimizers.items():
        with tf.Graph().as_default():
            emb, _, loss = _lookup_model(tf, "div")
            train = make().minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(3):
                    sess.run(train)
                out[f"{key}/value"] = sess.run(tf.convert_to_tensor(emb))
                out[f"{key}/globals"] = _names(tf.global_variables())
                # The slots of the parts are saved as slices of one tensor each (emb/Adam...).
                with tempfile.TemporaryDirectory() as folder:
                    prefix = tf.train.Saver().save(sess, os.path.join(folder, "model"), write_meta_graph=False)
                    listed = tf.train.list_variables(prefix)
                out[f"{key}/checkpoint"] = np.array([f"{name} {shape}" for name, shape in listed])
    return out


ALL = (initial_values, created_lists, partitioners, lookups, training)


def run_all(tf):
    return {f"{fn.__name__}/{key}": value for fn in ALL for key, value in fn(tf).items()}
