"""The hooks TF 1.x training loops use: stop at a step, save checkpoints and summaries, count steps per
second, log tensors, catch NaN losses.

Hooks that follow the global step fetch ``global_step/add:0``, a copy of the step made once per
graph (TensorFlow's ``_get_or_create_global_step_read``). Fetched beside the train op, it may hold
the step before or after the run's increment; the hooks read the step again before acting on it.

Event files are written through ``tf.summary.FileWriterCache`` (one writer per directory), as
TensorFlow's hooks write them: ``CheckpointSaverHook`` adds ``graph.pbtxt``, the graph and meta graph,
and a CHECKPOINT session log per save; ``SummarySaverHook`` a START session log, then the summaries.
"""

import logging
import os
import time

import numpy as np

from numflow.framework import errors
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.train import training_util
from numflow.train.session_run_hook import SessionRunArgs, SessionRunHook

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines
GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def _get_or_create_global_step_read(graph=None):
    """``global_step + 0`` (``global_step/add:0``), once per graph; None without a global step.

    The step is read through ``initialized_value()``, so fetching it never fails on an
    uninitialized step (it gives the initial value then).
    """
    from numflow.variables.variable import Variable

    graph = graph or get_default_graph()
    cached = graph.get_collection(GLOBAL_STEP_READ_KEY)
    if len(cached) > 1:
        raise RuntimeError(f"There are multiple items in collection {GLOBAL_STEP_READ_KEY}. There should be only "
                           "one.")
    if cached:
        return cached[0]
    step = training_util.get_global_step(graph)
    if step is None:
        return None
    with graph.as_default(), graph.name_scope(None), graph.name_scope(step.op.name + "/"):
        value = step.initialized_value() if isinstance(step, Variable) else step
        read = value + 0
    graph.add_to_collection(GLOBAL_STEP_READ_KEY, read)
    return read


class SecondOrStepTimer:
    """Triggers every ``every_secs`` seconds or every ``every_steps`` steps (exactly one of them).

    It triggers on the first step it is asked about, and never twice for one step.
    """

    def __init__(self, every_secs=None, every_steps=None):
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")
        self._every_secs = every_secs
        self._every_steps = every_steps
        self.reset()

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= self._last_triggered_time + self._every_secs:
            return True
        return self._every_steps is not None and step >= self._last_triggered_step + self._every_steps

    def update_last_triggered_step(self, step):
        """Record a trigger at ``step``; returns ``(seconds, steps)`` since the last one (None, None the first time)."""
        now = time.time()
        if self._last_triggered_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time = now
        self._last_triggered_step = step
        return elapsed

    def last_triggered_step(self):
        return self._last_triggered_step


class NeverTriggerTimer(SecondOrStepTimer):
    """A timer that never triggers (``LoggingTensorHook(at_end=True)`` alone)."""

    def __init__(self):
        self.reset()

    def should_trigger_for_step(self, step):
        return False


class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches ``last_step``, or ``num_steps`` past its value at start.

    Raises
    ------
    ValueError
        Neither or both of ``num_steps`` and ``last_step`` are given.
    RuntimeError
        (in ``begin``) The graph has no global step.
    """

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self):
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use StopAtStepHook.")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = session.run(self._global_step_tensor) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        # The fetched step may predate this run's increment: read it again when it could be the last.
        if run_values.results + 1 >= self._last_step:
            if run_context.session.run(self._global_step_tensor) >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Called by CheckpointSaverHook around each save; ``after_save`` returning True stops training."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves ``<checkpoint_dir>/<checkpoint_basename>-<step>`` every ``save_secs`` or ``save_steps``.

    It saves when the session is created, then each time the timer triggers, and at the end unless
    the last step was just saved. The Saver is ``saver``, else the scaffold's, else the single
    one of the ``SAVERS`` collection.

    With ``enable_async`` (numflow's addition) each save returns once the variables' snapshot is
    taken and the checkpoint is written while training goes on (see ``Saver.save``); listeners'
    ``after_save`` run when the save has started, and ``end`` waits until the last checkpoint is
    complete, raising a failure of the background write.

    Raises
    ------
    ValueError
        Both ``saver`` and ``scaffold`` are given, or neither or both of ``save_secs`` and ``save_steps``.
    RuntimeError
        The graph has no global step, or no Saver is found.
    """

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None, checkpoint_basename="model.ckpt",
                 scaffold=None, listeners=None, save_graph_def=True, enable_async=False):
        _log.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1000000  # TF's default: ask for the real step whenever the timer may trigger
        self._save_graph_def = save_graph_def
        self._enable_async = enable_async

    def begin(self):
        self._summary_writer = _writer_for(self._checkpoint_dir)
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use CheckpointSaverHook.")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        from numflow.framework.graph_io import write_graph
        from numflow.framework.meta_graph import export_meta_graph

        global_step = session.run(self._global_step_tensor)
        graph = get_default_graph()
        if self._save_graph_def:
            write_graph(graph.as_graph_def(add_shapes=True), self._checkpoint_dir, "graph.pbtxt")
        saver = self._get_saver()
        self._summary_writer.add_graph(graph)
        self._summary_writer.add_meta_graph(export_meta_graph(graph_def=graph.as_graph_def(add_shapes=True),
                                                              saver_def=saver.saver_def if saver else None))
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = session.run(self._global_step_tensor)
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        self._get_saver().sync()
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step):
        """Save at ``step``; True when a listener asks to stop."""
        _log.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        _log.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step, write_meta_graph=self._save_graph_def,
                               enable_async=self._enable_async)
        self._summary_writer.add_session_log(session_log_message("CHECKPOINT", checkpoint_path=self._save_path), step)
        _log.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                _log.info("A CheckpointSaverListener requested that training be stopped. listener: %s", listener)
                should_stop = True
        return should_stop

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError(f"No items in collection {GraphKeys.SAVERS}. Please add a saver to the collection or "
                               "provide a saver or scaffold.")
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please indicate which one to use "
                               "by passing it to the constructor.")
        self._saver = savers[0]
        return self._saver


def _writer_for(directory):
    from numflow.summary.writer import FileWriterCache

    return FileWriterCache.get(directory)


def session_log_message(status, **fields):
    """A ``SessionLog`` with ``status`` (``"START"``, ``"STOP"``, ``"CHECKPOINT"``) and ``fields``."""
    from numflow.framework.graph_io import message_class

    session_log = message_class("SessionLog")
    return session_log(status=getattr(session_log, status), **fields)


def scalar_summary_message(tag, value):
    """A ``Summary`` of one simple value."""
    from numflow.framework.graph_io import message_class

    summary = message_class("Summary")
    return summary(value=[summary.Value(tag=tag, simple_value=value)])


class StepCounterHook(SessionRunHook):
    """Logs ``global_step/sec: <rate>`` every ``every_n_steps`` steps or ``every_n_secs`` seconds, and
    writes it as a summary (tagged after the global step) to ``summary_writer`` or ``output_dir``."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None, summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._last_global_step = None
        self._steps_per_run = 1

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _writer_for(self._output_dir)
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use StepCounterHook.")
        self._summary_tag = training_util.get_global_step().op.name + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
        steps_per_sec = elapsed_steps / elapsed_time
        if self._summary_writer is not None:
            self._summary_writer.add_summary(scalar_summary_message(self._summary_tag, steps_per_sec), global_step)
        _log.info("%s: %g", self._summary_tag, steps_per_sec)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
                if elapsed_time is not None:
                    self._log_and_record(elapsed_steps, elapsed_time, global_step)
        if stale_global_step == self._last_global_step:
            _log.warning("It seems that global step (tf.train.get_global_step) has not been increased. Current value "
                         "(could be stable): %s vs previous value: %s. You could increase the global step by passing "
                         "tf.train.get_global_step() to Optimizer.apply_gradients or Optimizer.minimize.",
                         stale_global_step, self._last_global_step)
        self._last_global_step = stale_global_step


class SummarySaverHook(SessionRunHook):
    """Writes the summaries of ``summary_op`` (a tensor or a list; else the scaffold's) every ``save_steps``
    steps or ``save_secs`` seconds, to ``summary_writer`` or ``output_dir``.

    Raises
    ------
    ValueError
        Neither or both of ``scaffold`` and ``summary_op`` are given.
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None, scaffold=None,
                 summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _writer_for(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use SummarySaverHook.")

    def before_run(self, run_context):
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary and self._get_summary_op() is not None:
            requests["summary"] = self._get_summary_op()
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        global_step = run_values.results["global_step"] + 1
        if self._next_step is None or self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
        if self._next_step is None:
            self._summary_writer.add_session_log(session_log_message("START"), global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", ()):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self):
        summary_op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if summary_op is None:
            return None
        return summary_op if isinstance(summary_op, list) else [summary_op]


class LoggingTensorHook(SessionRunHook):
    """Logs tensors (``"name = value"``, at INFO) every ``every_n_iter`` runs or ``every_n_secs`` seconds,
    and/or at the end.

    ``tensors`` is a list of tensors or tensor names, or a dict from tag to either; a
    ``formatter(values_by_tag)`` replaces the default line.
    """

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            self._tag_order = tensors
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = NeverTriggerTimer() if only_log_at_end else SecondOrStepTimer(every_secs=every_n_secs,
                                                                                   every_steps=every_n_iter)
        self._log_at_end = at_end

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(tensor) for tag, tensor in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, tensor_values):
        elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
        if self._formatter:
            _log.info(self._formatter(tensor_values))
            return
        with np.printoptions(suppress=True):
            stats = ", ".join(f"{tag} = {tensor_values[tag]!s}" for tag in self._tag_order)  # str(), as TF
        if elapsed_secs is not None:
            _log.info("%s (%.3f sec)", stats, elapsed_secs)
        else:
            _log.info("%s", stats)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Fails (NanLossDuringTrainingError) or, with ``fail_on_nan_loss=False``, stops when ``loss_tensor`` is NaN."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                _log.error(message)
                raise NanLossDuringTrainingError
            _log.warning(message)
            run_context.request_stop()


class FeedFnHook(SessionRunHook):
    """Adds ``feed_fn()`` (a feed dict) to every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class FinalOpsHook(SessionRunHook):
    """Runs ``final_ops`` when the session ends; their values are then in ``final_ops_values``."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is not None:
            try:
                self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)
            except (errors.OutOfRangeError, StopIteration):
                _log.warning("An OutOfRangeError or StopIteration exception is raised by the code in FinalOpsHook: "
                             "the final ops read from an input source that is exhausted. They should read "
                             "variables only.")
                raise


def _as_graph_element(obj):
    """``obj`` (a tensor, or a name such as ``"loss"`` or ``"loss:0"``) as a tensor of the default graph."""
    graph = get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", None) is not graph:
            raise ValueError(f"Passed {obj} should have graph attribute that is equal to current graph {graph}.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError(f"Name {obj} is ambiguous, as this `Operation` has multiple outputs (at least 2).")
