"""Regenerate tf_monitored_golden.json with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/train/data/make_tf_monitored_golden.py   # any Python with tensorflow installed

Each run of ``RUNS`` trains ``w`` in a ``MonitoredTrainingSession`` on one checkpoint directory, one
run after the other (so a run resumes from the last one's checkpoint), until its StopAtStepHook
stops it. It records the calls a recording hook received, the global step after each run, the
checkpoint files (TensorFlow's ``.meta``, ``graph.pbtxt`` and event files left out: numflow writes
none), the checkpoints the state file lists, and ``w`` in the newest checkpoint.
``tests/train/test_monitored_session.py`` runs the same script with numflow and compares.

This module imports TensorFlow only in ``main``: the tests import the scenario from it.
"""

import json
import os
import pathlib
import tempfile

GOLDEN = pathlib.Path(__file__).with_name("tf_monitored_golden.json")

# StopAtStepHook arguments and MonitoredTrainingSession keyword arguments, run by run.
RUNS = [
    ({"last_step": 7}, {"save_checkpoint_steps": 3}),
    ({"num_steps": 4}, {"save_checkpoint_steps": 3}),
    ({"num_steps": 3}, {"save_checkpoint_secs": 3600}),
    ({"last_step": 5}, {}),
]


def make_recorder(tf, log):
    """A hook appending each call it gets to ``log``, with the global step it sees."""

    class Recorder(tf.train.SessionRunHook):
        def begin(self):
            self._gs = tf.train.get_global_step()
            log.append(["begin"])

        def after_create_session(self, session, coord):
            log.append(["after_create_session", int(session.run(self._gs)), type(coord).__name__])

        def before_run(self, run_context):
            log.append(["before_run", type(run_context.original_args.fetches).__name__])
            return tf.train.SessionRunArgs({"gs": self._gs})

        def after_run(self, run_context, run_values):
            log.append(["after_run", int(run_values.results["gs"]), run_context.stop_requested])

        def end(self, session):
            log.append(["end", int(session.run(self._gs))])

    return Recorder()


def train(tf, checkpoint_dir, stop_kwargs, session_kwargs, master=""):
    """One run: ``{"log", "steps", "files", "checkpoints", "w"}``."""
    log = []
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable([1.0, -2.0], name="w")
        loss = tf.reduce_sum(tf.square(w - [3.0, 1.0]))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
        hooks = [tf.train.StopAtStepHook(**stop_kwargs), make_recorder(tf, log)]
        steps = []
        with tf.train.MonitoredTrainingSession(master=master, checkpoint_dir=checkpoint_dir, hooks=hooks,
                                               **session_kwargs) as sess:
            while not sess.should_stop():
                steps.append(int(sess.run([train_op, gs])[1]))
        assert not tf.get_default_graph().finalized
    files = sorted(f for f in os.listdir(checkpoint_dir)
                   if f == "checkpoint" or f.endswith(".index") or ".data-" in f)
    state = tf.train.get_checkpoint_state(checkpoint_dir)
    return {"log": log, "steps": steps, "files": files, "w": tf.train.load_variable(checkpoint_dir, "w").tolist(),
            "checkpoints": [os.path.basename(p) for p in state.all_model_checkpoint_paths]}


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    with tempfile.TemporaryDirectory() as checkpoint_dir:
        out = [train(tf, checkpoint_dir, *run) for run in RUNS]
    GOLDEN.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
