"""TensorFlow 1's control flow frames in a GraphDef: which nodes form which cond or while loop.

``compat.v1`` writes ``tf.cond`` and ``tf.while_loop`` as dataflow frames: a cond is ``Switch`` nodes on
one predicate, whose two outputs feed the two branches, joined again by ``Merge`` nodes; a loop is
``Enter`` nodes into a frame, a ``Merge`` per loop variable joining its ``Enter`` and its
``NextIteration``, the condition ending in ``LoopCond``, a ``Switch`` per variable into the body
(output 1) or out of the loop through ``Exit`` (output 0).

Every tensor gets a *state*: the stack of frames it lives in, each entry a cond branch
``("c", cond id, branch)`` or a loop part ``("l", frame, "cond" | "body" | "exit")``. A Switch's
output ``k`` pushes branch ``k`` (a loop's Switch turns the condition into the body, or into the exit
side), an Enter pushes its frame, a Merge and an Exit pop. An op's state is the deepest of its
inputs' (data and control); two conds' branches meeting in one op are one cond (the Switches on
``x`` and on ``y`` of one ``tf.cond``), found with a union-find, which also joins each cond's pivot
Switch to it (as the MetaGraph's cond contexts say, else by TensorFlow's names). A ControlTrigger is
never dead: it lies in its loop, whichever branch its control inputs ran in.

A graph that is not such frames (a Merge of two tensors of different conds, a loop fed back from
outside its body, an op reading both branches of one cond) raises ``UnimplementedError`` naming the
node. ``numflow.framework.frames_import`` builds what this finds.
"""


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


def unsupported(node, what):
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
        def cycle(name):
            return unsupported(self.nodes[name], "it lies on a cycle that is not a while loop's NextIteration")

        order = topological([n.name for n in nodes], lambda name: self.sources(self.nodes[name]), cycle)
        return [self.nodes[name] for name in order]

    def sources(self, node):
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
            raise unsupported(node, f"it reads the branches of two conds on different predicates ('{a}' and '{b}')")
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
            raise unsupported(node, "it reads tensors of two different conds or loops at one depth")
        if a[0] == "c":
            if a[2] != b[2]:
                raise unsupported(node, f"it reads both branches of the cond of '{a[1]}'")
            self._union(node, a[1], b[1])
            return a
        if None in (a[2], b[2]):
            return a if b[2] is None else b
        if is_control and b[2] == "cond":
            return None
        if is_control and a[2] == "cond":
            return b
        raise unsupported(node, f"it reads two parts ({a[2]} and {b[2]}) of the loop '{a[1]}'")

    def _state(self, node):
        kind = self.kinds[node.name]
        data = [raw for raw in node.input if not raw.startswith("^")]
        if kind == "loop_merge":
            entered = [raw for raw in data if self.nodes.get(parse_tensor_name(raw)[0]) is not None
                       and self.kinds[parse_tensor_name(raw)[0]] == "enter"]
            if len(data) != 2 or len(entered) != 1:
                raise unsupported(node, "a loop Merge must join one Enter and one NextIteration")
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
                raise unsupported(node, "an Exit must leave a while loop")
            return state[:-1]
        if kind == "loop_cond":
            if not state or state[-1][0] != "l":
                raise unsupported(node, "a LoopCond must lie in a while loop")
            loop = self.loops[state[-1][1]]
            loop.loop_cond = node
            return (*state[:-1], ("l", state[-1][1], "cond"))
        return state

    def _cond_merge_state(self, node, data):
        if len(data) != 2:
            raise unsupported(node, f"a cond's Merge joins two branches, not {len(data)} tensors")
        states = [self.tensor_state(raw) for raw in data]
        depth = max(len(s) for s in states)
        deepest = [s for s in states if len(s) == depth]
        if not depth or deepest[0][-1][0] != "c":
            raise unsupported(node, "a Merge that joins no cond's branches")
        cond_id = deepest[0][-1][1]
        branches = set()
        for state in deepest:
            self._union(node, cond_id, state[-1][1])
            branches.add(state[-1][2])
        if len(deepest) == 2 and len(branches) != 2:
            raise unsupported(node, "a Merge of two tensors of the same branch")
        outer = [s[:-1] if len(s) == depth else s for s in states]
        if any(len(s) >= depth for s in outer):
            raise unsupported(node, "a Merge of a tensor deeper than its cond's branches")
        self.conds[self._find(cond_id)].merges.append(node)
        for consumer in self.consumers[node.name]:
            if any(parse_tensor_name(raw) == (node.name, 1) for raw in consumer.input):
                raise unsupported(consumer, f"it reads the branch index output of Merge '{node.name}'")
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
                raise unsupported(self._enter_of(loop), f"the frame '{loop.frame}' is no complete while loop "
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


def _innermost_loop(state):
    """The length of ``state`` up to its innermost loop entry (0: it lies in no loop)."""
    return max((k + 1 for k, entry in enumerate(state) if entry[0] == "l"), default=0)


def divergence(inner, outer):
    """The first depth where state ``inner`` leaves ``outer`` (None: ``outer`` sees all of it)."""
    return next((k for k, entry in enumerate(inner) if k >= len(outer) or outer[k] != entry), None)


def topological(keys, sources, cycle_error):
    """``keys`` in an order where each comes after those ``sources(key)`` gives; raises
    ``cycle_error(key)`` for a key on a cycle."""
    done, order = set(), []
    for root in keys:
        stack, active = [(root, False)], set()
        while stack:
            key, expanded = stack.pop()
            if expanded:
                active.discard(key)
                if key not in done:
                    done.add(key)
                    order.append(key)
                continue
            if key in done:
                continue
            if key in active:
                raise cycle_error(key)
            active.add(key)
            stack.append((key, True))
            stack.extend((s, False) for s in sources(key) if s not in done)
    return order
