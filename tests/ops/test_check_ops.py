"""Assertions, check_numerics, tf.Print and tf.print, and the string basics: TensorFlow 2.21's messages,
printed text, op names and static errors (every literal below was checked against ``tf.compat.v1``)."""

import re
import sys

import numpy as np
import pytest

import numflow as tf


def _late(value, dtype=None):
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), shape=None)


def _run_error(build):
    """The message of the InvalidArgumentError that running ``build()`` raises, without the node line."""
    with tf.Graph().as_default():
        check = build()
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(check)
    return e.value.message.split("\n\t [[")[0]


X, Y = "x (PlaceholderWithDefault:0) = ", "y (PlaceholderWithDefault_1:0) = "
RUN = [
    ("equal", lambda: tf.assert_equal(_late([1, 2, 3]), _late([1, 5, 3])),
     f"assertion failed: [Condition x == y did not hold element-wise:] [{X}] [1 2 3] [{Y}] [1 5 3]"),
    ("equal_summarize", lambda: tf.assert_equal(_late(np.arange(10.0)), _late(np.zeros(10)), summarize=5, message="m"),
     f"assertion failed: [m] [Condition x == y did not hold element-wise:] [{X}] [0 1 2 3 4...] [{Y}] "
     "[0 0 0 0 0...]"),
    ("equal_floats", lambda: tf.assert_equal(_late([0.5, 1e-7, 123456789.0, -2.25]), _late(np.zeros(4, np.float32))),
     f"assertion failed: [Condition x == y did not hold element-wise:] [{X}] [0.5 1e-07 123456792...] [{Y}] "
     "[0 0 0...]"),
    ("equal_matrix", lambda: tf.assert_equal(_late([[1, 2], [3, 4]]), _late([[1, 2], [3, 5]])),
     f"assertion failed: [Condition x == y did not hold element-wise:] [{X}] [[1 2][3...]...] [{Y}] "
     "[[1 2][3...]...]"),
    ("equal_bool", lambda: tf.assert_equal(_late([True, False]), _late([True, True])),
     f"assertion failed: [Condition x == y did not hold element-wise:] [{X}] [1 0] [{Y}] [1 1]"),
    ("equal_float64", lambda: tf.assert_equal(_late([0.1, 2.0], tf.float64), _late([0.0, 0.0], tf.float64)),
     f"assertion failed: [Condition x == y did not hold element-wise:] [{X}] [0.1 2] [{Y}] [0 0]"),
    ("less", lambda: tf.assert_less(_late([1, 2]), _late(2)),
     f"assertion failed: [Condition x < y did not hold element-wise:] [{X}] [1 2] [{Y}] [2]"),
    ("less_equal", lambda: tf.assert_less_equal(_late([1, 3]), _late(2)),
     f"assertion failed: [Condition x <= y did not hold element-wise:] [{X}] [1 3] [{Y}] [2]"),
    ("greater", lambda: tf.assert_greater(_late([1, 3]), _late(2)),
     f"assertion failed: [Condition x > y did not hold element-wise:] [{X}] [1 3] [{Y}] [2]"),
    ("greater_equal", lambda: tf.assert_greater_equal(_late([1, 3]), _late(2)),
     f"assertion failed: [Condition x >= y did not hold element-wise:] [{X}] [1 3] [{Y}] [2]"),
    ("none_equal", lambda: tf.assert_none_equal(_late([1, 3]), _late([2, 3])),
     f"assertion failed: [Condition x != y did not hold element-wise:] [{X}] [1 3] [{Y}] [2 3]"),
    ("positive", lambda: tf.assert_positive(_late([1, -3])),
     f"assertion failed: [] [Condition x > 0 did not hold element-wise:] [{X}] [1 -3]"),
    ("positive_message", lambda: tf.assert_positive(_late([1, -3]), message="need >0"),
     f"assertion failed: [need >0.  ] [Condition x > 0 did not hold element-wise:] [{X}] [1 -3]"),
    ("negative", lambda: tf.assert_negative(_late([1, -3])),
     f"assertion failed: [] [Condition x < 0 did not hold element-wise:] [{X}] [1 -3]"),
    ("non_negative", lambda: tf.assert_non_negative(_late([1, -3])),
     f"assertion failed: [] [Condition x >= 0 did not hold element-wise:] [{X}] [1 -3]"),
    ("non_positive", lambda: tf.assert_non_positive(_late([1, -3])),
     f"assertion failed: [] [Condition x <= 0 did not hold element-wise:{X}] [1 -3]"),
    ("near", lambda: tf.assert_near(_late([1.0, 2.0]), _late([1.0, 2.1])),
     'assertion failed: [] [x and y not equal to tolerance rtol = Tensor(\\"assert_near/rtol:0\\", shape=(), '
     'dtype=float32), atol = Tensor(\\"assert_near/atol:0\\", shape=(), dtype=float32)] '
     f"[{X}] [1 2] [{Y}] [1 2.1]"),
    ("near_float16", lambda: tf.assert_near(_late([1.0, 2.0], tf.float16), _late([1.0, 2.1], tf.float16)),
     'assertion failed: [] [x and y not equal to tolerance rtol = Tensor(\\"assert_near/rtol:0\\", shape=(), '
     'dtype=float16), atol = Tensor(\\"assert_near/atol:0\\", shape=(), dtype=float16)] '
     f"[{X}] [1 2] [{Y}] [1 2.09960938]"),
    ("rank", lambda: tf.assert_rank(_late(np.ones([2, 3])), 1),
     "assertion failed: [] [Tensor PlaceholderWithDefault:0 must have rank] [1] [Received shape: ] [2 3]"),
    ("rank_at_least", lambda: tf.assert_rank_at_least(_late(np.ones([2])), 2),
     "assertion failed: [] [Tensor PlaceholderWithDefault:0 must have rank at least] [2] [Received shape: ] [2]"),
    ("rank_in", lambda: tf.assert_rank_in(_late(np.ones([2])), [0, 2]),
     "assertion failed: [] [Tensor PlaceholderWithDefault:0 must have rank in] [0] [2] [Received shape: ] [2]"),
    ("Assert", lambda: tf.Assert(_late(False), ["hello", _late([1, 2, 3, 4, 5]), _late(np.array([1.5, 2.5]))]),
     "assertion failed: [hello] [1 2 3...] [1.5 2.5]"),
    ("Assert_summarize", lambda: tf.Assert(_late(False), [_late(np.arange(12).reshape(3, 4))], summarize=20),
     "assertion failed: [[0 1 2 3][4 5 6 7][8 9 10 11]]"),
    ("Assert_strings", lambda: tf.Assert(_late(False), [_late(["a", "bb"])]), "assertion failed: [a bb]"),
    ("Assert_condition_vector", lambda: tf.Assert(_late([True]), ["x"]), "In[0] should be a scalar: [1]"),
    ("check_numerics", lambda: tf.check_numerics(_late([1.0, np.nan, np.inf]), "my message"),
     "my message : Tensor had Inf and NaN values"),
    ("verify_tensor_all_finite", lambda: tf.verify_tensor_all_finite(_late([1.0, np.inf]), "bad values"),
     "bad values : Tensor had Inf values"),
    ("assert_all_finite", lambda: tf.debugging.assert_all_finite(_late([1.0, np.nan]), "bad values"),
     "bad values : Tensor had NaN values"),
]


@pytest.mark.parametrize("build, message", [pytest.param(*r[1:], id=r[0]) for r in RUN])
def test_run_time_messages(build, message):
    assert _run_error(build) == message


BUILD = [
    ("equal_constants", lambda: tf.assert_equal(tf.constant([1, 2, 3]), tf.constant([1, 5, 3])),
     tf.errors.InvalidArgumentError,
     "Condition x == y did not hold element-wise:\nx (Const:0) = \n[1 2 3]\ny (Const_1:0) = \n[1 5 3]"),
    ("equal_constants_message", lambda: tf.assert_equal([1.0, 2.0], [1.0, 5.0], message="hey"),
     tf.errors.InvalidArgumentError,
     "hey\nCondition x == y did not hold element-wise:\nx (assert_equal_1/x:0) = \n[1. 2.]\ny "
     "(assert_equal_1/y:0) = \n[1. 5.]"),
    ("rank", lambda: tf.assert_rank(tf.ones([2, 3]), 1), ValueError,
     "Tensor ones:0 must have rank 1.  Received rank 2, shape (2, 3)"),
    ("rank_message", lambda: tf.assert_rank(tf.ones([2, 3]), 1, message="mm"), ValueError,
     "mm.  Tensor ones:0 must have rank 1.  Received rank 2, shape (2, 3)"),
    ("rank_at_least", lambda: tf.assert_rank_at_least(tf.ones([2]), 2), ValueError,
     "Tensor ones:0 must have rank at least 2.  Received rank 1, shape (2,)"),
    ("rank_in", lambda: tf.assert_rank_in(tf.ones([2]), [0, 2]), ValueError,
     "Tensor ones:0 must have rank in (0, 2).  Received rank 1, shape (2,)"),
    ("type", lambda: tf.assert_type(tf.ones([2]), tf.int32), TypeError,
     "ones:0 must be of type tf.int32; got tf.float32"),
    ("type_message", lambda: tf.assert_type(tf.ones([2]), tf.int32, message="mm"), TypeError,
     "mm.  ones:0 must be of type tf.int32; got tf.float32"),
    ("integer", lambda: tf.assert_integer(tf.ones([2])), TypeError,
     "Expected \"x\" to be integer type.  Found: ones:0 of dtype <dtype: 'float32'>"),
    ("scalar", lambda: tf.assert_scalar(tf.ones([2])), ValueError,
     "Expected scalar shape for ones:0, saw shape: (2,)."),
    ("same_float_dtype", lambda: tf.assert_same_float_dtype([tf.ones([1]), tf.ones([1], tf.float64)]), ValueError,
     "ones_1:0, type=<dtype: 'float64'>, must be of the same type (<dtype: 'float32'>) as ones:0."),
    ("check_numerics_int", lambda: tf.check_numerics([1], "m"), TypeError,
     "Value passed to parameter 'tensor' has DataType int32 not in list of allowed values"),
]


@pytest.mark.parametrize("build, cls, message", [pytest.param(*r[1:], id=r[0]) for r in BUILD])
def test_build_time_errors(build, cls, message):
    with tf.Graph().as_default():
        with pytest.raises(cls, match="^" + re.escape(message)):
            build()


def test_passing_checks_run_and_return_tensorflows_ops():
    with tf.Graph().as_default():
        # Float data is formatted only when a check fails: TF guards its Assert with a cond, whose output
        # (a Merge in TF) is an Identity here.
        checks = [
            (tf.assert_equal(tf.placeholder_with_default(1.0, []), 1.0), "assert_equal_1/Assert/AssertGuard/Merge",
             "Identity"),
            (tf.assert_positive(tf.placeholder_with_default([1.0], None)),
             "assert_positive/assert_less/Assert/AssertGuard/Merge", "Identity"),
            (tf.assert_rank(tf.placeholder_with_default([1.0], None), 1), "assert_rank/Assert/Assert", "Assert"),
            (tf.assert_rank(tf.ones([2]), 1), "assert_rank_1/static_checks_determined_all_ok", "NoOp"),
            (tf.Assert(True, [1]), "Assert/Assert", "Assert"),
            (tf.assert_type(tf.ones([1]), tf.float32), "assert_type/statically_determined_correct_type", "NoOp"),
            (tf.assert_integer(tf.ones([1], tf.int32)), "assert_integer/statically_determined_was_integer", "NoOp"),
            (tf.assert_near(tf.placeholder_with_default([1.0], None), [1.0 + 1e-7]),
             "assert_near/Assert/AssertGuard/Merge", "Identity"),
        ]
        for op, name, kind in checks:
            assert (op.name, op.type) == (name, kind)
        tensors = [(tf.check_numerics(tf.ones([1]), "m"), "CheckNumerics:0"),
                   (tf.verify_tensor_all_finite(tf.ones([1]), "m"), "VerifyFinite/control_dependency:0"),
                   (tf.assert_scalar(1.0), "assert_scalar:0")]
        for t, name in tensors:
            assert t.name == name
        x = tf.placeholder_with_default([1.0, 2.0], None)
        with tf.control_dependencies([tf.assert_positive(x)]):
            y = tf.identity(x)
        with tf.Session() as sess:
            sess.run([op for op, _, _ in checks])
            np.testing.assert_array_equal(sess.run(y), [1.0, 2.0])
            assert sess.run([tf.is_non_decreasing([1, 2, 2]), tf.is_strictly_increasing([1, 2, 2]),
                             tf.is_strictly_increasing([5])]) == [True, False, True]


def test_a_control_dependency_runs_the_check():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        with tf.control_dependencies([tf.assert_non_negative(x)]):
            y = tf.sqrt(x)
        with tf.Session() as sess:
            assert sess.run(y, {x: [4.0]}).tolist() == [2.0]
            with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x >= 0 did not hold"):
                sess.run(y, {x: [-4.0]})


def test_check_numerics_gradient_checks_the_gradient():
    with tf.Graph().as_default():
        x = tf.placeholder_with_default([1.0, 0.0], None)
        (g,) = tf.gradients(tf.sqrt(tf.check_numerics(x, "x is bad")), [x])
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(g)
        assert e.value.message.startswith("Not a number (NaN) or infinity (Inf) values detected in gradient. x is bad"
                                          " : Tensor had Inf values")


def test_print_and_tf_print_write_what_tensorflow_writes(capsys):
    with tf.Graph().as_default():
        x = tf.constant([[1, 2], [3, 4]])
        v = tf.constant(np.arange(10.0, dtype=np.float32))
        s = tf.constant(["a", 'b"c'])
        printed = tf.Print(v, [v, x, s, tf.constant(2.5)], message="msg: ")
        first_two = tf.Print(v, [v], message="first_n ", first_n=2, summarize=5)
        prints = [tf.print(x), tf.print("loss:", v, "and", s, 3, [1, 2], summarize=2),
                  tf.print(tf.constant(np.arange(24).reshape(2, 3, 4)), summarize=1), tf.print(tf.constant(True)),
                  tf.print(tf.constant(0.1, tf.float64), tf.constant(1e-7), tf.constant(123456789.0)),
                  tf.print(tf.constant(np.arange(10)), summarize=-1), tf.print({"a": x}),
                  tf.print("a", "b", sep="|", end="!\n"), tf.print(tf.constant(7), output_stream=sys.stdout)]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(printed), np.arange(10.0))
            for _ in range(3):
                sess.run(first_two)
            for op in prints:
                sess.run(op)
        assert (printed.name, prints[1].name, prints[1].type) == ("Print:0", "PrintV2_1", "PrintV2")
    out, err = capsys.readouterr()
    assert out == "7\n"
    assert err == (
        'msg: [0 1 2...][[1 2][3...]...][a b\\"c][2.5]\n'
        "first_n [0 1 2 3 4...]\nfirst_n [0 1 2 3 4...]\n"
        "[[1 2]\n [3 4]]\n"
        'loss: [0 1 ... 8 9] and ["a" "b\\"c"] 3 [1, 2]\n'
        "[[[0 ... 3]\n  ...\n  [8 ... 11]]\n\n [[12 ... 15]\n  ...\n  [20 ... 23]]]\n"
        "1\n0.1 1e-07 123456792\n[0 1 2 3 4 5 6 7 8 9]\n{'a': [[1 2]\n [3 4]]}\na|b!\n")


def test_print_passes_the_gradient_through():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        (g,) = tf.gradients(tf.reduce_sum(tf.Print(x, [x]) * 3.0), [x])
        with tf.Session() as sess:
            assert sess.run(g).tolist() == [3.0, 3.0]


def test_tf_print_to_a_file(tmp_path):
    path = tmp_path / "out.txt"
    with tf.Graph().as_default(), tf.Session() as sess:
        sess.run(tf.print("value", tf.constant([1, 2]), output_stream=f"file://{path}"))
    assert path.read_text() == "value [1 2]\n"


def test_string_basics_match_tensorflow():
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run([
            tf.as_string(tf.constant([1.5, -2.25, 1e10, np.nan, np.inf])), tf.as_string(tf.constant([3, -4])),
            tf.as_string(tf.constant([True, False])), tf.as_string(tf.constant([1.5, 2.0]), precision=2),
            tf.as_string(tf.constant([1.5, 2.0]), scientific=True),
            tf.as_string(tf.constant([1.5, 123456789.0]), shortest=True), tf.as_string(tf.constant([3, 45]), width=5),
            tf.as_string(tf.constant([3, 45]), width=5, fill="0"), tf.dtypes.as_string(tf.constant(np.float16(0.1))),
            tf.strings.join(["a", tf.constant(["x", "y"]), "b"], separator="-"), tf.string_join(["p", "q"]),
            tf.strings.length(tf.constant(["ab", "héllo", ""])), tf.strings.length("héllo", unit="UTF8_CHAR"),
            tf.strings.format("x={} y={}", [tf.constant([1, 2]), tf.constant(0.5)]),
        ])
    assert [g.tolist() if isinstance(g, np.ndarray) else g for g in got] == [
        [b"1.500000", b"-2.250000", b"10000000000.000000", b"nan", b"inf"], [b"3", b"-4"], [b"true", b"false"],
        [b"1.50", b"2.00"], [b"1.500000e+00", b"2.000000e+00"], [b"1.5", b"1.23457e+08"], [b"    3", b"   45"],
        [b"00003", b"00045"], b"0.099976", [b"a-x-b", b"a-y-b"], b"pq", [2, 6, 0], 5, b"x=[1 2] y=0.5"]
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 1"):
            tf.strings.join([tf.constant([["a"], ["b"]]), tf.constant(["c", "d"])])
