"""Chrome traces of traced runs: TensorFlow's ``timeline.Timeline`` for numflow's step stats.

A run with ``RunOptions(trace_level=RunOptions.FULL_TRACE)`` and a ``RunMetadata`` records each op's
device, thread and time span; :class:`Timeline` turns them into the JSON that ``chrome://tracing``
and Perfetto open, laid out as TensorFlow lays it out:

- one process per device (``"<device> Compute"``), after an ``"Allocators"`` process and with a
  ``"<device> Tensors"`` process each, as in TF;
- one thread lane per thread that ran ops on that device, named after the thread, so the thread
  pool's schedule is what the viewer shows (TF packs ops into lanes by time instead; numflow knows
  the real threads);
- one complete (``"ph": "X"``) event per op, ``ts`` and ``dur`` in microseconds, the op type as
  its name and ``{"name": node name, "op": op type, "input0": ...}`` as its args;
- with ``show_dataflow``, flow arrows (``"s"``/``"t"``) from an op's producer to the op when they
  ran on different threads or devices.

Usage, as with ``from tensorflow.python.client import timeline``::

    from numflow.tools import timeline

    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    metadata = tf.RunMetadata()
    sess.run(fetches, options=options, run_metadata=metadata)
    trace = timeline.Timeline(metadata.step_stats).generate_chrome_trace_format()
    with open("timeline.json", "w") as f:
        f.write(trace)

numflow records no tensor allocations, so ``show_memory=True`` adds no memory events.
"""

import json
import re

__all__ = ["Timeline"]

_LABEL = re.compile(r"(.*) = (.*)\((.*)\)")


class _ChromeTraceFormatter:
    """Collects Chrome Trace events: metadata first, then the events, as TF's formatter does."""

    def __init__(self):
        self._metadata = []
        self._events = []

    def emit_pid(self, name, pid):
        self._metadata.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": name}})

    def emit_tid(self, name, pid, tid):
        self._metadata.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}})

    def emit_region(self, timestamp, duration, pid, tid, category, name, args):
        self._events.append({"ph": "X", "cat": category, "name": name, "pid": pid, "tid": tid, "ts": timestamp,
                             "dur": duration, "args": args})

    def emit_flow(self, phase, name, timestamp, pid, tid, flow_id):
        self._events.append({"ph": phase, "cat": "DataFlow", "name": name, "pid": pid, "tid": tid,
                             "ts": timestamp, "id": flow_id})

    def format_to_string(self, pretty=False):
        trace = {"traceEvents": self._metadata + self._events}
        if pretty:
            return json.dumps(trace, indent=4, separators=(",", ": "))
        return json.dumps(trace, separators=(",", ":"))


def _parse_label(label):
    """``(node name, op type, input names)`` of a ``"name = Type(in, in:1)"`` label."""
    match = _LABEL.match(label or "")
    if match is None:
        return "unknown", "unknown", []
    name, op, inputs = match.groups()
    return name, op, inputs.split(", ") if inputs else []


class Timeline:
    """The ops of one traced run, as a Chrome trace.

    Parameters
    ----------
    step_stats : StepStats
        ``run_metadata.step_stats`` of a run traced with ``RunOptions.FULL_TRACE``.
    graph : Graph, optional
        Accepted for TensorFlow's signature; unused.
    """

    def __init__(self, step_stats, graph=None):
        self._step_stats = step_stats
        self._graph = graph

    def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False, op_time="schedule"):
        """The trace as a JSON string (indented, as TensorFlow writes it).

        Parameters
        ----------
        show_dataflow : bool
            Add flow arrows from the op producing a tensor to each op using it on another thread
            or device.
        show_memory : bool
            Accepted for TensorFlow's signature; numflow records no allocations to show.
        op_time : str
            Accepted for TensorFlow's signature (``"schedule"``, ``"gpu"``, ``"all"``); numflow's
            span of an op is always from its kernel's start to its end.
        """
        trace = _ChromeTraceFormatter()
        trace.emit_pid("Allocators", 0)
        next_pid = 1
        lanes = {}  # (pid, thread id) -> tid
        produced = {}  # tensor name -> (end time, pid, tid)
        placed = []
        for dev_stats in self._step_stats.dev_stats:
            pid = next_pid
            next_pid += 2
            trace.emit_pid(f"{dev_stats.device} Compute", pid)
            trace.emit_pid(f"{dev_stats.device} Tensors", pid + 1)
            for ns in sorted(dev_stats.node_stats, key=lambda s: (s.all_start_micros, s.node_name)):
                key = (pid, ns.thread_id)
                if key not in lanes:
                    lanes[key] = tid = sum(1 for p, _ in lanes if p == pid)
                    thread_name = getattr(ns, "thread_name", "") or f"thread {ns.thread_id}"
                    trace.emit_tid(thread_name, pid, tid)
                tid = lanes[key]
                end = ns.all_start_micros + ns.all_end_rel_micros
                produced[ns.node_name] = (end, pid, tid)
                placed.append((ns, pid, tid))
        flow_id = 0
        for ns, pid, tid in placed:
            _, op, inputs = _parse_label(ns.timeline_label)
            op = getattr(ns, "op_type", None) or op
            args = {"name": ns.node_name, "op": op}
            for i, name in enumerate(inputs):
                args[f"input{i}"] = name
            start = ns.all_start_micros
            trace.emit_region(start, max(ns.all_end_rel_micros, 0), pid, tid, "Op", op, args)
            if not show_dataflow:
                continue
            for name in inputs:
                source = produced.get(name.partition(":")[0])
                if source is None or source[1:] == (pid, tid):
                    continue
                trace.emit_flow("s", name, source[0], source[1], source[2], flow_id)
                trace.emit_flow("t", name, start, pid, tid, flow_id)
                flow_id += 1
        return trace.format_to_string(pretty=True)
