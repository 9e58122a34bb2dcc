"""Gradients through cond, case, switch_case and while_loop against central finite differences (float64),
and what the gradient graph keeps (accumulated values only where a run needs them; ``back_prop=False``).

Values against TensorFlow's gradients are in ``test_control_flow_golden.py``.
"""

import numpy as np
import pytest
from test_gradients import check_gradient

import numflow as tf


@pytest.mark.parametrize("taken", [True, False])
def test_cond(taken):
    def build(x, y):
        return tf.cond(tf.constant(taken), lambda: tf.sin(x) * y, lambda: x * x + tf.exp(y))

    check_gradient(build, [(3,), (3,)])


@pytest.mark.parametrize("outer,inner", [(True, True), (True, False), (False, True)])
def test_nested_conds_and_intermediates(outer, inner):
    def build(x):
        y = tf.exp(x)
        return tf.cond(tf.constant(outer),
                       lambda: tf.cond(tf.constant(inner), lambda: tf.tanh(y * x) * y, lambda: y / (1.0 + x * x)),
                       lambda: tf.square(y))

    check_gradient(build, [(2, 3)])


@pytest.mark.parametrize("k", [0, 1, 2, 7])
def test_case_and_switch_case(k):
    def build(x):
        index = tf.constant(k)
        by_case = tf.case([(tf.equal(index, 1), lambda: tf.sin(x)), (tf.equal(index, 2), lambda: x * x)],
                          default=lambda: -x * 3.0)
        by_switch = tf.switch_case(index, [lambda: tf.exp(x), lambda: tf.tanh(x)], default=lambda: x * 0.5)
        return [by_case, by_switch]

    check_gradient(build, [(4,)])


def test_while_loop_of_matrix_products():
    def build(m, v):
        _, out = tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, tf.tanh(tf.matmul(m, v))), [0, v])
        return out

    check_gradient(build, [(3, 3), (3, 2)], low=-0.8, high=0.8)


def test_while_loop_with_a_data_dependent_count():
    def build(x):
        return tf.while_loop(lambda v: tf.reduce_sum(v) < 10.0, lambda v: v * 1.5 + tf.sin(v), [x])

    check_gradient(build, [(3,)], values=[np.array([0.3, 0.4, 0.5])])


def test_nested_loops_and_a_cond_in_a_loop():
    def build(x, y):
        def body(i, v):
            _, inner = tf.while_loop(lambda j, w: j < i + 1, lambda j, w: (j + 1, tf.sin(w) * y + x), [0, v])
            return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: inner * y, lambda: tf.tanh(inner))

        return tf.while_loop(lambda i, v: i < 3, body, [0, x])[1]

    check_gradient(build, [(3,), (3,)], low=-1.0, high=1.0)


def test_maximum_iterations_and_a_loop_in_a_cond():
    def build(x):
        looped = tf.while_loop(lambda v: tf.constant(True), lambda v: v * tf.cos(v), [x], maximum_iterations=3)
        return tf.cond(tf.constant(True), lambda: looped + tf.while_loop(lambda v: v[0] < 100.0, lambda v: v * 2.0,
                                                                         [x * x + 1.0]), lambda: x)

    check_gradient(build, [(2,)])


def test_two_gradients_of_one_loop_share_its_accumulated_values():
    x = tf.placeholder(tf.float32, [3])
    _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v) * x), [0, x])
    (first,) = tf.gradients(tf.reduce_sum(y), [x])
    (second,) = tf.gradients(tf.reduce_sum(y * y), [x])
    loop_op = y.op.inputs[0].op
    accumulated = loop_op.outputs[loop_op._attrs["loop"].num_vars + 1:]
    assert 0 < len(accumulated) == len(loop_op._attrs["loop"].accumulators)
    value = np.array([0.1, -0.5, 0.9], np.float32)
    with tf.Session() as sess:
        g1, g2, y_value = sess.run([first, second, y], {x: value})
    eps = 1e-3
    with tf.Session() as sess:
        def total(v, power):
            return float(np.sum(sess.run(y, {x: v}).astype(np.float64) ** power))

        for g, power in ((g1, 1), (g2, 2)):
            numeric = [(total(value + eps * e, power) - total(value - eps * e, power)) / (2 * eps) for e in np.eye(3)]
            np.testing.assert_allclose(g, numeric, rtol=2e-2, atol=2e-3)


def test_a_forward_run_accumulates_nothing():
    from numflow.runtime import subplan

    x = tf.placeholder(tf.float32, [3])
    _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v) * x), [0, x])
    (dx,) = tf.gradients(tf.reduce_sum(y), [x])
    seen = []
    real = subplan._LoopPlans.__init__

    def record(self, op, session, needed):
        real(self, op, session, needed)
        seen.append(len(self.accumulate))

    subplan._LoopPlans.__init__ = record
    try:
        with tf.Session() as sess:
            sess.run(y, {x: [1.0, 2.0, 3.0]})
            sess.run(dx, {x: [1.0, 2.0, 3.0]})
    finally:
        subplan._LoopPlans.__init__ = real
    assert seen[0] == 0 and seen[1] > 0  # the forward run's loop keeps nothing; the gradient run's does


def test_back_prop_false_and_integer_loop_variables_pass_no_gradient():
    x = tf.placeholder(tf.float32, [])
    n = tf.placeholder(tf.int32, [])
    frozen = tf.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, [x], back_prop=False)
    count, value = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 2.0), [n * 0, x])
    assert tf.gradients(frozen, [x]) == [None]
    assert tf.gradients(count, [n]) == [None]
    assert tf.gradients(value, [n]) == [None]


def test_training_a_variable_used_inside_a_loop():
    w = tf.Variable([[0.5, -0.3], [0.2, 0.4]], name="w")
    x = tf.constant([[1.0, 0.5]])
    _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.tanh(tf.matmul(v, w))), [0, x])
    loss = tf.reduce_sum(tf.square(y - tf.constant([[0.3, -0.2]])))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([train, loss])[1] for _ in range(40)]
    assert losses[-1] < losses[0] * 0.05
