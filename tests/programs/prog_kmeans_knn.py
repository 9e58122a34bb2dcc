"""K-means with assignments by tf.arg_min and centroid updates by unsorted_segment_sum under
tf.control_dependencies, and a nearest-neighbour classifier with an L1 distance and tf.arg_min."""

import numpy as np


def main(tf, workdir):
    rng = np.random.RandomState(29)
    centers = np.array([[0.0, 0.0], [3.0, 3.0], [0.0, 4.0]], np.float32)
    points = (centers[rng.randint(0, 3, 90)] + 0.5 * rng.randn(90, 2)).astype(np.float32)
    k = 3

    vectors = tf.constant(points)
    centroids = tf.Variable(tf.slice(tf.random_shuffle(vectors, seed=2), [0, 0], [k, -1]))
    expanded_vectors = tf.expand_dims(vectors, 0)
    expanded_centroids = tf.expand_dims(centroids, 1)
    distances = tf.reduce_sum(tf.square(tf.subtract(expanded_vectors, expanded_centroids)), 2)
    assignments = tf.arg_min(distances, 0)
    sums = tf.unsorted_segment_sum(vectors, assignments, k)
    counts = tf.unsorted_segment_sum(tf.ones_like(vectors), assignments, k)
    with tf.control_dependencies([assignments]):
        update_centroids = tf.assign(centroids, sums / counts)
    print(distances, assignments, update_centroids, sep="\n")

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("initial", np.round(sess.run(centroids), 4).tolist())
        for step in range(4):
            _, centroid_values, assignment_values = sess.run([update_centroids, centroids, assignments])
            print("step", step, np.bincount(assignment_values, minlength=k).tolist())
        print("centroids", np.round(np.sort(centroid_values, axis=0), 4).tolist())

    train, test = points[:80], points[80:]
    train_labels = np.eye(3)[((train[:, 0] > 1.5) + 2 * (train[:, 1] > 2)).clip(0, 2)]
    xtr = tf.placeholder("float", [None, 2])
    xte = tf.placeholder("float", [2])
    distance = tf.reduce_sum(tf.abs(tf.add(xtr, tf.negative(xte))), reduction_indices=1)
    pred = tf.arg_min(distance, 0)
    with tf.Session() as sess:
        predictions = []
        for i in range(len(test)):
            nn_index = sess.run(pred, feed_dict={xtr: train, xte: test[i, :]})
            predictions.append(int(np.argmax(train_labels[nn_index])))
            if i < 3:
                print("Test", i, "Nearest:", nn_index, "Prediction:", predictions[-1], type(nn_index).__name__)
        print("predictions", predictions)
