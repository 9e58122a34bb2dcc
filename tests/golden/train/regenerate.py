"""Regenerate tf_optimizers.json: TensorFlow 1.x's optimizer names and updates, for the train tests.

Run with a Python that has TensorFlow (2.x, used through ``tensorflow.compat.v1`` in graph mode)::

    /opt/tfenv/bin/python tests/golden/train/regenerate.py

It rewrites ``tf_optimizers.json`` beside this file; ``tests/train/test_optimizers_tf.py`` replays every
scenario through numflow and compares.

Each scenario builds the same graph: ``w`` (float32 [2, 3]) at the top level and ``layer/b`` ([3]),
both from constants, and a global step. Its optimizer either applies gradients fed step by step
(``"grads"``: the update formulas alone) or minimizes a small least-squares loss (``"minimize"``:
gradients included). It records the names TensorFlow gives (``opt.variables()``, the slots of each
variable, every global variable in order, the update ops and the train op) and, after each of three
steps, every global variable's value.

This module imports TensorFlow only in ``main``: the tests import ``SCENARIOS`` and the data from it.
"""

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "tf_optimizers.json")

W0 = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
B0 = [0.1, -0.2, 0.3]
GRADS = [  # (grad of w, grad of b) per step
    ([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], [1.0, -1.0, 0.5]),
    ([[-0.3, 0.1, 0.2], [0.0, -0.5, 0.25]], [0.5, 0.25, -2.0]),
    ([[1.0, 1.0, -1.0], [0.2, 0.2, 0.2]], [-0.1, 0.0, 0.1]),
]
X = [[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]]
Y = [[1.0, 0.0, -1.0], [0.5, 0.5, 0.5], [0.0, 1.0, 2.0], [-1.0, -2.0, 1.0]]
STEPS = 3

# name, optimizer class name, constructor kwargs, mode
SCENARIOS = [
    ("gd", "GradientDescentOptimizer", {"learning_rate": 0.1}, "grads"),
    ("momentum", "MomentumOptimizer", {"learning_rate": 0.1, "momentum": 0.9}, "grads"),
    ("nesterov", "MomentumOptimizer", {"learning_rate": 0.05, "momentum": 0.8, "use_nesterov": True}, "grads"),
    ("adam", "AdamOptimizer", {}, "grads"),
    ("adam_custom", "AdamOptimizer", {"learning_rate": 0.01, "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6},
     "grads"),
    ("adagrad", "AdagradOptimizer", {"learning_rate": 0.1}, "grads"),
    ("adagrad_custom", "AdagradOptimizer", {"learning_rate": 0.2, "initial_accumulator_value": 0.5}, "grads"),
    ("rmsprop", "RMSPropOptimizer", {"learning_rate": 0.01}, "grads"),
    ("rmsprop_centered", "RMSPropOptimizer",
     {"learning_rate": 0.01, "decay": 0.8, "momentum": 0.5, "epsilon": 1e-6, "centered": True}, "grads"),
    ("adadelta", "AdadeltaOptimizer", {"learning_rate": 1.0}, "grads"),
    ("adadelta_custom", "AdadeltaOptimizer", {"learning_rate": 0.5, "rho": 0.8, "epsilon": 1e-3}, "grads"),
    ("proximal_gd", "ProximalGradientDescentOptimizer", {"learning_rate": 0.1}, "grads"),
    ("proximal_gd_l1_l2", "ProximalGradientDescentOptimizer",
     {"learning_rate": 0.5, "l1_regularization_strength": 0.3, "l2_regularization_strength": 0.2}, "grads"),
    ("proximal_adagrad", "ProximalAdagradOptimizer", {"learning_rate": 0.1}, "grads"),
    ("proximal_adagrad_l1_l2", "ProximalAdagradOptimizer",
     {"learning_rate": 0.5, "initial_accumulator_value": 0.2, "l1_regularization_strength": 0.3,
      "l2_regularization_strength": 0.2}, "grads"),
    ("ftrl", "FtrlOptimizer", {"learning_rate": 0.5}, "grads"),
    ("ftrl_l1_l2", "FtrlOptimizer",
     {"learning_rate": 0.5, "l1_regularization_strength": 0.05, "l2_regularization_strength": 0.2,
      "initial_accumulator_value": 0.5}, "grads"),
    ("ftrl_power_shrinkage", "FtrlOptimizer",
     {"learning_rate": 0.5, "learning_rate_power": -0.3, "l1_regularization_strength": 0.05,
      "l2_shrinkage_regularization_strength": 0.1, "beta": 0.2}, "grads"),
    ("adadelta_minimize", "AdadeltaOptimizer", {"learning_rate": 1.0}, "minimize"),
    ("adam_minimize", "AdamOptimizer", {"learning_rate": 0.1}, "minimize"),
    ("momentum_minimize", "MomentumOptimizer", {"learning_rate": 0.01, "momentum": 0.9}, "minimize"),
]


def build(tf, cls_name, kwargs, mode):
    """The scenario's graph in ``tf`` (TensorFlow's compat.v1 or numflow): returns what to run and name."""
    w = tf.get_variable("w", initializer=tf.constant(W0, dtype=tf.float32))
    with tf.variable_scope("layer"):
        b = tf.get_variable("b", initializer=tf.constant(B0, dtype=tf.float32))
    step = tf.train.get_or_create_global_step()
    opt = getattr(tf.train, cls_name)(**kwargs)
    feeds = []
    if mode == "grads":
        gw = tf.placeholder(tf.float32, [2, 3], name="gw")
        gb = tf.placeholder(tf.float32, [3], name="gb")
        train = opt.apply_gradients([(gw, w), (gb, b)], global_step=step)
        feeds = [{gw: np.array(g_w, np.float32), gb: np.array(g_b, np.float32)} for g_w, g_b in GRADS]
    else:
        pred = tf.matmul(tf.constant(X), w) + b
        loss = tf.reduce_mean(tf.square(pred - tf.constant(Y)))
        train = opt.minimize(loss, global_step=step)
        feeds = [{}] * STEPS
    return opt, (w, b), train, feeds


def record(tf, opt, variables, train, graph):
    """The names a scenario's graph gives, as the golden file stores them."""
    slots = {s: {v.op.name: opt.get_slot(v, s).op.name for v in variables} for s in opt.get_slot_names()}
    updates = sorted(op.name for op in graph.get_operations() if op.type.startswith("Apply"))
    return {
        "optimizer_variables": [v.op.name for v in opt.variables()],
        "slot_names": opt.get_slot_names(),
        "slots": slots,
        "global_variables": [v.op.name for v in tf.global_variables()],
        "trainable_variables": [v.op.name for v in tf.trainable_variables()],
        "update_ops": updates,
        "update_types": sorted({op.type for op in graph.get_operations() if op.type.startswith("Apply")}),
        "train_op": [train.name, train.type],
        "slot_colocation": {s: [c.decode() for c in opt.get_slot(variables[1], s).op.colocation_groups()]
                            for s in opt.get_slot_names()},
    }


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    out = {"steps": STEPS, "scenarios": {}}
    for name, cls_name, kwargs, mode in SCENARIOS:
        graph = tf.Graph()
        with graph.as_default():
            opt, variables, train, feeds = build(tf, cls_name, kwargs, mode)
            entry = record(tf, opt, variables, train, graph)
            values = []
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for feed in feeds:
                    sess.run(train, feed)
                    values.append({v.op.name: sess.run(v).tolist() for v in tf.global_variables()})
            entry["values"] = values
        out["scenarios"][name] = entry
    out["tensorflow"] = tf.__version__ if hasattr(tf, "__version__") else ""
    with open(GOLDEN, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
