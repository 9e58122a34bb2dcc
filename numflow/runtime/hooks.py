"""The session's run hooks (``executor.Hook``): a run's trace into RunMetadata, and placement logging."""

import threading
import time
import weakref

from numflow.runtime.config import NodeExecStats
from numflow.runtime.executor import Hook


class TraceHook(Hook):
    """Records each op's device, thread and time span into a RunMetadata's step stats
    (``RunOptions(trace_level=FULL_TRACE)``).

    Every op of the run appears: the ops the run executes (sub-plans' ops too, once per time they
    run: a loop body's, once per iteration) with their real spans, and the ops whose outputs the plan
    computed when it was built (constants, variables' states, NoOps) with no duration, at the run's
    start on the calling thread. ``pre_op`` and ``post_op`` run on the thread running the op; appends
    to the stats take a lock.
    """

    def __init__(self, run_metadata):
        self._stats = run_metadata.step_stats
        self._starts = {}
        self._lock = threading.Lock()

    def start(self, plan):
        now = _micros()
        ran = set(plan.alone_steps)
        for step in plan.steps:
            if step not in ran:
                self._add(step, now, now)

    def pre_op(self, step):
        self._starts[threading.get_ident(), step] = _micros()

    def post_op(self, step):
        self._add(step, self._starts.pop((threading.get_ident(), step)), _micros())

    def _add(self, step, start, end):
        op = step.op
        inputs = [t.op.name if t.value_index == 0 else t.name for t in op._inputs]
        thread = threading.current_thread()
        device = step.ctx.device.name
        stats = NodeExecStats(op.name, op.type, device, thread.ident, start, end, inputs, thread.name)
        with self._lock:
            self._stats.device_stats(device).node_stats.append(stats)


def _micros():
    return time.time_ns() // 1000


class PlacementLog(Hook):
    """``ConfigProto(log_device_placement=True)``: prints each op's device on the first run of each plan."""

    def __init__(self):
        self._logged = weakref.WeakSet()
        self._lock = threading.Lock()

    def start(self, plan):
        with self._lock:
            if plan in self._logged:
                return
            self._logged.add(plan)
        for step in plan.steps:
            print(f"{step.op.name}: ({step.op.type}): {step.ctx.device.name}", flush=True)
