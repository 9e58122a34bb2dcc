"""A deep Q-network update as reinforcement-learning tutorials write it: a Q network and a target network
in variable scopes, copy ops built from their sorted trainable variables, the chosen action's Q value by
tf.gather over the flattened output, a squared difference loss and RMSProp with momentum."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(53)
    rng = np.random.RandomState(53)
    state_size, n_actions, batch = 4, 3, 8

    def q_network(states, scope):
        with tf.variable_scope(scope):
            w1 = tf.get_variable("w1", [state_size, 16], initializer=tf.random_normal_initializer(stddev=0.3))
            b1 = tf.get_variable("b1", [16], initializer=tf.constant_initializer(0.01))
            w2 = tf.get_variable("w2", [16, n_actions], initializer=tf.random_normal_initializer(stddev=0.3))
            return tf.matmul(tf.nn.relu(tf.matmul(states, w1) + b1), w2)

    X = tf.placeholder(shape=[None, state_size], dtype=tf.float32, name="X")
    y = tf.placeholder(shape=[None], dtype=tf.float32, name="y")
    actions = tf.placeholder(shape=[None], dtype=tf.int32, name="actions")
    q_values = q_network(X, "q")
    target_q = q_network(X, "target_q")
    gather_indices = tf.range(tf.shape(q_values)[0]) * tf.shape(q_values)[1] + actions
    action_predictions = tf.gather(tf.reshape(q_values, [-1]), gather_indices)
    losses = tf.squared_difference(y, action_predictions)
    loss = tf.reduce_mean(losses)
    train_op = tf.train.RMSPropOptimizer(0.01, 0.99, 0.0, 1e-6).minimize(loss)
    q_params = sorted([t for t in tf.trainable_variables() if t.name.startswith("q/")], key=lambda v: v.name)
    target_params = sorted([t for t in tf.trainable_variables() if t.name.startswith("target_q/")],
                           key=lambda v: v.name)
    copy_ops = tf.group(*[t.assign(q) for q, t in zip(q_params, target_params)])
    print([v.name for v in q_params], [v.op.name for v in tf.global_variables() if "RMSProp" in v.name][:3])

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(6):
            states = rng.randn(batch, state_size).astype(np.float32)
            next_states = rng.randn(batch, state_size).astype(np.float32)
            chosen = rng.randint(0, n_actions, size=batch)
            rewards = rng.rand(batch).astype(np.float32)
            done = rng.rand(batch) < 0.2
            q_next = sess.run(target_q, {X: next_states})
            targets = rewards + np.invert(done).astype(np.float32) * 0.99 * np.amax(q_next, axis=1)
            _, l = sess.run([train_op, loss], {X: states, y: targets, actions: chosen})
            if step % 3 == 2:
                sess.run(copy_ops)
            print("step %d loss %.6f" % (step, l))
        print(sess.run(q_values, {X: np.ones([1, state_size])}), sess.run(target_q, {X: np.ones([1, state_size])}))
