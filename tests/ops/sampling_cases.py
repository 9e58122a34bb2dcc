"""The graphs behind ``data/tf_random_ops_golden.npz``, written once for both engines: each case builds one
sampling op from the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the
tests); the golden file holds its values over ``RUNS`` runs in one session."""

import numpy as np

RUNS = 2
with np.errstate(divide="ignore"):
    _LOGITS = np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]]))
_LOGITS_INF = np.array([[-np.inf, 0.0, 1.0, np.inf], [np.nan, 2.0, -1.0, 0.5]], np.float32)

CASES = {
    "shuffle_vector": lambda tf: tf.random_shuffle(tf.range(10), seed=3),
    "shuffle_rows": lambda tf: tf.random_shuffle(tf.reshape(tf.range(24.0), [6, 4]), seed=7),
    "shuffle_long": lambda tf: tf.random_shuffle(tf.range(1001), seed=11),
    "shuffle_one_row": lambda tf: tf.random_shuffle([[1, 2, 3]], seed=1),
    "multinomial": lambda tf: tf.multinomial(_LOGITS.astype(np.float32), 7, seed=5),
    "multinomial_int32": lambda tf: tf.multinomial(_LOGITS, 9, seed=6, output_dtype=tf.int32),
    "multinomial_nonfinite": lambda tf: tf.multinomial(_LOGITS_INF, 6, seed=2),
    "categorical": lambda tf: tf.random.categorical(_LOGITS.astype(np.float32), 4, seed=9),
    "gamma": lambda tf: tf.random_gamma([5], [0.3, 1.0, 2.5, 40.0], seed=4),
    "gamma_float64_beta": lambda tf: tf.random_gamma([3, 2], [[0.7], [5.0]], beta=[2.0, 0.5], dtype=tf.float64,
                                                     seed=8),
    "poisson": lambda tf: tf.random_poisson([0.5, 3.0, 12.0, 150.0], [6], seed=12),
    "poisson_int": lambda tf: tf.random_poisson([[2.0], [30.0]], [4], dtype=tf.int64, seed=13),
}


def run_case(tf, name, graph_seed=None):
    """The values of case ``name`` over ``RUNS`` runs of one session, stacked."""
    with tf.Graph().as_default():
        if graph_seed is not None:
            tf.set_random_seed(graph_seed)
        out = CASES[name](tf)
        with tf.Session() as sess:
            return np.stack([sess.run(out) for _ in range(RUNS)])


def gamma_gradients(tf, dtype):
    """Samples of ``random_gamma`` and the gradients of their weighted sum with respect to alpha and beta."""
    with tf.Graph().as_default():
        alpha = tf.constant([[0.3, 1.0, 2.5], [40.0, 0.05, 7.0]], dtype=dtype)
        beta = tf.constant([2.0, 0.5, 1.0], dtype=dtype)
        sample = tf.random_gamma([4], alpha, beta=beta, dtype=dtype, seed=21)
        weights = np.arange(1, 25, dtype=np.float64).reshape(4, 2, 3).astype(dtype.as_numpy_dtype) / 10
        grads = tf.gradients(tf.reduce_sum(sample * weights), [alpha, beta])
        with tf.Session() as sess:
            return sess.run([sample] + grads)
