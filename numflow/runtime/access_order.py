"""The order of a run's reads and updates of one variable that the graph leaves open.

In TensorFlow, an op reading a variable and an op updating it in the same run, with no path between
them, race: whichever the executor starts first decides what the read sees (two optimizers in one
``sess.run``, each differentiating through variables the other updates, are the common case). Here
the plan fixes that order, so that no number depends on which ready op the pool takes first, nor on
the inter-op threads:

- a read left unordered with an update of its variable comes before it (the read sees the value
  the run started from, as a read needed by the update itself does);
- two updates of one variable left unordered run in the order the ops were created.

A read is any op taking the variable's value or reference other than an update's targets (``Identity``
and ``StopGradient`` of a variable only stand for it: their consumers read). An update is an op that
writes through its reference inputs (declared with ``ref_output``: assigns, scatters, optimizer
applies; and ``RestoreBundle``). Each edge is added only where no path joins the two ops yet, so no
cycle can form: where the graph already orders a pair, either way, it is left as it is.
"""

from numflow.framework import registry

_ALIASING = frozenset({"Identity", "StopGradient"})
WRITES_ITS_REFERENCES = frozenset({"RestoreBundle"})  # beside the ops declared with ref_output


def order_accesses(ops, preds):
    """Add to ``preds`` (op name -> predecessor names) the edges that order each variable's
    accesses, as the module says; True when any was added. Changes ``preds``."""
    accesses = _accesses(ops.values())
    if not accesses:
        return False
    involved = sorted({op.name for pair in accesses.values() for side in pair for op in side})
    bit = {name: 1 << i for i, name in enumerate(involved)}
    ancestors = _ancestor_masks(ops, preds, bit)
    succs = None
    added = False
    for variable in sorted(accesses):
        readers, updaters = accesses[variable]
        updaters = sorted(updaters, key=lambda op: op._id)
        pairs = [(r, u) for r in sorted(readers, key=lambda op: op._id) for u in updaters if r is not u]
        pairs += [(a, b) for i, a in enumerate(updaters) for b in updaters[i + 1:]]
        for first, second in pairs:
            f, s = first.name, second.name
            if ancestors[s] & bit[f] or ancestors[f] & bit[s]:
                continue  # the graph orders them
            if succs is None:
                succs = _successors(preds)
            if _reaches(succs, s, f) or _reaches(succs, f, s):
                continue  # an edge added for another pair orders them now
            preds[s].append(f)
            succs[f].append(s)
            added = True
    return added


def _accesses(ops):
    """``{variable op name: (readers, updaters)}`` for the variables some op of ``ops`` updates and
    at least two access."""
    readers, updaters = {}, {}
    for op in ops:
        if op.type in _ALIASING:
            continue
        opdef = registry.get(op.type)
        writes = opdef.ref_output or op.type in WRITES_ITS_REFERENCES
        for i, t in enumerate(op._inputs):
            variable = _variable_behind(t)
            if variable is None:
                continue
            targeted = writes and (opdef.ref_inputs is True or i in opdef.ref_inputs)
            (updaters if targeted else readers).setdefault(variable, set()).add(op)
    return {v: (readers.get(v, set()), ups) for v, ups in updaters.items()
            if len(ups) + len(readers.get(v, ())) > 1}


def _variable_behind(t):
    """The name of the variable ``t`` stands for (through reads and updates returning it), or None."""
    while True:
        op = t.op
        if op.type == "VariableV2":
            return op.name
        if not op._inputs or not (op.type in _ALIASING or registry.get(op.type).ref_output):
            return None
        t = op._inputs[0]


def _ancestor_masks(ops, preds, bit):
    """``{op name: bitmask of the involved ops (``bit``) among its ancestors}``, by one pass in
    dependency order (Kahn's, iterative)."""
    remaining = {name: len(ps) for name, ps in preds.items()}
    succs = _successors(preds)
    masks = dict.fromkeys(preds, 0)
    ready = [name for name, n in remaining.items() if n == 0]
    while ready:
        name = ready.pop()
        mine = masks[name] | bit.get(name, 0)
        for s in succs[name]:
            masks[s] |= mine
            remaining[s] -= 1
            if remaining[s] == 0:
                ready.append(s)
    return masks


def _successors(preds):
    succs = {name: [] for name in preds}
    for name, ps in preds.items():
        for p in ps:
            succs[p].append(name)
    return succs


def _reaches(succs, start, goal):
    """Whether a path leads from ``start`` to ``goal``."""
    seen, stack = {start}, [start]
    while stack:
        for s in succs[stack.pop()]:
            if s == goal:
                return True
            if s not in seen:
                seen.add(s)
                stack.append(s)
    return False
