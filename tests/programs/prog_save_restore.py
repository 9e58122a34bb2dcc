"""Checkpoints as tutorials use them: Saver with a global step and max_to_keep, latest_checkpoint and
get_checkpoint_state, a restore into a fresh graph, a Saver over a renamed subset, import_meta_graph
with collections, and NewCheckpointReader / list_variables."""

import os

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(19)
    ckpt_dir = os.path.join(workdir, "model")
    os.makedirs(ckpt_dir)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.variable_scope("layer"):
        w = tf.get_variable("w", [3, 2], initializer=tf.truncated_normal_initializer(stddev=0.5))
        b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.1))
    y = tf.identity(tf.matmul(x, w) + b, name="y")
    tf.add_to_collection("outputs", y)
    global_step = tf.train.get_or_create_global_step()
    loss = tf.reduce_mean(tf.square(y - 1.0))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
    saver = tf.train.Saver(max_to_keep=2)
    feed = {x: np.arange(6, dtype=np.float32).reshape(2, 3) / 6}

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(1, 7):
            _, l = sess.run([train_op, loss], feed)
            if step % 2 == 0:
                path = saver.save(sess, os.path.join(ckpt_dir, "model.ckpt"), global_step=global_step)
                print("step", step, "loss %.6f" % l, "saved", os.path.relpath(path, workdir))
        final = sess.run(y, feed)
    state = tf.train.get_checkpoint_state(ckpt_dir)
    print([os.path.basename(p) for p in state.all_model_checkpoint_paths])
    latest = tf.train.latest_checkpoint(ckpt_dir)
    print(os.path.basename(latest), sorted(f for f in os.listdir(ckpt_dir) if "ckpt-2" in f))

    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(latest + ".meta")
    with tf.Session() as sess:
        saver.restore(sess, latest)
        graph = tf.get_default_graph()
        y_restored = tf.get_collection("outputs")[0]
        print(y_restored.name, np.allclose(sess.run(y_restored, {graph.get_tensor_by_name("x:0"): feed[x]}), final))
        print(sess.run("global_step:0"), sess.run(graph.get_tensor_by_name("layer/b:0")))

    tf.reset_default_graph()
    renamed = tf.Variable(tf.zeros([3, 2]), name="weights")
    with tf.Session() as sess:
        tf.train.Saver({"layer/w": renamed}).restore(sess, latest)
        print(sess.run(renamed))
    reader = tf.train.NewCheckpointReader(latest)
    print(sorted(reader.get_variable_to_shape_map().items()))
    print(reader.get_tensor("layer/b"), tf.train.list_variables(ckpt_dir)[:2])
