"""Ops that only order others: no_op, group, tuple, with_dependencies."""

from numflow.framework.graph import Operation, Tensor, get_default_graph
from numflow.framework.registry import declare


@declare("NoOp")
@declare("ControlTrigger")  # TensorFlow 1's gradient loops order their stack pops with one
def _no_op_infer(op):
    return []


def no_op(name=None):
    """An op that does nothing: a target to hang control dependencies on."""
    return get_default_graph().create_op("NoOp", [], name=name or "NoOp")


def _as_op(x):
    if isinstance(x, Operation):
        return x
    if isinstance(x, Tensor):
        return x.op
    element = x._as_graph_element() if hasattr(x, "_as_graph_element") else None
    if isinstance(element, Operation | Tensor):
        return _as_op(element)
    raise TypeError(f"Expected a Tensor or an Operation, got {type(x).__name__}: {x!r}")


def group(*inputs, name=None):
    """An op that runs once all ``inputs`` (tensors or operations) have run."""
    graph = get_default_graph()
    deps = [_as_op(x) for x in inputs if x is not None]
    with graph.control_dependencies(deps):
        return no_op(name=name or "group_deps")


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 - TensorFlow's public name
    """The same tensors, each available only once all of them (and ``control_inputs``) are computed."""
    return gated_tuple(tensors, tensors, name, control_inputs)


def gated_tuple(tensors, gating, name=None, control_inputs=None):
    """``tuple(tensors)`` (same ops and names) whose gate waits for ``gating`` alone, a subset of ``tensors``."""
    from numflow.ops.array_ops import identity

    graph = get_default_graph()
    with graph.name_scope(name or "tuple"):
        gate = group(*[t for t in gating if t is not None], *(control_inputs or []))
        with graph.control_dependencies([gate]):
            return [identity(t, name="control_dependency") if isinstance(t, Tensor) else t for t in tensors]


def with_dependencies(dependencies, output_tensor, name=None):
    """``output_tensor`` through an identity that runs only after ``dependencies`` (TensorFlow's helper,
    named ``control_dependency``)."""
    from numflow.ops.array_ops import identity

    graph = get_default_graph()
    with graph.name_scope(name or "control_dependency") as scope:
        with graph.colocate_with(output_tensor.op), graph.control_dependencies(dependencies):
            return identity(output_tensor, name=scope)
