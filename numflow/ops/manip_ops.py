"""``tf.roll`` (op ``Roll``, its gradient the opposite roll) and ``tf.identity_n`` (op ``IdentityN``, gradients passed
through). Kernels: ``numflow_kernels/reference_counting.py``."""

from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import negative
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, merge_dims


@declare("Roll")
def _roll_infer(op):
    x, shift, axis = op.inputs
    check_dtype(shift, INDEX_TYPES, "shift")
    check_dtype(axis, INDEX_TYPES, "axis")
    for t in (shift, axis):
        if t.shape.ndims is not None and t.shape.ndims > 1:
            raise ValueError(f"Shape must be at most rank 1 but is rank {t.shape.ndims}")
    if shift.shape.ndims == 1 and axis.shape.ndims == 1:
        merge_dims(shift.shape.dim_values[0], axis.shape.dim_values[0], 0, shift.shape, axis.shape)
    return [(x.dtype.base_dtype, x.shape)]


def roll(input, shift, axis, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input``'s elements shifted by ``shift`` along each of ``axis``, wrapping around (op ``Roll``).

    Parameters
    ----------
    input : Tensor
    shift : int or list of int
        Positions to shift by (negative: towards the start); one per axis.
    axis : int or list of int
        The axes to roll; an axis given twice rolls by the sum of its shifts.
    name : str, optional
    """
    with get_default_graph().name_scope(name or "Roll") as scope:
        x = convert_to_tensor(input, name="input")
        shift = convert_to_tensor(shift, name="shift")
        axis = convert_to_tensor(axis, name="axis")
        return _out("Roll", [x, shift, axis], name=scope)[0]


@gradient("Roll")
def _roll_grad(op, grad):
    return [roll(grad, negative(op.inputs[1]), op.inputs[2]), None, None]


@declare("IdentityN")
def _identity_n_infer(op):
    return [(t.dtype.base_dtype, t.shape) for t in op.inputs]


def identity_n(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The tensors of the list ``input``, each unchanged, as the outputs of one op (``IdentityN``)."""
    with get_default_graph().name_scope(name or "IdentityN") as scope:
        tensors = [convert_to_tensor(t) for t in input]
        return list(_out("IdentityN", tensors, name=scope))


@gradient("IdentityN")
def _identity_n_grad(op, *grads):
    return list(grads)
