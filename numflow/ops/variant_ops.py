"""TensorLists and optionals: the variant values of TensorFlow 2's control flow, declared so that graphs
holding them (TensorFlow's, and numflow's own cond and loop gradients as GraphDefs write them) import
and run.

A TensorList is a list of tensors of one dtype passed as a value (``EmptyTensorList``,
``TensorListReserve``, ``TensorListFromTensor`` make one; ``TensorListPushBack``/``PopBack``/``SetItem``
give a new one; ``GetItem``, ``Stack``, ``ConcatV2``, ``Length``, ``ElementShape`` read it): ``while_v2`` keeps a
loop's intermediates for its gradient in them, and TensorFlow 2's ``TensorArray`` is one. An optional
holds a tuple of tensors or nothing: ``cond_v2`` returns a branch's intermediates in them. The kernels
are in ``numflow_kernels/variant_ops.py``.
"""

from numflow.framework import dtypes
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape

_SCALAR = TensorShape([])


def _variant(op):
    return [(dtypes.variant, _SCALAR)]


for _op_type in ("EmptyTensorList", "TensorListPushBack", "TensorListSetItem", "TensorListReserve",
                 "TensorListFromTensor", "OptionalFromValue", "OptionalNone"):
    declare(_op_type)(_variant)


def element_shape(tensor):
    """The element shape a list op's ``element_shape`` input gives, as far as it is known when built."""
    from numflow.framework.graph import constant_value

    value = constant_value(tensor)
    if value is None:
        return TensorShape(None)
    if value.ndim == 0:
        return TensorShape(None) if int(value) == -1 else TensorShape([int(value)])
    return TensorShape([None if int(d) < 0 else int(d) for d in value.ravel()])


@declare("TensorListPopBack")
def _pop_back_infer(op):
    return [(dtypes.variant, _SCALAR), (op._attrs["element_dtype"], element_shape(op._inputs[1]))]


@declare("TensorListGetItem")
def _get_item_infer(op):
    return [(op._attrs["element_dtype"], element_shape(op._inputs[2]))]


@declare("TensorListStack")
def _stack_infer(op):
    count = op._attrs.get("num_elements", -1)
    leading = TensorShape([None if count is None or count < 0 else count])
    shape = element_shape(op._inputs[1])
    return [(op._attrs["element_dtype"], leading.concatenate(shape) if shape.ndims is not None else TensorShape(None))]


@declare("TensorListConcatV2")
def _concat_infer(op):
    shape = element_shape(op._inputs[1])
    rows = TensorShape([None]).concatenate(shape[1:]) if shape.ndims else TensorShape(None)
    return [(op._attrs["element_dtype"], rows), (dtypes.int64, TensorShape([None]))]


@declare("TensorListElementShape")
def _element_shape_infer(op):
    return [(op._attrs["shape_type"], TensorShape([None]))]


@declare("TensorListLength")
def _length_infer(op):
    return [(dtypes.int32, _SCALAR)]


@declare("OptionalGetValue")
def _get_value_infer(op):
    return list(zip(op._attrs["output_types"], op._attrs["output_shapes"]))


@declare("OptionalHasValue")
def _has_value_infer(op):
    return [(dtypes.bool, _SCALAR)]
