"""tf.cond, tf.case, tf.switch_case and tf.Assert: what runs, what is built, and TensorFlow's errors.

Values against TensorFlow are in ``test_control_flow_golden.py``; here, the semantics TensorFlow 1.x
users rely on (only the taken branch runs; control dependencies; variables built inside a branch)
and the messages of bad input, each checked against what TensorFlow 2.21 says for the same call.
"""

import numpy as np
import pytest

import numflow as tf
from numflow.framework.errors import InaccessibleTensorError


def _session():
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return sess


def test_only_the_taken_branch_runs_its_updates():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(0.0, name="counter")
    y = tf.cond(p, lambda: tf.assign_add(v, 1.0), lambda: tf.identity(v))
    sess = _session()
    assert [sess.run(y, {p: False}), sess.run(v)] == [0.0, 0.0]
    assert [sess.run(y, {p: True}), sess.run(v)] == [1.0, 1.0]
    assert [sess.run(y, {p: False}), sess.run(v)] == [1.0, 1.0]


def test_an_untaken_branch_that_would_fail_does_not():
    p = tf.placeholder(tf.bool, [])
    x = tf.placeholder(tf.float32, [None])
    reshaped = tf.cond(p, lambda: tf.reshape(x, [2]), lambda: tf.constant([0.0, 0.0]))
    asserted = tf.cond(p, lambda: tf.Assert(False, [x]), tf.no_op)
    sess = _session()
    np.testing.assert_array_equal(sess.run(reshaped, {p: False, x: [1, 2, 3]}), [0.0, 0.0])
    assert sess.run(asserted, {p: False, x: [1, 2, 3]}) == np.False_  # TF's value: the pred, through the op
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 3 values") as e:
        sess.run(reshaped, {p: True, x: [1, 2, 3]})
    assert "cond/Reshape" in str(e.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[1 2 3\]"):
        sess.run(asserted, {p: True, x: [1, 2, 3]})


def test_control_dependencies_inside_a_branch_run_with_it():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(1.0)

    def true_fn():
        with tf.control_dependencies([tf.assign(v, 5.0)]):
            return v.read_value() * 2.0  # a read after the assignment, in the same branch

    y = tf.cond(p, true_fn, lambda: tf.constant(-1.0))
    sess = _session()
    assert sess.run(y, {p: False}) == -1.0 and sess.run(v) == 1.0
    assert sess.run(y, {p: True}) == 10.0 and sess.run(v) == 5.0


def test_control_dependencies_around_a_cond_run_before_either_branch():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(1.0)
    with tf.control_dependencies([tf.assign_add(v, 1.0)]):
        y = tf.cond(p, lambda: tf.constant(3.0), lambda: v.read_value())
    sess = _session()
    assert sess.run(y, {p: True}) == 3.0 and sess.run(v) == 2.0
    assert sess.run(y, {p: False}) == 3.0 and sess.run(v) == 3.0


def test_variables_made_in_a_branch_are_named_as_in_tensorflow():
    p = tf.placeholder(tf.bool, [])

    def true_fn():
        w = tf.get_variable("gv", [2], initializer=tf.ones_initializer())
        u = tf.Variable(3.0, name="vv")
        return w * u

    with tf.variable_scope("model"):
        y = tf.cond(p, true_fn, lambda: tf.zeros([2]))
    # TensorFlow 2.21: get_variable ignores the cond's name scope, tf.Variable keeps it.
    assert [v.name for v in tf.global_variables()] == ["model/gv:0", "model/cond/vv:0"]
    sess = _session()
    np.testing.assert_array_equal(sess.run(y, {p: True}), [3.0, 3.0])


def test_a_variable_initialized_from_a_tensor_of_the_branch_is_tensorflows_error():
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(ValueError, match=r"^Initializer for variable cond/Variable/ is from inside a control-flow "
                                         r"construct, such as a loop or conditional\. When creating a variable "
                                         r"inside a loop or conditional, use a lambda as the initializer\.$"):
        tf.cond(p, lambda: tf.Variable(tf.zeros([2])) * 1.0, lambda: tf.zeros([2]))


def test_a_tensor_of_a_branch_is_not_fetchable_nor_feedable():
    p = tf.placeholder(tf.bool, [])
    inside = []

    def true_fn():
        inside.append(tf.constant(3.0) * 2.0)
        return inside[-1]

    y = tf.cond(p, true_fn, lambda: tf.constant(1.0))
    sess = _session()
    with pytest.raises(InaccessibleTensorError, match="^Operation cond/mul has been marked as not fetchable. "):
        sess.run(inside[0], {p: True})
    with pytest.raises(ValueError, match="^Tensor cond/mul:0 may not be fed.$"):
        sess.run(y, {p: True, inside[0]: 1.0})


def test_a_tensor_of_a_branch_used_outside_has_a_value_only_when_the_branch_ran():
    p = tf.placeholder(tf.bool, [])
    inside = []

    def true_fn():
        inside.append(tf.constant(3.0) * 2.0)
        return inside[-1]

    tf.cond(p, true_fn, lambda: tf.constant(1.0))
    outside = inside[0] + 1.0
    sess = _session()
    assert sess.run(outside, {p: True}) == 7.0
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Retval\[0\] does not have value: 'cond/mul:0'"):
        sess.run(outside, {p: False})


def test_nested_conds_and_a_bool_variable_as_predicate():
    flag = tf.Variable(True, name="flag")
    x = tf.placeholder(tf.float32, [])
    y = tf.cond(flag, lambda: tf.cond(x > 0.0, lambda: x * 10.0, lambda: -x), lambda: x)
    sess = _session()
    assert sess.run(y, {x: 2.0}) == 20.0 and sess.run(y, {x: -3.0}) == 3.0
    sess.run(tf.assign(flag, False))
    assert sess.run(y, {x: 2.0}) == 2.0


def test_an_operation_result_stands_for_the_predicate_run_after_it():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(0)
    y = tf.cond(p, lambda: tf.assign_add(v, 1).op, lambda: tf.no_op())
    assert y.dtype == tf.bool and y.name == "cond/Merge:0"
    sess = _session()
    assert sess.run(y, {p: True}) == np.True_ and sess.run(v) == 1
    assert sess.run(y, {p: False}) == np.False_ and sess.run(v) == 1


def test_static_shapes_are_the_most_specific_both_branches_fit():
    p = tf.placeholder(tf.bool, [])
    assert tf.cond(p, lambda: tf.zeros([2, 3]), lambda: tf.ones([2, 3])).shape.as_list() == [2, 3]
    assert tf.cond(p, lambda: tf.zeros([2, 3]), lambda: tf.ones([4, 3])).shape.as_list() == [None, 3]
    assert tf.cond(p, lambda: tf.zeros([2]), lambda: tf.ones([2, 1])).shape.ndims is None


def test_the_plan_of_each_branch_is_built_once(monkeypatch):
    from numflow.runtime import plan

    builds = []
    real = plan._build
    monkeypatch.setattr(plan, "_build", lambda *args: builds.append(args[5]) or real(*args))
    p = tf.placeholder(tf.bool, [])
    y = tf.cond(p, lambda: tf.constant(1.0), lambda: tf.constant(2.0))
    sess = tf.Session()
    for value in (True, False, True):
        sess.run(y, {p: value})
    assert len(builds) == 3 and builds[0] is None  # the run's plan and one sub-plan per branch, once


# -- bad input: TensorFlow's error classes, messages naming the cond -------------------------------------
def test_branches_of_different_structures():
    p = tf.placeholder(tf.bool, [])
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"^The two structures don't have the same nested structure\.(.|\n)*"
                                         r"is a sequence, while substructure(.|\n)*tf\.cond 'cond'"):
        tf.cond(p, lambda: (x, x), lambda: x)
    with pytest.raises(TypeError, match=r"don't have the same sequence type(.|\n)*tf\.cond 'cond_1'"):
        tf.cond(p, lambda: (x, x), lambda: [x, x])
    with pytest.raises(ValueError, match="The two dictionaries don't have the same set of keys"):
        tf.cond(p, lambda: {"a": x}, lambda: {"b": x})


def test_branches_of_different_dtypes():
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(ValueError, match=r"^Outputs of 'true_fn' and 'false_fn' must have the same type\(s\)\. "
                                         r"Received int32 from 'true_fn' and float32 from 'false_fn'\. "
                                         r"\(tf\.cond 'cond', output 0: cond/Const:0 and cond/Const_1:0\)$"):
        tf.cond(p, lambda: 1, lambda: 2.0)


def test_predicates_that_are_not_boolean_scalars():
    with pytest.raises(TypeError, match="^'pred' must not be a Python bool.$"):
        tf.cond(True, lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match=r"^Input 'pred' of 'Switch' Op has type float32 that does not match expected "
                                        r"type of bool\. \(pred Const:0 of tf\.cond 'cond'\)$"):
        tf.cond(tf.constant(1.0), lambda: 1.0, lambda: 2.0)
    with pytest.raises(ValueError, match="^Shape must be rank 0 but is rank 1 for 'pred' of tf.cond 'cond_1'"):
        tf.cond(tf.placeholder(tf.bool, [2]), lambda: 1.0, lambda: 2.0)
    p = tf.placeholder(tf.bool)
    y = tf.cond(p, lambda: 1.0, lambda: 2.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^The second input must be a scalar, but it has shape \[2\]\n\t \[\[node cond_2/If "):
        tf.Session().run(y, {p: [True, False]})


def test_missing_and_uncallable_branches():
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(TypeError, match=r"^cond\(\): 'false_fn' argument required$"):
        tf.cond(p, lambda: 1.0)
    with pytest.raises(TypeError, match="^'true_fn' must be callable.$"):
        tf.cond(p, 1.0, lambda: 1.0)
    with pytest.raises(ValueError, match=r"^'true_fn' must have a return value\. \(tf\.cond 'cond'\)$"):
        tf.cond(p, lambda: None, lambda: None)


def test_singletons_are_unpacked_unless_strict():
    p = tf.placeholder(tf.bool, [])
    x = tf.constant(1.0)
    assert isinstance(tf.cond(p, lambda: [x], lambda: [x]), tf.Tensor)
    strict = tf.cond(p, lambda: [x], lambda: [x], strict=True)
    assert isinstance(strict, list) and len(strict) == 1


# -- case, switch_case, Assert --------------------------------------------------------------------------
def test_case_without_default_asserts_a_predicate_holds():
    k = tf.placeholder(tf.int32, [])
    y = tf.case([(tf.equal(k, 1), lambda: tf.constant(10)), (tf.equal(k, 2), lambda: tf.constant(20))])
    sess = tf.Session()
    assert [sess.run(y, {k: 1}), sess.run(y, {k: 2})] == [10, 20]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^assertion failed: \[Input error: None of conditions evaluated as True:\] \[0 0\]"):
        sess.run(y, {k: 3})


def test_exclusive_case_asserts_at_most_one_predicate_holds():
    k = tf.placeholder(tf.int32, [])
    y = tf.case([(k > 0, lambda: tf.constant(10)), (k > 1, lambda: tf.constant(20))], default=lambda: tf.constant(-1),
                exclusive=True)
    sess = tf.Session()
    assert [sess.run(y, {k: 0}), sess.run(y, {k: 1})] == [-1, 10]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^assertion failed: \[Input error: exclusive=True: more than 1 conditions "
                             r"\(Greater:0, Greater_1:0\) evaluated as True:\] \[1 1\]"):
        sess.run(y, {k: 2})


def test_case_arguments_are_checked():
    k = tf.placeholder(tf.int32, [])
    with pytest.raises(TypeError, match="^'pred_fn_pairs' must be a list, tuple, or dict."):
        tf.case(k)
    with pytest.raises(TypeError, match="^Each entry in 'pred_fn_pairs' must be a 2-tuple."):
        tf.case([tf.equal(k, 1)])
    with pytest.raises(TypeError, match="^pred must be Tensor of type bool: Placeholder:0$"):
        tf.case([(k, lambda: 1)])


def test_switch_case_runs_one_branch_and_the_default_out_of_range():
    k = tf.placeholder(tf.int32, [])
    v = tf.Variable(0)
    y = tf.switch_case(k, {0: lambda: tf.assign_add(v, 1), 1: lambda: tf.assign_add(v, 10)},
                       default=lambda: tf.assign_add(v, 100))
    sess = _session()
    assert [sess.run(y, {k: i}) for i in (0, 1, 7, -1)] == [1, 11, 111, 211]
    with pytest.raises(ValueError, match=r"^branch indices \(keys\) must form contiguous range of \[0 to 2\) but "
                                         r"found \{3,5\}$"):
        tf.switch_case(k, {3: lambda: 1, 5: lambda: 2})


def test_assert_summarizes_data_as_tensorflow():
    sess = tf.Session()
    cases = [([tf.constant([1.0, 2.5, 3.0, 4.0])], "[1 2.5 3...]"),
             ([tf.constant([[1, 2], [3, 4]])], "[[1 2][3...]...]"),
             ([tf.constant(True)], "[1]"),
             (["hi", tf.constant([1, 2, 3, 4, 5], tf.int64)], "[hi] [1 2 3...]")]
    for data, text in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match="^assertion failed: " + text.replace("[", r"\[")
                           .replace("]", r"\]").replace(".", r"\.") + "\n"):
            sess.run(tf.Assert(tf.constant(False), data))
    assert tf.Assert(tf.constant(False), [1.0]).name == "Assert_4/AssertGuard/Merge"
    assert tf.Assert(tf.constant(False), ["x"]).name == "Assert_5/Assert"
