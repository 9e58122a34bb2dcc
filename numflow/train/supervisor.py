"""``tf.train.Supervisor``: TensorFlow 1's training-session manager, which older TF1 programs (the PTB
tutorial's among them) run their loops under.

``managed_session()`` restores the latest checkpoint of ``logdir`` or initializes the model, writes the
graph (``graph.pbtxt``, and the graph and meta graph to the event file), then starts TensorFlow's
standard services on threads of the Supervisor's Coordinator: one saving a checkpoint every
``save_model_secs`` (600), one writing the summaries of ``merge_all`` and one the global steps per
second every ``save_summaries_secs`` (120), each the first time at once. Leaving the block stops
them, logs a STOP session log and closes the session; an exception raised in the block stops them too
(an ``OutOfRangeError`` quietly, as the Coordinator's clean stop).
"""

import contextlib
import logging
import os
import time

from numflow.framework import dtypes, errors
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.train import training_util
from numflow.train.basic_session_run_hooks import scalar_summary_message, session_log_message
from numflow.train.coordinator import Coordinator, LooperThread

_log = logging.getLogger("tensorflow")


class Supervisor:
    """Initializes or restores a model, and saves checkpoints and summaries while it trains.

    Arguments left at ``Supervisor.USE_DEFAULT`` come from the graph's collections (``READY_OP``,
    ``INIT_OP``, ``LOCAL_INIT_OP``, ``SAVERS``, ``SUMMARY_OP``, ``GLOBAL_STEP``) or are made and added
    there, as TensorFlow does; None turns a service off. Only the chief (``is_chief``) writes files.
    The graph is finalized.
    """

    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT, is_chief=True,
                 init_op=USE_DEFAULT, init_feed_dict=None, local_init_op=USE_DEFAULT, logdir=None,
                 summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120, checkpoint_basename="model.ckpt",
                 session_manager=None, summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        from numflow.framework.meta_graph import export_meta_graph
        from numflow.train.session_manager import SessionManager

        graph = graph or get_default_graph()
        with graph.as_default():
            self._init_ops(ready_op, ready_for_local_init_op, init_op, local_init_op)
            self._init_saver_summary_and_step(saver, summary_op, global_step)
            self._meta_graph_def = export_meta_graph(
                graph_def=graph.as_graph_def(add_shapes=True), saver_def=self._saver.saver_def if self._saver else None)
        self._graph = graph
        self._init_feed_dict = init_feed_dict
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._logdir = self._save_path = self._summary_writer = None
        self._save_summaries_secs = self._save_model_secs = None
        if is_chief:
            self._logdir = logdir
            self._save_summaries_secs, self._save_model_secs = save_summaries_secs, save_model_secs
            if logdir:
                self._save_path = os.path.join(logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if logdir:
                    from numflow.summary.writer import FileWriter

                    self._summary_writer = FileWriter(logdir)
            else:
                self._summary_writer = summary_writer
            self._graph_added_to_summary = False
        self._session_manager = session_manager or SessionManager(
            local_init_op=self._local_init_op, ready_op=self._ready_op,
            ready_for_local_init_op=self._ready_for_local_init_op, graph=graph, recovery_wait_secs=recovery_wait_secs,
            local_init_run_options=local_init_run_options)
        if not is_chief:
            for op in graph.get_operations():
                if op.type in ("Variable", "VariableV2") and not op.device:
                    raise ValueError(f"When using replicas, all Variables must have their device set: {op}")
        graph.finalize()

    @staticmethod
    def _first_of(key):
        found = get_default_graph().get_collection(key)
        if len(found) > 1:
            _log.info("Found %d %s operations. Returning the first one.", len(found), key)
        return found[0] if found else None

    @staticmethod
    def _first_or_made(key, make):
        """The first item of collection ``key``, else ``make()`` added to it (when not None)."""
        item = Supervisor._first_of(key)
        if item is None:
            item = make()
            if item is not None:
                get_default_graph().add_to_collection(key, item)
        return item

    def _init_ops(self, ready_op, ready_for_local_init_op, init_op, local_init_op):
        from numflow.ops.control_flow_ops import group
        from numflow.variables import variable

        if ready_op is Supervisor.USE_DEFAULT:
            ready_op = self._first_or_made(GraphKeys.READY_OP, variable.report_uninitialized_variables)
        if ready_for_local_init_op is Supervisor.USE_DEFAULT:
            ready_for_local_init_op = self._first_of(GraphKeys.READY_FOR_LOCAL_INIT_OP)
        if init_op is Supervisor.USE_DEFAULT:
            init_op = self._first_or_made(GraphKeys.INIT_OP, variable.global_variables_initializer)
        if local_init_op is Supervisor.USE_DEFAULT:
            local_init_op = self._first_or_made(GraphKeys.LOCAL_INIT_OP, lambda: group(
                variable.local_variables_initializer(), variable.tables_initializer()))
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
        self._init_op, self._local_init_op = init_op, local_init_op

    def _init_saver_summary_and_step(self, saver, summary_op, global_step):
        from numflow.ops.summary_ops import merge_all
        from numflow.train.saver import Saver
        from numflow.variables import variable

        if saver is Supervisor.USE_DEFAULT:
            saver = self._first_or_made(GraphKeys.SAVERS, lambda: Saver() if variable.global_variables() else None)
        if summary_op is Supervisor.USE_DEFAULT:
            summary_op = self._first_or_made(GraphKeys.SUMMARY_OP, merge_all)
        if global_step is Supervisor.USE_DEFAULT:
            global_step = self._first_or_made(GraphKeys.GLOBAL_STEP, _default_global_step_tensor)
        self._saver, self._summary_op, self._global_step = saver, summary_op, global_step

    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord, doc="The Coordinator of the Supervisor's threads.")
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    def _write_graph(self):
        from numflow.framework.graph_io import write_graph

        if self._logdir:
            write_graph(self._graph.as_graph_def(add_shapes=True), self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            self._summary_writer.add_meta_graph(self._meta_graph_def)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """Start the checkpoint, summary and step-counter threads; returns them.

        Raises
        ------
        RuntimeError
            On a Supervisor that is not the chief.
        """
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because only chief supervisors "
                               "can write events.")
        if not self._logdir:
            _log.warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            self._summary_writer.add_session_log(session_log_message("START"),
                                                 training_util.global_step(sess, self._global_step))
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(_SummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(_StepCounterThread(self, sess))
        if self._saver and self._save_model_secs:
            threads.append(_CheckpointThread(self, sess))
        for thread in threads:
            thread.start()
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False, max_wait_secs=7200,
                                    start_standard_services=True):
        """A session with the model restored or initialized (the chief), or ready (the others)."""
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
                init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                _log.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config, max_wait_secs=max_wait_secs)
        if start_standard_services:
            _log.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Start the threads of ``queue_runners`` (default: the graph's ``QUEUE_RUNNERS``); returns them."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for runner in queue_runners:
            threads.extend(runner.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread calling ``target`` every ``timer_interval_secs`` until a stop; returns it."""
        return LooperThread.loop(self._coord, timer_interval_secs, target, args, kwargs)

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stop the services and join their threads (and ``threads``); log STOP and close the writer."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(session_log_message("STOP"))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Write ``summary`` (at the current global step unless given).

        Raises
        ------
        RuntimeError
            Without a summary writer.
        """
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self._global_step is not None:
            global_step = training_util.global_step(sess, self._global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True, close_summary_writer=True):
        """A session for a ``with`` block: services started on entry, stopped and the session closed on
        exit; an exception raised in the block stops the Supervisor and is raised by the stop."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - reported to the Coordinator, which raises it when joined
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    sess.close()


def _default_global_step_tensor():
    try:
        step = get_default_graph().get_tensor_by_name("global_step:0")
    except KeyError:
        return None
    if step.dtype.base_dtype in (dtypes.int32, dtypes.int64):
        return step
    _log.warning("Found 'global_step' is not an int type: %s", step.dtype)
    return None


class _SummaryThread(LooperThread):
    """Writes the Supervisor's summaries every ``save_summaries_secs``."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            _log.info("Recording summary at step %s.", step)
            self._sv.summary_writer.add_summary(summary, step)


class _StepCounterThread(LooperThread):
    """Writes ``global_step/sec`` every ``save_summaries_secs``."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess
        self._last_time, self._last_step = 0.0, 0
        self._summary_tag = f"{sv.global_step.op.name}/sec"

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = training_util.global_step(self._sess, self._sv.global_step)

    def run_loop(self):
        step = training_util.global_step(self._sess, self._sv.global_step)
        added, self._last_step = step - self._last_step, step
        now = time.time()
        elapsed, self._last_time = now - self._last_time, now
        rate = added / elapsed if elapsed > 0.0 else float("inf")
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(scalar_summary_message(self._summary_tag, rate), step)
        _log.info("%s: %g", self._summary_tag, rate)


class _CheckpointThread(LooperThread):
    """Saves a checkpoint to the Supervisor's ``save_path`` every ``save_model_secs``."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        _log.info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            self._sv.summary_writer.add_session_log(
                session_log_message("CHECKPOINT", checkpoint_path=self._sv.save_path),
                training_util.global_step(self._sess, self._sv.global_step))


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Run ``train_step_fn(sess, *args, **kwargs)`` in ``supervisor``'s managed session until it should
    stop; an ``AbortedError`` (a lost parameter server) starts a new session and carries on."""
    args = [] if args is None else args
    kwargs = {} if kwargs is None else kwargs
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except errors.AbortedError:
            should_retry = True
