"""Regenerate tf_sparse_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/train/data/make_tf_sparse_golden.py   # any Python with tensorflow installed

Each optimizer of ``OPTIMIZERS`` trains an embedding ``emb`` (float32, 5 rows) and a dense weight
``w`` for three steps on the ``IDS`` fed at each step, so TensorFlow applies its sparse updates
to ``emb``. It records ``emb``, ``w`` and every slot after each step (and ``global_step``, for the
AdagradDA cases: its first value and whether ``minimize`` advances it are in ``OPTIMIZERS``), keyed
``<optimizer>/<step>/<variable name>``.
``tests/train/test_sparse_gradients.py`` builds the same graphs with numflow and compares the bits.

The model takes no matrix product (a product's rounding depends on the BLAS kernel a machine's CPU
gets, and momentum's cancellations blow one ulp up to a few millionths), and TensorFlow runs the
graph as built: grappler's arithmetic rewrites off (they reassociate sparse Adam's slot update by an
ulp). So every number is TensorFlow's kernels in the graph's order, on any machine.

This module imports TensorFlow only in ``main``: the tests import the model from it.
"""

import pathlib

import numpy as np

GOLDEN = pathlib.Path(__file__).with_name("tf_sparse_golden.npz")
# The ids of each step: rows repeat within a step, row 3 is never named, rows 1 and 2 skip a step
# (where a sparse update leaves them and their slots as they are).
IDS = [[[0, 2, 0], [4, 0, 1]], [[2, 2, 4], [4, 0, 0]], [[1, 1, 1], [0, 4, 4]]]
EMB0 = (np.arange(15, dtype=np.float32).reshape(5, 3) - 7.0) / 10.0
W0 = np.array([0.5, -1.0, 0.25], dtype=np.float32)

# name: (optimizer class name, keyword arguments)
OPTIMIZERS = {
    "sgd": ("GradientDescentOptimizer", {"learning_rate": 0.1}),
    "momentum": ("MomentumOptimizer", {"learning_rate": 0.1, "momentum": 0.9}),
    "nesterov": ("MomentumOptimizer", {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": True}),
    "adagrad": ("AdagradOptimizer", {"learning_rate": 0.1}),
    "rmsprop": ("RMSPropOptimizer", {"learning_rate": 0.1, "momentum": 0.5}),
    "rmsprop_centered": ("RMSPropOptimizer", {"learning_rate": 0.1, "momentum": 0.5, "centered": True}),
    "adam": ("AdamOptimizer", {"learning_rate": 0.1}),
    "adadelta": ("AdadeltaOptimizer", {"learning_rate": 1.0}),
    "proximal_gd": ("ProximalGradientDescentOptimizer",
                    {"learning_rate": 0.1, "l1_regularization_strength": 0.05, "l2_regularization_strength": 0.1}),
    "proximal_adagrad": ("ProximalAdagradOptimizer",
                         {"learning_rate": 0.1, "l1_regularization_strength": 0.05, "l2_regularization_strength": 0.1}),
    "ftrl": ("FtrlOptimizer",
             {"learning_rate": 0.5, "l1_regularization_strength": 0.05, "l2_regularization_strength": 0.2}),
    "ftrl_shrinkage": ("FtrlOptimizer", {"learning_rate": 0.5, "learning_rate_power": -0.3,
                                         "l1_regularization_strength": 0.05,
                                         "l2_shrinkage_regularization_strength": 0.1}),
    "adagrad_da": ("AdagradDAOptimizer", {"learning_rate": 0.1, "global_step": (0, True)}),
    "adagrad_da_l1_l2": ("AdagradDAOptimizer", {"learning_rate": 0.2, "l1_regularization_strength": 0.05,
                                                "l2_regularization_strength": 0.1,
                                                "initial_gradient_squared_accumulator_value": 0.5,
                                                "global_step": (0, True)}),
    "adagrad_da_l2_late_step": ("AdagradDAOptimizer", {"learning_rate": 0.3, "l2_regularization_strength": 0.2,
                                                       "global_step": (6, True)}),
    "adagrad_da_l1_step_kept": ("AdagradDAOptimizer", {"learning_rate": 0.1, "l1_regularization_strength": 0.02,
                                                       "global_step": (2, False)}),
}


def build(tf, name):
    """``(train op, ids placeholder, {variable name: variable})`` for the optimizer ``name``: the loss is
    ``sum((sum(embedding_lookup(emb, IDS) * w, axis=2) - 1) ** 2)``."""
    cls, kwargs = OPTIMIZERS[name]
    kwargs, step_spec = {k: v for k, v in kwargs.items() if k != "global_step"}, kwargs.get("global_step")
    step = None
    if step_spec is not None:
        step = kwargs["global_step"] = tf.Variable(np.int64(step_spec[0]), name="global_step", trainable=False)
    emb = tf.Variable(EMB0, name="emb")
    w = tf.Variable(W0, name="w")
    ids = tf.placeholder(tf.int32, [2, 3], name="ids")
    out = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids) * w, axis=2)
    advance = step_spec is not None and step_spec[1]
    train = getattr(tf.train, cls)(**kwargs).minimize(tf.reduce_sum(tf.square(out - 1.0)),
                                                      global_step=step if advance else None)
    variables = {v.op.name: v for v in tf.global_variables()}
    return train, ids, variables


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    arrays = {}
    for name in OPTIMIZERS:
        with tf.Graph().as_default():
            train, ids, variables = build(tf, name)
            with tf.Session(config=config) as sess:
                sess.run(tf.global_variables_initializer())
                for step, step_ids in enumerate(IDS, 1):
                    sess.run(train, {ids: step_ids})
                    for var_name, value in sess.run(variables).items():
                        arrays[f"{name}/{step}/{var_name}"] = value
    np.savez(GOLDEN, **arrays)


if __name__ == "__main__":
    main()
