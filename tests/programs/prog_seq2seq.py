"""A character seq2seq model: an encoder dynamic_rnn whose final state starts a decoder dynamic_rnn, a
dense projection over time with tensordot, a masked sequence loss and greedy predictions."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(13)
    chars = list("SEPabcdefgh")
    index = {c: i for i, c in enumerate(chars)}
    pairs = [("abc", "cba"), ("bad", "dab"), ("fed", "def"), ("hag", "gah"), ("ace", "eca"), ("bed", "deb")]
    n_class, n_hidden = len(chars), 16

    def make_batch(pairs):
        enc, dec, target = [], [], []
        for src, dst in pairs:
            enc.append(np.eye(n_class)[[index[c] for c in src]])
            dec.append(np.eye(n_class)[[index[c] for c in "S" + dst]])
            target.append([index[c] for c in dst + "E"])
        return enc, dec, target

    enc_input = tf.placeholder(tf.float32, [None, None, n_class])
    dec_input = tf.placeholder(tf.float32, [None, None, n_class])
    targets = tf.placeholder(tf.int64, [None, None])
    with tf.variable_scope("encode"):
        enc_cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(n_hidden), output_keep_prob=1.0)
        _, enc_states = tf.nn.dynamic_rnn(enc_cell, enc_input, dtype=tf.float32)
    with tf.variable_scope("decode"):
        dec_cell = tf.nn.rnn_cell.BasicRNNCell(n_hidden)
        outputs, _ = tf.nn.dynamic_rnn(dec_cell, dec_input, initial_state=enc_states, dtype=tf.float32)
    W = tf.get_variable("proj_w", [n_hidden, n_class], initializer=tf.glorot_uniform_initializer())
    model = tf.tensordot(outputs, W, axes=[[2], [0]])
    mask = tf.sequence_mask(tf.fill([tf.shape(targets)[0]], tf.shape(targets)[1]), dtype=tf.float32)
    step_losses = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=model, labels=targets)
    cost = tf.reduce_sum(step_losses * mask) / tf.reduce_sum(mask)
    optimizer = tf.train.AdamOptimizer(0.02).minimize(cost)
    prediction = tf.argmax(model, 2)
    print(model, mask, cost, enc_states, sep="\n")

    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    input_batch, output_batch, target_batch = make_batch(pairs)
    for epoch in range(12):
        _, loss = sess.run([optimizer, cost], {enc_input: input_batch, dec_input: output_batch, targets: target_batch})
        print("Epoch:", "%04d" % (epoch + 1), "cost =", "{:.6f}".format(loss))
    for src, _ in pairs[:3]:
        enc, dec, tgt = make_batch([(src, "PPP")])
        result = sess.run(prediction, {enc_input: enc, dec_input: dec, targets: tgt})
        print(src, "->", "".join(chars[i] for i in result[0]))
    sess.close()
