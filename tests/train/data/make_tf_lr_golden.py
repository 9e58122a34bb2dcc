"""Regenerate tf_lr_golden.json with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/train/data/make_tf_lr_golden.py   # any Python with tensorflow installed

For each schedule of ``SCHEDULES`` it records the ops TensorFlow builds (name and type), the name of
the tensor it returns and its value at every step of ``STEPS`` (fed through a scalar placeholder of
the scenario's step dtype); for each run of ``TRAINING`` it records the learning rate and the
variable after every training step.
``tests/train/test_learning_rate_decay.py`` builds the same graphs with numflow and compares.

Sessions run with Grappler off: it rewrites a division by a constant into a multiplication by its
reciprocal, so that with it ``150 / 30`` is ``5.0000005`` and ``polynomial_decay(cycle=True)`` starts
its next cycle a step early. numflow divides as the graph says, as TensorFlow does without Grappler.

This module imports TensorFlow only in ``main``: the tests import the scenarios from it.
"""

import json
import pathlib

GOLDEN = pathlib.Path(__file__).with_name("tf_lr_golden.json")

STEPS = [0, 1, 2, 5, 9, 10, 11, 33, 50, 99, 100, 101, 150, 199, 200, 201, 299, 300, 301, 700, 1000, 12345, 10**6]

# name: (function of tf.train, its arguments after the step, keyword arguments, learning-rate dtype, step dtype).
# The first argument is the initial rate (made a constant of the rate dtype), except for piecewise_constant.
SCHEDULES = {
    "exponential": ("exponential_decay", [0.1, 100, 0.96], {}, "float32", "int64"),
    "exponential_staircase": ("exponential_decay", [0.1, 100, 0.96], {"staircase": True}, "float32", "int64"),
    "exponential_f64_int32": ("exponential_decay", [0.1, 7, 0.5], {}, "float64", "int32"),
    "exponential_named": ("exponential_decay", [0.3, 50, 0.9], {"name": "lr"}, "float32", "int64"),
    "natural_exp": ("natural_exp_decay", [0.1, 100, 0.5], {}, "float32", "int64"),
    "natural_exp_staircase": ("natural_exp_decay", [0.1, 100, 0.5], {"staircase": True}, "float32", "int64"),
    "inverse_time": ("inverse_time_decay", [0.1, 100, 0.5], {}, "float32", "int64"),
    "inverse_time_staircase": ("inverse_time_decay", [0.1, 100, 0.5], {"staircase": True}, "float64", "int64"),
    "polynomial": ("polynomial_decay", [0.1, 100, 0.01], {"power": 0.5}, "float32", "int64"),
    "polynomial_default": ("polynomial_decay", [0.1, 100], {}, "float32", "int64"),
    "polynomial_cycle": ("polynomial_decay", [0.1, 100, 0.01], {"power": 2.0, "cycle": True}, "float32", "int64"),
    "polynomial_cycle_int32": ("polynomial_decay", [0.1, 30], {"cycle": True}, "float32", "int32"),
    "cosine": ("cosine_decay", [0.1, 100], {}, "float32", "int64"),
    "cosine_alpha": ("cosine_decay", [0.1, 300], {"alpha": 0.1}, "float32", "int64"),
    "cosine_restarts": ("cosine_decay_restarts", [0.1, 100], {}, "float32", "int64"),
    "cosine_restarts_equal": ("cosine_decay_restarts", [0.1, 30], {"t_mul": 1.0, "m_mul": 0.5, "alpha": 0.05},
                              "float32", "int64"),
    "cosine_restarts_int32": ("cosine_decay_restarts", [0.1, 10], {"t_mul": 1.5, "m_mul": 0.9}, "float32", "int32"),
    "linear_cosine": ("linear_cosine_decay", [0.1, 300], {}, "float32", "int64"),
    "linear_cosine_periods": ("linear_cosine_decay", [0.1, 300], {"num_periods": 2.0, "alpha": 0.1, "beta": 0.01},
                              "float32", "int64"),
    "noisy_linear_cosine": ("noisy_linear_cosine_decay", [0.1, 300], {}, "float32", "int64"),
    "noisy_linear_cosine_named": ("noisy_linear_cosine_decay", [0.5, 50],
                                  {"initial_variance": 0.5, "num_periods": 2.0, "alpha": 0.1, "name": "noisy"},
                                  "float32", "int32"),
    "piecewise": ("piecewise_constant", [[10, 100], [1.0, 0.5, 0.1]], {}, None, "int64"),
    "piecewise_int32": ("piecewise_constant", [[0, 50, 200, 1000], [5, 4, 3, 2, 1]], {}, None, "int32"),
    "piecewise_float": ("piecewise_constant", [[9.5, 100.5], [0.1, 0.01, 0.001]], {"name": "pc"}, None, "float32"),
}

# name: (schedule as in SCHEDULES, optimizer class, its keyword arguments besides the rate, steps).
TRAINING = {
    "sgd_exponential": (("exponential_decay", [0.5, 3, 0.5], {"staircase": True}), "GradientDescentOptimizer",
                        {}, 8),
    "momentum_piecewise": (("piecewise_constant", [[2, 5], [0.1, 0.05, 0.01]], {}), "MomentumOptimizer",
                           {"momentum": 0.9}, 8),
    "adam_polynomial": (("polynomial_decay", [0.2, 4, 0.01], {"cycle": True}), "AdamOptimizer", {}, 9),
    "sgd_cosine_restarts": (("cosine_decay_restarts", [0.3, 2], {}), "GradientDescentOptimizer", {}, 7),
}
W0 = [1.0, -2.0, 0.5]
X = [0.5, 1.5, -1.0]
Y = [1.0, 0.0, 2.0]


def build_schedule(tf, fn_name, args, kwargs, rate_dtype, step):
    """The schedule's tensor at ``step``: the same call for TensorFlow and numflow (``tf`` is either), under
    a graph seed (the noisy schedule's normal draws follow from it)."""
    tf.set_random_seed(7)
    fn = getattr(tf.train, fn_name)
    if fn_name == "piecewise_constant":
        return fn(step, *args, **kwargs)
    return fn(tf.constant(args[0], dtype=getattr(tf, rate_dtype)), step, *args[1:], **kwargs)


def build_training(tf, schedule, optimizer, kwargs):
    """``(w, learning rate, train op)`` minimizing ``sum((w * X - Y) ** 2)`` with the decayed rate."""
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(W0, name="w")
    fn_name, args, schedule_kwargs = schedule
    fn = getattr(tf.train, fn_name)
    lr = fn(gs, *args, **schedule_kwargs) if fn_name == "piecewise_constant" else fn(
        args[0], gs, *args[1:], **schedule_kwargs)
    loss = tf.reduce_sum(tf.square(w * X - Y))
    train = getattr(tf.train, optimizer)(lr, **kwargs).minimize(loss, global_step=gs)
    return w, lr, train


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    out = {"schedules": {}, "training": {}}
    for name, (fn_name, args, kwargs, rate_dtype, step_dtype) in SCHEDULES.items():
        with tf.Graph().as_default():
            step = tf.placeholder(getattr(tf, step_dtype), [], name="step")
            lr = build_schedule(tf, fn_name, args, kwargs, rate_dtype, step)
            ops = [[op.name, op.type] for op in tf.get_default_graph().get_operations() if op is not step.op]
            with tf.Session(config=config) as sess:
                values = [float(sess.run(lr, {step: s})) for s in STEPS]
        out["schedules"][name] = {"tensor": lr.name, "dtype": lr.dtype.name, "ops": ops, "values": values}
    for name, (schedule, optimizer, kwargs, steps) in TRAINING.items():
        with tf.Graph().as_default():
            w, lr, train = build_training(tf, schedule, optimizer, kwargs)
            with tf.Session(config=config) as sess:
                sess.run(tf.global_variables_initializer())
                rates, ws = [], []
                for _ in range(steps):
                    rates.append(float(sess.run(lr)))
                    sess.run(train)
                    ws.append(sess.run(w).tolist())
        out["training"][name] = {"rates": rates, "w": ws}
    GOLDEN.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
