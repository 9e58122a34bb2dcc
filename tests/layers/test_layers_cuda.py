"""A tf.layers model (convolution, batch norm with a training switch, pool, dense, dropout) placed on a GPU
computes what it computes on the CPU, gradients and moving-average updates included; under
NUMBA_ENABLE_CUDASIM=1 (tox -e cudasim) without a GPU. Serial executor, as the simulator needs."""

import numpy as np
import pytest

import numflow as tf
from numflow.runtime.executor import SyncExecutor

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not tf.test.is_gpu_available(), reason="no CUDA device "
                                                   "(set NUMBA_ENABLE_CUDASIM=1 to use the simulator)"),
              pytest.mark.filterwarnings("ignore::numflow.runtime.placement.PlacementWarning")]


def _train_once(device, images):
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        x = tf.constant(images)
        training = tf.placeholder(tf.bool, [])
        with tf.device(device):
            net = tf.layers.conv2d(x, 3, 3, padding="same", use_bias=False)
            net = tf.nn.relu(tf.layers.batch_normalization(net, training=training))
            net = tf.layers.max_pooling2d(net, 2, 2)
            net = tf.layers.dropout(tf.layers.dense(tf.layers.flatten(net), 4), 0.5, training=training, seed=1)
            loss = tf.reduce_sum(tf.square(net))
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session(pool=SyncExecutor()) as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run([loss, step], {training: True})[0]
            return [first, sess.run(loss, {training: False})] + sess.run(tf.global_variables())


def test_a_layers_model_trains_on_a_gpu_as_on_the_cpu():
    images = np.random.RandomState(0).uniform(-1, 1, (2, 4, 4, 2)).astype(np.float32)
    for cpu, gpu in zip(_train_once("/cpu:0", images), _train_once("/gpu:0", images)):
        np.testing.assert_allclose(gpu, cpu, rtol=1e-5, atol=1e-6)
