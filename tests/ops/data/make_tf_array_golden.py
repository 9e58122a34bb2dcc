"""Regenerate tf_array_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    python tests/ops/data/make_tf_array_golden.py   # in an environment with tensorflow installed

It holds an embedding model's training under TensorFlow's optimizers (``train_*``), and the
gradients of MirrorPad, Tile and GatherV2 for a fixed weighting of their outputs (``grad_*``).
"""

import pathlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

BATCHES = [[0, 2, 2, 4], [1, 4], [0, 5, 5]]  # rows 3 never gathered; duplicates within a batch


def _train(make_optimizer, dense, emb0, w0, targets):
    """Losses per step and the final variables of ``tanh(embedding_lookup(emb, ids)) @ w`` fit to targets."""
    with tf.Graph().as_default():
        emb = tf.Variable(emb0, name="emb")
        w = tf.Variable(w0, name="w")
        ids = tf.placeholder(tf.int32, [None])
        y = tf.placeholder(tf.float32, [None, 1])
        pred = tf.matmul(tf.tanh(tf.nn.embedding_lookup(emb, ids)), w)
        loss = tf.reduce_mean(tf.square(pred - y))
        opt = make_optimizer()
        grads = opt.compute_gradients(loss)
        if dense:
            grads = [(tf.convert_to_tensor(g), v) for g, v in grads]
        train = opt.apply_gradients(grads)
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for batch in BATCHES:
                feed = {ids: batch, y: targets[batch]}
                losses.append(sess.run(loss, feed))
                sess.run(train, feed)
            return np.array(losses, np.float32), *sess.run([emb, w])


def _grad(build, x):
    with tf.Graph().as_default():
        xt = tf.constant(x)
        out = build(xt)
        weights = np.arange(1, out.shape.num_elements() + 1, dtype=np.float64).reshape(out.shape.as_list())
        (g,) = tf.gradients(tf.reduce_sum(out * weights), [xt])
        with tf.Session() as sess:
            return sess.run(tf.convert_to_tensor(g))


def main():
    rng = np.random.RandomState(7)
    emb0 = rng.randn(6, 3).astype(np.float32)
    w0 = rng.randn(3, 1).astype(np.float32)
    targets = rng.randn(6, 1).astype(np.float32)
    arrays = dict(emb0=emb0, w0=w0, targets=targets, batches=np.array([b + [-1] * (4 - len(b)) for b in BATCHES]))
    optimizers = {
        "gd": lambda: tf.train.GradientDescentOptimizer(0.5),
        "adam": lambda: tf.train.AdamOptimizer(0.1),
        "momentum": lambda: tf.train.MomentumOptimizer(0.5, 0.9),
    }
    for name, make in optimizers.items():
        for kind, dense in (("sparse", False), ("dense", True)):
            losses, emb, w = _train(make, dense, emb0, w0, targets)
            arrays.update({f"train_{name}_{kind}_losses": losses, f"train_{name}_{kind}_emb": emb,
                           f"train_{name}_{kind}_w": w})
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    arrays["grad_reflect"] = _grad(lambda t: tf.pad(t, [[2, 1], [3, 2]], mode="REFLECT"), x)
    arrays["grad_symmetric"] = _grad(lambda t: tf.pad(t, [[3, 0], [1, 4]], mode="SYMMETRIC"), x)
    arrays["grad_tile"] = _grad(lambda t: tf.tile(t, [2, 3]), x)
    arrays["grad_gather_axis1"] = _grad(lambda t: tf.gather(t, [[3, 0], [3, 3]], axis=1), x)
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_array_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
