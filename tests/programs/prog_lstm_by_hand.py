"""A character LSTM written by hand as the Udacity course writes it: its own graph passed to the Session,
gate matrices with tf.nn.xw_plus_b, state carried in non-trainable variables with assign under
control_dependencies, sampled_softmax_loss, clip_by_global_norm before apply_gradients, and a staircase
exponential decay."""

import numpy as np


def main(tf, workdir):
    text = "the quick brown fox jumps over the lazy dog " * 8
    vocab = sorted(set(text))
    ids = np.array([vocab.index(c) for c in text])
    vocabulary_size, num_nodes, batch_size, unrollings = len(vocab), 16, 4, 5

    def batches(step):
        offsets = (np.arange(batch_size) * 37 + step * unrollings) % (len(ids) - unrollings - 1)
        return [ids[offsets + i] for i in range(unrollings + 1)]

    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(43)
        ix = tf.Variable(tf.truncated_normal([vocabulary_size, 4 * num_nodes], -0.1, 0.1))
        im = tf.Variable(tf.truncated_normal([num_nodes, 4 * num_nodes], -0.1, 0.1))
        ib = tf.Variable(tf.zeros([1, 4 * num_nodes]))
        saved_output = tf.Variable(tf.zeros([batch_size, num_nodes]), trainable=False)
        saved_state = tf.Variable(tf.zeros([batch_size, num_nodes]), trainable=False)
        w = tf.Variable(tf.truncated_normal([vocabulary_size, num_nodes], -0.1, 0.1))
        b = tf.Variable(tf.zeros([vocabulary_size]))

        def lstm_cell(i, o, state):
            gates = tf.nn.xw_plus_b(i, ix, tf.zeros([4 * num_nodes])) + tf.matmul(o, im) + ib
            input_gate, forget_gate, update, output_gate = tf.split(gates, 4, axis=1)
            state = tf.sigmoid(forget_gate) * state + tf.sigmoid(input_gate) * tf.tanh(update)
            return tf.sigmoid(output_gate) * tf.tanh(state), state

        train_data = [tf.placeholder(tf.int32, shape=[batch_size]) for _ in range(unrollings + 1)]
        train_inputs, train_labels = train_data[:unrollings], train_data[1:]
        outputs, output, state = [], saved_output, saved_state
        for i in train_inputs:
            output, state = lstm_cell(tf.one_hot(i, vocabulary_size), output, state)
            outputs.append(output)
        with tf.control_dependencies([saved_output.assign(output), saved_state.assign(state)]):
            labels = tf.reshape(tf.concat(train_labels, 0), [-1, 1])
            loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(
                weights=w, biases=b, labels=labels, inputs=tf.concat(outputs, 0), num_sampled=6,
                num_classes=vocabulary_size))
        global_step = tf.Variable(0)
        learning_rate = tf.train.exponential_decay(2.0, global_step, 4, 0.5, staircase=True)
        optimizer = tf.train.GradientDescentOptimizer(learning_rate)
        gradients, v = zip(*optimizer.compute_gradients(loss))
        gradients, norm = tf.clip_by_global_norm(gradients, 1.25)
        optimizer = optimizer.apply_gradients(zip(gradients, v), global_step=global_step)
        logits = tf.nn.xw_plus_b(tf.concat(outputs, 0), tf.transpose(w), b)
        train_prediction = tf.nn.softmax(logits)

    with tf.Session(graph=graph) as session:
        tf.global_variables_initializer().run()
        print("Initialized", len(graph.get_operations()) > 100)
        for step in range(10):
            feed_dict = {train_data[i]: batch for i, batch in enumerate(batches(step))}
            _, l, predictions, lr, n = session.run([optimizer, loss, train_prediction, learning_rate, norm],
                                                   feed_dict=feed_dict)
            print("Average loss at step %d: %f learning rate: %f norm: %f" % (step, l, lr, n))
        print(np.round(predictions[0, :5], 5), session.run(saved_state)[0, :3])
