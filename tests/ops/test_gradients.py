"""tf.gradients: the algorithm (reach, sum, stop, None for unconnected) and ``check_gradient``.

``check_gradient(build_fn, input_shapes)`` is the finite-difference check every op's gradient is
held to (``test_gradients_ops.py``): float64 placeholders, a random weighting of the output, and
central differences compared with the symbolic gradient of each input.
"""

import numpy as np
import pytest

import numflow as tf

EPS = 1e-6


def check_gradient(build_fn, input_shapes, values=None, low=-2.0, high=2.0, seed=0, rtol=1e-5, atol=1e-7):
    """Compare ``tf.gradients`` of ``build_fn(*inputs)`` with central differences, in float64.

    ``inputs`` are float64 placeholders of ``input_shapes``, fed ``values`` (default: uniform in
    [low, high)). The scalar checked is ``sum(output * r)`` for a fixed random ``r``, so every
    output element's gradient counts. Returns the symbolic gradients.
    """
    rng = np.random.default_rng(seed)
    with tf.Graph().as_default():
        xs = [tf.placeholder(tf.float64, shape, name=f"x{i}") for i, shape in enumerate(input_shapes)]
        out = build_fn(*xs)
        outs = out if isinstance(out, list | tuple) else [out]
        weights = [tf.placeholder(tf.float64, name=f"r{i}") for i in range(len(outs))]
        loss = tf.add_n([tf.reduce_sum(o * w) for o, w in zip(outs, weights)])
        # An IndexedSlices (the gradient of a gather) is checked as its dense tensor.
        grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in tf.gradients(loss, xs)]
        if values is None:
            values = [rng.uniform(low, high, size=shape) for shape in input_shapes]
        values = [np.array(v, dtype=np.float64) for v in values]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())  # for a build_fn with variables of its own
            feed = {x: v for x, v in zip(xs, values)}
            shapes = [np.shape(v) for v in sess.run(outs, feed)]
            feed |= {w: rng.uniform(0.5, 1.5, size=shape) for w, shape in zip(weights, shapes)}
            symbolic = sess.run([g for g in grads if g is not None], feed)
            symbolic_iter = iter(symbolic)
            for i, (x, g) in enumerate(zip(xs, grads)):
                assert g is not None, f"no gradient for input {i}"
                got = next(symbolic_iter)
                numeric = np.zeros_like(values[i])
                flat = values[i].reshape(-1)
                for j in range(flat.size):
                    saved = flat[j]
                    flat[j] = saved + EPS
                    up = sess.run(loss, feed)
                    flat[j] = saved - EPS
                    down = sess.run(loss, feed)
                    flat[j] = saved
                    numeric.reshape(-1)[j] = (up - down) / (2 * EPS)
                assert got.shape == values[i].shape
                np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol,
                                           err_msg=f"gradient of input {i} ({x.name})")
        return symbolic


def test_check_gradient_catches_a_wrong_gradient():
    @tf.RegisterGradient("NfTestRecord")
    def _twice_identity(op, grad):
        return [grad * 2.0]

    def record(x):
        return tf.get_default_graph().create_op("NfTestRecord", [x], {"log": []}, name="record").outputs[0]

    with pytest.raises(AssertionError, match="gradient of input 0"):
        check_gradient(record, [(3,)])
    check_gradient(tf.identity, [(3,)])


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_square_of_a_constant():
    x = tf.constant(3.0)
    (dx,) = tf.gradients(x * x, [x])
    assert _run(dx) == 6.0


def test_gradient_ops_are_in_the_gradients_name_scope():
    x = tf.constant([1.0, 2.0], name="x")
    y = tf.reduce_sum(tf.multiply(x, x, name="mul"), name="Sum")
    (dx,) = tf.gradients(y, [x])
    assert dx.name.startswith("gradients/")
    names = {op.name for op in tf.get_default_graph().get_operations()}
    assert {"gradients/grad_ys_0", "gradients/Sum_grad/BroadcastTo", "gradients/AddN"} <= names
    assert any(n.startswith("gradients/mul_grad/") for n in names)
    (dx2,) = tf.gradients(y, [x], name="second")
    assert dx2.op.name.startswith("second/")
    (dx3,) = tf.gradients(y, [x])
    assert dx3.op.name.startswith("gradients_1/")


def test_several_consumers_sum_with_add_n():
    x = tf.constant(2.0)
    y = x * 3.0 + tf.square(x) + tf.sin(x)
    (dx,) = tf.gradients(y, x)
    assert np.isclose(_run(dx), 3.0 + 4.0 + np.cos(2.0))
    assert any(op.type == "AddN" for op in tf.get_default_graph().get_operations()
               if op.name.startswith("gradients/"))


def test_several_ys_sum_and_grad_ys_weight_them():
    x = tf.constant([1.0, 2.0])
    y1, y2 = x * 2.0, x * x
    (dx,) = tf.gradients([y1, y2], [x])
    np.testing.assert_allclose(_run(dx), [2 + 2, 2 + 4])
    (dx,) = tf.gradients([y1, y2], [x], grad_ys=[tf.constant([1.0, 0.0]), tf.constant([0.0, 10.0])])
    np.testing.assert_allclose(_run(dx), [2.0, 40.0])


def test_unconnected_xs_get_none_or_zeros():
    x = tf.constant([1.0, 2.0])
    z = tf.constant([3.0, 4.0])
    y = tf.reduce_sum(x * 2.0)
    assert tf.gradients(y, [x, z])[1] is None
    np.testing.assert_array_equal(_run(tf.gradients(y, [z], unconnected_gradients="zero")[0]), [0.0, 0.0])
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tf.gradients(y, [z], unconnected_gradients="maybe")


def test_variables_are_differentiated_through_their_read():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
    b = tf.get_variable("b", initializer=tf.constant([0.5, -0.5]))
    x = tf.constant([[1.0, 1.0]])
    y = tf.reduce_sum(tf.matmul(x, w) + b)
    gw, gb = tf.gradients(y, [w, b])
    assert gw.dtype == tf.float32 and gw.shape.as_list() == [2, 2]
    np.testing.assert_allclose(_run(gw), [[1, 1], [1, 1]])
    np.testing.assert_allclose(_run(gb), [1, 1])


def test_stop_gradient_op_and_stop_gradients_argument():
    x = tf.constant(3.0)
    y = x * x
    z = tf.stop_gradient(y) * x
    (dx,) = tf.gradients(z, [x])
    assert _run(dx) == 9.0
    a = tf.constant(2.0)
    b = a * a
    c = b * a
    (da,) = tf.gradients(c, [a], stop_gradients=[b])
    assert _run(da) == 4.0
    da, db = tf.gradients(c, [a, b])  # b is an x: its own inputs are not differentiated further
    assert (_run(da), _run(db)) == (4.0 + 2 * 2 * 2, 2.0)


def test_integer_paths_carry_no_gradient():
    x = tf.constant([1.5, 2.5])
    as_int = tf.cast(x, tf.int32)
    y = tf.cast(as_int * 2, tf.float32)
    assert tf.gradients(tf.reduce_sum(y), [x]) == [None]
    mask = tf.cast(tf.greater(x, 2.0), tf.float32)
    (dx,) = tf.gradients(tf.reduce_sum(mask * x), [x])
    np.testing.assert_allclose(_run(dx), [0.0, 1.0])


def test_op_without_a_gradient_raises_lookup_error():
    log = []
    x = tf.constant([1.0])
    y = tf.get_default_graph().create_op("NfTestBarrier", [x], {"barrier": log}, name="barrier").outputs[0]
    with pytest.raises(LookupError, match="No gradient defined for operation'barrier' \\(op type: NfTestBarrier\\)"):
        tf.gradients(y, [x])


def test_register_gradient_and_not_differentiable():
    @tf.RegisterGradient("NfTestRecord")
    def _grad(op, grad):
        return [grad * 10.0]

    x = tf.constant([1.0, 2.0])
    y = tf.get_default_graph().create_op("NfTestRecord", [x], {"log": []}, name="f").outputs[0]
    (dx,) = tf.gradients(y, [x])
    np.testing.assert_allclose(_run(dx), [10.0, 10.0])
    tf.NotDifferentiable("NfTestRecord")
    assert tf.gradients(y, [x]) == [None]


def test_gate_gradients_groups_each_ops_input_gradients():
    a = tf.constant([[1.0, 2.0]])
    b = tf.constant([[3.0], [4.0]])
    y = tf.matmul(a, b)
    ga, gb = tf.gradients(y, [a, b], gate_gradients=True)
    assert ga.op.type == "Identity" and ga.op.control_inputs
    np.testing.assert_allclose(_run(ga), [[3.0, 4.0]])
    np.testing.assert_allclose(_run(gb), [[1.0], [2.0]])
    assert ga.name == "gradients/MatMul_grad/tuple/control_dependency:0"
    assert gb.name == "gradients/MatMul_grad/tuple/control_dependency_1:0"


def test_gate_waits_only_for_gradients_on_the_way_to_xs():
    """The gradient wrt a fed input is built, as TF builds it, but a run of the weights' gradient skips it."""
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    (gw,) = tf.gradients(tf.reduce_sum(tf.matmul(x, w)), [w], gate_gradients=True)
    metadata = tf.RunMetadata()
    with tf.Session() as sess:
        sess.run(w.initializer)
        value = sess.run(gw, {x: [[1.0, 2.0], [3.0, 5.0]]}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                         run_metadata=metadata)
    np.testing.assert_allclose(value, [[4.0], [7.0]])
    ran = {ns.node_name for dev in metadata.step_stats.dev_stats for ns in dev.node_stats}
    assert "gradients/MatMul_grad/MatMul_1" in ran
    assert tf.get_default_graph().get_operation_by_name("gradients/MatMul_grad/MatMul").type == "MatMul"
    assert "gradients/MatMul_grad/MatMul" not in ran


def test_colocate_gradients_with_ops():
    with tf.device("/cpu:0"):
        x = tf.constant([1.0, 2.0], name="x")
        y = tf.square(x, name="sq")
    (dx,) = tf.gradients(y, [x], colocate_gradients_with_ops=True)
    assert b"loc:@sq" in dx.op.colocation_groups()


def test_grad_ys_dtype_must_match():
    x = tf.constant([1.0])
    with pytest.raises(TypeError, match="does not match"):
        tf.gradients(x * 2.0, [x], grad_ys=[tf.constant([1], dtype=tf.int32)])


def test_unknown_batch_dimension_broadcasting():
    x = tf.placeholder(tf.float32, [None, 3])
    b = tf.placeholder(tf.float32, [3])
    s = tf.placeholder(tf.float32, [None, 1])
    y = tf.reduce_mean(x * b + s)
    gx, gb, gs = tf.gradients(y, [x, b, s])
    assert gb.shape.as_list() == [3] and gs.shape.as_list() == [None, 1]
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = _run([gx, gb, gs], {x: xv, b: [1, 2, 3], s: [[1], [2]]})
    np.testing.assert_allclose(out[0], np.tile([1, 2, 3], (2, 1)) / 6)
    np.testing.assert_allclose(out[1], xv.sum(0) / 6, rtol=1e-6)
    np.testing.assert_allclose(out[2], [[0.5], [0.5]])


def test_run_time_broadcast_of_an_unknown_dimension():
    """Neither static shape tells whether x's first dimension is broadcast: NfSumToShape decides."""
    x = tf.placeholder(tf.float64, [None, 2])
    y = tf.placeholder(tf.float64, [None, 2])
    gx, gy = tf.gradients(tf.reduce_sum(x * y), [x, y])
    xv, yv = np.ones((1, 2)), np.arange(6.0).reshape(3, 2)
    out = _run([gx, gy], {x: xv, y: yv})
    np.testing.assert_allclose(out[0], yv.sum(0, keepdims=True))
    np.testing.assert_allclose(out[1], np.ones((3, 2)))
