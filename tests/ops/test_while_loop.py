"""tf.while_loop: loop variables and their structures, shape invariants, maximum_iterations, state inside
the body, determinism, and TensorFlow's errors (each checked against TensorFlow 2.21 for the same call).

Values and names against TensorFlow are in ``test_control_flow_golden.py``.
"""

import numpy as np
import pytest

import numflow as tf
from numflow.framework.errors import InaccessibleTensorError


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_structures_of_loop_variables():
    x = tf.constant([1.0, 2.0])
    single = tf.while_loop(lambda v: v[0] < 10.0, lambda v: v + 1.0, [x])
    kept = tf.while_loop(lambda v: v[0] < 10.0, lambda v: v + 1.0, [x], return_same_structure=True)
    mixed = tf.while_loop(lambda a, b: a < 3, lambda a, b: [a + 1, b * 2.0], (0, x))
    nested = tf.while_loop(lambda d: d["n"] < 3, lambda d: [{"n": d["n"] + 1, "v": (d["v"][0] * 2.0,)}],
                           [{"n": 0, "v": (x,)}])
    assert isinstance(single, tf.Tensor) and single.name == "while/Exit:0"
    assert isinstance(kept, list) and len(kept) == 1
    assert isinstance(mixed, list) and [t.name for t in mixed] == ["while_2/Exit:0", "while_2/Exit_1:0"]
    assert isinstance(nested, list) and set(nested[0]) == {"n", "v"}
    values = _run([single, kept, mixed, nested])
    np.testing.assert_array_equal(values[0], [10.0, 11.0])
    np.testing.assert_array_equal(values[1][0], [10.0, 11.0])
    assert values[2][0] == 3
    np.testing.assert_array_equal(values[2][1], [8.0, 16.0])
    np.testing.assert_array_equal(values[3][0]["v"][0], [8.0, 16.0])


def test_a_single_loop_variable_may_be_passed_bare():
    assert _run(tf.while_loop(lambda v: v < 5, lambda v: v + 2, 0)) == 6


def test_maximum_iterations_stops_the_loop():
    n = tf.placeholder(tf.int32, [])
    count = tf.while_loop(lambda v: tf.constant(True), lambda v: v + 1, [0], maximum_iterations=n)
    assert [_run(count, {n: k}) for k in (0, 1, 7)] == [0, 1, 7]
    early = tf.while_loop(lambda v: v < 3, lambda v: v + 1, [0], maximum_iterations=10)
    assert _run(early) == 3
    with pytest.raises(ValueError, match=r"^maximum_iterations must be a scalar, saw shape: \(2,\)$"):
        tf.while_loop(lambda v: v < 3, lambda v: v + 1, [0], maximum_iterations=[1, 2])


def test_shape_invariants_let_a_shape_change():
    grow = tf.while_loop(lambda v: tf.shape(v)[0] < 10, lambda v: tf.concat([v, v], 0), [tf.zeros([1])],
                         shape_invariants=[tf.TensorShape([None])])
    assert grow.shape.as_list() == [None]
    assert _run(grow).shape == (16,)


def test_a_shape_changing_without_an_invariant_is_tensorflows_error():
    with pytest.raises(ValueError, match=r"^Input tensor 'zeros:0' enters the loop with shape \(1,\), but has shape "
                                         r"\(2,\) after one iteration\. To allow the shape to vary across iterations, "
                                         r"use the `shape_invariants` argument of tf\.while_loop to specify a "
                                         r"less-specific shape\. \(tf\.while_loop 'while', loop variable 0\)$"):
        tf.while_loop(lambda v: tf.shape(v)[0] < 10, lambda v: tf.concat([v, v], 0), [tf.zeros([1])])
    with pytest.raises(ValueError, match=r"^The shape invariant specified for Const:0 is not compatible with the "
                                         r"initial shape of the loop variable\. It enters the loop with shape \(\), "
                                         r"but the specified shape invariant is \(2,\)\.$"):
        tf.while_loop(lambda v: v < 10, lambda v: v + 1, [tf.constant(0)], shape_invariants=[tf.TensorShape([2])])


def test_bad_loops_give_tensorflows_errors():
    i = tf.constant(0)
    with pytest.raises(TypeError, match="^'cond' must be callable.$"):
        tf.while_loop(1, lambda v: v + 1, [i])
    with pytest.raises(TypeError, match="^'parallel_iterations' must be a positive integer.$"):
        tf.while_loop(lambda v: v < 3, lambda v: v + 1, [i], parallel_iterations=0)
    with pytest.raises(ValueError, match="^'loop_vars' must be provided.$"):
        tf.while_loop(lambda: True, lambda: 1, [])
    with pytest.raises(TypeError, match=r"^Input 'input' of 'LoopCond' Op has type int32 that does not match "
                                        r"expected type of bool\. \(tf\.while_loop 'while_1': cond returned "
                                        r"while_1/Merge:0\)$"):
        tf.while_loop(lambda v: v, lambda v: v + 1, [i])
    with pytest.raises(ValueError, match=r"^The two structures don't have the same nested structure\.(.|\n)*"
                                         r"don't have the same number of elements(.|\n)*tf\.while_loop 'while_2'"):
        tf.while_loop(lambda v: v < 10, lambda v: (v, v), [i])
    with pytest.raises(TypeError, match=r"^Loop var Const:0 enters the loop with type <dtype: 'int32'> but has type "
                                        r"<dtype: 'float32'> after 1 iteration\. \(tf\.while_loop 'while_3', loop "
                                        r"variable 0\)$"):
        tf.while_loop(lambda v: v < 10, lambda v: tf.cast(v, tf.float32), [i])
    with pytest.raises(ValueError, match=r"^Shape must be rank 0 but is rank 1 for the condition of tf.while_loop"):
        tf.while_loop(lambda v: v < 10, lambda v: v + 1, [tf.constant([1, 2])])
    unknown = tf.placeholder_with_default([1, 2], None)
    loop = tf.while_loop(lambda v: v < 3, lambda v: v + 1, [unknown])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^The loop condition must be a scalar, but it has "
                                                             r"shape \[2\]\n\t \[\[node while_5/While "):
        _run(loop)


def test_a_tensor_of_the_body_is_not_fetchable_nor_usable_outside():
    inside = []

    def body(k):
        inside.append(k * 2)
        return k + 1

    loop = tf.while_loop(lambda k: k < 3, body, [tf.constant(0)])
    with tf.Session() as sess:
        with pytest.raises(InaccessibleTensorError, match="^Operation while/mul has been marked as not fetchable. "):
            sess.run(inside[0])
        with pytest.raises(ValueError, match="^Tensor while/mul:0 may not be fed.$"):
            sess.run(loop, {inside[0]: 3})
    with pytest.raises(ValueError, match="^Cannot use 'while/mul' as input to 'add' because 'while/mul' is in a while "
                                         "loop. "):
        inside[0] + 1


def test_variables_made_in_the_body_are_named_as_in_tensorflow():
    def body(k):
        return k + tf.get_variable("wv", [], initializer=tf.ones_initializer())

    first = tf.while_loop(lambda k: k < 3.0, body, [tf.constant(0.0)])
    with tf.variable_scope("outer"):
        second = tf.while_loop(lambda k: k < 3.0, body, [tf.constant(0.0)])
    assert [v.name for v in tf.global_variables()] == ["wv:0", "outer/wv:0"]
    assert _run([first, second]) == [3.0, 3.0]
    with pytest.raises(ValueError, match="^Initializer for variable q/ is from inside a control-flow construct"):
        tf.while_loop(lambda k: k < 3.0,
                      lambda k: k + tf.reduce_sum(tf.get_variable("q", initializer=tf.zeros([2]) + k)),
                      [tf.constant(0.0)])


def test_updates_in_the_body_are_seen_by_later_reads():
    v = tf.Variable(0.0)

    def body(i, acc):
        with tf.control_dependencies([tf.assign_add(v, 1.0)]):
            return i + 1, acc + v.read_value()

    loop = tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])
    # Iterations run one after another: each read follows its own iteration's update (1 + 2 + 3).
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(loop) == (3, 6.0)
        assert sess.run(v) == 3.0


def test_a_body_that_updates_no_variable_reads_the_value_the_loop_started_from_and_an_unset_one_fails_its_read():
    v = tf.Variable(2.0)
    w = tf.Variable(1.0)
    loop = tf.while_loop(lambda i, acc: i < 3, lambda i, acc: (i + 1, acc * v + w), [0, 1.0])
    with tf.Session() as sess:
        sess.run(v.initializer)
        unset = "(?s)uninitialized value Variable_1.*node Variable_1/read"
        with pytest.raises(tf.errors.FailedPreconditionError, match=unset):
            sess.run(loop)
        sess.run(w.initializer)
        assert sess.run(loop) == (3, 15.0)  # ((1 * 2 + 1) * 2 + 1) * 2 + 1
        with tf.control_dependencies([loop[1]]):
            after = tf.assign(v, 10.0)
        assert sess.run([loop, after]) == [(3, 15.0), 10.0]  # the update waits for the loop


def test_same_bits_whatever_parallel_iterations():
    x = tf.placeholder(tf.float32, [64])

    def body(i, acc):
        return i + 1, acc * 1.0001 + tf.sin(x * tf.cast(i, tf.float32)) / 3.0

    loops = [tf.while_loop(lambda i, acc: i < 200, body, [0, tf.zeros([64])], parallel_iterations=n)[1]
             for n in (1, 10, 32)]
    value = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    with tf.Session() as sess:
        runs = [sess.run(loops, {x: value}) for _ in range(3)]
    reference = runs[0][0].view(np.uint32)
    for results in runs:
        for result in results:
            np.testing.assert_array_equal(result.view(np.uint32), reference)


def test_the_plans_of_a_loop_are_built_once(monkeypatch):
    from numflow.runtime import plan

    builds = []
    real = plan._build
    monkeypatch.setattr(plan, "_build", lambda *args: builds.append(args) or real(*args))
    loop = tf.while_loop(lambda i: i < 1000, lambda i: i + 1, [0])
    with tf.Session() as sess:
        assert sess.run(loop) == 1000
        assert sess.run(loop) == 1000
    assert len(builds) == 3  # the run's plan, the condition's and the body's


def test_indexed_slices_loop_variable():
    start = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([0]), tf.constant([3, 2]))
    (grown,) = tf.while_loop(
        lambda v: tf.shape(v.values)[0] < 4,
        lambda v: tf.IndexedSlices(tf.concat([v.values, v.values], 0), tf.concat([v.indices, v.indices + 1], 0),
                                   v.dense_shape),
        [start], shape_invariants=[tf.TensorShape([None, 2])])
    assert isinstance(grown, tf.IndexedSlices)
    value = _run(grown)
    np.testing.assert_array_equal(value.values, [[1.0, 2.0]] * 4)
    np.testing.assert_array_equal(value.indices, [0, 1, 1, 2])
    np.testing.assert_array_equal(value.dense_shape, [3, 2])


def test_control_dependencies_around_a_loop_run_once_before_it():
    v = tf.Variable(1.0)
    with tf.control_dependencies([tf.assign_add(v, 10.0)]):
        loop = tf.while_loop(lambda i, acc: i < 3, lambda i, acc: (i + 1, acc + v.read_value()), [0, 0.0])
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(loop) == (3, 33.0)  # the update ran once, before the first iteration
        assert sess.run(v) == 11.0


def test_a_failing_step_of_the_body_is_named_in_the_error():
    loop = tf.while_loop(lambda i: i < 5, lambda i: tf.math.floordiv(i, i - i + 2 - i, name="halve") + 1, [0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Integer division by zero\n\t \[\[node while/halve "):
        _run(loop)
    counter = tf.while_loop(lambda i: tf.less(i, 10, name="below"), lambda i: tf.floordiv(i, 0, name="div"), [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[\[node while_1/div "):
        _run(counter)


def test_loop_results_keep_the_dtype_of_their_variables():
    values = _run(tf.while_loop(lambda i, x: i < 4, lambda i, x: (i + 1, x * 1.5),
                                [tf.constant(0, tf.int64), tf.constant(1.0, tf.float32)]))
    assert values[0] == 4 and np.asarray(values[0]).dtype == np.int64
    assert values[1] == np.float32(1.5) ** 4 and np.asarray(values[1]).dtype == np.float32


def test_running_sums_add_in_place_from_the_second_iteration_and_leave_every_other_value_alone():
    x = tf.placeholder(tf.float32, [3])
    start = tf.placeholder(tf.float32, [3])
    step = np.array([0.1, 1e8, -3.0], np.float32)

    def body(i, total, shared, previous):
        # total: a running sum (added in place); shared: a sum also read by a Mul (kept as it is);
        # previous: the value of shared before this iteration, which shared's in-place add must not reach.
        return i + 1, total + x, shared + x, shared * 1.0

    loop = tf.while_loop(lambda i, *_: i < 4, body, [0, start, start, start])
    initial = np.array([1.0, -2.0, 0.5], np.float32)
    fed = initial.copy()
    _, total, shared, previous = _run(loop, {x: step, start: fed})
    want = initial
    for _ in range(4):
        want, before = want + step, want  # float32 sums in the loop's order
    np.testing.assert_array_equal(total, want)
    np.testing.assert_array_equal(shared, want)
    np.testing.assert_array_equal(previous, before)
    np.testing.assert_array_equal(fed, initial)  # the first iteration made a new array


def test_a_loop_sums_into_its_accumulators_only_where_the_sum_alone_reads_them():
    from numflow.runtime import subplan

    x = tf.placeholder(tf.float32, [2])
    loop = tf.while_loop(lambda i, *_: i < 3, lambda i, a, b: (i + 1, a + x, b + x + b), [0, x, x])
    with tf.Session() as sess:
        sess.run(loop, {x: [1.0, 2.0]})
        (loop_plans,) = [s.ctx.subplans for p in sess._plans.values() for s in p.alone_steps
                         if isinstance(s.ctx.subplans, subplan._LoopPlans)]
    changed = [s.op.name for s, before in zip(loop_plans.later_body_steps, loop_plans.body.plan.alone_steps)
               if s is not before]
    assert changed == ["while/add_1"]  # a + x; not the counter (ints), nor b + x (b is read twice)


def test_a_running_sum_whose_value_the_body_also_passes_on_is_not_added_in_place():
    x = tf.placeholder(tf.float32, [2])
    loop = tf.while_loop(lambda i, *_: i < 3, lambda i, total, before: (i + 1, total + x, total), [0, x, x])
    _, total, before = _run(loop, {x: [1.0, 2.0]})
    np.testing.assert_array_equal(total, [4.0, 8.0])
    np.testing.assert_array_equal(before, [3.0, 6.0])
