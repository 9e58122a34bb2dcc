"""The kernels of the functional control-flow ops: If and Case run one branch, While runs a loop, each
part of the graph as a sub-plan of its own.

A sub-plan is a plan of ``runtime.plan``, built with the plan of the run that holds the functional op
(and cached with it) over one control-flow context's ops: fed the tensors the context captured, and
the loop variables; fetching the branch's results, or the condition, or the body's next values and
the values accumulated for the gradient (only those the run reads). Running a branch costs one copy of
its slot list and its steps; an iteration of a loop costs its condition's and body's steps and a few
list operations, no graph work. Past its first iteration, a loop adds into its running sums (a
gradient's accumulators) in place; a loop that updates no variable reads its captured variables once
per run and computes what depends on them alone (a Keras cell's kernel split by gates, say) in its
first iteration only; all of it runs with numpy's float errors quiet, set once. The steps run in order on the
thread running the functional op (``executor.steps_runner()``, which in a traced run also calls the
run's hooks around each step; a loop's condition and body, each compiled once into straight code by
``runtime.straight_line``), so a loop runs the same ops in the same order in every run.

A functional op receives its inputs as they are: a captured variable's read stays the variable's
handle, which the sub-plan's ops read when they run (after an ``assign`` of the same body, say, as
TensorFlow's; a loop that updates no variable reads it once, as it starts). The loop variables, the
selector and the results are values: a handle among them is read when it enters or leaves.
"""

import numpy as np

from numflow.framework import dtypes, registry
from numflow.runtime import access_order, executor
from numflow.runtime import plan as _plan
from numflow.runtime.straight_line import compile_steps
from numflow_kernels import control_flow, float_errors
from numflow_kernels.handle import VariableHandle
from numflow_kernels.registry import register

# Functional op types of other modules (tf.data's) -> what makes their kernels' sub-plans.
_BUILDERS = {}


def builds(*op_types):
    """Register the decorated ``make(op, session, needed)`` as what :func:`build` returns for ``op_types``."""

    def wrap(make):
        for op_type in op_types:
            _BUILDERS[op_type] = make
        return make

    return wrap


def build(op, session, needed):
    """What the kernel of functional op ``op`` runs: its sub-plans for ``session``. ``needed``: per
    output of ``op``, whether the run reads it."""
    make = _BUILDERS.get(op.type)
    if make is not None:
        return make(op, session, needed)
    if op.type == "While":
        return _LoopPlans(op, session, needed)
    return _BranchPlans(op, session, needed)


class _SubPlan:
    """One context's plan, and the slots its feeds go to and its fetches come from.

    ``off_host``: the fetches that may be in a device's memory (made on a GPU, or a captured
    variable's handle), which the functional op, on the host, copies back before passing them on.
    """

    __slots__ = ("plan", "feed_slots", "fetch_slots", "off_host", "on_host")

    def __init__(self, op, context, fetches, feeds, session):
        self.plan = _plan.build(op.graph, list(fetches), [], list(feeds), session,
                               boundary={o.name for o in context.ops})
        self.feed_slots = self.plan.feed_slots
        self.fetch_slots = self.plan.fetch_slots
        devices = self.plan.placements
        on_devices = not all(d.is_host for d in set(devices.values()))
        self.on_host = not on_devices
        self.off_host = [i for i, t in enumerate(fetches)
                         if on_devices and (t.op in devices and not devices[t.op].is_host or t not in devices)]

    def to_host(self, results):
        """``results`` (this sub-plan's fetched values) with those in a device's memory copied to the host."""
        for i in self.off_host:
            if hasattr(results[i], "copy_to_host"):
                results[i] = results[i].copy_to_host()
        return results

    def values_with(self, feed_values, start=0):
        """A fresh slot list with ``feed_values`` written into the feed slots from ``start`` on."""
        values = self.plan.slots.copy()
        for slot, value in zip(self.feed_slots[start:], feed_values):
            values[slot] = value
        return values


_BOOL = np.dtype(bool)


def _value(x):
    return x.read() if isinstance(x, VariableHandle) else x


class _BranchPlans:
    """An If's or Case's branches: one sub-plan each, fetching the results and the exports it gives."""

    __slots__ = ("branches", "layouts", "calls_blas", "is_case")

    def __init__(self, op, session, needed):
        attrs = op._attrs
        captures = op._inputs[1:]
        self.is_case = op.type == "Case"
        exports = list(attrs["exports"].items())  # (branch index, tensor) -> output, in output order
        self.branches, self.layouts = [], []
        for index, branch in enumerate(attrs["branches"]):
            fetches = list(branch.outputs)
            layout = list(range(len(fetches)))
            for (export_branch, tensor), out in exports:
                if export_branch == index and needed[out.value_index]:
                    layout.append(len(fetches))
                    fetches.append(tensor)
                else:
                    layout.append(None)
            self.branches.append(_SubPlan(op, branch.context, fetches, captures, session))
            self.layouts.append(layout)
        self.calls_blas = any(b.plan.calls_blas for b in self.branches)

    def run(self, selector, captures):
        selector = _value(selector)
        if np.ndim(selector) != 0:
            raise ValueError(f"The second input must be a scalar, but it has shape {list(np.shape(selector))}")
        if self.is_case:
            index = int(selector)
            if not 0 <= index < len(self.branches):
                index = len(self.branches) - 1
        else:
            index = 0 if selector else 1
        branch = self.branches[index]
        values = branch.values_with(captures)
        executor.steps_runner()(branch.plan.alone_steps, values, True)
        results = branch.to_host([_value(values[slot]) for slot in branch.fetch_slots])
        return tuple(None if i is None else results[i] for i in self.layouts[index])


def _run_branch(ctx, selector, *captures):
    """The kernel of If and Case: run the branch ``selector`` picks, return its results."""
    out = ctx.subplans.run(selector, captures)
    return out if len(out) != 1 else out[0]


register("If", "CPU")(_run_branch)
register("Case", "CPU")(_run_branch)


class _LoopPlans:
    """A While's condition and body sub-plans (the body also fetching the accumulated values the run reads).

    ``may_hold_state``: the next values that may come out of the body as a variable's handle (a read of
    a captured variable passed on as it is), which the loop reads before the next iteration.
    ``later_body_steps``: the body's steps for the iterations after the first, where the sums that carry
    a loop variable from one iteration to the next (see ``_sums_in_place``) add into it in place, and
    the steps whose results never change (see ``_invariant_steps``) are left out; None where that
    changes nothing. ``later_cond_steps``: the condition's, less its invariant steps, for its
    evaluations after the first. ``reads_once``: whether the captured variables may be read once per run
    of the loop (see ``_writes_no_variable``) rather than by their readers in every iteration.
    ``straight``: the condition's steps, its later steps, the body's and its later steps (None where
    there are none of their own), each as one function of straight code (``runtime.straight_line``).
    """

    __slots__ = ("cond", "body", "num_vars", "num_captures", "has_limit", "accumulate", "num_accumulators",
                 "calls_blas", "may_hold_state", "later_cond_steps", "later_body_steps", "reads_once", "straight")

    def __init__(self, op, session, needed):
        loop = op._attrs["loop"]
        n = loop.num_vars
        captures = op._inputs[n:n + loop.num_captures]
        self.num_vars, self.num_captures, self.has_limit = n, loop.num_captures, loop.has_limit
        self.cond = _SubPlan(op, loop.cond_context, [loop.cond_output], [*loop.cond_args, *captures], session)
        accumulated = [(t, out) for t, out in loop.accumulators.items()]
        self.num_accumulators = len(accumulated)
        self.accumulate = [j for j, (_, out) in enumerate(accumulated) if needed[out.value_index]]
        fetches = [*loop.body_outputs, *(accumulated[j][0] for j in self.accumulate)]
        self.body = _SubPlan(op, loop.body_context, fetches, [*loop.body_args, *captures], session)
        self.calls_blas = self.cond.plan.calls_blas or self.body.plan.calls_blas
        self.may_hold_state = [i for i, t in enumerate(fetches) if t.op.type in _plan.ALIASING or t in captures]
        self.reads_once = _writes_no_variable(self.cond) and _writes_no_variable(self.body)
        body_steps = _sums_in_place(self.body, n, self.may_hold_state) or self.body.plan.alone_steps
        self.later_body_steps = self._later(self.body, body_steps)
        self.later_cond_steps = self._later(self.cond, self.cond.plan.alone_steps)
        self.straight = [None if steps is None else compile_steps(steps) for steps in (
            self.cond.plan.alone_steps, self.later_cond_steps, self.body.plan.alone_steps, self.later_body_steps)]

    def _later(self, part, steps):
        """``steps`` (``part``'s, in its order) less the invariant ones (see ``_invariant_steps``) where
        the loop reads its captured variables once; None where that is ``part``'s steps as they are."""
        if self.reads_once:
            invariant = _invariant_steps(part, self.num_vars)
            steps = [step for step, original in zip(steps, part.plan.alone_steps) if original not in invariant]
        return None if steps == part.plan.alone_steps else steps


def _writes_no_variable(part):
    """Whether ``part`` (a sub-plan, on the host) runs no op that could change a variable: no update
    (an op writing through a reference, as ``access_order`` counts them), no cond or loop of its own.
    Then a captured variable keeps its value through the loop's run (the run orders any update
    outside the loop after the loop, which reads the variable), and a snapshot read once gives its
    readers in every iteration the value they would read."""
    if not part.on_host:
        return False
    for step in part.plan.alone_steps:
        opdef = registry.get(step.op.type)
        if opdef.ref_output or opdef.functional or step.op.type in access_order.WRITES_ITS_REFERENCES:
            return False
    return True


def _invariant_steps(part, num_vars):
    """The steps of ``part`` (a loop's condition or body) whose results are the same in every iteration
    of a run: ops without state (no variable, random draw, or resource among their inputs: a
    TensorArray's size reads one), not functional, reading only what the loop captured, constants,
    and results of such steps, and waiting on no other op of the loop. The first iteration runs them
    in their place; the later ones read what they left in the slots. (Only for a loop that reads its
    captured variables once: else a capture is a variable that its readers read again each iteration.)"""
    varying_slots = set(part.feed_slots[:num_vars])
    varying_ops, invariant = set(), set()
    for step in part.plan.alone_steps:
        opdef = registry.get(step.op.type)
        if (opdef.stateful or opdef.functional or opdef.blocking or opdef.ref_output or opdef.ref_inputs
                or any(t.dtype.base_dtype == dtypes.resource for t in step.op._inputs)
                or varying_slots.intersection(step.in_slots) or any(c in varying_ops for c in step.op.control_inputs)):
            varying_slots.update(step.out_slots)
            varying_ops.add(step.op)
        else:
            invariant.add(step)
    return invariant


_SUMS = frozenset({"AddV2", "Add"})


def _sums_in_place(body, num_vars, may_hold_state):
    """``body``'s steps with each running sum of a loop variable (``total = total + value``, a
    gradient's accumulator over the iterations) adding into ``total``'s array; None if it has none.

    A sum of floats qualifies (a counter's add stays as it is: the loops of its scalars are cheaper
    than a check) where it is the only reader of the variable's value in the body, which the body
    does not pass on (as a value kept for the gradient, say), and its result is the variable's next
    value and nothing else's (read by no other step, fetched once, on the host):
    then from the second iteration on, the array it reads is the one it made the iteration before,
    which nothing else holds. (The first iteration reads the loop's initial value, which may be
    anyone's, and runs the steps as they are.) The add's result has the same bits either way.
    """
    steps = body.plan.alone_steps
    readers = {}
    for index, step in enumerate(steps):
        for slot in step.in_slots:
            readers.setdefault(slot, []).append(index)
    fetch_counts = {}
    for slot in body.fetch_slots:
        fetch_counts[slot] = fetch_counts.get(slot, 0) + 1
    changed = list(steps)
    for i in range(num_vars):
        feed, fetch = body.feed_slots[i], body.fetch_slots[i]
        (index, *others) = readers.get(feed, [None])
        if index is None or others or feed in fetch_counts or i in may_hold_state or i in body.off_host:
            continue
        step = steps[index]
        if (step.op.type in _SUMS and step.out_slots == (fetch,) and fetch not in readers
                and fetch_counts[fetch] == 1 and step.ctx.device is not None and step.ctx.device.is_host
                and np.dtype(step.ctx.output_dtypes[0]).kind in "fc"):
            position = step.in_slots.index(feed)
            changed[index] = _plan.Step(step.op, control_flow.sum_into(step.kernel, position), step.ctx,
                                        step.in_slots, step.out_slots)
    return changed if changed != steps else None


def _run_loop(ctx, *inputs):
    """The kernel of While: the final loop variables, the iteration count, the accumulated values.

    The condition's and the body's steps run in order over two slot lists made once per run (the
    captured values written in once); an iteration writes the loop variables into them, runs the
    steps, and reads the next values and those to accumulate. The iterations run with numpy's
    floating-point errors quiet, set once here rather than by each kernel that wants them so.
    """
    loop = ctx.subplans
    n = loop.num_vars
    current = [_value(v) for v in inputs[:n]]
    captures = inputs[n:n + loop.num_captures]
    if loop.reads_once:  # read here what the body's readers would read each iteration
        captures = [c.read() if isinstance(c, VariableHandle) and c.initialized else c for c in captures]
    limit = int(_value(inputs[-1])) if loop.has_limit else -1
    cond_values = loop.cond.values_with(captures, start=n)
    body_values = loop.body.values_with(captures, start=n)
    cond_vars = list(zip(range(n), loop.cond.feed_slots[:n]))
    body_vars = list(zip(range(n), loop.body.feed_slots[:n]))
    (cond_out,) = loop.cond.fetch_slots
    next_values = _plan.slot_reader(loop.body.fetch_slots)
    accumulated = [[] for _ in loop.accumulate]
    appends = [values.append for values in accumulated]
    # Whether an iteration's results need more than reading (then they are copied into a list).
    plain = not (loop.may_hold_state or loop.body.off_host or appends)
    first_cond, later_cond, first_body, later_body = loop.straight
    run_cond = executor.repeated_runner(loop.cond.plan.alone_steps, first_cond)
    run_later_cond = run_cond if later_cond is None else executor.repeated_runner(loop.later_cond_steps, later_cond)
    run_body = executor.repeated_runner(loop.body.plan.alone_steps, first_body)
    run_later_body = run_body if later_body is None else executor.repeated_runner(loop.later_body_steps, later_body)
    count = 0
    with float_errors.quiet():  # once, not per kernel per iteration
        while count != limit:
            for i, slot in cond_vars:
                cond_values[slot] = current[i]
            (run_later_cond if count else run_cond)(cond_values)
            go = cond_values[cond_out]
            if (go.__class__ is not np.ndarray or go.dtype is not _BOOL or go.shape) and go.__class__ is not np.bool_:
                go = loop.cond.to_host([_value(go)])[0]
                if np.ndim(go) != 0:
                    raise ValueError(f"The loop condition must be a scalar, but it has shape {list(np.shape(go))}")
            if not go:
                break
            for i, slot in body_vars:
                body_values[slot] = current[i]
            (run_later_body if count else run_body)(body_values)
            current = next_values(body_values)
            if not plain:
                current = _iteration_results(loop, list(current), appends)
            count += 1
    outputs = [None] * loop.num_accumulators
    for j, values in zip(loop.accumulate, accumulated):
        outputs[j] = values
    return (*current, np.int32(count), *outputs)


def _iteration_results(loop, fetched, appends):
    """The next loop variables from an iteration's ``fetched`` values: handles read, values copied to the
    host, the values to accumulate handed to ``appends``."""
    for i in loop.may_hold_state:
        fetched[i] = _value(fetched[i])
    if loop.body.off_host:
        loop.body.to_host(fetched)
    n = loop.num_vars
    for append, value in zip(appends, fetched[n:]):
        append(value)
    return fetched[:n]


register("While", "CPU")(_run_loop)
