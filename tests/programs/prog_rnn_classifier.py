"""Sequence classifiers: an LSTM through dynamic_rnn with sequence lengths, a GRU stack through static_rnn
over tf.unstack, and a bidirectional LSTM through bidirectional_dynamic_rnn, trained together."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(11)
    rng = np.random.RandomState(11)
    n_steps, n_input, n_hidden, n_classes = 5, 3, 8, 2
    data = rng.randn(24, n_steps, n_input).astype(np.float32)
    lengths = rng.randint(2, n_steps + 1, size=24)
    labels = np.eye(n_classes)[(data[:, 0, 0] > 0).astype(int)]

    x = tf.placeholder("float", [None, n_steps, n_input])
    y = tf.placeholder("float", [None, n_classes])
    seqlen = tf.placeholder(tf.int32, [None])
    out_w = tf.Variable(tf.random_normal([n_hidden, n_classes]))
    out_b = tf.Variable(tf.random_normal([n_classes]))

    with tf.variable_scope("dynamic"):
        lstm = tf.nn.rnn_cell.BasicLSTMCell(n_hidden, forget_bias=1.0)
        outputs, state = tf.nn.dynamic_rnn(lstm, x, dtype=tf.float32, sequence_length=seqlen)
        batch_size = tf.shape(outputs)[0]
        index = tf.range(0, batch_size) * n_steps + (seqlen - 1)
        last = tf.gather(tf.reshape(outputs, [-1, n_hidden]), index)
        logits_dynamic = tf.matmul(last, out_w) + out_b

    with tf.variable_scope("static"):
        cells = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(n_hidden) for _ in range(2)])
        steps = tf.unstack(x, n_steps, 1)
        static_outputs, _ = tf.nn.static_rnn(cells, steps, dtype=tf.float32)
        logits_static = tf.matmul(static_outputs[-1], out_w) + out_b

    with tf.variable_scope("bidirectional"):
        fw, bw = tf.nn.rnn_cell.LSTMCell(n_hidden // 2), tf.nn.rnn_cell.LSTMCell(n_hidden // 2, use_peepholes=True)
        (out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(fw, bw, x, sequence_length=seqlen, dtype=tf.float32)
        logits_bi = tf.matmul(tf.concat([out_fw[:, -1], out_bw[:, 0]], 1), out_w) + out_b

    print(outputs, state, static_outputs[-1], out_fw, sep="\n")
    print([v.name for v in tf.trainable_variables()])
    losses = [tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=lg, labels=y))
              for lg in (logits_dynamic, logits_static, logits_bi)]
    train_op = tf.train.AdamOptimizer(0.01).minimize(tf.add_n(losses))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(1, 9):
            batch = slice(step % 3 * 8, step % 3 * 8 + 8)
            feed = {x: data[batch], y: labels[batch], seqlen: lengths[batch]}
            values = sess.run([train_op] + losses, feed)[1:]
            print("Step %d, losses %s" % (step, " ".join("%.5f" % v for v in values)))
        final_state = sess.run(state, {x: data[:2], seqlen: lengths[:2]})
        print(type(final_state).__name__, final_state.h)
