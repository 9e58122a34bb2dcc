"""A cond whose branch updates a captured variable through its reference, written as TensorFlow 1's frames.

TensorFlow's functions take no variable references, so such a cond (a batch norm layer's moving-average
update under a ``training`` placeholder, say) has no functional ``If`` form. ``compat.v1`` writes every
cond as dataflow frames, and :func:`export` writes such a cond so, with TensorFlow's names:

- ``<cond>/Switch``: the predicate switched on itself; its outputs' pivots ``switch_f`` and ``switch_t``,
  and ``pred_id``, the predicate the other Switches switch on;
- a ``Switch`` (``RefSwitch`` for a variable's reference) of each captured tensor: the true branch reads
  its output 1, the false branch its output 0;
- the branches' ops, as nodes of the graph: one without a data input waits on its branch's pivot;
- a ``Merge`` of each result's two values (the false branch's first), and an ``IdentityN`` of the
  Merges named as the cond's op, so that the nodes reading its results read them unchanged.

numflow's reader (``framework.frames``) and TensorFlow's both rebuild the cond from these.
"""

from numflow.framework import dtypes
from numflow.framework.graph_export import tensor_name
from numflow.framework.shapes import TensorShape

_SCALAR = TensorShape([])
_FUNCTIONAL = frozenset(["If", "Case", "While"])


def writes_a_reference(op):
    """Whether cond ``op`` must be written as frames: an If whose branches take a captured variable's
    reference, keep no value for a gradient (exports) and hold no control flow of their own."""
    if op._type != "If" or op._attrs["exports"]:
        return False
    references = {t for t in op._inputs[1:] if t._dtype._is_ref_dtype}
    if not references:
        return False
    branch_ops = [o for branch in op._attrs["branches"] for o in branch.context.ops]
    return (not any(o._type in _FUNCTIONAL for o in branch_ops)
            and any(t in references for o in branch_ops for t in o._inputs))


def export(writer, op, exports):
    """Write cond ``op`` as frames (see the module's doc); ``exports``: how other ops are written."""
    prefix = op._attrs["cond_name"]
    pred = tensor_name(op._inputs[0])
    device, boolean = op._device, dtypes.bool

    def identity(name, source):
        return writer.node("Identity", writer.unique(f"{prefix}/{name}"), [(source, boolean)],
                           outputs=[(boolean, _SCALAR)], device=device).name

    pivot = writer.node("Switch", writer.unique(f"{prefix}/Switch"), [(pred, boolean), (pred, boolean)],
                        outputs=[(boolean, _SCALAR)] * 2, device=device,
                        controls=[c._name for c in op._control_inputs]).name
    pivots = (identity("switch_t", f"{pivot}:1"), identity("switch_f", pivot))
    pred_id = identity("pred_id", pred)
    switched = {}
    for t in op._inputs[1:]:
        switch = writer.node("RefSwitch" if t._dtype._is_ref_dtype else "Switch", writer.unique(f"{prefix}/Switch"),
                             [(tensor_name(t), t._dtype), (pred_id, boolean)], outputs=[(t._dtype, t._shape)] * 2,
                             device=device).name
        switched[tensor_name(t)] = switch
    branches = op._attrs["branches"]
    for side, branch in enumerate(branches):  # the true branch reads output 1 of each Switch
        start = len(writer.graph_def.node)
        writer.add_ops(branch.context.ops, exports)
        for node in writer.graph_def.node[start:]:
            inputs = [_switched_input(name, switched, side) for name in node.input]
            if all(name.startswith("^") for name in inputs):  # no data input: it waits on its pivot
                inputs.append(f"^{pivots[side]}")
            node.input[:] = inputs
    merges = []
    for out, true_value, false_value in zip(op._outputs, branches[0].outputs, branches[1].outputs):
        dtype = out._dtype.base_dtype
        merge = writer.node("Merge", writer.unique(f"{prefix}/Merge"),
                            [(_switched_input(tensor_name(t), switched, side), dtype)
                             for side, t in ((1, false_value), (0, true_value))],
                            outputs=[(dtype, out._shape), (dtypes.int32, _SCALAR)], device=device).name
        merges.append((merge, dtype))
    writer.node("IdentityN", op._name, merges, outputs=[(t._dtype, t._shape) for t in op._outputs], device=device)


def _switched_input(name, switched, side):
    """Input ``name`` of a node of branch ``side`` (0: true): a captured tensor's Switch output."""
    switch = None if name.startswith("^") else switched.get(name.removesuffix(":0"))
    return name if switch is None else f"{switch}:{1 - side}"
