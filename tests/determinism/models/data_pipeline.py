"""A softmax regression trained from a tf.data pipeline: slices shuffled with a seed each epoch, a map
adding seeded random noise (a stateful op in a dataset function), batches, repeat and prefetch; and a
queue pipeline (slice_input_producer into shuffle_batch, one enqueue thread) read beside it."""

import numpy as np

STEPS = 12


def run(tf, config):
    """Train for STEPS; the batches read, the losses, then the variables."""
    rng = np.random.default_rng(5)
    data = rng.standard_normal((96, 20)).astype(np.float32)
    labels = rng.integers(0, 4, 96)
    tf.set_random_seed(9)
    ds = tf.data.Dataset.from_tensor_slices((data, labels)).shuffle(32, seed=1).repeat()
    ds = ds.map(lambda x, y: (x + tf.random_normal([20], stddev=0.1), y), num_parallel_calls=2)
    x, y = tf.data.make_one_shot_iterator(ds.batch(16).prefetch(2)).get_next()
    queued = tf.train.slice_input_producer([np.arange(96, dtype=np.int64)], seed=2)[0]
    picked = tf.train.shuffle_batch([queued], 8, capacity=40, min_after_dequeue=10, seed=4)
    w = tf.Variable(tf.zeros([20, 4]), name="w")
    logits = tf.matmul(x, w)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    fetched = {}
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        for step in range(STEPS):
            _, fetched[f"loss/{step}"], fetched[f"labels/{step}"], fetched[f"picked/{step}"] = sess.run(
                [train, loss, y, picked])
        coord.request_stop()
        coord.join(threads)
        fetched.update({v.op.name: sess.run(v) for v in tf.global_variables()})
    return fetched
