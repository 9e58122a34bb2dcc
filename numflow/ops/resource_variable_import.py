"""Resource variables read from a GraphDef, built as the reference variables numflow runs.

TensorFlow writes a variable as a ``VarHandleOp`` and the ops taking its handle where Keras layers,
``use_resource=True`` or ``tf.enable_resource_variables()`` made it. On import the handle becomes the
variable itself (``VariableV2``, same name, shape and dtype); a ``ReadVariableOp`` its value; an
``AssignVariableOp``, a ``ResourceApply*`` or a ``ResourceScatter*`` the same update of the
reference. Sessions then read, initialize, save, restore and train them as any variable, and the
graph written back holds reference variables, which TensorFlow reads as well.
"""

import numpy as np

from numflow.framework import dtypes, registry
from numflow.framework.graph_import import BUILDERS
from numflow.ops import state_ops, training_ops  # noqa: F401  (declare the ops on references)

_ASSIGNMENTS = {"AssignVariableOp": "Assign", "AssignAddVariableOp": "AssignAdd",
                "AssignSubVariableOp": "AssignSub"}


def _op(graph, op_type, inputs, attrs, name, controls=()):
    return graph.create_op(op_type, inputs, attrs, name=name, control_inputs=controls)


def _variable(importer, node, inputs, controls, attrs, name, graph):
    op = _op(graph, "VariableV2", [], {"shape": attrs["shape"], "dtype": attrs["dtype"],
                                       "container": attrs.get("container", ""),
                                       "shared_name": attrs.get("shared_name", "")}, f"{name}/", controls)
    return op, op._outputs


def _value(graph, ref, name, controls=()):
    """The op reading the variable ``ref``'s value, as a ``ReadVariableOp`` reads its handle's."""
    return _op(graph, "Identity", [ref], {"T": ref.dtype.base_dtype}, name, controls)


def _read(importer, node, inputs, controls, attrs, name, graph):
    op = _value(graph, inputs[0], f"{name}/", controls)
    return op, op._outputs


def _is_initialized(importer, node, inputs, controls, attrs, name, graph):
    op = _op(graph, "IsVariableInitialized", inputs, {"dtype": inputs[0].dtype.base_dtype}, f"{name}/", controls)
    return op, op._outputs


def _shape(importer, node, inputs, controls, attrs, name, graph):
    (value,) = _value(graph, inputs[0], f"{name}/value")._outputs
    op = _op(graph, "Shape", [value], {"T": value.dtype, "out_type": attrs["out_type"]}, f"{name}/", controls)
    return op, op._outputs


def _gather(importer, node, inputs, controls, attrs, name, graph):
    handle, indices = inputs
    batch_dims = attrs.get("batch_dims", 0)
    (value,) = _value(graph, handle, f"{name}/value")._outputs
    axis = _op(graph, "Const", [], {"value": np.array(batch_dims, np.int32), "dtype": dtypes.int32}, f"{name}/axis")
    op = _op(graph, "GatherV2", [value, indices, axis._outputs[0]], {"batch_dims": batch_dims}, f"{name}/", controls)
    return op, op._outputs


def _update(op_type):
    """The builder of a resource update that becomes ``op_type`` on the reference. TensorFlow's op
    gives nothing back (numflow's gives the reference, which nothing of the GraphDef reads)."""
    def build(importer, node, inputs, controls, attrs, name, graph):
        attrs = dict(attrs)
        if "dtype" in attrs:  # the element type: `T` of the ops on references
            attrs["T"] = attrs.pop("dtype")
        if op_type == "Assign":
            attrs = {"T": attrs["T"], "use_locking": True, "validate_shape": attrs.get("validate_shape", False)}
        op = _op(graph, op_type, inputs, attrs, f"{name}/", controls)
        return op, []

    return build


BUILDERS.update({"VarHandleOp": _variable, "ReadVariableOp": _read, "VarIsInitializedOp": _is_initialized,
                 "VariableShape": _shape, "ResourceGather": _gather})
BUILDERS.update({op_type: _update(ref_op) for op_type, ref_op in _ASSIGNMENTS.items()})
BUILDERS.update({f"Resource{ref_op}": _update(ref_op) for ref_op in registry.declared_types()
                 if ref_op.startswith(("Apply", "SparseApply", "Scatter"))})
