"""A seeded recurrent language model: an embedding, two LSTM layers run by ``dynamic_rnn`` (a while
loop and its gradient loop, with accumulators), sequence lengths, gradient clipping and SGD."""

import numpy as np

STEPS = 4
VOCAB, HIDDEN, BATCH, TIME = 50, 32, 8, 12


def run(tf, config):
    """Train for STEPS on fixed token ids; the fetched losses and final states, then the variables."""
    rng = np.random.default_rng(13)
    ids = rng.integers(0, VOCAB, (BATCH, TIME + 1))
    lengths = rng.integers(TIME // 2, TIME + 1, BATCH)
    tf.set_random_seed(9)
    inputs = tf.placeholder(tf.int32, [BATCH, TIME])
    targets = tf.placeholder(tf.int32, [BATCH, TIME])
    length = tf.placeholder(tf.int32, [BATCH])
    embedding = tf.get_variable("embedding", [VOCAB, HIDDEN], initializer=tf.random_uniform_initializer(-0.1, 0.1))
    cells = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(HIDDEN) for _ in range(2)])
    outputs, state = tf.nn.dynamic_rnn(cells, tf.nn.embedding_lookup(embedding, inputs), sequence_length=length,
                                       dtype=tf.float32)
    softmax_w = tf.get_variable("softmax_w", [HIDDEN, VOCAB], initializer=tf.glorot_uniform_initializer())
    logits = tf.reshape(tf.matmul(tf.reshape(outputs, [-1, HIDDEN]), softmax_w), [BATCH, TIME, VOCAB])
    mask = tf.sequence_mask(length, TIME, dtype=tf.float32)
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits)
    loss = tf.reduce_sum(losses * mask) / tf.reduce_sum(mask)
    variables = tf.trainable_variables()
    grads, _ = tf.clip_by_global_norm(tf.gradients(loss, variables), 5.0)
    train = tf.train.GradientDescentOptimizer(0.5).apply_gradients(zip(grads, variables))
    fetched = {}
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        feed = {inputs: ids[:, :-1], targets: ids[:, 1:], length: lengths}
        for step in range(STEPS):
            _, fetched[f"loss/{step}"] = sess.run([train, loss], feed)
        final = sess.run(state, feed)
        for layer, (c, h) in enumerate(final):
            fetched[f"state/{layer}/c"], fetched[f"state/{layer}/h"] = c, h
        fetched.update({v.op.name: sess.run(v) for v in tf.global_variables()})
    return fetched
