"""The null device (``numflow/devices/null.py``) runs the conformance suite's graphs and computes
nothing: each run goes through the plan and the executor, and every output has the static shape and
dtype its op declares."""

import numpy as np
import pytest
from control_flow_cases import CASES as CONTROL_FLOW
from control_flow_cases import inputs
from test_op_conformance import ROWS

import numflow as tf

NULL = "/job:localhost/replica:0/task:0/device:NULL:0"


def _config():
    return tf.ConfigProto(device_count={"NULL": 1}, allow_soft_placement=False)


def _check_declared(tensor, value):
    value = np.asarray(value)
    assert value.dtype == np.dtype(tensor.dtype.as_numpy_dtype), tensor.name
    if tensor.shape.is_fully_defined():
        assert value.shape == tuple(tensor.shape.as_list()), tensor.name
    elif tensor.shape.ndims is not None:
        assert value.ndim == tensor.shape.ndims, tensor.name


def _check_placed(sess):
    """Every op that asked for a device ran on the null device (ops built outside ``tf.device``, such
    as an optimizer's slot initializers, run on the CPU, as in TensorFlow)."""
    placed = [(op, device) for plan in sess._plans.values() for op, device in plan.placements.items()]
    assert placed and all(device.name == NULL for op, device in placed if op.device)


def test_a_session_has_the_null_device_only_when_asked():
    tf.constant(1.0)
    with tf.Session() as sess:
        assert not any(d.device_type == "NULL" for d in sess.list_devices())
    with tf.Session(config=_config()) as sess:
        assert NULL in [d.name for d in sess.list_devices()]


def test_every_conformance_row_runs_on_the_null_device():
    fetches = []
    with tf.device(NULL):
        for param in ROWS:
            build, _, row_inputs, _, _, _ = param.values
            fetches.append(build(*[tf.constant(x) for x in row_inputs]))
    with tf.Session(config=_config()) as sess:
        values = sess.run(fetches)
        _check_placed(sess)
    for tensor, value in zip(fetches, values):
        _check_declared(tensor, value)


@pytest.mark.parametrize("name", sorted(CONTROL_FLOW))
def test_control_flow_cases_run_on_the_null_device(name):
    with tf.device(NULL):
        fetches, runs = CONTROL_FLOW[name](tf, inputs())
        init = tf.global_variables_initializer()
    with tf.Session(config=_config()) as sess:
        sess.run(init)
        for feed in runs.values():
            for key, value in sess.run(fetches, feed).items():
                _check_declared(fetches[key], value)
        _check_placed(sess)


def test_training_steps_run_on_the_null_device_and_change_nothing():
    with tf.device(NULL):
        x = tf.placeholder(tf.float32, [None, 4])
        w = tf.Variable(tf.random_normal([4, 2], seed=1), name="w")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        train = tf.train.AdamOptimizer(0.1).minimize(loss)
        init = tf.global_variables_initializer()
    with tf.Session(config=_config()) as sess:
        sess.run(init)
        for _ in range(3):
            _, got = sess.run([train, loss], {x: np.ones((8, 4), np.float32)})
            _check_declared(loss, got)
        _check_declared(w.value(), sess.run(w))
        _check_placed(sess)
