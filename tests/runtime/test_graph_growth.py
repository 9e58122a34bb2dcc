"""The warning for a graph that gains ops between most runs (ops built inside the training loop)."""

import warnings

import numpy as np
import pytest

import numflow as tf
from numflow.runtime import growth


def _runs_without_warning(body):
    with warnings.catch_warnings():
        warnings.simplefilter("error", tf.GraphGrowthWarning)
        body()


def test_ops_built_in_the_loop_warn_once_naming_types_and_line():
    v = tf.Variable(0.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.warns(tf.GraphGrowthWarning) as caught:
            for _ in range(3 * growth.STREAK):
                sess.run(tf.assign_add(v, 1.0))  # the line the warning names
        assert sess.run(v) == 3 * growth.STREAK
    (warning,) = caught
    line = warning.lineno
    assert warning.filename == __file__
    message = str(warning.message)
    assert f"before each of its last {growth.STREAK} runs" in message
    assert f"AssignAdd x{growth.STREAK}" in message and f"Const x{growth.STREAK}" in message
    assert f"added at {__file__}:{line}" in message


def test_a_summary_built_every_step_of_a_real_training_loop_warns():
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.ones([2, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    feed = {x: np.ones([8, 2], np.float32)}
    with tf.Session() as sess, pytest.warns(tf.GraphGrowthWarning, match="ScalarSummary x"):
        sess.run(tf.global_variables_initializer())
        for _ in range(growth.STREAK + 2):
            sess.run([train, tf.summary.scalar("loss", loss)], feed)


def test_legitimate_patterns_do_not_warn():
    def body():
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable(tf.ones([2, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
        feed = {x: np.ones([8, 2], np.float32)}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver = tf.train.Saver()  # after the initializer ran
            del saver
            for phase in range(3 * growth.STREAK):
                for _ in range(5):
                    sess.run(train, feed)
                # An op built every few steps (an evaluation, say), and alternating fetches.
                sess.run(tf.identity(loss, name=f"eval{phase}"), feed)
                sess.run([loss, train], feed)
            for _ in range(growth.STREAK // 2):  # a few ops built and run one by one
                sess.run(tf.reduce_sum(w) + 1.0)

    _runs_without_warning(body)


def test_new_sessions_and_initializers_do_not_count():
    def body():
        for i in range(2 * growth.STREAK):
            tf.Variable(float(i))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())

    _runs_without_warning(body)
