"""``tf.train.SessionManager``: a session whose model is ready, restored from a checkpoint or initialized.

The chief calls ``prepare_session``: it restores the newest checkpoint of ``checkpoint_dir`` when
there is one, else runs ``init_op``/``init_fn``, then checks with ``ready_op`` (a string tensor
of the uninitialized variables' names) that nothing is left uninitialized. Other workers call
``wait_for_session``, which polls until the chief has made the model ready: the variables live
in the server of ``master``, so every session on it sees them.
"""

import logging
import time

import numpy as np

from numflow.checkpoint import state as _state
from numflow.framework import errors
from numflow.framework.graph import get_default_graph
from numflow.runtime.session import Session

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines


def _maybe_name(obj):
    if obj is None:
        return "None"
    return getattr(obj, "name", f"<no name for {type(obj)}>")


class SessionManager:
    """Creates sessions of ``graph`` (default: the default graph) and makes their model ready.

    ``local_init_op`` runs in every new session, once ``ready_for_local_init_op`` reports
    nothing uninitialized; ``recovery_wait_secs`` is the longest ``wait_for_session`` sleeps between
    checks.
    """

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None, graph=None,
                 recovery_wait_secs=30, local_init_run_options=None, local_init_feed_dict=None):
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a local_init_op , "
                             f"ready_for_local_init_op [{ready_for_local_init_op}]")
        self._local_init_op = local_init_op
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph or get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_run_options = local_init_run_options
        self._local_init_feed_dict = local_init_feed_dict

    def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                            wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        """A new session, and whether a checkpoint was restored into it."""
        sess = Session(master, graph=self._graph, config=config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return sess, True
        wait_time = 0
        ckpt = _state.get_checkpoint_state(checkpoint_dir)
        while not ckpt or not ckpt.model_checkpoint_path:
            if not wait_for_checkpoint or wait_time >= max_wait_secs:
                return sess, False
            _log.info("Waiting for checkpoint to be available.")
            time.sleep(self._recovery_wait_secs)
            wait_time += self._recovery_wait_secs
            ckpt = _state.get_checkpoint_state(checkpoint_dir)
        _log.info("Restoring parameters from %s", ckpt.model_checkpoint_path)
        saver.restore(sess, ckpt.model_checkpoint_path)
        saver.recover_last_checkpoints(ckpt.all_model_checkpoint_paths)
        return sess, True

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False, max_wait_secs=7200,
                        config=None, init_feed_dict=None, init_fn=None):
        """A session on ``master`` with the model restored from ``checkpoint_dir`` or initialized.

        Raises
        ------
        RuntimeError
            Nothing to initialize with, or the model is still not ready afterwards (the message
            lists the uninitialized variables).
        """
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir, checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        local_init_success, msg = self._try_run_local_init_op(sess)
        if not local_init_success:
            raise RuntimeError("Init operations did not make model ready for local_init.  Init op: "
                               f"{_maybe_name(init_op)}, init fn: {init_fn}, error: {msg}")
        is_ready, msg = self._model_ready(sess)
        if not is_ready:
            raise RuntimeError(f"Init operations did not make model ready.  Init op: {_maybe_name(init_op)}, init fn: "
                               f"{init_fn}, local_init_op: {self._local_init_op}, error: {msg}")
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                        wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        """``(session, restored)``: restored is True only when a checkpoint made the model ready."""
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir, checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
        local_init_success, msg = self._try_run_local_init_op(sess)
        if not restored:
            return sess, False
        restoring_file = checkpoint_dir or checkpoint_filename_with_path
        if not local_init_success:
            _log.info("Restoring model from %s did not make model ready for local init: %s", restoring_file, msg)
            return sess, False
        is_ready, msg = self._model_ready(sess)
        if not is_ready:
            _log.info("Restoring model from %s did not make model ready: %s", restoring_file, msg)
            return sess, False
        _log.info("Restored model from %s", restoring_file)
        return sess, True

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session on ``master`` once another session (the chief's) has made the model ready.

        Raises
        ------
        DeadlineExceededError
            The model was not ready within ``max_wait_secs``.
        """
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        deadline = time.time() + max_wait_secs
        wait = _FIRST_WAIT_SECS
        while True:
            sess = Session(master, graph=self._graph, config=config)
            not_ready_msg = None
            local_init_success, not_ready_local_msg = self._try_run_local_init_op(sess)
            if local_init_success:
                is_ready, not_ready_msg = self._model_ready(sess)
                if is_ready:
                    return sess
            sess.close()
            wait = min(wait, self._recovery_wait_secs)
            if deadline - time.time() - wait < 0:
                raise errors.DeadlineExceededError(None, None,
                                                   f"Session was not ready after waiting {int(max_wait_secs)} secs.")
            _log.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, ready: %s", not_ready_local_msg,
                      not_ready_msg)
            time.sleep(wait)
            wait *= 2

    def _model_ready(self, sess):
        return _ready(self._ready_op, sess, "Model not ready")

    def _try_run_local_init_op(self, sess):
        if self._local_init_op is None:
            return True, None
        is_ready, msg = _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")
        if not is_ready:
            return False, msg
        _log.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict, options=self._local_init_run_options)
        _log.info("Done running local_init_op.")
        return True, None


# wait_for_session polls with backoff from here up to recovery_wait_secs, instead of sleeping the
# whole recovery_wait_secs (30 s by default) after a first try that came before the chief's init.
_FIRST_WAIT_SECS = 0.05


def _ready(op, sess, msg):
    """``(True, None)`` when ``op`` reports no uninitialized variable, else ``(False, why)``."""
    if op is None:
        return True, None
    try:
        ready_value = sess.run(op)
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            _log.warning("%s : error [%s]", msg, e)
            raise
        return False, str(e)
    if ready_value is None or ready_value.dtype == np.int32 or ready_value.size == 0:
        return True, None
    return False, "Variables not initialized: " + ", ".join(i.decode("utf-8") for i in ready_value)
