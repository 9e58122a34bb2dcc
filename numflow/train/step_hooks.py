"""Two more hooks of TF 1.x training loops: ``GlobalStepWaiterHook`` (a worker waits for the global step
before its first run) and ``ProfilerHook`` (every so many steps or seconds, a traced run written as
``timeline-<step>.json`` for ``chrome://tracing``, and its RunMetadata added to the directory's event file).
"""

import logging
import os
import time

from numflow.train.basic_session_run_hooks import SecondOrStepTimer, _get_or_create_global_step_read, _writer_for
from numflow.train.session_run_hook import SessionRunArgs, SessionRunHook

_log = logging.getLogger("tensorflow")


class GlobalStepWaiterHook(SessionRunHook):
    """Delays a worker's first run until the global step reaches ``wait_until_step`` (read every half
    second), so that replicas start once the chief has trained a while.

    Parameters
    ----------
    wait_until_step : int
        The step to wait for; 0 or less starts at once.

    Raises
    ------
    RuntimeError
        (in ``begin``) The graph has no global step.
    """

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use _GlobalStepWaiterHook.")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        _log.info("Waiting for global step %d before starting training.", self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                _log.info("Waiting for global step %d before starting training. Current step is %d.",
                          self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(0.5)


class ProfilerHook(SessionRunHook):
    """Traces a run every ``save_steps`` steps or ``save_secs`` seconds (one of them), writing its
    timeline to ``output_dir/timeline-<global step>.json`` and its RunMetadata, tagged ``step_<global
    step>``, to the event file of ``output_dir``.

    Parameters
    ----------
    save_steps, save_secs : int, optional
        How often to trace.
    output_dir : str
        Where the timelines and the event file go.
    show_dataflow, show_memory : bool
        Passed to ``Timeline.generate_chrome_trace_format``.

    Raises
    ------
    RuntimeError
        (in ``begin``) The graph has no global step.
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True, show_memory=False):
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._file_writer = _writer_for(output_dir)
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        self._next_step = None
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use ProfilerHook.")

    def before_run(self, run_context):
        from numflow.runtime.config import RunOptions

        self._request_summary = self._next_step is not None and self._timer.should_trigger_for_step(self._next_step)
        options = RunOptions(trace_level=RunOptions.FULL_TRACE) if self._request_summary else None
        return SessionRunArgs({"global_step": self._global_step_tensor}, options=options)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results["global_step"]
        if self._next_step is None:
            self._timer.update_last_triggered_step(stale_global_step)
        global_step = stale_global_step + 1
        if self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
            self._timer.update_last_triggered_step(global_step)
            self._save(global_step, self._output_file.format(global_step), run_values.run_metadata.step_stats)
            self._file_writer.add_run_metadata(run_values.run_metadata, f"step_{global_step}")
        self._next_step = global_step + 1

    def _save(self, step, save_path, step_stats):
        from numflow.io.gfile import GFile
        from numflow.tools.timeline import Timeline

        _log.info("Saving timeline for %d into '%s'.", step, save_path)
        with GFile(save_path, "w") as f:
            f.write(Timeline(step_stats).generate_chrome_trace_format(show_dataflow=self._show_dataflow,
                                                                      show_memory=self._show_memory))
