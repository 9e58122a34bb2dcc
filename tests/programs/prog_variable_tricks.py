"""The variable and graph API that TF1 code leans on: assign and friends, get_variable in scopes with
reuse, initialized_value, control_dependencies, tf.gradients with stop_gradient, clip_by_value,
one_hot, tf.cond and tf.while_loop, collections, report_uninitialized_variables."""

import numpy as np


def main(tf, workdir):
    counter = tf.Variable(0, name="counter")
    increment = tf.assign_add(counter, 1)
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    w = tf.Variable(v.initialized_value() * 2.0, name="w")
    frozen = tf.Variable(5.0, trainable=False, name="frozen")
    with tf.variable_scope("foo"):
        with tf.variable_scope("bar"):
            a = tf.get_variable("a", [1], initializer=tf.ones_initializer())
    with tf.variable_scope("foo", reuse=True):
        a_again = tf.get_variable("bar/a")
    with tf.variable_scope("shared", reuse=tf.AUTO_REUSE):
        s1 = tf.get_variable("s", [2], initializer=tf.zeros_initializer())
    with tf.variable_scope("shared", reuse=tf.AUTO_REUSE):
        s2 = tf.get_variable("s", [2])
    print(a.name, a_again is a, s1 is s2, w.name, frozen in tf.trainable_variables())
    print([var.op.name for var in tf.global_variables()])
    try:
        with tf.variable_scope("foo"):
            tf.get_variable("bar/a", [1])
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])

    with tf.control_dependencies([increment]):
        doubled = tf.identity(counter) * 2
    x = tf.placeholder(tf.float32, [3])
    y = tf.reduce_sum(x * v + tf.stop_gradient(x * w))
    grads = tf.gradients(y, [x, v, w])
    clipped = tf.clip_by_value(x, -1.0, 1.0)
    hot = tf.one_hot([0, 2, 1], depth=3, on_value=5.0, off_value=-1.0)
    branch = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 10.0, lambda: x - 10.0)
    i, total = tf.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t + tf.cast(i, tf.float32)), [0, 0.0])
    scatter = tf.scatter_update(v, [0, 2], [9.0, 7.0])

    with tf.Session() as sess:
        print(sess.run(tf.report_uninitialized_variables()))
        sess.run(tf.variables_initializer([counter, v, w, frozen, a, s1]))
        print(sess.run([doubled, doubled, counter]))
        feed = {x: [0.5, -2.0, 3.0]}
        print(sess.run(grads[:2], feed), grads[2])
        print(sess.run([clipped, branch], feed), sess.run(branch, {x: [-1.0, 0.0, 0.0]}))
        print(sess.run(hot))
        print(sess.run([i, total]))
        print(sess.run(scatter), sess.run(tf.assign(w, v)), sess.run(tf.assign_sub(frozen, 1.5)))
        print(sess.run(w.assign(w * 2)), w.eval(), frozen.eval(), sess.run(a_again.read_value()))
        print(np.array(sess.run(tf.shape(hot))), sess.run(tf.size(hot)), sess.run(tf.rank(hot)))
