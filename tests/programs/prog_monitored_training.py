"""MonitoredTrainingSession as TF1 scripts run it: a global step from get_or_create_global_step, a
StopAtStepHook, checkpoints in a checkpoint_dir, a summary every few steps, a hook of the program's own,
should_stop(); then a second session restored from the checkpoint continues the step count."""

import os

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(37)
    checkpoint_dir = os.path.join(workdir, "train")
    rng = np.random.RandomState(37)
    data = rng.randn(40, 3).astype(np.float32)
    target = data.dot([[0.5], [-1.0], [2.0]]).astype(np.float32) + 0.3

    class PrintLossHook(tf.train.SessionRunHook):
        def begin(self):
            self._step = -1

        def before_run(self, run_context):
            self._step += 1
            return tf.train.SessionRunArgs(loss)

        def after_run(self, run_context, run_values):
            if self._step % 3 == 0:
                print("hook step %d loss %.5f" % (self._step, run_values.results))

    def build():
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        loss = tf.losses.mean_squared_error(y, tf.matmul(x, w) + b)
        tf.summary.scalar("loss", loss)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
        return global_step, x, y, loss, train_op

    global_step, x, y, loss, train_op = build()
    hooks = [tf.train.StopAtStepHook(last_step=10), PrintLossHook()]
    with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks, save_checkpoint_steps=5,
                                           save_summaries_steps=5, log_step_count_steps=None) as sess:
        while not sess.should_stop():
            step, _ = sess.run([global_step, train_op], {x: data[:20], y: target[:20]})
        print("last step", step)
    print(os.path.basename(tf.train.latest_checkpoint(checkpoint_dir)))
    print(sorted(f for f in os.listdir(checkpoint_dir) if f.startswith("model.ckpt-10")))
    print(sorted(f for f in os.listdir(checkpoint_dir) if not f.startswith(("model.ckpt", "events."))))
    events = [f for f in os.listdir(checkpoint_dir) if f.startswith("events.out.tfevents")]
    for event in tf.train.summary_iterator(os.path.join(checkpoint_dir, events[0])):
        kind = event.WhichOneof("what")
        if kind == "session_log":
            kind = tf.SessionLog.SessionStatus.Name(event.session_log.status)
        elif kind == "summary":
            kind = [(v.tag, round(v.simple_value, 5)) for v in event.summary.value]
        print(event.step, kind)

    tf.reset_default_graph()
    global_step, x, y, loss, train_op = build()
    with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=[tf.train.StopAtStepHook(num_steps=3)],
                                           save_checkpoint_secs=None, save_summaries_steps=None) as sess:
        print("restored at", sess.run(global_step))
        while not sess.should_stop():
            _, l = sess.run([train_op, loss], {x: data[20:], y: target[20:]})
        print("final loss %.5f" % l)
