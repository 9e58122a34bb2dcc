"""Ops over many variables at once: reporting and asserting initialization."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape


@declare("ReportUninitializedVariables", ref_inputs=True)
def _report_infer(op):
    return [(dtypes.string, TensorShape([None]))]


def report_uninitialized(var_list, name):
    """One op over the variables' references, named as the tensor TF returns: ``<name>/boolean_mask/GatherV2:0``
    (``<name>/Const:0``, an empty constant, when there are no variables)."""
    from numflow.ops.constant_op import constant
    from numflow.ops.state_ops import _ref_of

    graph = get_default_graph()
    with graph.name_scope(name) as scope:
        if not var_list:
            return constant([], dtype=dtypes.string)
        refs = [_ref_of(v) for v in var_list]
        attrs = {"names": [v.op.name for v in var_list]}
        op = graph.create_op("ReportUninitializedVariables", refs, attrs, name=scope + "boolean_mask/GatherV2/")
        return op.outputs[0]


def assert_initialized(var_list):
    """TF's assertion: the rank of each variable's value (``Rank``, stacked as ``stack`` when several),
    so running it reads every variable and fails on the first uninitialized one's read op."""
    from numflow.ops.array_ops import stack
    from numflow.ops.constant_op import convert_to_tensor

    if not var_list:
        return None
    graph = get_default_graph()
    ranks = []
    for v in var_list:
        with graph.colocate_with(v.op):
            ranks.append(graph.create_op("Rank", [convert_to_tensor(v)], name="Rank").outputs[0])
    return ranks[0] if len(ranks) == 1 else stack(ranks)

@declare("InitializedValue", ref_inputs=(1,))
def _initialized_value_infer(op):
    ref = op.inputs[1]
    return [(ref.dtype.base_dtype, ref.shape)]


def initialized_value(initialized, ref, initial_value, name):
    """The value of variable ``ref`` if it is initialized when this runs, else ``initial_value``.

    ``initialized`` (its IsVariableInitialized) is taken as an input to mirror TF's cond; the
    kernel decides under the variable's lock.
    """
    graph = get_default_graph()
    with graph.colocate_with(ref.op):
        return graph.create_op("InitializedValue", [initialized, ref, initial_value], name=name).outputs[0]
