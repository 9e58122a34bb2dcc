"""GPU op kernels against their CPU twins; under NUMBA_ENABLE_CUDASIM=1 (tox -e cudasim) without a GPU."""

import numpy as np
import pytest

import numflow as tf

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not tf.test.is_gpu_available(), reason="no CUDA device "
                                                   "(set NUMBA_ENABLE_CUDASIM=1 to use the simulator)")]


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


@pytest.mark.parametrize("init", [
    tf.random_normal_initializer(seed=3), tf.truncated_normal_initializer(seed=4),
    tf.random_uniform_initializer(-2, 2, seed=5), tf.glorot_uniform_initializer(seed=6),
    tf.constant_initializer(0.5), tf.zeros_initializer(),
])
def test_seeded_initial_values_are_bit_identical_on_gpu_and_cpu(init):
    with tf.device("/gpu:0"):
        on_gpu = tf.get_variable("g", [17, 9], initializer=init)
    on_cpu = tf.get_variable("c", [17, 9], initializer=init)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.list_devices()[1].device_type == "GPU"
        g, c = sess.run([on_gpu, on_cpu])
    assert g.tobytes() == c.tobytes()


def test_updates_on_gpu_match_numpy():
    start = np.arange(12, dtype=np.float32).reshape(4, 3)
    with tf.device("/gpu:0"):
        v = tf.Variable(start, name="v")
        add = v.assign_add(v * 2.0 + 1.0)
        sub = v.assign_sub(tf.ones([4, 3]))
        scatter = tf.scatter_add(v, [2, 0, 2], np.ones((3, 3), np.float32))
        total = tf.reduce_sum(v)
    with tf.Session() as sess:
        sess.run(v.initializer)
        expected = start * 3 + 1
        np.testing.assert_array_equal(sess.run(add), expected)
        expected -= 1
        np.testing.assert_array_equal(sess.run(sub), expected)
        expected[[2, 0, 2]] += 0
        np.add.at(expected, [2, 0, 2], 1.0)
        np.testing.assert_array_equal(sess.run(scatter), expected)
        assert sess.run(total) == expected.sum()
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 9 is not in \[0, 4\)"):
            sess.run(tf.scatter_update(v, [9], np.zeros((1, 3), np.float32)))
        np.testing.assert_array_equal(sess.run(v), expected)


def test_scatter_nd_on_a_gpu_variable():
    start = np.arange(12, dtype=np.float32).reshape(4, 3)
    with tf.device("/gpu:0"):
        v = tf.Variable(start, name="v")
        update = tf.scatter_nd_update(v, [[1], [3]], np.full((2, 3), 9.0, np.float32))
        add = tf.scatter_nd_add(v, [[0, 1], [0, 1]], [1.0, 2.0])
    with tf.Session() as sess:
        sess.run(v.initializer)
        expected = start.copy()
        expected[[1, 3]] = 9.0
        np.testing.assert_array_equal(sess.run(update), expected)
        expected[0, 1] += 3.0
        np.testing.assert_array_equal(sess.run(add), expected)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"does not index into shape \[4,3\]"):
            sess.run(tf.scatter_nd_update(v, [[9]], np.zeros((1, 3), np.float32)))


def test_gpu_variable_saves_and_restores_through_the_host(tmp_path):
    with tf.device("/gpu:0"):
        v = tf.Variable(np.arange(6, dtype=np.float32), name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "gpu"))
        sess.run(v.assign(np.zeros(6, np.float32)))
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(v), np.arange(6))


def test_complex_and_fft_ops_on_gpu_match_the_cpu():
    signal = np.random.RandomState(0).randn(2, 16).astype(np.float32)

    def build():
        spectrum = tf.signal.rfft(tf.constant(signal))
        z = spectrum * spectrum + spectrum
        return [tf.abs(z), tf.sqrt(z), tf.exp(z * 0.01), tf.squared_difference(z, spectrum), tf.real(tf.fft(z)),
                tf.signal.irfft(z), tf.angle(tf.conj(z))]

    with tf.device("/gpu:0"):
        on_gpu = build()
    on_cpu = build()
    with tf.Session() as sess:
        got, want = sess.run([on_gpu, on_cpu])
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
