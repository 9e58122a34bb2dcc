"""Build errors of cosine_distance, mean_pairwise_squared_error, log_poisson_loss and
safe_embedding_lookup_sparse, in TensorFlow 2.21's words (their values, names and gradients are among the
golden cases of ``math_cases.py``), and the LOSSES collection they add to."""

import numpy as np
import pytest

import numflow as tf


def test_errors():
    with tf.Graph().as_default():
        x = tf.ones([2, 3])
        with pytest.raises(ValueError, match="^You must specify argument `axis`.$"):
            tf.losses.cosine_distance(x, x)
        with pytest.raises(ValueError, match="^Argument `labels` must not be None.$"):
            tf.losses.mean_pairwise_squared_error(None, x)
        with pytest.raises(ValueError, match=r"^`log_input` and `targets` must have the same shape, received "
                                             r"\(\(2, 3\) vs \(3,\)\).$"):
            tf.nn.log_poisson_loss(tf.ones([3]), x)
        with pytest.raises(ValueError, match="^Missing embedding_weights None.$"):
            tf.nn.safe_embedding_lookup_sparse(None, tf.SparseTensor([[0, 0]], [0], [1, 1]))


def test_losses_join_the_collection():
    with tf.Graph().as_default():
        x = np.ones((2, 3), np.float32)
        a = tf.losses.cosine_distance(x, x, axis=1)
        b = tf.losses.mean_pairwise_squared_error(x, x * 2)
        assert tf.losses.get_losses() == [a, b]
