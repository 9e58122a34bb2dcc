"""TensorFlow 1's stacks (``StackV2``, ``StackPushV2``, ``StackPopV2``, ``StackCloseV2``), as graphs
written with control flow v1 hold them: the gradient of a while loop pushes each iteration's values
onto a stack in the forward loop and pops them, last first, in the gradient loop.

A pop's static shape is that of the values its stack's pushes take, where they all agree: a stack
has one shape of element in the loops TensorFlow writes, which the gradient loop's ops then know.
"""

from numflow.framework import dtypes
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable

_SCALAR = TensorShape([])


@declare("StackV2", stateful=True)
def _stack_infer(op):
    return [(dtypes.resource, _SCALAR)]


@declare("StackPushV2", stateful=True)
def _push_infer(op):
    elem = op.inputs[1]
    return [(elem.dtype.base_dtype, elem.shape)]


@declare("StackPopV2", stateful=True)
def _pop_infer(op):
    return [(op._attrs["elem_type"], _pushed_shape(op.inputs[0]))]


@declare("StackCloseV2", stateful=True)
def _close_infer(op):
    return []


def _pushed_shape(handle):
    """The shape of the values pushed onto the stack ``handle`` names, where its pushes agree."""
    shapes = {c.inputs[1].shape for c in handle.consumers() if c.type == "StackPushV2"}
    return shapes.pop() if len(shapes) == 1 else TensorShape(None)


not_differentiable("StackV2", "StackPushV2", "StackPopV2", "StackCloseV2")
