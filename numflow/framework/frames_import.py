"""TensorFlow 1's control flow frames read from a GraphDef, rebuilt as numflow's conds and while loops.

``compat.v1`` writes ``tf.cond`` and ``tf.while_loop`` (and batch norm with a tensor ``training``,
``dynamic_rnn``, ``map_fn``, and the gradients of all of them) as dataflow frames of Switch, Merge,
Enter, Exit, NextIteration and LoopCond nodes; numflow runs control flow as functional ops over
context-tagged ops instead. ``numflow.framework.frames`` finds the conds and loops and the region
(state) of each node; each region is then built in dependency order, each cond or loop in it as one
item: its branches (or condition and body) built inside numflow's contexts, then the ``If`` or
``While`` op, and an ``Identity`` named as each Merge (``cond/Merge``) or Exit (``while/Exit``) of the
file on its results. The Switch, Enter, NextIteration and LoopCond nodes build nothing: their
consumers read the tensor they pass on (captured into the branch or loop), a loop Merge the loop
variable. What reads a loop Switch's false output before its Exit is built after the While op, on
its results.

TensorFlow 1's gradient of a loop pushes each iteration's values onto stacks and pops them in the
gradient loop (``numflow.ops.stack_ops``); the forward loop's pushes run through the control inputs
of its NextIteration, and those inside a cond's branch through a result the rebuilt cond gains.

The file holds no shape invariants: a loop variable keeps the shape it enters with, unless a trial
build into a scratch graph finds that the body changes it (a sequence that grows); the graph is then
built with a shape both fit. The trial build also fails on any node that cannot be built (ops of two
constructs that depend on each other: ``UnimplementedError`` naming the node) before the graph changes.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.frames import Frames, divergence, topological, unsupported
from numflow.framework.graph_io import parse_tensor_name


class FramesBuilder:
    """Builds the nodes of a GraphDef holding frames with ``importer``, region by region."""

    def __init__(self, importer, nodes, attrs, cond_contexts=(), invariants=None):
        self.importer = importer
        self.graph = importer.graph
        self.attrs = attrs
        self.invariants = invariants  # loop Merge name -> its variable's shape invariant; None: a trial build
        self.frames = frames = Frames(nodes, cond_contexts)
        self.loop_vars = {}  # loop Merge or loop Switch name -> the LoopVar its consumers read now
        self.regions = {}  # region -> {item: its nodes}, items in the file's order
        for node in nodes:
            state = frames.states[node.name]
            for depth in range(len(state) + 1):
                region = state[:depth]
                item = frames.item(region, node.name)
                if item is not None:
                    self.regions.setdefault(region, {}).setdefault(item, []).append(node)
        self.syncs = {}  # cond id -> {branch: names of its ops that ops outside it wait for}
        self.sync_ops = {}  # such an op's name -> the op outside the cond that stands for it
        for node in nodes:
            for raw in node.input:
                if raw.startswith("^") and frames.kinds.get(raw[1:]) == "op":
                    self._note_sync(node, raw[1:])
        self.orders = {region: self._order(region, items) for region, items in self.regions.items()}

    def _note_sync(self, node, source):
        """Note ``source`` in a cond's branch, waited for by ``node`` outside it (a ControlTrigger
        gathering a gradient's stack pushes): the cond gains a result that runs it."""
        frames = self.frames
        inner, outer = frames.states[source], frames.states[node.name]
        depth = divergence(inner, outer)
        if depth is None or inner[depth][0] != "c":
            return
        if len(inner) != depth + 1:
            raise unsupported(node, f"its control input '{source}' lies in a cond or loop nested in the branch of "
                               f"the cond of '{inner[depth][1]}'")
        self.syncs.setdefault(inner[depth][1], {}).setdefault(inner[depth][2], []).append(source)

    def _order(self, region, items):
        """The items of ``region`` in dependency order (found before anything is built)."""
        frames = self.frames
        deps = {}
        for item, members in items.items():
            found = deps[item] = []
            for node in members:
                for source in frames.sources(node):
                    other = frames.item(region, source)
                    if other is not None and other != item and other not in found:
                        found.append(other)
        return topological(items, deps.__getitem__, lambda item: unsupported(
            items[item][0], "its cond or loop and the ops around it depend on each other (a construct reading "
            "a value of another's branch or body)"))

    def build(self):
        self.build_region(())

    def build_region(self, region):
        for item in self.orders.get(region, ()):
            kind, name = item
            if kind == "node":
                node = self.frames.nodes[name]
                if self.frames.kinds[name] == "op":
                    self.build_node(node)
            elif kind == "c":
                self.build_cond(region, self.frames.conds[name])
            else:
                self.build_loop(region, self.frames.loops[name])

    # -- tensors -------------------------------------------------------------------------------
    def tensor(self, consumer, raw):
        """The numflow tensor (or op, for ``^name``; None for a loop's pivot) that input ``raw`` of
        ``consumer`` reads."""
        source, index = parse_tensor_name(raw)
        kind = self.frames.kinds.get(source)
        if kind is None or kind in ("op", "merge", "exit"):
            return self.importer.tensor(consumer, raw)
        node = self.frames.nodes[source]
        if kind in ("loop_merge", "loop_switch"):
            if index < 0:  # a frame's pivot, which only marks the op as one of the loop's (it is)
                return None
            value = self.loop_vars[(source, 1 if kind == "loop_switch" and index == 1 else 0)]
        else:  # a Switch, Enter, NextIteration or LoopCond passes its first input on
            value = self.tensor(node, node.input[0])
        return value.op if index < 0 and hasattr(value, "value_index") else value

    def build_node(self, node):
        inputs = [self.tensor(node, raw) for raw in node.input if not raw.startswith("^")]
        self.importer.add(node, inputs, self.controls(node), self.attrs[node.name])

    def controls(self, node):
        """The ops ``node`` has as control inputs, less a loop's pivots and the ops of its condition
        that ``node``, in its body or after it, follows anyway."""
        found = []
        state = self.frames.states[node.name]
        for raw in node.input:
            if not raw.startswith("^"):
                continue
            if raw[1:] in self.sync_ops:
                found.append(self.sync_ops[raw[1:]])
                continue
            source = self.frames.states.get(raw[1:], ())
            depth = divergence(source, state)
            if depth is not None and source[depth][0] == "l" and source[depth][2] == "cond":
                continue
            op = self.tensor(node, raw)
            if op is not None:
                found.append(op)
        return found

    def fresh_name(self, name):
        """``name`` (in the importer's prefix), suffixed where the graph or the file has it, with "/"."""
        graph, names_in_use = self.graph, self.graph._names_in_use
        name = self.importer.prefix + name
        candidate, i = name, 0
        while candidate in graph.nx_graph or candidate.lower() in names_in_use:
            i += 1
            candidate = f"{name}_{i}"
        names_in_use[candidate.lower()] = 1
        return candidate + "/"

    def outputs_as(self, nodes, tensors):
        """``tensors`` through Identities named as ``nodes`` (the file's Merges or Exits)."""
        importer = self.importer
        for node, t in zip(nodes, tensors):
            op = self.graph.create_op("Identity", [t], name=f"{importer.prefix}{node.name}/",
                                      creation_stack=importer._stack)
            importer.placed(node, op, op.outputs)

    # -- conds ---------------------------------------------------------------------------------
    def build_cond(self, region, cond):
        from numflow.ops import control_flow_util as cfu
        from numflow.ops.cond import conditional_op

        graph = self.graph
        anchor = cond.merges[0] if cond.merges else cond.switches[0]
        cond_name = self.importer.prefix + _scope_of(anchor.name)
        contexts, flats = [], []
        synced = self.syncs.get(cond.id)
        for index, branch in enumerate((1, 0)):  # numflow's branch 0 is the true one
            context = cfu.BranchContext(graph, cond_name, index)
            context.fetchable = True  # as TensorFlow 1 fetches a branch's tensors
            with context:
                self.build_region((*region, ("c", cond.id, branch)))
                flat = [self.tensor(merge, self._branch_input(merge, region, cond, branch)) for merge in cond.merges]
                if synced:  # a result that runs the ops that ops outside wait for
                    flat.append(graph.create_op("Const", [], {"value": np.array(True), "dtype": dtypes.bool},
                                                name=self.fresh_name(f"{cond_name}/sync_{branch}"),
                                                control_inputs=[self.importer.ops[n] for n in synced.get(branch, ())],
                                                creation_stack=self.importer._stack).outputs[0])
                flats.append(cfu.resolve_inputs(graph, flat, cond_name))
            contexts.append(context)
        pred = self.tensor(cond.switches[0], cond.switches[0].input[1])
        op = conditional_op(graph, "If", pred, contexts, flats, cond_name, self.fresh_name(f"{cond_name}/If"))
        self.outputs_as(cond.merges, op.outputs[:len(cond.merges)])
        if synced:
            done = graph.create_op("Identity", [op.outputs[len(cond.merges)]],
                                   name=self.fresh_name(f"{cond_name}/sync"), creation_stack=self.importer._stack)
            for names in synced.values():
                self.sync_ops.update(dict.fromkeys(names, done))

    def _branch_input(self, merge, region, cond, branch):
        """The input of ``merge`` that ``branch`` of ``cond`` gives (a tensor from outside when it has none)."""
        data = [raw for raw in merge.input if not raw.startswith("^")]
        inside = (*region, ("c", cond.id, branch))
        for raw in data:
            if self.frames.tensor_state(raw) == inside:
                return raw
        others = [raw for raw in data if len(self.frames.tensor_state(raw)) <= len(region)]
        return others[0] if others else data[branch ^ 1]

    # -- loops ---------------------------------------------------------------------------------
    def build_loop(self, region, loop):
        from numflow.ops import control_flow_util as cfu
        from numflow.ops.while_loop import Loop, build_contexts, loop_op

        graph = self.graph
        variables = [self._loop_variable(merge) for merge in loop.merges]
        frame = loop.frame.removesuffix("/while_context")  # TensorFlow names a loop's frame so
        scope = self.importer.prefix + (frame if frame != loop.frame else _scope_of(loop.loop_cond.name))
        initial = [self.tensor(merge, enter) for merge, enter, _ in variables]
        known = self.invariants if self.invariants is not None else self.importer.trial_invariants
        shapes = [known.get(merge.name, t.shape) for (merge, _, _), t in zip(variables, initial)]

        def cond(*values):
            for (merge, _, switch), value in zip(variables, values):
                self.loop_vars[(merge.name, 0)] = value
                if switch is not None:
                    self.loop_vars[(switch.name, 0)] = value
            self.build_region((*region, ("l", loop.frame, "cond")))
            return self.tensor(loop.loop_cond, loop.loop_cond.input[0])

        def body(*values):
            for (_, _, switch), value in zip(variables, values):
                if switch is not None:
                    self.loop_vars[(switch.name, 1)] = value
            self.build_region((*region, ("l", loop.frame, "body")))
            return [self._next_value(merge) for merge, _, _ in variables]

        numflow_loop = Loop(scope, 0, True)
        with graph.name_scope(None), graph.name_scope(f"{scope}/"):
            # Each variable keeps its initial shape unless a trial build found it changes; the body's
            # results, whose static shapes numflow may know less of than TensorFlow did, need only fit it.
            initial, invariants, *_ = build_contexts(graph, numflow_loop, cond, body, initial, shapes,
                                                     trusted_invariants=True)
        for (merge, _, _), t, shape in zip(variables, numflow_loop.body_outputs, invariants):
            if not t.shape.is_compatible_with(shape):
                if self.invariants is not None:
                    raise unsupported(merge, f"its loop variable has shape {shape} and shape {t.shape} after an "
                                      "iteration, though a trial build found the shapes it takes")
                raise ShapeChanged(merge.name, cfu.most_specific_compatible_shape(shape, t.shape))
        op = loop_op(graph, numflow_loop, initial, invariants, None, self.fresh_name(f"{scope}/While"))
        for (_, _, switch), t in zip(variables, op.outputs):
            if switch is not None:
                self.loop_vars[(switch.name, 0)] = t
        self.build_region((*region, ("l", loop.frame, "exit")))
        exits = [n for n in self.regions[region][("l", loop.frame)]
                 if self.frames.kinds[n.name] == "exit" and self.frames.states[n.name] == region]
        self.outputs_as(exits, [self.tensor(e, e.input[0]) for e in exits])

    def _loop_variable(self, merge):
        """``(Merge, its Enter input, its Switch or None)`` of one loop variable."""
        frames = self.frames
        enter = next(raw for raw in merge.input if frames.kinds.get(parse_tensor_name(raw)[0]) == "enter")
        switch = next((c for c in frames.consumers[merge.name] if frames.kinds[c.name] == "loop_switch"), None)
        return merge, enter, switch

    def _next_value(self, merge):
        """The body's next value of the loop variable of ``merge``: its NextIteration's input, after
        the NextIteration's control inputs (the pushes of a gradient's stacks)."""
        raw = next(raw for raw in merge.input if self.frames.kinds.get(parse_tensor_name(raw)[0]) == "next")
        node = self.frames.nodes[parse_tensor_name(raw)[0]]
        value = self.tensor(node, node.input[0])
        controls = self.controls(node)
        if not controls:
            return value
        op = self.graph.create_op("Identity", [value], name=self.fresh_name(node.name), control_inputs=controls,
                                  creation_stack=self.importer._stack)
        return op.outputs[0]


class ShapeChanged(Exception):  # noqa: N818 - a signal between trial builds, not an error
    """A trial build found that a loop variable (of the loop Merge ``merge``) takes other shapes than it
    entered with: ``shape`` is one they all fit."""

    def __init__(self, merge, shape):
        super().__init__(merge, shape)
        self.merge = merge
        self.shape = shape


def loop_invariants(importer, nodes):
    """The shape invariant of each loop variable that changes shape across iterations (the file has
    none), found by building ``nodes`` into scratch graphs until every loop's body keeps its
    variables' shapes: ``{loop Merge name: shape}``. A node that cannot be built fails here, before
    ``importer``'s graph changes."""
    from numflow.framework.graph import Graph
    from numflow.framework.graph_import import Importer

    invariants = {}
    while True:
        scratch = Graph()
        with scratch.as_default():
            trial = Importer(scratch, importer.prefix, _stand_ins(scratch, importer.input_map), importer.clear_devices,
                             cond_contexts=importer.cond_contexts)
            trial.library = importer.library
            trial.trial_invariants = invariants
            try:
                trial.build(nodes)
            except ShapeChanged as change:
                invariants[change.merge] = change.shape
                continue
        return invariants


def _stand_ins(graph, input_map):
    """Ops of ``graph`` standing for the tensors and ops of ``input_map`` (of another graph)."""
    stand_ins = {}
    for key, value in input_map.items():
        if hasattr(value, "value_index"):
            stand_ins[key] = graph.create_op("Placeholder", [], {"dtype": value.dtype.base_dtype,
                                                                 "shape": value.shape}).outputs[0]
        else:
            stand_ins[key] = graph.create_op("NoOp", [])
    return stand_ins


def cond_contexts(meta_graph_def):
    """The CondContextDefs of a MetaGraphDef's ``cond_context`` and ``while_context`` collections,
    nested ones included."""
    from numflow.protos import control_flow_pb2

    found, pending = [], []
    for key, message in (("cond_context", control_flow_pb2.CondContextDef),
                         ("while_context", control_flow_pb2.WhileContextDef)):
        if key in meta_graph_def.collection_def:
            pending += [message.FromString(raw) for raw in meta_graph_def.collection_def[key].bytes_list.value]
    while pending:
        context = pending.pop()
        if isinstance(context, control_flow_pb2.CondContextDef):
            found.append(context)
        pending += [getattr(n, n.WhichOneof("ctxt")) for n in context.nested_contexts if n.WhichOneof("ctxt")]
    return found


def _scope_of(name):
    """The name scope of a cond or loop whose frame node is ``name`` (``cond`` for ``cond/Merge``)."""
    return name.rpartition("/")[0] or name
