"""Ops over many variables at once: reporting and asserting initialization."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops.registry import declare


@declare("ReportUninitializedVariables", ref_inputs=True)
def _report_infer(op):
    return [(dtypes.string, TensorShape([None]))]


def report_uninitialized(var_list, name):
    graph = get_default_graph()
    refs = [v._ref() for v in var_list]
    attrs = {"names": [v.op.name for v in var_list]}
    return graph.create_op("ReportUninitializedVariables", refs, attrs, name=name).outputs[0]


@declare("AssertVariablesInitialized", ref_inputs=True)
def _assert_infer(op):
    return []


def assert_initialized(var_list):
    if not var_list:
        return None
    refs = [v._ref() for v in var_list]
    return get_default_graph().create_op("AssertVariablesInitialized", refs, name="assert_variables_initialized")


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
