"""A convolutional sentence classifier in the style of the well-known text-CNN tutorial: an embedding,
expand_dims, several filter sizes of VALID conv2d each max-pooled over the sentence, concatenation,
dropout, an L2-regularized output layer in name scopes, summaries with zero_fraction, and a global step."""

import numpy as np


def main(tf, workdir):
    rng = np.random.RandomState(47)
    sequence_length, vocab_size, embedding_size, num_filters = 7, 30, 6, 3
    x_data = rng.randint(0, vocab_size, size=(24, sequence_length))
    y_data = np.eye(2)[(x_data[:, 0] > 14).astype(int)]

    tf.set_random_seed(47)
    input_x = tf.placeholder(tf.int32, [None, sequence_length], name="input_x")
    input_y = tf.placeholder(tf.float32, [None, 2], name="input_y")
    dropout_keep_prob = tf.placeholder(tf.float32, name="dropout_keep_prob")
    l2_loss = tf.constant(0.0)
    with tf.device("/cpu:0"), tf.name_scope("embedding"):
        W = tf.Variable(tf.random_uniform([vocab_size, embedding_size], -1.0, 1.0), name="W")
        embedded_chars = tf.nn.embedding_lookup(W, input_x)
        embedded_chars_expanded = tf.expand_dims(embedded_chars, -1)
    pooled_outputs = []
    for filter_size in (2, 3):
        with tf.name_scope("conv-maxpool-%s" % filter_size):
            filter_shape = [filter_size, embedding_size, 1, num_filters]
            W_conv = tf.Variable(tf.truncated_normal(filter_shape, stddev=0.1), name="W")
            b_conv = tf.Variable(tf.constant(0.1, shape=[num_filters]), name="b")
            conv = tf.nn.conv2d(embedded_chars_expanded, W_conv, strides=[1, 1, 1, 1], padding="VALID", name="conv")
            h = tf.nn.relu(tf.nn.bias_add(conv, b_conv), name="relu")
            pooled = tf.nn.max_pool(h, ksize=[1, sequence_length - filter_size + 1, 1, 1], strides=[1, 1, 1, 1],
                                    padding="VALID", name="pool")
            pooled_outputs.append(pooled)
            tf.summary.histogram("relu", h)
            tf.summary.scalar("sparsity", tf.nn.zero_fraction(h))
    num_filters_total = num_filters * 2
    h_pool = tf.concat(pooled_outputs, 3)
    h_pool_flat = tf.reshape(h_pool, [-1, num_filters_total])
    with tf.name_scope("dropout"):
        h_drop = tf.nn.dropout(h_pool_flat, dropout_keep_prob)
    with tf.name_scope("output"):
        W_out = tf.get_variable("W", shape=[num_filters_total, 2], initializer=tf.glorot_uniform_initializer())
        b_out = tf.Variable(tf.constant(0.1, shape=[2]), name="b")
        l2_loss += tf.nn.l2_loss(W_out) + tf.nn.l2_loss(b_out)
        scores = tf.nn.xw_plus_b(h_drop, W_out, b_out, name="scores")
        predictions = tf.argmax(scores, 1, name="predictions")
    with tf.name_scope("loss"):
        losses = tf.nn.softmax_cross_entropy_with_logits(logits=scores, labels=input_y)
        loss = tf.reduce_mean(losses) + 0.01 * l2_loss
    with tf.name_scope("accuracy"):
        accuracy = tf.reduce_mean(tf.cast(tf.equal(predictions, tf.argmax(input_y, 1)), "float"), name="accuracy")
    print(embedded_chars_expanded, h_pool, h_pool_flat, scores, predictions, sep="\n")

    global_step = tf.Variable(0, name="global_step", trainable=False)
    optimizer = tf.train.AdamOptimizer(1e-2)
    grads_and_vars = optimizer.compute_gradients(loss)
    train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
    summary_op = tf.summary.merge_all()
    print([v.name for _, v in grads_and_vars])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(6):
            batch = slice(i % 3 * 8, i % 3 * 8 + 8)
            feed = {input_x: x_data[batch], input_y: y_data[batch], dropout_keep_prob: 0.5}
            _, step, summaries, l, acc = sess.run([train_op, global_step, summary_op, loss, accuracy], feed)
            print("step {}, loss {:g}, acc {:g}, summary bytes {}".format(step, l, acc, len(summaries) > 0))
        print(sess.run(predictions, {input_x: x_data, dropout_keep_prob: 1.0}))
