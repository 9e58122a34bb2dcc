"""Spotting a graph that grows every step: TensorFlow 1's classic slowdown, ops built inside the training loop.

Each new op makes the next ``Session.run`` prune, place and plan the graph again, and the graph
(with its memory) grows without bound. A session's :class:`GrowthWatch` looks only at runs that
build a plan, so runs of a cached plan pay nothing: when the graph has gained ops since the last
plan was built, and that plan ran at most once (the executor counts the runs of every plan with
real work; a plan without counts is taken to have run once), the run continues a streak. A streak
of ``STREAK`` runs warns once, with a :class:`GraphGrowthWarning` naming the op types added and
the user's line that added most of them. Legitimate patterns break the streak or never start one:
building a few ops after the first run, a Saver made after the initializer ran, a plan run many
times between two additions.
"""

import collections
import os
import sys
import warnings

STREAK = 10
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # numflow's own files


class GraphGrowthWarning(UserWarning):
    """The graph gained ops between most runs of a session: ops are being built inside the loop."""


class GrowthWatch:
    """What a session remembers of its graph between plan builds (see the module docstring)."""

    __slots__ = ("ops", "last_id", "last_plan", "streak", "types", "lines", "warned")

    def __init__(self):
        self.ops = 0
        self.last_id = 0
        self.last_plan = None
        self.streak = 0
        self.types = collections.Counter()
        self.lines = collections.Counter()
        self.warned = False

    def plan_built(self, graph, plan):
        """Note a new plan of ``graph``; warn (once) when the graph grew before each of the last STREAK."""
        grew = len(graph) > self.ops
        if grew and self.last_plan is not None and not self.warned:
            if _runs(self.last_plan) <= 1:
                self.streak += 1
                self._note_new_ops(graph)
                if self.streak >= STREAK:
                    self._warn()
            else:
                self.streak = 0
                self.types.clear()
                self.lines.clear()
        if grew or self.last_plan is None:
            self.ops, self.last_id = len(graph), graph._last_id
        self.last_plan = plan

    def _note_new_ops(self, graph):
        from numflow.runtime.executor import _user_frame

        new = []
        with graph._lock:  # another thread may be adding ops
            nodes = graph.nx_graph._node
            for name in reversed(nodes):  # the newest first: stop at the first op seen before
                op = nodes[name]["op"]
                if op._id <= self.last_id:
                    break
                new.append(op)
        for op in new:
            self.types[op.type] += 1
            self.lines[_user_frame(op)] += 1

    def _warn(self):
        self.warned = True
        types = ", ".join(f"{t} x{n}" for t, n in self.types.most_common(6))
        line = self.lines.most_common(1)[0][0]
        warnings.warn(
            f"The graph of this session gained ops before each of its last {self.streak} runs ({types}), most "
            f"of them added at {line}. Each run with new ops plans the graph anew, and the graph grows without "
            "bound: build the ops once, before the loop (feed changing values through a tf.placeholder), and "
            "call graph.finalize() after building to catch any op added later.",
            GraphGrowthWarning, stacklevel=_level_outside_numflow())


def _level_outside_numflow():
    """The ``stacklevel`` of ``warnings.warn``, called by this function's caller, that points at the
    innermost frame outside numflow (the user's ``sess.run``)."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def _runs(plan):
    """How many times ``plan`` ran, as far as the executor counted (1 when it did not)."""
    if plan.trivial:
        return 1
    return sum(plan.ways.runs)
