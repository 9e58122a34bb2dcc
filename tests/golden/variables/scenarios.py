"""Variable scenarios run the same way by TensorFlow (to write the goldens) and by numflow (to test).

Each function takes the ``tf`` module (``tensorflow.compat.v1`` or ``numflow``), builds a fresh graph
and returns ``{key: numpy value}``. ``make_tf_goldens.py`` stores TensorFlow's results in
``initializers.npz``; ``tests/variables/test_initializers.py`` compares numflow's with them.

Keys containing ``orth`` are compared to within float rounding (numflow factors its normal draws
with LAPACK, TensorFlow with Eigen); every other key must match bit for bit.
"""

import hashlib

import numpy as np

# Arrays larger than this are stored as their first elements plus a SHA-256 of all their bytes.
LARGE = 4096

SHAPES = {"2x3": [2, 3], "3x3x4x5": [3, 3, 4, 5], "7": [7], "1001": [1001]}


def initializers(tf):
    """Every initializer by name (the ``tf.initializers`` spellings TF 2's compat.v1 has), op seeds."""
    i = tf.initializers
    return {
        "zeros": tf.zeros_initializer(), "ones": tf.ones_initializer(),
        "const": tf.constant_initializer(0.5),
        "random_normal": tf.random_normal_initializer(seed=3),
        "random_normal_2_3": tf.random_normal_initializer(mean=2.0, stddev=3.0, seed=5),
        "truncated_normal": tf.truncated_normal_initializer(seed=3),
        "truncated_normal_05_01": tf.truncated_normal_initializer(0.5, 0.1, seed=7),
        "random_uniform": tf.random_uniform_initializer(seed=3),
        "random_uniform_m1_3": tf.random_uniform_initializer(-1.0, 3.0, seed=9),
        "glorot_uniform": tf.glorot_uniform_initializer(seed=3),
        "glorot_normal": tf.glorot_normal_initializer(seed=3),
        "variance_scaling": tf.variance_scaling_initializer(seed=3),
        "variance_scaling_fan_out_normal": tf.variance_scaling_initializer(2.0, "fan_out", "normal", seed=3),
        "variance_scaling_fan_avg_uniform": tf.variance_scaling_initializer(1.0, "fan_avg", "uniform", seed=3),
        "variance_scaling_untruncated": tf.variance_scaling_initializer(1.0, "fan_in", "untruncated_normal", seed=3),
        "he_normal": i.he_normal(seed=3), "he_uniform": i.he_uniform(seed=3),
        "lecun_normal": i.lecun_normal(seed=3), "lecun_uniform": i.lecun_uniform(seed=3),
        "orthogonal": tf.orthogonal_initializer(seed=3),
        "orthogonal_gain2": tf.orthogonal_initializer(gain=2.0, seed=4),
        "identity": i.identity(gain=2.0),
    }


def _values(tf, variables, runs=1):
    with tf.Session() as sess:
        out = {}
        for run in range(runs):
            sess.run(tf.global_variables_initializer())
            for key, v in variables.items():
                out[key if run == 0 else f"{key}@run{run}"] = sess.run(v)
    return out


def each_initializer(tf):
    """Every initializer on every shape it accepts, float32, and float64 on a 3x5 matrix."""
    tf.reset_default_graph()
    variables = {}
    for name, init in initializers(tf).items():
        for shape_name, shape in SHAPES.items():
            if name.startswith("orthogonal") and len(shape) < 2 or name == "identity" and len(shape) != 2:
                continue
            variables[f"{name}/{shape_name}"] = tf.get_variable(f"{name}/{shape_name}", shape, initializer=init)
        variables[f"{name}/3x5/f64"] = tf.get_variable(f"{name}/f64", [3, 5], tf.float64, initializer=init)
    return _values(tf, variables)


def random_ops(tf):
    """The random ops themselves, every dtype, run twice in one session (the stream continues)."""
    tf.reset_default_graph()
    tensors = {
        "normal": tf.random_normal([4, 5], seed=1),
        "normal_2_3": tf.random_normal([4, 5], mean=2.0, stddev=3.0, seed=1),
        "uniform": tf.random_uniform([4, 5], seed=1),
        "uniform_m2_5": tf.random_uniform([4, 5], -2.0, 5.0, seed=1),
        "uniform_int32": tf.random_uniform([4, 5], 0, 100, dtype=tf.int32, seed=1),
        "uniform_int64": tf.random_uniform([4, 5], -5, 5, dtype=tf.int64, seed=1),
        "truncated": tf.truncated_normal([4, 5], seed=1),
        "truncated_1_05": tf.truncated_normal([4, 5], 1.0, 0.5, seed=1),
        "normal_f64": tf.random_normal([3], dtype=tf.float64, seed=2),
        "uniform_f16": tf.random_uniform([3], dtype=tf.float16, seed=2),
        "normal_f16": tf.random_normal([3], dtype=tf.float16, seed=2),
        "truncated_f64": tf.truncated_normal([5], dtype=tf.float64, seed=2),
        "truncated_big": tf.truncated_normal([100003], seed=11),
    }
    with tf.Session() as sess:
        out = {k: sess.run(t) for k, t in tensors.items()}
        out.update({f"{k}@run1": sess.run(t) for k, t in tensors.items()})
    return out


def graph_seed_only(tf):
    """A graph seed and no op seeds: each random op gets the next op seed, whatever else is built."""
    tf.reset_default_graph()
    tf.set_random_seed(1234)
    variables = {"a": tf.get_variable("a", [2, 3])}
    for _ in range(5):
        tf.constant(1.0) * 2.0  # other ops in between must not change the draws
    variables["b"] = tf.get_variable("b", [4])
    variables["c"] = tf.Variable(tf.random_normal([3]), name="c")
    variables["d"] = tf.Variable(tf.random_uniform([3], 0, 10, dtype=tf.int32), name="d")
    variables["e"] = tf.Variable(tf.truncated_normal([3]), name="e")
    variables["f_orth"] = tf.get_variable("f", [3, 3], initializer=tf.orthogonal_initializer())
    with tf.variable_scope("scope"):
        variables["g"] = tf.get_variable("g", [2, 2], initializer=tf.random_normal_initializer())
    return _values(tf, variables, runs=2)


def graph_and_op_seeds(tf):
    """Graph seed and op seed; then op seed only; then the graph seed 0 special case."""
    tf.reset_default_graph()
    tf.set_random_seed(42)
    variables = {
        "a": tf.Variable(tf.random_normal([5], seed=7), name="a"),
        "b": tf.get_variable("b", [4], initializer=tf.random_uniform_initializer(seed=7)),
    }
    out = _values(tf, variables)
    tf.reset_default_graph()
    out["op_only"] = _values(tf, {"v": tf.Variable(tf.random_normal([5], seed=7))})["v"]
    tf.reset_default_graph()
    tf.set_random_seed(0)
    variables = {"zero_op0": tf.Variable(tf.random_normal([3], seed=0)),
                 "zero_none0": tf.Variable(tf.random_normal([3])),
                 "zero_none1": tf.Variable(tf.random_normal([3]))}
    out.update(_values(tf, variables))
    return out


def constant_initializer_lists(tf):
    """constant_initializer with a short list (padded with its last element) and other dtypes."""
    tf.reset_default_graph()
    variables = {
        "short": tf.get_variable("short", [2, 3], initializer=tf.constant_initializer([1, 2])),
        "matrix": tf.get_variable("matrix", [2, 2], initializer=tf.constant_initializer(np.array([[1, 2], [3, 4]]))),
        "int": tf.get_variable("int", [3], dtype=tf.int32, initializer=tf.constant_initializer(7)),
        "bool": tf.get_variable("bool", [2], dtype=tf.bool, initializer=tf.constant_initializer(True)),
    }
    return _values(tf, variables)


def guide_first_examples(tf):
    """The guide's first get_variable calls, with a graph seed so the glorot values are fixed."""
    tf.reset_default_graph()
    tf.set_random_seed(0)
    variables = {
        "my_variable": tf.get_variable("my_variable", [1, 2, 3]),
        "my_int_variable": tf.get_variable("my_int_variable", [1, 2, 3], dtype=tf.int32,
                                           initializer=tf.zeros_initializer),
        "other_variable": tf.get_variable("other_variable", dtype=tf.int32, initializer=tf.constant([23, 42])),
        "weights": tf.Variable(tf.random_normal([784, 200], stddev=0.35), name="weights"),
    }
    variables["w2"] = tf.Variable(variables["weights"].initialized_value(), name="w2")
    variables["w_twice"] = tf.Variable(variables["weights"].initialized_value() * 2.0, name="w_twice")
    return _values(tf, variables)


ALL = [each_initializer, random_ops, graph_seed_only, graph_and_op_seeds, constant_initializer_lists,
       guide_first_examples]


def digest(value):
    """The SHA-256 of an array's dtype, shape and bytes."""
    value = np.ascontiguousarray(value)
    return hashlib.sha256(f"{value.dtype.str}{value.shape}".encode() + value.tobytes()).hexdigest()


def run_all(tf):
    """``{"scenario/key": value}`` for every scenario; a large value as its head and ``#sha256``."""
    out = {}
    for fn in ALL:
        for key, value in fn(tf).items():
            value = np.asarray(value)
            if value.size > LARGE:
                out[f"{fn.__name__}/{key}#sha256"] = np.array(digest(value))
                value = value.reshape(-1)[:64]
            out[f"{fn.__name__}/{key}"] = value
    return out
