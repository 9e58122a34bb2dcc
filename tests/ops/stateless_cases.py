"""The graphs behind ``data/tf_stateless_golden.npz``, written once for both engines: stateless random ops
from the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests); each case
returns the tensors to fetch."""

CASES = {
    "uniform": lambda tf: [tf.random.stateless_uniform([2, 3], seed=[1, 2]),
                           tf.random.stateless_uniform([5], seed=[-4, 2**40], minval=-1.0, maxval=3.0,
                                                       dtype=tf.float64),
                           tf.random.stateless_uniform([7], seed=[9, 9], minval=-1.0, maxval=3.0, dtype=tf.float16)],
    "uniform_int": lambda tf: [tf.random.stateless_uniform([4], seed=[1, 2], minval=0, maxval=10, dtype=tf.int32),
                               tf.random.stateless_uniform([3, 2], seed=[2**40, 5], minval=-5, maxval=5,
                                                           dtype=tf.int64)],
    "normal": lambda tf: [tf.random.stateless_normal([5], seed=tf.constant([7, -3], tf.int64), mean=1.0, stddev=2.0),
                          tf.random.stateless_normal([3, 3], seed=[0, 0], dtype=tf.float64)],
    "categorical": lambda tf: [
        tf.random.stateless_categorical([[0.0, 1.0, -1.0], [2.0, 0.5, 0.5]], 7, seed=[4, 5]),
        tf.random.stateless_multinomial(tf.log([[0.2, 0.3, 0.5]]), 9, seed=tf.constant([1, -1], tf.int64),
                                        output_dtype=tf.int32)],
    "truncated_normal": lambda tf: [tf.random.stateless_truncated_normal([2, 2], seed=[3, 4], dtype=tf.float64),
                                    tf.random.stateless_truncated_normal([9], seed=[3, 5], stddev=0.5)],
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
