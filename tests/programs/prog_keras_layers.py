"""A TF1 convolutional classifier built from tf.keras layers called as functions on placeholders, trained
with a tf.train optimizer in a session, dropout and batch normalization switched by Keras' learning phase
(their moving averages run from the layer's updates)."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(3)
    rng = np.random.RandomState(4)
    images = rng.rand(24, 8, 8, 1).astype(np.float32)
    labels = (images.mean(axis=(1, 2, 3)) > 0.5).astype(np.int64) + (images[:, 0, 0, 0] > 0.7)
    K = tf.keras.backend
    layers = tf.keras.layers

    x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
    y = tf.placeholder(tf.int64, [None], name="labels")
    conv = layers.Conv2D(4, 3, padding="same", activation="relu")(x)
    norm = layers.BatchNormalization()
    pooled = layers.MaxPooling2D()(norm(conv))
    flat = layers.Flatten()(pooled)
    hidden = layers.Dropout(0.3, seed=5)(layers.Dense(16, activation="relu",
                                                      kernel_regularizer=tf.keras.regularizers.l2(1e-3))(flat))
    dense_out = layers.Dense(3)
    logits = dense_out(hidden)
    probabilities = layers.Activation("softmax")(logits)
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, probabilities))
    loss += tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) or [tf.constant(0.0)])
    with tf.control_dependencies(norm.updates):
        train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    print(conv, pooled, flat, logits, probabilities, loss, sep="\n")
    print([v.name for v in tf.global_variables()])
    print(dense_out.name, [w.name for w in dense_out.weights], K.int_shape(pooled))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(8):
            batch = slice(step % 3 * 8, step % 3 * 8 + 8)
            _, value = sess.run([train_op, loss], {x: images[batch], y: labels[batch], K.learning_phase(): 1})
            print("step %d loss %.6f" % (step, value))
        predicted = sess.run(probabilities, {x: images[:3]})
        print(np.round(predicted, 5))
        print(sess.run(norm.moving_mean), sess.run(norm.moving_variance))
