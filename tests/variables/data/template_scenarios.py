"""Programs using ``tf.make_template``, written once for both engines: each returns the names (variables, op
outputs, scopes) it sees, for ``tf_template_golden.json`` (TensorFlow's records) and the tests (numflow's)."""

import functools

import numpy as np


def _dense_in(tf, x, units=2):
    w = tf.get_variable("w", [x.shape[-1], units], initializer=tf.ones_initializer())
    b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
    return tf.nn.relu(tf.matmul(x, w) + b, name="out")


def _dense(tf):
    return functools.partial(_dense_in, tf)


def _names(tf, outputs, template):
    return {"variables": [v.name for v in tf.global_variables()], "outputs": [t.name for t in outputs],
            "scope": template.variable_scope_name, "trainable": [v.name for v in template.trainable_variables],
            "shapes": [v.shape.as_list() for v in tf.global_variables()]}


def shared_between_calls(tf):
    x = tf.constant(np.ones([1, 3], np.float32))
    dense = tf.make_template("dense", _dense(tf))
    before = dense.variable_scope_name
    outputs = [dense(x), dense(x * 2), dense(x)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(outputs)
    return dict(_names(tf, outputs, dense), before=[before], values=[v.tolist() for v in values])


def unique_names_and_kwargs(tf):
    x = tf.constant(np.ones([2, 4], np.float32))
    first, second = tf.make_template("dense", _dense(tf)), tf.make_template("dense", _dense(tf), units=5)
    fixed = tf.make_template("dense", _dense(tf), unique_name_="fixed")
    outputs = [first(x), second(x), fixed(x), second(x)]
    return dict(_names(tf, outputs, second), first=[first.variable_scope_name], fixed=[fixed.variable_scope_name])


def scope_now_and_enclosing_scopes(tf):
    x = tf.constant(np.ones([1, 3], np.float32))
    with tf.variable_scope("model"):
        now = tf.make_template("now", _dense(tf), create_scope_now_=True)
        later = tf.make_template("later", _dense(tf))
        inside = [later(x)]
    with tf.name_scope("elsewhere"):
        outputs = inside + [now(x), later(x), now(x)]
    with tf.variable_scope("model"):
        outputs.append(tf.make_template("now", _dense(tf), create_scope_now_=True)(x))
    return dict(_names(tf, outputs, now), later=[later.variable_scope_name])


def custom_getter(tf):
    seen = []

    def record(getter, name, *args, **kwargs):
        seen.append(name)
        return getter(name, *args, **kwargs)

    x = tf.constant(np.ones([1, 3], np.float32))
    dense = tf.make_template("dense", _dense(tf), custom_getter_=record)
    outputs = [dense(x), dense(x)]
    return dict(_names(tf, outputs, dense), seen=seen)


def new_variable_on_second_call(tf):
    def make(x):
        return x * tf.Variable(2.0, name="v")

    template = tf.make_template("bad", make)
    template(1.0)
    try:
        template(1.0)
    except ValueError as e:
        return {"error": [str(e).split(":")[0]]}
    return {"error": []}


SCENARIOS = {f.__name__: f for f in (shared_between_calls, unique_names_and_kwargs, scope_now_and_enclosing_scopes,
                                     custom_getter, new_variable_on_second_call)}


def run(tf, name):
    with tf.Graph().as_default():
        return SCENARIOS[name](tf)
