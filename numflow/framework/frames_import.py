"""TensorFlow 1's control flow frames read from a GraphDef, rebuilt as numflow's conds and while loops.

``compat.v1`` writes ``tf.cond`` and ``tf.while_loop`` (and batch norm with a tensor ``training``,
``dynamic_rnn``, ``map_fn``) as dataflow frames: a cond is ``Switch`` nodes on one predicate, whose
two outputs feed the two branches, joined again by ``Merge`` nodes; a loop is ``Enter`` nodes into a
frame, a ``Merge`` per loop variable joining its ``Enter`` and its ``NextIteration``, the condition
ending in ``LoopCond``, a ``Switch`` per variable into the body (output 1) or out of the loop through
``Exit`` (output 0). numflow runs control flow as functional ops over context-tagged ops instead, so
the frames are found from the GraphDef alone and rebuilt:

1. Every tensor gets a *state*: the stack of frames it lives in, each entry a cond branch
   ``("c", cond id, branch)`` or a loop part ``("l", frame, "cond" | "body")``. A Switch's output
   ``k`` pushes branch ``k`` (a loop's Switch turns the condition into the body), an Enter pushes
   its frame, a Merge and an Exit pop. An op's state is the deepest of its inputs' (data and
   control); two conds' branches meeting in one op are one cond (the Switches on ``x`` and on
   ``y`` of one ``tf.cond``), found with a union-find, which also joins each cond's pivot Switch
   to it (as the MetaGraph's cond contexts say, else by TensorFlow's names). A ControlTrigger is
   never dead: it lies in its loop, whichever branch its control inputs ran in.
2. Each region (a state) is then built in dependency order, each cond or loop in it as one item:
   its branches (or condition and body) built inside numflow's contexts, then the ``If`` or
   ``While`` op, and an ``Identity`` named as each Merge (``cond/Merge``) or Exit (``while/Exit``)
   of the file on its results. The Switch, Enter, NextIteration and LoopCond nodes build nothing:
   their consumers read the tensor they pass on (captured into the branch or loop), a loop Merge
   the loop variable.

A graph that is not such frames (a Merge of two tensors of different conds, a loop fed back from
outside its body, an op reading both branches of one cond, or ops of two constructs depending on
each other) raises ``UnimplementedError`` naming the node, before the graph changes.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.errors import UnimplementedError
from numflow.framework.graph_io import parse_tensor_name

SWITCH = frozenset(["Switch", "RefSwitch"])
MERGE = frozenset(["Merge", "RefMerge"])
ENTER = frozenset(["Enter", "RefEnter"])
EXIT = frozenset(["Exit", "RefExit"])
NEXT_ITERATION = frozenset(["NextIteration", "RefNextIteration"])
FRAME_OPS = SWITCH | MERGE | ENTER | EXIT | NEXT_ITERATION | {"LoopCond"}


def has_frames(nodes):
    """Whether the NodeDefs ``nodes`` hold TensorFlow 1 control flow frames."""
    return any(node.op in FRAME_OPS for node in nodes)


def _unsupported(node, what):
    return UnimplementedError(None, None, f"Node '{node.name}' ({node.op}): {what}; numflow rebuilds TensorFlow 1's "
                              "control flow frames as conds and while loops, and cannot rebuild this one.")


class _Cond:
    """One cond: its Switches, its Merges (in the file's order), and the region it lies in."""

    def __init__(self, switch):
        self.id = switch.name
        self.switches = [switch]
        self.merges = []
        self.prefix = None


class _Loop:
    """One while loop (a frame): its loop variables' Merges, Switches, Exits, and its LoopCond."""

    def __init__(self, frame):
        self.frame = frame
        self.merges = []
        self.prefix = None
        self.loop_cond = None


class Frames:
    """The conds and loops of a GraphDef's nodes, and the state (region) of each node and tensor."""

    def __init__(self, nodes, cond_contexts=()):
        self.nodes = {}
        for node in nodes:
            if node.name in self.nodes:
                raise ValueError(f"Duplicate node name in graph: '{node.name}'")
            self.nodes[node.name] = node
        self.order = {node.name: i for i, node in enumerate(nodes)}
        self.consumers = {name: [] for name in self.nodes}
        for node in nodes:
            for raw in node.input:
                source = parse_tensor_name(raw)[0]
                if source in self.consumers:
                    self.consumers[source].append(node)
        self._parent = {}
        self.conds = {}
        self.loops = {}
        self.kinds = {node.name: self._kind(node) for node in nodes}
        self._join_pivots(cond_contexts)
        self.states = {}
        for node in self._topological(nodes):
            self.states[node.name] = self._state(node)
        self.merge_conds = {}
        self._canonicalize()

    # -- what each node is ----------------------------------------------------------------------
    def _kind(self, node):
        if node.op in SWITCH:
            pred = self.nodes.get(parse_tensor_name(node.input[1])[0]) if len(node.input) == 2 else None
            if pred is not None and pred.op == "LoopCond":
                return "loop_switch"
            self.conds[node.name] = _Cond(node)
            self._parent[node.name] = node.name
            return "switch"
        if node.op in MERGE:
            sources = [self.nodes.get(parse_tensor_name(raw)[0]) for raw in node.input if not raw.startswith("^")]
            if any(s is not None and s.op in NEXT_ITERATION for s in sources):
                return "loop_merge"
            return "merge"
        if node.op in ENTER:
            return "enter"
        if node.op in EXIT:
            return "exit"
        if node.op in NEXT_ITERATION:
            return "next"
        if node.op == "LoopCond":
            return "loop_cond"
        return "op"

    def _join_pivots(self, contexts):
        """Each cond's pivot Switch (on the predicate itself; its outputs ``switch_t`` and ``switch_f``
        only order the branches' constants) made one cond with the Switches on the cond's ``pred_id``,
        as the MetaGraph's cond contexts pair them, else as TensorFlow names them."""
        groups = [(c.pivot_name, {parse_tensor_name(v)[0] for v in c.values_def.values
                                  if self._switches_on(parse_tensor_name(v)[0], c.pred_name)}) for c in contexts]
        if not groups:
            for cond in list(self.conds.values()):
                switch = cond.switches[0]
                scope = switch.name.rpartition("/")[0]
                if switch.input[0] == switch.input[1] and f"{scope}/pred_id" in self.nodes:
                    members = {s for s in self.conds if s.startswith(f"{scope}/")
                               and self._switches_on(s, f"{scope}/pred_id")}
                    groups.append((f"{scope}/switch_t", members))
        for pivot_name, members in groups:
            pivot = self.nodes.get(parse_tensor_name(pivot_name)[0])
            if pivot is None or pivot.op != "Identity" or not pivot.input:
                continue
            switch = parse_tensor_name(pivot.input[0])[0]
            if self.kinds.get(switch) != "switch":
                continue
            for other in members:
                self._union(pivot, switch, other)

    def _switches_on(self, name, pred):
        """Whether node ``name`` is a Switch on the tensor ``pred``."""
        node = self.nodes.get(name)
        return (self.kinds.get(name) == "switch" and len(node.input) == 2
                and parse_tensor_name(node.input[1]) == parse_tensor_name(pred))

    def _topological(self, nodes):
        """The nodes in an order where each one's inputs come first, a loop Merge's NextIteration ignored."""
        done, order = set(), []
        for root in nodes:
            stack = [(root.name, False)]
            active = set()
            while stack:
                name, expanded = stack.pop()
                if expanded:
                    active.discard(name)
                    if name not in done:
                        done.add(name)
                        order.append(self.nodes[name])
                    continue
                if name in done:
                    continue
                if name in active:
                    raise _unsupported(self.nodes[name], "it lies on a cycle that is not a while loop's NextIteration")
                active.add(name)
                stack.append((name, True))
                stack.extend((s, False) for s in self._sources(self.nodes[name]) if s not in done)
        return order

    def _sources(self, node):
        """The nodes ``node`` reads (data and control), a loop Merge's NextIteration left out."""
        names = []
        for raw in node.input:
            source = parse_tensor_name(raw)[0]
            if source in self.nodes and not (self.kinds.get(node.name) == "loop_merge"
                                             and self.nodes[source].op in NEXT_ITERATION):
                names.append(source)
        return names

    # -- states ---------------------------------------------------------------------------------
    def _find(self, cond_id):
        parent = self._parent
        while parent[cond_id] != cond_id:
            parent[cond_id] = parent[parent[cond_id]]
            cond_id = parent[cond_id]
        return cond_id

    def _union(self, node, a, b):
        a, b = self._find(a), self._find(b)
        if a == b:
            return
        first, second = self.conds[a], self.conds[b]
        if self._predicate(first.switches[0]) != self._predicate(second.switches[0]):
            raise _unsupported(node, f"it reads the branches of two conds on different predicates ('{a}' and '{b}')")
        keep, drop = (a, b) if self.order[a] < self.order[b] else (b, a)
        self._parent[drop] = keep
        self.conds[keep].switches += self.conds[drop].switches
        self.conds[keep].merges += self.conds[drop].merges
        del self.conds[drop]

    def _predicate(self, switch):
        """The tensor a Switch's predicate is, through Identity nodes."""
        raw = switch.input[1]
        node = self.nodes.get(parse_tensor_name(raw)[0])
        while node is not None and node.op == "Identity" and node.input:
            raw = node.input[0]
            node = self.nodes.get(parse_tensor_name(raw)[0])
        source, index = parse_tensor_name(raw)
        return source, index

    def tensor_state(self, raw):
        """The state of the tensor (or the control edge) ``raw``."""
        source, index = parse_tensor_name(raw)
        if source not in self.nodes:  # an input_map'd or absent tensor: the graph itself
            return ()
        state = self.states[source]
        kind = self.kinds[source]
        if index < 0:
            return state
        if kind == "switch":
            return (*state, ("c", self._find(source), index))
        if kind == "loop_switch":
            return (*state[:-1], (*state[-1][:2], "body" if index == 1 else "exit"))
        return state

    def _merge_states(self, node, states, controls=()):
        """The state of ``node`` reading tensors of ``states`` and ops of ``controls``: the deepest.

        A control edge from a loop's condition into its body or past its exit only orders the op
        after an iteration's condition, as numflow runs it anyway: such an op lies in the body.
        """
        result = []
        for state, is_control in [*((s, False) for s in states), *((s, True) for s in controls)]:
            for k, entry in enumerate(state):
                if k == len(result):
                    result.append(entry)
                    continue
                merged = self._unify(node, result[k], entry, is_control)
                if merged is None:  # a control edge from another part of the loop: it ends here
                    break
                result[k] = merged
        return tuple(result)

    def _unify(self, node, a, b, is_control=False):
        if a == b:
            return a
        if a[0] != b[0] or (a[0] == "l" and a[1] != b[1]):
            raise _unsupported(node, "it reads tensors of two different conds or loops at one depth")
        if a[0] == "c":
            if a[2] != b[2]:
                raise _unsupported(node, f"it reads both branches of the cond of '{a[1]}'")
            self._union(node, a[1], b[1])
            return a
        if None in (a[2], b[2]):
            return a if b[2] is None else b
        if is_control and b[2] == "cond":
            return None
        if is_control and a[2] == "cond":
            return b
        raise _unsupported(node, f"it reads two parts ({a[2]} and {b[2]}) of the loop '{a[1]}'")

    def _state(self, node):
        kind = self.kinds[node.name]
        data = [raw for raw in node.input if not raw.startswith("^")]
        if kind == "loop_merge":
            entered = [raw for raw in data if self.nodes.get(parse_tensor_name(raw)[0]) is not None
                       and self.kinds[parse_tensor_name(raw)[0]] == "enter"]
            if len(data) != 2 or len(entered) != 1:
                raise _unsupported(node, "a loop Merge must join one Enter and one NextIteration")
            state = self.tensor_state(entered[0])
            frame = state[-1][1]
            loop = self.loops[frame]
            loop.merges.append(node)
            return (*state[:-1], ("l", frame, "cond"))
        if kind == "merge":
            return self._cond_merge_state(node, data)
        controls = [self.tensor_state(raw) for raw in node.input if raw.startswith("^")]
        if node.op == "ControlTrigger":  # never dead: it lies in its innermost loop, whichever branch ran
            controls = [s[:_innermost_loop(s)] for s in controls]
        state = self._merge_states(node, [self.tensor_state(raw) for raw in data], controls)
        if kind == "enter":
            frame = node.attr["frame_name"].s.decode()
            loop = self.loops.setdefault(frame, _Loop(frame))
            return (*state, ("l", frame, None))
        if kind == "exit":
            if not state or state[-1][0] != "l":
                raise _unsupported(node, "an Exit must leave a while loop")
            return state[:-1]
        if kind == "loop_cond":
            if not state or state[-1][0] != "l":
                raise _unsupported(node, "a LoopCond must lie in a while loop")
            loop = self.loops[state[-1][1]]
            loop.loop_cond = node
            return (*state[:-1], ("l", state[-1][1], "cond"))
        return state

    def _cond_merge_state(self, node, data):
        if len(data) != 2:
            raise _unsupported(node, f"a cond's Merge joins two branches, not {len(data)} tensors")
        states = [self.tensor_state(raw) for raw in data]
        depth = max(len(s) for s in states)
        deepest = [s for s in states if len(s) == depth]
        if not depth or deepest[0][-1][0] != "c":
            raise _unsupported(node, "a Merge that joins no cond's branches")
        cond_id = deepest[0][-1][1]
        branches = set()
        for state in deepest:
            self._union(node, cond_id, state[-1][1])
            branches.add(state[-1][2])
        if len(deepest) == 2 and len(branches) != 2:
            raise _unsupported(node, "a Merge of two tensors of the same branch")
        outer = [s[:-1] if len(s) == depth else s for s in states]
        if any(len(s) >= depth for s in outer):
            raise _unsupported(node, "a Merge of a tensor deeper than its cond's branches")
        self.conds[self._find(cond_id)].merges.append(node)
        for consumer in self.consumers[node.name]:
            if any(parse_tensor_name(raw) == (node.name, 1) for raw in consumer.input):
                raise _unsupported(consumer, f"it reads the branch index output of Merge '{node.name}'")
        return self._merge_states(node, outer)

    def _canonicalize(self):
        """States with every cond named by its union-find root, a loop's undecided part its body."""
        def entry(e):
            if e[0] == "c":
                return "c", self._find(e[1]), e[2]
            return "l", e[1], e[2] or "body"

        self.states = {name: tuple(entry(e) for e in state) for name, state in self.states.items()}
        for cond in self.conds.values():
            cond.switches.sort(key=lambda n: self.order[n.name])
            cond.merges.sort(key=lambda n: self.order[n.name])
            cond.prefix = self.states[cond.switches[0].name]
            for merge in cond.merges:
                self.merge_conds[merge.name] = cond
        for loop in self.loops.values():
            if loop.loop_cond is None or not loop.merges:
                raise _unsupported(self._enter_of(loop), f"the frame '{loop.frame}' is no complete while loop "
                                   "(it needs a Merge per loop variable and a LoopCond)")
            loop.merges.sort(key=lambda n: self.order[n.name])
            loop.prefix = self.states[loop.merges[0].name][:-1]

    def _enter_of(self, loop):
        return next(n for n in self.nodes.values() if self.kinds[n.name] == "enter"
                    and n.attr["frame_name"].s.decode() == loop.frame)

    # -- regions ----------------------------------------------------------------------------------
    def item(self, region, name):
        """What node ``name`` is part of in ``region``: ``("node", name)``, ``("c", cond id)`` or
        ``("l", frame)``; None when it lies outside the region."""
        state = self.states[name]
        kind = self.kinds[name]
        n = len(region)
        if state[:n] != region:
            return None
        if len(state) > n:
            return state[n][:2]
        if kind == "merge":
            return "c", self.merge_conds[name].id
        if kind == "exit":
            return "l", self.tensor_state(self.nodes[name].input[0])[n][1]
        return "node", name


class FramesBuilder:
    """Builds the nodes of a GraphDef holding frames with ``importer``, region by region."""

    def __init__(self, importer, nodes, attrs, cond_contexts=()):
        self.importer = importer
        self.graph = importer.graph
        self.attrs = attrs
        self.frames = frames = Frames(nodes, cond_contexts)
        self.loop_vars = {}  # loop Merge or loop Switch name -> the LoopVar its consumers read now
        self.regions = {}  # region -> [items in the file's order]
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
        self._check_orders()

    def _note_sync(self, node, source):
        """Note ``source`` in a cond's branch, waited for by ``node`` outside it (a ControlTrigger
        gathering a gradient's stack pushes): the cond gains a result that runs it."""
        frames = self.frames
        inner, outer = frames.states[source], frames.states[node.name]
        depth = _divergence(inner, outer)
        if depth is None or inner[depth][0] != "c":
            return
        if len(inner) != depth + 1:
            raise _unsupported(node, f"its control input '{source}' lies in a cond or loop nested in the branch of "
                               f"the cond of '{inner[depth][1]}'")
        self.syncs.setdefault(inner[depth][1], {}).setdefault(inner[depth][2], []).append(source)

    def _check_orders(self):
        """Each region's items in dependency order, computed before anything is built."""
        self.orders = {region: self._order(region, items) for region, items in self.regions.items()}

    def _order(self, region, items):
        frames = self.frames
        deps = {}
        for item, members in items.items():
            found = deps[item] = []
            for node in members:
                for source in frames._sources(node):
                    other = frames.item(region, source)
                    if other is not None and other != item and other not in found:
                        found.append(other)
        done, order = set(), []
        for root in items:
            stack, active = [(root, False)], set()
            while stack:
                item, expanded = stack.pop()
                if expanded:
                    active.discard(item)
                    if item not in done:
                        done.add(item)
                        order.append(item)
                    continue
                if item in done:
                    continue
                if item in active:
                    raise _unsupported(items[item][0], "its cond or loop and the ops around it depend on each other "
                                       "(a construct reading a value of another's branch or body)")
                active.add(item)
                stack.append((item, True))
                stack.extend((d, False) for d in deps[item] if d not in done)
        return order

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
            depth = _divergence(source, state)
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
        from numflow.ops.while_loop import Loop, build_contexts, loop_op

        graph = self.graph
        variables = [self._loop_variable(loop, merge) for merge in loop.merges]
        exits = [e for _, _, _, e in variables if e is not None]
        anchor = exits[0] if exits else loop.loop_cond
        scope = self.importer.prefix + _scope_of(anchor.name)
        initial = [self.tensor(merge, enter) for merge, enter, _, _ in variables]

        def cond(*values):
            for (merge, _, switch, _), value in zip(variables, values):
                self.loop_vars[(merge.name, 0)] = value
                if switch is not None:
                    self.loop_vars[(switch.name, 0)] = value
            self.build_region((*region, ("l", loop.frame, "cond")))
            return self.tensor(loop.loop_cond, loop.loop_cond.input[0])

        def body(*values):
            for (_, _, switch, _), value in zip(variables, values):
                if switch is not None:
                    self.loop_vars[(switch.name, 1)] = value
            self.build_region((*region, ("l", loop.frame, "body")))
            return [self._next_value(merge) for merge, _, _, _ in variables]

        numflow_loop = Loop(scope, 0, True)
        with graph.name_scope(None), graph.name_scope(f"{scope}/"):
            # Each variable keeps its initial shape (the file has no shape invariants); the body's
            # results, whose static shapes numflow may know less of than TensorFlow did, need only fit it.
            initial, invariants, *_ = build_contexts(graph, numflow_loop, cond, body, initial,
                                                     [t.shape for t in initial], trusted_invariants=True)
        for (merge, _, _, _), t, shape in zip(variables, numflow_loop.body_outputs, invariants):
            if not t.shape.is_compatible_with(shape):
                raise _unsupported(merge, f"its loop variable enters with shape {shape} and has shape {t.shape} "
                                   "after an iteration (a shape that changes across iterations)")
        op = loop_op(graph, numflow_loop, initial, invariants, None, self.fresh_name(f"{scope}/While"))
        for (_, _, switch, _), t in zip(variables, op.outputs):
            if switch is not None:
                self.loop_vars[(switch.name, 0)] = t
        self.build_region((*region, ("l", loop.frame, "exit")))
        exits = [n for n in self.regions[region][("l", loop.frame)]
                 if self.frames.kinds[n.name] == "exit" and self.frames.states[n.name] == region]
        self.outputs_as(exits, [self.tensor(e, e.input[0]) for e in exits])

    def _loop_variable(self, loop, merge):
        """``(Merge, its Enter input, its Switch, its Exit)`` of one loop variable (None where absent)."""
        frames = self.frames
        enter = next(raw for raw in merge.input if frames.kinds.get(parse_tensor_name(raw)[0]) == "enter")
        switch = next((c for c in frames.consumers[merge.name] if frames.kinds[c.name] == "loop_switch"), None)
        exit_ = None
        if switch is not None:
            exit_ = next((c for c in frames.consumers[switch.name] if frames.kinds[c.name] == "exit"), None)
        return merge, enter, switch, exit_

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


def _innermost_loop(state):
    """The length of ``state`` up to its innermost loop entry (0: it lies in no loop)."""
    return max((k + 1 for k, entry in enumerate(state) if entry[0] == "l"), default=0)


def _divergence(inner, outer):
    """The first depth where state ``inner`` leaves ``outer`` (None: ``outer`` sees all of it)."""
    return next((k for k, entry in enumerate(inner) if k >= len(outer) or outer[k] != entry), None)
