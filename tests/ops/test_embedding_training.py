"""An embedding model (``embedding_lookup`` -> tanh -> matmul) trained for three steps, against the
losses and variables TensorFlow's optimizers give (``data/tf_array_golden.npz``, made by
``data/make_tf_array_golden.py``). The batches repeat rows and leave row 3 out."""

import pathlib

import numpy as np
import pytest

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).with_name("data") / "tf_array_golden.npz")


def _train(optimizer):
    emb = tf.Variable(GOLDEN["emb0"], name="emb")
    w = tf.Variable(GOLDEN["w0"], name="w")
    ids = tf.placeholder(tf.int32, [None])
    y = tf.placeholder(tf.float32, [None, 1])
    pred = tf.matmul(tf.tanh(tf.nn.embedding_lookup(emb, ids)), w)
    loss = tf.reduce_mean(tf.square(pred - y))
    train = optimizer.minimize(loss)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for batch in GOLDEN["batches"]:
            batch = batch[batch >= 0]
            feed = {ids: batch, y: GOLDEN["targets"][batch]}
            losses.append(sess.run(loss, feed))
            sess.run(train, feed)
        return np.array(losses), *sess.run([emb, w])


def _assert_matches(got, key):
    losses, emb, w = got
    np.testing.assert_allclose(losses, GOLDEN[f"train_{key}_losses"], rtol=1e-6)
    np.testing.assert_allclose(emb, GOLDEN[f"train_{key}_emb"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w, GOLDEN[f"train_{key}_w"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, make", [
    ("gd", lambda: tf.train.GradientDescentOptimizer(0.5)),
    ("adam", lambda: tf.train.AdamOptimizer(0.1)),  # TF 1's sparse Adam decays m and v on every row too
    ("momentum", lambda: tf.train.MomentumOptimizer(0.5, 0.9)),  # rows absent from a batch stay where they are
])
def test_matches_tensorflow_sparse_updates(name, make):
    _assert_matches(_train(make()), f"{name}_sparse")
