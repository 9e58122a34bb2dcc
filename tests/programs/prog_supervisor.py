"""A training loop under tf.train.Supervisor, as the PTB tutorial and other early TF1 programs run one:
managed_session, should_stop, the Supervisor's saver and global step, a second Supervisor restoring
from the logdir, and an OutOfRangeError ending a loop cleanly."""

import os

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(41)
    logdir = os.path.join(workdir, "sv_logs")
    rng = np.random.RandomState(41)
    data = rng.randn(30, 2).astype(np.float32)
    target = data.dot([[1.5], [-0.5]]).astype(np.float32)

    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.Variable(tf.random_normal([2, 1], stddev=0.1), name="w")
    global_step = tf.Variable(0, name="global_step", trainable=False)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=global_step)
    sv = tf.train.Supervisor(logdir=logdir, summary_op=None, save_model_secs=0)
    print(sv.saver is not None, sv.global_step, sv.init_op.name, os.path.relpath(sv.save_path, workdir))
    with sv.managed_session() as sess:
        for step in range(6):
            if sv.should_stop():
                break
            _, l = sess.run([train_op, loss], {x: data, y: target})
            print("step %d loss %.6f" % (step, l))
        print("Saving model to %s." % os.path.basename(logdir))
        sv.saver.save(sess, os.path.join(logdir, "model.ckpt"), global_step=sv.global_step)
    print(sorted(f for f in os.listdir(logdir) if not f.startswith("events.out")))

    tf.reset_default_graph()
    w = tf.Variable(tf.zeros([2, 1]), name="w")
    global_step = tf.Variable(0, name="global_step", trainable=False)
    sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
    with sv.managed_session() as sess:
        print("restored", sess.run(global_step), sess.run(w).ravel())
        batches = iter(range(3))
        while not sv.should_stop():
            try:
                print("batch", next(batches))
            except StopIteration:
                raise tf.errors.OutOfRangeError(None, None, "no more batches") from None
    print("stopped cleanly", sv.should_stop())
