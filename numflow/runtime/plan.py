"""Run plans: prune the graph to what a run needs, place and order its ops, resolve their kernels.

A plan is built once per (graph version, fetches, feeds, targets) and cached by the session, so
running the same fetches again does no graph work. Reads and updates of a variable that the graph
leaves unordered are ordered first (``access_order``), so no run's numbers depend on which ready op
the executor takes first. It holds:

- ``steps``: the ops to run in topological order, each with its kernel, context and value slots;
- ``units``: the steps grouped into chains (an op whose only dependency is the previous op of the
  chain, which has no other dependent), the executor's unit of scheduling;
- ``slots``: the value slots a run starts from, holding what every run of the session would compute
  alike (constants, variables' handles); ``alone_steps``: the steps a run still has to run (the
  others, and NoOps, whose only part is ordering), in order, and each unit holds its share of them:
  whichever way the executor takes, a run runs these steps and no others;
- the slots where feeds are written and fetches read.

A functional op (If, Case, While: ``registry.OpDef.functional``) runs parts of the graph itself. Its
kernel context carries their sub-plans (``ctx.subplans``, built here by ``runtime.subplan``), and it
receives its inputs as they are, variables' handles included. A sub-plan is a plan of this module
too, built with a ``boundary``: the ops of one cond branch or loop part, fed the tensors it captured.
"""

import heapq
import operator
from collections import deque

from numflow.framework import errors, registry
from numflow.framework.kernel_context import kernel_context
from numflow.runtime import access_order, checkpoint_ops, executor, placement, subplan, summary_kernels  # noqa: F401
from numflow_kernels import tuning
from numflow_kernels.handle import VariableHandle


class Step:
    """One op of a plan: ``outputs = kernel(ctx, *values[in_slots])`` stored into ``out_slots``.

    ``inputs(values)``: the tuple of the step's input values (``values[in_slots]``), read by one
    call made once here, not by a loop per run. ``release``: the input slots no later step of the
    plan's ``alone_steps`` reads, emptied after this step in a run of those steps in order.
    """

    __slots__ = ("op", "kernel", "ctx", "in_slots", "inputs", "out_slots", "single", "release")

    def __init__(self, op, kernel, ctx, in_slots, out_slots):
        self.op = op
        self.kernel = kernel
        self.ctx = ctx
        self.in_slots = tuple(in_slots)
        self.inputs = slot_reader(self.in_slots)
        self.out_slots = tuple(out_slots)
        self.single = len(out_slots) == 1
        self.release = ()


def slot_reader(slots):
    """A function of a slot list returning the tuple of the values in ``slots``."""
    if len(slots) >= 2:
        return operator.itemgetter(*slots)
    if slots:
        (slot,) = slots
        return lambda values: (values[slot],)
    return lambda values: ()


class Unit:
    """A chain of steps run one after another on one thread."""

    __slots__ = ("steps", "successors", "num_deps", "index", "cheap", "blocking", "seconds")

    def __init__(self, index):
        self.index = index
        self.steps = []
        self.successors = []
        self.num_deps = 0
        self.cheap = True
        self.blocking = False  # holds an op that may wait for another: never run inline
        self.seconds = 0.0  # how long its last run took (infinite until measured, unless cheap)


class Plan:
    """``serial``: True when running units at once cannot pay for the hand-offs, because no two units
    that do more than trivial work (see ``_is_cheap``) could run at once: every step then runs on the
    caller's thread.
    ``trivial``: True when no unit does more than trivial work; the caller's thread then runs every
    step with nothing to choose. ``ways``: for the other plans, how fast runs went with each kernel
    on every core and on one core each (the executor keeps it up to date and picks the faster).
    ``blocking``: whether a unit holds a blocking op.
    ``calls_blas``: whether a step's kernel calls BLAS (registered with ``calls_blas=True``).
    """

    __slots__ = ("steps", "alone_steps", "slots", "units", "roots", "serial", "trivial", "ways", "blocking",
                 "calls_blas", "feed_slots", "fetch_slots", "fetch_fed", "graph_version", "placements",
                 "__weakref__")


_ALWAYS_CHEAP = frozenset({"Const", "Placeholder", "PlaceholderWithDefault", "Identity", "NoOp", "Shape",
                           "VariableV2", "IsVariableInitialized"})  # a variable's op only looks its handle up


def _is_cheap(op):
    if op.type in _ALWAYS_CHEAP:
        return True
    if registry.get(op.type).functional:
        return False
    sizes = [t.shape.num_elements() for t in op._outputs]
    return all(n is not None and n <= tuning.CHEAP_ELEMENTS for n in sizes)


_PLACEHOLDERS = frozenset({"Placeholder", "PlaceholderWithDefault"})

# Ops whose TensorFlow kernels forward a variable's buffer (a variable's read, ``tf.identity`` of one):
# there, a consumer that runs after an update in the same run sees the updated value, and a fetch
# sees the value at the end of the run. Here their output is the variable's handle itself, and each
# consumer (and the fetch) takes its snapshot when it runs.
ALIASING = frozenset({"Identity", "StopGradient"})

# Ops whose output is the same object in every run of one session (a Const's value, a variable's
# state: a session's containers never drop a handle once made).
_SESSION_CONSTANT = frozenset({"Const", "VariableV2"})

# Ops whose output is a buffer they have just allocated, which nothing else holds.
_FRESH_OUTPUTS = frozenset({"RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal",
                            "FillValue"})


def _donated(op, readers, fetches, feeds):
    """Whether ``op``, an Assign, may keep its value's buffer as the variable's instead of copying it:
    the value is the fresh output of an op of this run, read by nothing else and not fetched."""
    value = op._inputs[1]
    return (value.op.type in _FRESH_OUTPUTS and readers.get(value) == 1 and value not in fetches
            and value not in feeds)


def build(graph, fetch_tensors, target_ops, feed_tensors, session, boundary=None):
    """The plan computing ``fetch_tensors`` and running ``target_ops`` with ``feed_tensors`` given.

    ``boundary``: for a sub-plan, the names of the ops it may run (one control-flow context's); its
    feeds are the tensors the context captured, which may stand for a variable (see ``ALIASING``).
    Holds the graph's lock: another thread may be adding ops to the graph meanwhile.
    """
    with graph._lock:
        return _build(graph, fetch_tensors, target_ops, feed_tensors, session, boundary)


def _build(graph, fetch_tensors, target_ops, feed_tensors, session, boundary=None):
    feeds = set(feed_tensors)
    nxg = graph.nx_graph
    needed = _prune(nxg, [t.op.name for t in fetch_tensors if t not in feeds]
                    + [op.name for op in target_ops], feeds, boundary)
    ops = {name: nxg.nodes[name]["op"] for name in needed}
    preds = {name: [p for p in nxg.pred[name] if p in needed] for name in needed}
    if graph._variable_initializers:
        _order_reads_after_initializers(graph, ops, preds)
    access_order.order_accesses(ops, preds)
    order = _topological_order(ops, preds)
    devices = placement.place(order, session)
    all_on_host = all(d.is_host for d in set(devices.values()))

    slot_of = {}
    for t in feed_tensors:
        slot_of[t] = len(slot_of)
    steps = []
    for op in order:
        for t in op._outputs:
            if t not in feeds:
                slot_of[t] = len(slot_of)
    discard = len(slot_of)
    readers = {}
    for op in order:
        for t in op._inputs:
            readers[t] = readers.get(t, 0) + 1
    fetched = set(fetch_tensors)
    # Tensors that stand for a variable at run time (see ALIASING); in a sub-plan, the captured
    # ones that may (a variable's read, passed on by the functional op as it is).
    aliases = {t for t in feed_tensors if t.op.type in ALIASING} if boundary is not None else set()
    for op in order:
        device = devices[op]
        kernel = device.kernel(op.type)
        if kernel is None:
            raise errors.NotFoundError(
                None, op, f"No kernel registered for op '{op.type}' on device {device.name} (node {op.name})."
            )
        ctx = kernel_context(op, session._resources_for(device), device)
        if op.type == "Assign":
            ctx.donated = _donated(op, readers, fetched, feeds)
        crossing = () if all_on_host else _inputs_from_other_memory(op, device, devices, aliases, boundary)
        if crossing:
            kernel = _copying_in(kernel, crossing, device)
        value_inputs = _value_inputs_from_refs(op)
        if registry.get(op.type).functional:
            ctx.subplans = subplan.build(op, session, [t in readers or t in fetched for t in op._outputs])
        elif op.type in ALIASING and (value_inputs or op._inputs[0] in aliases):
            kernel = _alias
            aliases.update(t for t in op._outputs if t not in feeds)
        else:
            value_inputs += tuple(i for i, t in enumerate(op._inputs) if t in aliases and i not in value_inputs)
            if value_inputs:
                kernel = _dereferencing(kernel, value_inputs)
        in_slots = [slot_of[t] for t in op._inputs]
        out_slots = [slot_of[t] if t not in feeds else discard for t in op._outputs]
        steps.append(Step(op, kernel, ctx, in_slots, out_slots))

    plan = Plan()
    plan.steps = steps
    plan.fetch_slots = [slot_of[t] for t in fetch_tensors]
    plan.units, plan.roots = _chains(preds, steps)
    costly = [u for u in plan.units if not u.cheap]
    plan.serial = _one_at_a_time(costly)
    plan.trivial = not costly
    # A plan with nothing to run at once first gives each kernel every core, as a one-off run wants.
    plan.ways = executor.Ways(first=executor.ALL_CORES if plan.serial else executor.ONE_CORE_EACH)
    plan.blocking = any(u.blocking for u in plan.units)
    plan.calls_blas = any(s.ctx.device.calls_blas(s.op.type)
                          or s.ctx.subplans is not None and s.ctx.subplans.calls_blas for s in steps)
    for unit in plan.units:
        unit.seconds = 0.0 if unit.cheap else float("inf")
    plan.slots = [None] * (discard + 1)
    plan.alone_steps = []
    for step in steps:
        if step.op.type in _SESSION_CONSTANT:
            plan.slots[step.out_slots[0]] = step.kernel(step.ctx)
        elif step.op.type != "NoOp":
            plan.alone_steps.append(step)
    ran = set(plan.alone_steps)
    for unit in plan.units:
        unit.steps = [s for s in unit.steps if s in ran]
    _release_after_last_readers(plan.alone_steps, set(plan.fetch_slots))
    plan.feed_slots = [slot_of[t] for t in feed_tensors]
    plan.graph_version = graph.version
    plan.placements = devices
    return plan


def _release_after_last_readers(steps, kept):
    """Let the last of ``steps`` (in their order) to read a slot empty it, unless the slot is in
    ``kept`` (fetched).

    A run of the steps in this order (``alone_steps``, on one thread) then keeps each value only as
    long as it is needed: less memory, and a variable's read snapshot no longer forces the update
    that follows it to copy the buffer (see ``resources.LocalVariable``).
    """
    last_reader = {}
    for step in steps:
        for slot in step.in_slots:
            last_reader[slot] = step
    for slot, step in last_reader.items():
        if slot not in kept:
            step.release += (slot,)


def _value_inputs_from_refs(op):
    """Positions of ``op``'s inputs that come from a variable reference but want its value."""
    ref_inputs = registry.get(op.type).ref_inputs
    if ref_inputs is True:
        return ()
    return tuple(i for i, t in enumerate(op._inputs) if t.dtype._is_ref_dtype and i not in ref_inputs)


def _memory_of(device):
    return "host" if device is None or device.is_host else device.name


def _inputs_from_other_memory(op, device, devices, aliases, boundary):
    """Positions of ``op``'s value inputs produced in another memory than ``device``'s (feeds: host).

    A functional op takes a variable's handle as it is; in a sub-plan (``boundary``), such a captured
    handle is read where it is used, in whatever memory the variable lives, and copied from there.
    """
    ref_inputs = registry.get(op.type).ref_inputs
    here = _memory_of(device)
    functional = registry.get(op.type).functional

    def passed_as_reference(i, t):
        return t.dtype._is_ref_dtype and (ref_inputs is True or i in ref_inputs) or functional and t in aliases

    def elsewhere(t):
        if boundary is not None and t.op.name not in boundary and t in aliases:
            return True
        return _memory_of(devices.get(t.op)) != here

    return tuple(i for i, t in enumerate(op._inputs) if not passed_as_reference(i, t) and elsewhere(t))


def _copying_in(kernel, positions, device):
    """``kernel`` with the inputs at ``positions`` first copied into ``device``'s memory."""

    def run(ctx, *inputs):
        inputs = list(inputs)
        for i in positions:
            inputs[i] = device.copy_in(inputs[i])
        return kernel(ctx, *inputs)

    return run


def _alias(ctx, ref):
    """An aliasing op's kernel: the variable's handle passed on, after TensorFlow's check that the
    variable is initialized (the error names this op, as TF's names the read)."""
    if isinstance(ref, VariableHandle) and not ref.initialized:
        raise ref.uninitialized_error()
    return ref


def _dereferencing(kernel, positions):
    """``kernel`` with the variable references at ``positions`` replaced by snapshots of their values.

    A reference fed by the run (``sess.run(v * 2, {v: 5.0})``, as TF allows) is already a value.
    """

    def run(ctx, *inputs):
        inputs = list(inputs)
        for i in positions:
            ref = inputs[i]
            if isinstance(ref, VariableHandle):
                inputs[i] = ref.read()
        return kernel(ctx, *inputs)

    return run


def _order_reads_after_initializers(graph, ops, preds):
    """Make every read of a variable wait for its initializer when both are in one run.

    Changes ``preds`` (the run's op -> predecessors map) by adding the initializer to the read's
    predecessors. TensorFlow leaves their order to chance; here an initial value computed from
    another variable initialized by the same run sees its initialized value. A read that the
    initializer itself depends on keeps its place.
    """
    initializers = graph._variable_initializers
    for name, op in ops.items():
        for i in _value_inputs_from_refs(op):
            init = initializers.get(op._inputs[i].op.name)
            if init is None or init is op or init.name not in ops or init.name in preds[name]:
                continue
            if name not in _ancestors(init.name, preds):
                preds[name].append(init.name)


def _ancestors(name, preds):
    seen, stack = set(), [name]
    while stack:
        for p in preds[stack.pop()]:
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return seen


def _topological_order(ops, preds):
    """The ops in dependency order, ties broken by creation order so that plans are reproducible."""
    remaining = {name: len(ps) for name, ps in preds.items()}
    succs = {name: [] for name in preds}
    for name, ps in preds.items():
        for p in ps:
            succs[p].append(name)
    ready = [(ops[name]._id, name) for name, n in remaining.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, name = heapq.heappop(ready)
        order.append(ops[name])
        for s in succs[name]:
            remaining[s] -= 1
            if remaining[s] == 0:
                heapq.heappush(ready, (ops[s]._id, s))
    if len(order) != len(ops):
        stuck = sorted(name for name, n in remaining.items() if n > 0)[:5]
        raise errors.InvalidArgumentError(None, None, f"The graph has a cycle through {', '.join(stuck)}")
    return order


def _prune(nxg, roots, feeds, boundary=None):
    """Names of the ops the roots need: ancestors through data and control edges, stopping at feeds
    (and, given a ``boundary``, at ops outside it: a sub-plan's functional op runs after them).

    A fed placeholder stands for its feed even where an op depends on it by a control edge, as in
    TensorFlow; any other op with a control edge to it still runs, fed outputs or not.
    """
    needed = set(roots)
    queue = deque(roots)
    while queue:
        name = queue.popleft()
        for pred, edge in nxg.pred[name].items():
            if pred in needed or boundary is not None and pred not in boundary:
                continue
            producer = nxg.nodes[pred]["op"]
            if producer.type in _PLACEHOLDERS and producer._outputs[0] in feeds:
                continue
            fed_only = not edge["control"] and all(
                producer._outputs[out] in feeds for out, _ in edge["data"]
            )
            if not fed_only:
                needed.add(pred)
                queue.append(pred)
    return needed


def _chains(op_preds, steps):
    """Group steps into chains and link the chains by their dependencies."""
    index = {s.op.name: i for i, s in enumerate(steps)}
    preds = [[index[p] for p in op_preds[s.op.name]] for s in steps]
    succ_count = [0] * len(steps)
    for ps in preds:
        for p in ps:
            succ_count[p] += 1
    unit_of = [None] * len(steps)
    units = []
    for i, step in enumerate(steps):
        ps = preds[i]
        if len(ps) == 1 and succ_count[ps[0]] == 1 and units[unit_of[ps[0]]].steps[-1] is steps[ps[0]]:
            unit = units[unit_of[ps[0]]]
        else:
            unit = Unit(len(units))
            units.append(unit)
            for dep in {unit_of[p] for p in ps}:
                units[dep].successors.append(unit)
                unit.num_deps += 1
        unit.steps.append(step)
        blocking = registry.get(step.op.type).blocking
        unit.blocking = unit.blocking or blocking
        unit.cheap = unit.cheap and not blocking and _is_cheap(step.op)
        unit_of[i] = unit.index
    roots = [u for u in units if u.num_deps == 0]
    return units, roots


def _one_at_a_time(units):
    """Whether each of ``units`` runs before or after each other one (no two could run at once)."""
    if len(units) > tuning.MAX_ORDERED_CHECK:
        return False
    later = {u.index: _successors_of(u) for u in units}
    return all(b.index in later[a.index] or a.index in later[b.index]
               for i, a in enumerate(units) for b in units[i + 1:])


def _successors_of(unit):
    """Indices of the units that run after ``unit`` (its successors, transitively)."""
    seen, stack = set(), [unit]
    while stack:
        for succ in stack.pop().successors:
            if succ.index not in seen:
                seen.add(succ.index)
                stack.append(succ)
    return seen
