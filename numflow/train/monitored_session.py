"""``tf.train.MonitoredSession``: a session that initializes or restores itself, runs hooks, and stops.

A typical TF 1.x loop::

    hooks = [tf.train.StopAtStepHook(last_step=1000)]
    with tf.train.MonitoredTrainingSession(checkpoint_dir="/tmp/run", hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run(train_op)

Creating it calls every hook's ``begin``, finalizes the graph (``Scaffold.finalize``), creates a
session on ``master``, restores the newest checkpoint of ``checkpoint_dir`` or runs the init op,
and calls ``after_create_session``. Each ``run`` goes through the wrappers TensorFlow stacks::

    _RecoverableSession     recreates the session after AbortedError or UnavailableError
      _CoordinatedSession   stops when the Coordinator is asked to, re-raising what was reported
        _HookedSession      adds the hooks' fetches and feeds, calls before_run/after_run
          Session

Closing it calls the hooks' ``end`` (unless an exception is propagating), closes the session and
un-finalizes the graph if it was not finalized before. As a context manager it swallows
``OutOfRangeError`` and ``StopIteration``: the end of the input ends the loop.
"""

import abc
import inspect
import logging

from numflow.framework import errors
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.ops import control_flow_ops
from numflow.runtime.config import RunMetadata, RunOptions
from numflow.train import basic_session_run_hooks, session_run_hook
from numflow.train.coordinator import Coordinator
from numflow.train.queue_runner import start_queue_runners
from numflow.train.session_manager import SessionManager

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines
_PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)
USE_DEFAULT = object()


class Scaffold:
    """The ops a monitored session needs to make a model ready, with defaults for those not given.

    ``finalize()`` fills in each missing one from its collection (``INIT_OP``, ``READY_OP``,
    ``READY_FOR_LOCAL_INIT_OP``, ``LOCAL_INIT_OP``, ``SAVERS``) or builds and adds the default: the
    global variables' initializer, ``report_uninitialized_variables()``, the local variables'
    initializer, and ``Saver(sharded=True, allow_empty=True)``. Then it finalizes the graph.

    ``init_fn(scaffold, session)`` runs after ``init_op`` when no checkpoint was restored.
    """

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None, ready_for_local_init_op=None,
                 local_init_op=None, summary_op=None, saver=None, copy_from_scaffold=None,
                 local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            init_op = _coalesce(init_op, copy_from_scaffold.init_op)
            init_feed_dict = _coalesce(init_feed_dict, copy_from_scaffold.init_feed_dict)
            init_fn = _coalesce(init_fn, copy_from_scaffold._user_init_fn)
            ready_op = _coalesce(ready_op, copy_from_scaffold.ready_op)
            ready_for_local_init_op = _coalesce(ready_for_local_init_op, copy_from_scaffold.ready_for_local_init_op)
            local_init_op = _coalesce(local_init_op, copy_from_scaffold.local_init_op)
            local_init_feed_dict = _coalesce(local_init_feed_dict, copy_from_scaffold.local_init_feed_dict)
            summary_op = _coalesce(summary_op, copy_from_scaffold.summary_op)
            saver = _coalesce(saver, copy_from_scaffold.saver)
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self):
        """Create the missing ops and finalize the graph; returns the scaffold."""
        from numflow.train.saver import Saver
        from numflow.variables import variable

        if self._init_op is None:
            self._init_op = Scaffold.get_or_default(
                "init_op", GraphKeys.INIT_OP, lambda: control_flow_ops.group(variable.global_variables_initializer()))
        if self._ready_op is None:
            self._ready_op = Scaffold.get_or_default("ready_op", GraphKeys.READY_OP,
                                                     variable.report_uninitialized_variables)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: variable.report_uninitialized_variables(variable.global_variables()))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default("local_init_op", GraphKeys.LOCAL_INIT_OP,
                                                          Scaffold.default_local_init_op)
        if self._summary_op is None:
            from numflow.ops.summary_ops import merge_all

            self._summary_op = Scaffold.get_or_default("summary_op", GraphKeys.SUMMARY_OP, merge_all)
        if self._saver is None:
            savers = get_default_graph().get_collection(GraphKeys.SAVERS)
            if len(savers) > 1:
                raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please indicate which one "
                                   "to use by passing it to the constructor.")
            if savers:
                self._saver = savers[0]
            else:
                self._saver = Saver(sharded=True, allow_empty=True)
                get_default_graph().add_to_collection(GraphKeys.SAVERS, self._saver)
        self._saver.build()
        get_default_graph().finalize()
        _log.info("Graph was finalized.")
        return self

    init_fn = property(lambda self: self._init_fn)
    init_op = property(lambda self: self._init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)
    init_feed_dict = property(lambda self: self._init_feed_dict)

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """The single item of ``collection_key``, else ``default_constructor()`` (added to the collection)."""
        graph = get_default_graph()
        elements = graph.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError(f'More than one item in the collection "{collection_key}". Please indicate which '
                                   f"one to use by passing it to the tf.Scaffold constructor as:  "
                                   f"tf.Scaffold({arg_name}=item to use)")
            return elements[0]
        op = default_constructor()
        if op is not None:
            graph.add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op():
        """The local variables' initializer, in a group."""
        from numflow.variables.variable import local_variables_initializer

        return control_flow_ops.group(local_variables_initializer())


def _coalesce(a, b):
    return a if a is not None else b


class SessionCreator(metaclass=abc.ABCMeta):
    """Makes the session a MonitoredSession wraps."""

    @abc.abstractmethod
    def create_session(self):
        raise NotImplementedError(f"create_session is not implemented for {self}.")


class _ScaffoldSessionCreator(SessionCreator):
    """A session creator that builds its session through a scaffold's session manager."""

    def __init__(self, scaffold, master, config):
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = _session_manager(self._scaffold)
        return self._session_manager


class ChiefSessionCreator(_ScaffoldSessionCreator):
    """The chief's session: restored from ``checkpoint_dir`` (or one checkpoint file), else initialized."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        super().__init__(scaffold, master, config)
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path, config=self._config,
            init_op=self._scaffold.init_op, init_feed_dict=self._scaffold.init_feed_dict,
            init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(_ScaffoldSessionCreator):
    """A non-chief worker's session: waits (up to ``max_wait_secs``) until the chief made the model ready."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        super().__init__(scaffold, master, config)
        self._max_wait_secs = max_wait_secs

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().wait_for_session(self._master, config=self._config,
                                                            max_wait_secs=self._max_wait_secs)


def _session_manager(scaffold):
    return SessionManager(local_init_op=scaffold.local_init_op, local_init_feed_dict=scaffold.local_init_feed_dict,
                          ready_op=scaffold.ready_op, ready_for_local_init_op=scaffold.ready_for_local_init_op,
                          graph=get_default_graph())


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None, hooks=None,  # noqa: N802
                             chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT, save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100, max_wait_secs=7200,
                             save_checkpoint_steps=USE_DEFAULT, summary_dir=None, save_graph_def=True,
                             save_checkpoint_async=False):
    """A MonitoredSession set up for training, as TensorFlow's function of the same name.

    The chief restores or initializes the model and, with ``checkpoint_dir``, saves it every
    ``save_checkpoint_secs`` (600 by default) or ``save_checkpoint_steps`` through a
    CheckpointSaverHook, which runs before ``hooks``; other workers (``is_chief=False``) wait for
    the chief's model and get ``hooks`` only. ``chief_only_hooks`` run on the chief alone.
    ``save_checkpoint_async`` (numflow's addition) writes those checkpoints in the background
    while training goes on; closing the session waits for the last one.

    With ``summary_dir`` (default ``checkpoint_dir``) a StepCounterHook logs and records the steps per
    second every ``log_step_count_steps``, and a SummarySaverHook writes the scaffold's summaries
    (``merge_all`` by default) every ``save_summaries_steps`` (100 by default) or ``save_summaries_secs``.
    """
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    if not is_chief:
        session_creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                               max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=session_creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    all_hooks = list(chief_only_hooks or [])
    session_creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master,
                                          config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(basic_session_run_hooks.StepCounterHook(output_dir=summary_dir,
                                                                     every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(basic_session_run_hooks.SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps, save_secs=save_summaries_secs,
                output_dir=summary_dir))
    if checkpoint_dir and ((save_checkpoint_secs and save_checkpoint_secs > 0)
                           or (save_checkpoint_steps and save_checkpoint_steps > 0)):
        all_hooks.append(basic_session_run_hooks.CheckpointSaverHook(
            checkpoint_dir, save_steps=save_checkpoint_steps, save_secs=save_checkpoint_secs, scaffold=scaffold,
            save_graph_def=save_graph_def, enable_async=save_checkpoint_async))
    all_hooks.extend(hooks or [])
    return MonitoredSession(session_creator=session_creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)


class _MonitoredSession:
    """What MonitoredSession and SingularMonitoredSession share."""

    def __init__(self, session_creator, hooks, should_recover, stop_grace_period_secs=120):
        self._graph_was_finalized = get_default_graph().finalized
        self._hooks = hooks or []
        for h in self._hooks:
            h.begin()
        self._coordinated_creator = self._CoordinatedSessionCreator(
            session_creator=session_creator or ChiefSessionCreator(), hooks=self._hooks,
            stop_grace_period_secs=stop_grace_period_secs)
        if should_recover:
            self._sess = _RecoverableSession(self._coordinated_creator)
        else:
            self._sess = self._coordinated_creator.create_session()

    @property
    def graph(self):
        tf_sess = self._tf_sess()
        return None if tf_sess is None else tf_sess.graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """``Session.run`` with the hooks called around it.

        Raises
        ------
        RuntimeError
            ``should_stop()`` was already true.
        """
        return self._sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)

    def run_step_fn(self, step_fn):
        """Call ``step_fn(step_context)``: ``step_context.session`` runs without hooks,
        ``step_context.run_with_hooks`` with them, ``step_context.request_stop()`` ends the loop."""
        args = tuple(inspect.signature(step_fn).parameters)
        if args not in (("step_context",), ("self", "step_context")):
            raise ValueError("`step_fn` may either have one `step_context` argument, or `self` and `step_context` "
                             f"arguments if it's an instance method. Got {args} instead.")
        return self._sess.run_step_fn(step_fn, self._tf_sess(), run_with_hooks=None)

    class StepContext:
        """What ``run_step_fn`` passes to ``step_fn``."""

        def __init__(self, session, run_with_hooks_fn):
            self._session = session
            self._run_with_hooks_fn = run_with_hooks_fn

        @property
        def session(self):
            return self._session

        def run_with_hooks(self, *args, **kwargs):
            return self._run_with_hooks_fn(*args, **kwargs)

        def request_stop(self):
            raise StopIteration("step_fn has requested the iterations to stop.")

    def should_stop(self):
        """True once a hook or the Coordinator asked to stop, or the session is closed."""
        return self._sess is None or self._sess.should_stop()

    def close(self):
        self._close_internal()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None

    class _CoordinatedSessionCreator(SessionCreator):
        """Creates the session, a Coordinator, calls ``after_create_session`` and stacks the wrappers."""

        def __init__(self, session_creator, hooks, stop_grace_period_secs):
            self._session_creator = session_creator
            self._hooks = hooks
            self.coord = None
            self.tf_sess = None
            self._stop_grace_period_secs = stop_grace_period_secs

        def create_session(self):
            self.tf_sess = self._session_creator.create_session()
            self.coord = Coordinator(clean_stop_exception_types=[])
            if self.tf_sess.graph.get_collection(GraphKeys.QUEUE_RUNNERS):
                start_queue_runners(sess=self.tf_sess, coord=self.coord)
            for hook in self._hooks:
                hook.after_create_session(self.tf_sess, self.coord)
            return _CoordinatedSession(_HookedSession(self.tf_sess, self._hooks), self.coord,
                                       self._stop_grace_period_secs)

    def _close_internal(self, exception_type=None):
        try:
            if not exception_type:
                for h in self._hooks:
                    h.end(self._coordinated_creator.tf_sess)
        finally:
            try:
                if self._sess is None:
                    raise RuntimeError("Session is already closed.")
                self._sess.close()
            finally:
                self._sess = None
                self._coordinated_creator.tf_sess = None
                self._coordinated_creator.coord = None
                if not self._graph_was_finalized:
                    get_default_graph()._unsafe_unfinalize()

    def _tf_sess(self):
        return self._coordinated_creator.tf_sess


class MonitoredSession(_MonitoredSession):
    """A session with hooks that recreates itself after AbortedError or UnavailableError.

    Parameters
    ----------
    session_creator : SessionCreator, optional
        Default: a ChiefSessionCreator with a default Scaffold, on the local target.
    hooks : list of SessionRunHook
    stop_grace_period_secs : float
        How long ``close()`` waits for the Coordinator's threads.
    """

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, should_recover=True, stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A chief's monitored session that does not recover from errors; ``raw_session()`` gives its Session."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        session_creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                              checkpoint_dir=checkpoint_dir,
                                              checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(session_creator, hooks, should_recover=False, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        return self._tf_sess()


class _WrappedSession:
    """A session (or another wrapper) to forward to; ``should_stop`` asks every layer."""

    def __init__(self, sess):
        self._sess = sess
        self._wrapped_is_stoppable = isinstance(sess, _WrappedSession)

    def should_stop(self):
        if self._check_stop():
            return True
        if self._sess:
            return self._wrapped_is_stoppable and self._sess.should_stop()
        return True

    def _check_stop(self):
        return False

    def close(self):
        if self._sess:
            try:
                self._sess.close()
            except _PREEMPTION_ERRORS as e:
                _log.error("An error occurred when attempting to close the session. This may be due to a preemption "
                           "in a connected worker or parameter server. Error: %s", e)
            finally:
                self._sess = None

    def run(self, *args, **kwargs):
        return self._sess.run(*args, **kwargs)

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        return step_fn(_MonitoredSession.StepContext(raw_session, run_with_hooks or self.run))


_RECREATING = ("An error was raised. This may be due to a preemption in a connected worker or parameter server. "
               "The current session will be closed and a new session will be created. Error: %s")


class _RecoverableSession(_WrappedSession):
    """Closes and recreates the session when a run fails with AbortedError or UnavailableError."""

    def __init__(self, sess_creator):
        self._sess_creator = sess_creator
        super().__init__(self._create_session())

    def _create_session(self):
        while True:
            try:
                return self._sess_creator.create_session()
            except _PREEMPTION_ERRORS as e:
                _log.info("An error was raised while a session was being created. This may be due to a preemption "
                          "of a connected worker or parameter server. A new session will be created. Error: %s", e)

    def _check_stop(self):
        try:
            return self._sess._check_stop() if self._sess else True
        except _PREEMPTION_ERRORS as e:
            _log.info(_RECREATING, e)
            self.close()
            self._sess = self._create_session()
            return False
        except Exception:  # noqa: BLE001 - as TF: any other error means stop; run() will raise it
            return True

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
            except _PREEMPTION_ERRORS as e:
                _log.info(_RECREATING, e)
                self.close()
                self._sess = None

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run_step_fn(step_fn, raw_session, self._sess.run)
            except _PREEMPTION_ERRORS as e:
                _log.info(_RECREATING, e)
                self.close()
                self._sess = None


class _CoordinatedSession(_WrappedSession):
    """Stops when the Coordinator is asked to; a failed run raises the error reported to it, if any."""

    def __init__(self, sess, coord, stop_grace_period_secs=120):
        super().__init__(sess)
        self._coord = coord
        self._stop_grace_period_secs = stop_grace_period_secs

    def _check_stop(self):
        self._coord.raise_requested_exception()
        return self._coord.should_stop()

    def close(self):
        self._coord.request_stop()
        try:
            self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs, ignore_live_threads=True)
        finally:
            try:
                _WrappedSession.close(self)
            except Exception:  # noqa: BLE001 - as TF: closing never raises past the join's error
                pass

    def run(self, *args, **kwargs):
        try:
            return self._sess.run(*args, **kwargs)
        except _PREEMPTION_ERRORS:
            raise
        except Exception as original_exception:
            try:
                self._coord.raise_requested_exception()
            except _PREEMPTION_ERRORS:
                raise
            except Exception:  # noqa: BLE001 - the run's own error is the one to see
                raise original_exception from None
            raise


class _HookedSession(_WrappedSession):
    """Calls the hooks around each run, adding their fetches, feeds and options to it."""

    def __init__(self, sess, hooks):
        super().__init__(sess)
        self._hooks = hooks
        self._should_stop = False

    def _check_stop(self):
        return self._should_stop

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches = {"caller": fetches}
        run_context = session_run_hook.SessionRunContext(
            original_args=session_run_hook.SessionRunArgs(fetches, feed_dict), session=self._sess)
        options = options or RunOptions()
        feed_dict = self._call_hook_before_run(run_context, actual_fetches, feed_dict, options)
        run_metadata = run_metadata or RunMetadata()
        outputs = _WrappedSession.run(self, fetches=actual_fetches, feed_dict=feed_dict, options=options,
                                      run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(run_context, session_run_hook.SessionRunValues(
                results=outputs[hook] if hook in outputs else None, options=options, run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context, fetch_dict, user_feed_dict, options):
        hook_feeds = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                fetch_dict[hook] = request.fetches
            if request.feed_dict:
                _raise_if_feeds_intersect(hook_feeds, request.feed_dict, "Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
            if request.options:
                options.trace_level = max(options.trace_level, request.options.trace_level)
                options.timeout_in_ms = max(options.timeout_in_ms, request.options.timeout_in_ms)
                options.output_partition_graphs = max(options.output_partition_graphs,
                                                      request.options.output_partition_graphs)
        if not hook_feeds:
            return user_feed_dict
        if not user_feed_dict:
            return hook_feeds
        _raise_if_feeds_intersect(user_feed_dict, hook_feeds, "Same tensor is fed by a SessionRunHook and user.")
        hook_feeds.update(user_feed_dict)
        return hook_feeds


def _raise_if_feeds_intersect(feeds1, feeds2, message):
    intersection = set(feeds1) & set(feeds2)
    if intersection:
        raise RuntimeError(f"{message} Conflict(s): {list(intersection)}")
