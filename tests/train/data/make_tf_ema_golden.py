"""Regenerate tf_ema_golden.json with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/train/data/make_tf_ema_golden.py   # any Python with tensorflow installed

Each scenario of ``SCENARIOS`` trains ``w`` (float32) and ``b`` (float64) by gradient descent and
averages them (and, in some, the tensor ``t``, the square of a value fed at each step) with
``tf.train.ExponentialMovingAverage`` after every step. It records every global variable's name
and, after each step, value.
``tests/train/test_moving_averages.py`` builds the same graphs with numflow and compares.

This module imports TensorFlow only in ``main``: the tests import the scenarios from it.
"""

import json
import pathlib

GOLDEN = pathlib.Path(__file__).with_name("tf_ema_golden.json")
W0 = [1.0, -2.0, 0.5]
X = [0.5, 1.5, -1.0]
Y = [1.0, 0.0, 2.0]
FEEDS = [1.0, -2.0, 0.5, 3.0, 0.0, 1.5]  # the value t squares, step by step

# name: (ExponentialMovingAverage keyword arguments, num_updates from the global step, average t too).
SCENARIOS = {
    "plain": ({"decay": 0.9}, False, False),
    "num_updates": ({"decay": 0.99}, True, False),
    "named": ({"decay": 0.5, "name": "avg"}, True, False),
    "tensor": ({"decay": 0.8}, False, True),
    "tensor_zero_debias": ({"decay": 0.8, "zero_debias": True}, False, True),
}


def build(tf, kwargs, num_updates, average_tensor):
    """``(ema, train op, placeholder)``: one gradient-descent step, then the averages' update, in one op.

    ``t`` squares a placeholder rather than reading ``w``: TensorFlow's ``w/read`` aliases the
    variable, so a tensor of ``w`` made under the step's control dependency sees the step's update,
    while numflow's ``w/read`` is a snapshot taken before it.
    """
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(W0, name="w")
    b = tf.Variable(0.25, dtype=tf.float64, name="b")
    loss = tf.reduce_sum(tf.square(w * X - Y)) + tf.cast(tf.square(b - 1.0), tf.float32)
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    ema = tf.train.ExponentialMovingAverage(num_updates=gs if num_updates else None, **kwargs)
    x = tf.placeholder(tf.float32, [], name="x")
    with tf.control_dependencies([step]):
        averaged = [w, b] + ([tf.square(x, name="t")] if average_tensor else [])
        train = ema.apply(averaged)
    return ema, train, x


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    out = {}
    for name, (kwargs, num_updates, average_tensor) in SCENARIOS.items():
        with tf.Graph().as_default():
            _, train, x = build(tf, kwargs, num_updates, average_tensor)
            variables = tf.global_variables()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                values = []
                for feed in FEEDS:
                    sess.run(train, {x: feed})
                    values.append({v.op.name: sess.run(v).tolist() for v in variables})
        out[name] = {"variables": [v.op.name for v in variables], "train": train.name, "values": values}
    GOLDEN.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
