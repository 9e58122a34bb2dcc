"""Static shapes of the convolutions and pools from partly known inputs (as TensorFlow's shape
functions give them), the dtypes they run on, and channels-first layouts against channels-last."""

import numpy as np
import pytest

import numflow as tf


def _p(shape, dtype=tf.float32):
    return tf.placeholder(dtype, shape)


@pytest.mark.parametrize("build, want", [
    (lambda: tf.nn.max_pool(_p([None, 28, 28, 32]), 2, 2, "SAME"), [None, 14, 14, 32]),
    (lambda: tf.nn.max_pool(_p([None, None, 9, 3]), 3, 2, "VALID"), [None, None, 4, 3]),
    (lambda: tf.nn.max_pool(_p(None), 2, 2, "SAME"), [None, None, None, None]),
    (lambda: tf.nn.avg_pool(_p([2, 3, 7, 7]), [1, 1, 3, 3], [1, 1, 2, 2], "SAME", data_format="NCHW"), [2, 3, 4, 4]),
    (lambda: tf.nn.max_pool3d(_p([None, 8, 8, 8, 2]), 2, 2, "VALID"), [None, 4, 4, 4, 2]),
    (lambda: tf.nn.max_pool1d(_p([None, 10, 4]), 3, 3, "SAME"), [None, 4, 4]),
    (lambda: tf.nn.max_pool_with_argmax(_p([None, 6, 6, 2]), 2, 2, "SAME")[1], [None, 3, 3, 2]),
    (lambda: tf.nn.conv3d(_p([None, 8, None, 8, 2]), tf.ones([3, 3, 3, 2, 5]), [1, 2, 2, 2, 1], "SAME"),
     [None, 4, None, 4, 5]),
    (lambda: tf.nn.conv1d(_p([None, 20, 3]), tf.ones([5, 3, 7]), 2, "VALID"), [None, 8, 7]),
    (lambda: tf.nn.conv2d_transpose(_p([None, 7, 7, 8]), tf.ones([3, 3, 4, 8]), tf.stack([tf.shape(_p([None]))[0], 14,
                                                                                          14, 4]), 2),
     [None, 14, 14, 4]),
    (lambda: tf.nn.depthwise_conv2d(_p([None, 9, 9, 3]), tf.ones([3, 3, 3, 2]), [1, 2, 2, 1], "VALID"),
     [None, 4, 4, 6]),
    (lambda: tf.nn.separable_conv2d(_p([None, 9, 9, 3]), tf.ones([3, 3, 3, 2]), tf.ones([1, 1, 6, 4]), [1] * 4,
                                    "SAME"), [None, 9, 9, 4]),
    (lambda: tf.nn.atrous_conv2d(_p([None, 9, 9, 3]), tf.ones([3, 3, 3, 2]), 2, "VALID"), [None, 5, 5, 2]),
    (lambda: tf.nn.dropout(_p([None, 5]), rate=0.3), [None, 5]),
])
def test_static_shape(build, want):
    with tf.Graph().as_default():
        assert build().shape.as_list() == want


def test_pools_of_integers_and_half_floats():
    ints = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run([tf.nn.max_pool(ints, 2, 2, "VALID"),
                        tf.nn.avg_pool(tf.constant(ints.astype(np.float16)), 2, 2, "VALID"),
                        tf.nn.max_pool(tf.constant(-ints), 3, 2, "SAME")])
    assert got[0].dtype == np.int32 and got[0][0, :, :, 0].tolist() == [[5, 7], [13, 15]]
    assert got[1].dtype == np.float16 and got[1][0, :, :, 0].tolist() == [[2.5, 4.5], [10.5, 12.5]]
    assert got[2][0, :, :, 0].tolist() == [[0, -2], [-8, -10]]  # padding never wins, even below zero


def test_channels_first_3d_is_channels_last_transposed():
    rng = np.random.RandomState(5)
    x, w = rng.randn(2, 4, 5, 6, 3).astype(np.float32), rng.randn(2, 3, 2, 3, 4).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        last = tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], "SAME")
        first = tf.nn.conv3d(x.transpose(0, 4, 1, 2, 3), w, [1, 1, 2, 1, 2], "SAME", data_format="NCDHW")
        pool_last = tf.nn.avg_pool3d(x, [1, 2, 2, 3, 1], [1, 1, 2, 2, 1], "SAME")
        pool_first = tf.nn.avg_pool3d(x.transpose(0, 4, 1, 2, 3), [1, 1, 2, 2, 3], [1, 1, 1, 2, 2], "SAME",
                                      data_format="NCDHW")
        got = sess.run([last, first, pool_last, pool_first])
    np.testing.assert_allclose(got[1].transpose(0, 2, 3, 4, 1), got[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[3].transpose(0, 2, 3, 4, 1), got[2], rtol=1e-6)


def test_required_space_to_batch_paddings_round_each_dimension_up_to_its_block():
    known_paddings, known_crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]])
    shape = tf.placeholder(tf.int32, [2])
    paddings, crops = tf.required_space_to_batch_paddings(shape, [2, 2])
    assert paddings.op.name == "required_space_to_batch_paddings_1/paddings"
    with tf.Session() as sess:
        # 5 + 1 + 0 = 6 and 7 + 0 + 2 = 9 divide already; 3 and 5 need one more each.
        assert [v.tolist() for v in sess.run([known_paddings, known_crops])] == [[[1, 0], [0, 2]], [[0, 0], [0, 0]]]
        assert [v.tolist() for v in sess.run([paddings, crops], {shape: [3, 5]})] == [[[0, 1], [0, 1]],
                                                                                        [[0, 1], [0, 1]]]
