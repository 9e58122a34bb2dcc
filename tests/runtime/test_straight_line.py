"""A loop runs its condition and body as straight code (``runtime.straight_line``): the same values as the
steps run one by one, ops of several outputs included, floating-point overflows quiet as in TensorFlow,
and a failure naming the op of the body that raised it."""

import warnings

import numpy as np
import pytest

import numflow as tf
from numflow.runtime import straight_line


def test_a_body_of_ufuncs_and_an_op_of_several_outputs_gives_numpys_values_and_quiet_overflows():
    x = np.array([[1.5, -2.0, 3e38], [0.25, 4.0, -1.0]], np.float32)

    def body(i, a, b):
        left, right = tf.split(a, 2, axis=0)  # several outputs: unpacked into their slots
        return i + 1, tf.concat([right * b, left + b], 0), tf.abs(b) * 3.0 - tf.sqrt(b)

    with tf.Graph().as_default(), tf.Session() as sess:
        start = tf.placeholder(tf.float32, [2, 3])
        loop = tf.while_loop(lambda i, a, b: i < 3, body, [0, start, tf.constant([0.5, -1.0, 2.0])])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy's overflow and invalid warnings would fail the run
            count, a, b = sess.run(loop, {start: x})
    want_a, want_b = x, np.array([0.5, -1.0, 2.0], np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(3):
            left, right = want_a[:1], want_a[1:]
            want_a = np.concatenate([right * want_b, left + want_b])
            want_b = np.abs(want_b) * np.float32(3.0) - np.sqrt(want_b)
    assert count == 3
    np.testing.assert_array_equal(a, want_a)
    np.testing.assert_array_equal(b, want_b)
    assert np.isinf(a).any() and np.isnan(b).any()  # 3e38 * 2 overflowed; sqrt(-1) is NaN


def test_a_failure_in_the_middle_of_a_body_names_its_op_and_the_loop_can_run_again():
    with tf.Graph().as_default(), tf.Session() as sess:
        divisor = tf.placeholder(tf.int32, [])

        def body(i, total):
            doubled = i * 2
            return i + 1, total + tf.math.floordiv(doubled, divisor - i, name="share") + doubled

        loop = tf.while_loop(lambda i, total: i < 4, body, [0, 0])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Integer division by zero\n\t \[\[node while/share "):
            sess.run(loop, {divisor: 2})  # divisor - i is 0 in the third iteration
        assert sess.run(loop, {divisor: 9}) == (4, sum(2 * i // (9 - i) + 2 * i for i in range(4)))


def test_steps_compile_to_a_function_of_the_slot_list_calling_a_ufunc_kernels_ufunc():
    from numflow.runtime.plan import Step
    from numflow_kernels import registry

    def difference_and_context(ctx, a, b):
        return a - b, ctx

    add = registry.reference("AddV2")
    assert add.quiet_ufunc is np.add
    steps = [Step(None, difference_and_context, "context", (0, 1), (2, 3)), Step(None, add, None, (2, 0), (4,))]
    values = [np.float64(5.0), np.float64(2.0), None, None, None]
    straight_line.compile_steps(steps)(values)
    assert values == [5.0, 2.0, 3.0, "context", 8.0]
    straight_line.compile_steps([])(values)  # no steps: nothing changes
    assert values == [5.0, 2.0, 3.0, "context", 8.0]
