"""tf.train.ExponentialMovingAverage against TensorFlow 2.21: names, graph, values, restoring averages.

``data/tf_ema_golden.json`` holds TensorFlow's results; regenerate it with
``/opt/tfenv/bin/python tests/train/data/make_tf_ema_golden.py``. Literal names below were checked
against TensorFlow 2.21's ``tf.compat.v1``.
"""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
REGENERATE = "run `/opt/tfenv/bin/python tests/train/data/make_tf_ema_golden.py` to rewrite the golden file"
golden = load_script(DATA / "make_tf_ema_golden.py")
GOLDEN = json.loads(golden.GOLDEN.read_text())


def test_golden_covers_every_scenario():
    assert sorted(GOLDEN) == sorted(golden.SCENARIOS), REGENERATE


@pytest.mark.parametrize("name", sorted(golden.SCENARIOS))
def test_averages_match_tensorflow(name):
    want = GOLDEN[name]
    with tf.Graph().as_default():
        _, train, x = golden.build(tf, *golden.SCENARIOS[name])
        variables = tf.global_variables()
        assert [v.op.name for v in variables] == want["variables"]
        assert train.name == want["train"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for feed, step in zip(golden.FEEDS, want["values"], strict=True):
                sess.run(train, {x: feed})
                for v in variables:
                    np.testing.assert_allclose(sess.run(v), step[v.op.name], rtol=1e-6, err_msg=v.op.name)


def test_update_by_hand():
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 4.0], dtype=tf.float64, name="w")
        n = tf.Variable(0, dtype=tf.int64, name="n", trainable=False)
        ema = tf.train.ExponentialMovingAverage(0.9, num_updates=n)
        update = ema.apply([w])
        shadow = ema.average(w)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            expected = np.array([1.0, 4.0])
            for step, value in enumerate([[2.0, 2.0], [0.0, 10.0], [5.0, -1.0]]):
                sess.run([w.assign(value), n.assign(step * 10)])
                sess.run(update)
                # The decay is float32, as TensorFlow's, until 1 - decay is cast to the variable's dtype.
                n32 = np.float32(step * 10)
                decay = min(np.float32(0.9), (np.float32(1) + n32) / (np.float32(10) + n32))
                expected -= np.float64(np.float32(1) - decay) * (expected - value)
                np.testing.assert_allclose(sess.run(shadow), expected, rtol=1e-15)


def test_names_collections_and_graph():
    graph = tf.Graph()
    with graph.as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable([1.0, 2.0], name="w")
        b = tf.Variable(3.0, dtype=tf.float64, name="b")
        ema = tf.train.ExponentialMovingAverage(0.9, num_updates=gs)
        update = ema.apply([w, b])
        shadow = ema.average(w)
        assert update.name == "ExponentialMovingAverage" and update.type == "NoOp"
        assert [c.name for c in update.control_inputs] == ["ExponentialMovingAverage/AssignMovingAvg",
                                                           "ExponentialMovingAverage/AssignMovingAvg_1"]
        assign = graph.get_operation_by_name("ExponentialMovingAverage/AssignMovingAvg")
        assert assign.type == "AssignSub" and assign.inputs[0].op is shadow.op
        assert assign.colocation_groups() == [b"loc:@w"]
        assert graph.get_operation_by_name("ExponentialMovingAverage/AssignMovingAvg_1/Cast").type == "Cast"
        assert graph.get_operation_by_name("ExponentialMovingAverage/num_updates").type == "Cast"
        assert graph.get_operation_by_name("ExponentialMovingAverage/Minimum").type == "Minimum"
        assert shadow.name == "w/ExponentialMovingAverage:0" and shadow.op.colocation_groups() == [b"loc:@w"]
        assert shadow.dtype.base_dtype == tf.float32 and ema.average(b).dtype.base_dtype == tf.float64
        assert [v.name for v in tf.moving_average_variables()] == ["w:0", "b:0"]
        assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
        assert [v.name for v in tf.global_variables()] == [
            "global_step:0", "w:0", "b:0", "w/ExponentialMovingAverage:0", "b/ExponentialMovingAverage:0"]
        assert ema.average_name(w) == "w/ExponentialMovingAverage"
        assert ema.average_name(gs) == "global_step/ExponentialMovingAverage" and ema.average(gs) is None
        assert {k: v.name for k, v in ema.variables_to_restore().items()} == {
            "b/ExponentialMovingAverage": "b:0", "global_step": "global_step:0", "w/ExponentialMovingAverage": "w:0"}
        # A second average of w, and a variable made in a variable scope (TF repeats the scope).
        assert tf.train.ExponentialMovingAverage(0.5).apply([w]) is not None
        assert tf.global_variables()[-1].op.name == "w/ExponentialMovingAverage_1"
        with tf.variable_scope("scope"):
            v = tf.get_variable("v", initializer=2.0)
            update_v = ema.apply([v])
        assert ema.average(v).op.name == "scope/scope/v/ExponentialMovingAverage"
        assert update_v.name == "scope/ExponentialMovingAverage"


def test_zero_debias_names():
    graph = tf.Graph()
    with graph.as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        t = tf.reduce_sum(w, name="t")
        ema = tf.train.ExponentialMovingAverage(0.5, zero_debias=True, name="E2")
        update = ema.apply([t])
        assert ema.average(t).op.name == "t/E2" and ema.average(t).op.colocation_groups() == [b"loc:@t/E2"]
        assert [(c.name, c.type) for c in update.control_inputs] == [("E2/AssignMovingAvg", "Assign")]
        for name, op_type in [("E2/AssignMovingAvg/AssignSub", "AssignSub"), ("E2/AssignMovingAvg/Pow", "Pow"),
                              ("E2/AssignMovingAvg/AssignAdd", "AssignAdd"), ("E2/AssignMovingAvg/truediv", "RealDiv")]:
            assert graph.get_operation_by_name(name).type == op_type
        assert [v.op.name for v in tf.global_variables()] == ["w", "t/E2", "t/E2/biased", "t/E2/local_step"]
        assert tf.moving_average_variables() == []


def test_shadow_starts_at_the_variables_current_value():
    with tf.Graph().as_default():
        w = tf.Variable(1.0, name="w")
        with tf.Session() as sess:
            sess.run(w.initializer)
            sess.run(w.assign(5.0))
            ema = tf.train.ExponentialMovingAverage(0.9)
            ema.apply([w])
            sess.run(ema.average(w).initializer)
            assert sess.run(ema.average(w)) == 5.0
            # Uninitialized, a variable's shadow starts at the variable's initial value.
        with tf.Session() as sess:
            sess.run(ema.average(w).initializer)
            assert sess.run(ema.average(w)) == 1.0
            assert sess.run(tf.report_uninitialized_variables()).tolist() == [b"w"]


def test_saver_restores_averages_into_the_variables(tmp_path):
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable([1.0, -1.0], name="w")
        loss = tf.reduce_sum(tf.square(w - [3.0, 2.0]))
        ema = tf.train.ExponentialMovingAverage(0.7, num_updates=gs)
        with tf.control_dependencies([tf.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=gs)]):
            train = ema.apply()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(4):
                sess.run(train)
            averaged, raw = sess.run([ema.average(w), w])
            path = tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"), global_step=gs)
    assert not np.allclose(averaged, raw)
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable([0.0, 0.0], name="w")
        ema = tf.train.ExponentialMovingAverage(0.7)
        with tf.Session() as sess:
            tf.train.Saver(ema.variables_to_restore()).restore(sess, path)
            np.testing.assert_array_equal(sess.run(w), averaged)
            assert sess.run(gs) == 4


def test_apply_errors():
    with tf.Graph().as_default():
        step = tf.Variable(1, name="step")
        with pytest.raises(TypeError, match="^The variables must be half, float, or double: step:0$"):
            tf.train.ExponentialMovingAverage(0.9).apply([step])
