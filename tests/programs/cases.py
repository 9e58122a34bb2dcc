"""Small TensorFlow 1.x snippets, written once for both engines: each ``case_*`` takes the ``tf`` module
(numflow, or TensorFlow's compat.v1 when the goldens are made) and returns what the snippet gives, as a
dict of names to arrays, numbers and text. ``data/cases.json`` holds TensorFlow's results."""

import numpy as np


def case_var_list_as_dict_views(tf):
    """``minimize(var_list=weights.values())``: the optimizer takes a dict's views as TensorFlow's nest does."""
    weights = {"w": tf.Variable([1.0, -2.0]), "b": tf.Variable(0.5)}
    loss = tf.reduce_sum(weights["w"] ** 2) + weights["b"] ** 2
    only_w = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list={"w": weights["w"]}.values())
    both = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=weights.values())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(only_w)
        after_w = sess.run([weights["w"], weights["b"]])
        sess.run(both)
        after_both = sess.run([weights["w"], weights["b"]])
    return {"after_w": after_w, "after_both": after_both}


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
