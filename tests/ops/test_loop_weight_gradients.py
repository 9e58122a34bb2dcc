"""A loop's gradient of a weight it captured, summed after the loop as one product (``x_t^T @ dz_t`` over
the rows of every iteration) or one bias sum: the same values as the loop unrolled by hand, whose
gradient is the plain sum of the steps' products; the same values after a MatMul-free loop of zero
iterations; and through a MetaGraph written and read back.
"""

import numpy as np
import pytest

import numflow as tf

STEPS, BATCH, FEATURES, UNITS = 5, 3, 4, 6


def _step(x_t, h, w, u, b):
    return tf.tanh(tf.nn.bias_add(tf.matmul(x_t, w) + tf.matmul(h, u), b))


def _weights():
    rng = np.random.default_rng(7)
    w = tf.constant(rng.standard_normal((FEATURES, UNITS)) * 0.5)
    u = tf.constant(rng.standard_normal((UNITS, UNITS)) * 0.5)
    b = tf.constant(rng.standard_normal(UNITS) * 0.1)
    return w, u, b


def _looped(x, steps):
    w, u, b = _weights()

    def body(i, h, total):
        h = _step(x[i], h, w, u, b)
        return i + 1, h, total + tf.reduce_sum(h * h)

    h0 = tf.zeros([tf.shape(x)[1], UNITS], tf.float64)
    _, _, loss = tf.while_loop(lambda i, h, total: i < steps, body, [0, h0, tf.constant(0.0, tf.float64)])
    return loss, [w, u, b]


def _unrolled(x, steps):
    w, u, b = _weights()
    h = tf.zeros([BATCH, UNITS], tf.float64)
    loss = tf.constant(0.0, tf.float64)
    for i in range(steps):
        h = _step(x[i], h, w, u, b)
        loss = loss + tf.reduce_sum(h * h)
    return loss, [w, u, b]


def _gradients(build, x_value, steps, batch=BATCH):
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float64, [STEPS, batch, FEATURES])
        loss, weights = build(x, steps)
        grads = tf.gradients(loss, weights)
        with tf.Session() as sess:
            return graph, sess.run(grads, {x: x_value})


X = np.random.default_rng(3).standard_normal((STEPS, BATCH, FEATURES))


def test_a_weights_gradient_is_summed_after_the_loop_to_the_unrolled_loops_values():
    graph, looped = _gradients(_looped, X, STEPS)
    _, unrolled = _gradients(_unrolled, X, STEPS)
    for got, want, name in zip(looped, unrolled, ["w", "u", "b"]):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=name)
    stacked = [op for op in graph.get_operations() if op.type == "AccumulatorConcat"]
    after = {c.type for op in stacked for c in op.outputs[0].consumers()}
    assert after == {"MatMul", "BiasAddGrad"}
    # x_t and h_t for the two products, dz_t once for both products and the bias.
    assert len(stacked) == 3


def test_rows_unknown_when_built_are_stacked_as_they_come():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [STEPS, None, FEATURES])
        loss, weights = _looped(x, STEPS)
        grads = tf.gradients(loss, weights)
        with tf.Session() as sess:
            looped = sess.run(grads, {x: X})
    _, unrolled = _gradients(_unrolled, X, STEPS)
    for got, want in zip(looped, unrolled):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_a_loop_that_runs_no_iteration_gives_zero_gradients_of_the_weights_shapes():
    _, grads = _gradients(_looped, X, 0)
    for got, shape in zip(grads, [(FEATURES, UNITS), (UNITS, UNITS), (UNITS,)]):
        np.testing.assert_array_equal(got, np.zeros(shape))


def test_rows_that_change_from_iteration_to_iteration_are_stacked_in_turn():
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((6, FEATURES))
    dz = rng.standard_normal((6, UNITS))
    with tf.Graph().as_default():
        w = tf.constant(rng.standard_normal((FEATURES, UNITS)))

        def body(i, total):  # iteration i multiplies rows [i, 2i + 1) of xs
            rows = tf.constant(xs)[i:2 * i + 1]
            return i + 1, total + tf.reduce_sum(tf.matmul(rows, w) * tf.constant(dz)[i:2 * i + 1])

        _, loss = tf.while_loop(lambda i, t: i < 3, body, [0, tf.constant(0.0, tf.float64)],
                                shape_invariants=[tf.TensorShape([]), tf.TensorShape([])])
        (grad,) = tf.gradients(loss, [w])
        with tf.Session() as sess:
            got = sess.run(grad)
    want = sum(xs[i:2 * i + 1].T @ dz[i:2 * i + 1] for i in range(3))
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_a_dynamic_rnns_kernel_gradient_is_one_product_and_matches_the_unrolled_static_rnn():
    rng = np.random.default_rng(11)
    inputs = rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)
    results = []
    for unroll in (False, True):
        with tf.Graph().as_default() as graph:
            x = tf.constant(inputs)
            cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
            if unroll:
                outputs, _ = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32, scope="rnn")
                outputs = tf.stack(outputs, axis=1)
            else:
                outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope="rnn")
            weights = tf.trainable_variables()
            grads = tf.gradients(tf.reduce_sum(tf.square(outputs)), weights)
            if not unroll:
                assert {c.type for op in graph.get_operations() if op.type == "AccumulatorConcat"
                        for c in op.outputs[0].consumers()} == {"MatMul", "BiasAddGrad"}
            with tf.Session() as sess:
                sess.run([w.initializer for w in weights],
                         {w.initial_value: rng_w.standard_normal(w.shape.as_list()).astype(np.float32) * 0.3
                          for w, rng_w in zip(weights, [np.random.default_rng(1), np.random.default_rng(2)])})
                results.append(sess.run(grads))
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


def test_the_summed_gradient_goes_through_a_meta_graph_as_a_tensor_list_concat(tmp_path):
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float64, [STEPS, BATCH, FEATURES], name="x")
        loss, weights = _looped(x, STEPS)
        grads = tf.gradients(loss, weights)
        for g in grads:
            tf.add_to_collection("grads", g)
        tf.train.export_meta_graph(str(tmp_path / "loop.meta"))
        meta = graph.as_graph_def()
        with tf.Session() as sess:
            want = sess.run(grads, {x: X})
    assert "TensorListConcatV2" in {n.op for n in meta.node}
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.train.import_meta_graph(str(tmp_path / "loop.meta"))
        got = sess.run(tf.get_collection("grads"), {"x:0": X})
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("shape,message", [
    ([-1, -1], "All except the first dimension must be fully defined when concating an empty tensor list"),
    ([], "Concat requires elements to be at least vectors"),
])
def test_tensor_list_concat_of_what_it_cannot_concatenate_is_tensorflows_error(shape, message):
    with tf.Graph().as_default() as graph:
        empty = graph.create_op("EmptyTensorList", [tf.constant(shape if shape else -1, tf.int32), tf.constant(-1)],
                                {"element_dtype": tf.float32}).outputs[0]
        concat = graph.create_op("TensorListConcatV2", [empty, tf.constant(shape, tf.int32),
                                                        tf.constant([], tf.int64)],
                                 {"element_dtype": tf.float32, "shape_type": tf.int32}).outputs[0]
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(concat)
