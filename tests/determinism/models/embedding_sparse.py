"""A seeded embedding model whose gathers give IndexedSlices: repeated ids summed (UnsortedSegmentSum)
before Momentum's and Adagrad's sparse updates, two lookups of one table concatenated, a mean and a sum
over each bag. The two optimizers run in one step, each differentiating through ``w``, which one of
them updates: the plan orders those reads before the update."""

import numpy as np

STEPS = 6


def run(tf, config):
    """Train for STEPS on fixed bags of ids; the losses, then the variables."""
    rng = np.random.default_rng(13)
    bags = rng.integers(0, 500, (STEPS, 128, 8))
    labels = rng.integers(0, 5, (STEPS, 128))
    tf.set_random_seed(9)
    ids = tf.placeholder(tf.int32, [None, 8])
    y = tf.placeholder(tf.int64, [None])
    table = tf.get_variable("table", [500, 64], initializer=tf.random_uniform_initializer(-0.1, 0.1))
    context = tf.get_variable("context", [500, 64], initializer=tf.random_normal_initializer(stddev=0.1))
    w = tf.get_variable("w", [128, 5], initializer=tf.glorot_normal_initializer())
    bag = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
    first = tf.gather(table, ids[:, 0])  # a second lookup of the same table
    features = tf.concat([bag + first, tf.reduce_sum(tf.nn.embedding_lookup(context, ids), axis=1)], axis=1)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=tf.matmul(features, w)))
    train = tf.group(tf.train.MomentumOptimizer(0.5, 0.9).minimize(loss, var_list=[table, w]),
                     tf.train.AdagradOptimizer(0.5).minimize(loss, var_list=[context]))
    fetched = {}
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(STEPS):
            _, fetched[f"loss/{step}"] = sess.run([train, loss], {ids: bags[step], y: labels[step]})
        fetched.update({v.op.name: sess.run(v) for v in tf.global_variables()})
    return fetched
