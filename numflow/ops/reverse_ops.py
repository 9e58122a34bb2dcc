"""``tf.reverse`` and ``tf.reverse_sequence``: reverse a tensor along axes, or each sequence of a batch up to
its length (as bidirectional RNNs read their input backwards), with their gradients (the same reversal
of the gradient)."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, static_value
from numflow.ops.registry import declare, register_gradient


@declare("ReverseV2")
def _reverse_infer(op):
    x, axis = op.inputs
    check_dtype(axis, INDEX_TYPES, "axis")
    axes = static_value(axis)
    if axes is not None and x.shape.ndims is not None:
        for a in axes.reshape(-1):
            if not -x.shape.ndims <= a < x.shape.ndims:
                raise ValueError(f"'axis'[0] = {a} is out of valid range [0, {x.shape.ndims - 1}")
    return [(x.dtype, x.shape)]


def reverse(tensor, axis, name=None):
    """``tensor`` with the order of its elements reversed along each of the ``axis`` (op ``ReverseV2``)."""
    with get_default_graph().name_scope(name or "ReverseV2") as scope:
        x = convert_to_tensor(tensor, name="tensor")
        axis = convert_to_tensor(axis, name="axis", preferred_dtype=dtypes.int32)
        return _out("ReverseV2", [x, axis], name=scope)[0]


@declare("ReverseSequence")
def _reverse_sequence_infer(op):
    x, lengths = op.inputs
    check_dtype(lengths, INDEX_TYPES, "seq_lengths")
    seq_dim, batch_dim = op._attrs["seq_dim"], op._attrs["batch_dim"]
    if x.shape.ndims is not None:
        for what, d in (("seq_dim", seq_dim), ("batch_dim", batch_dim)):
            if not 0 <= d < x.shape.ndims:
                raise ValueError(f"Invalid {what} {d} for input of rank {x.shape.ndims}")
        batch, n = x.shape[batch_dim], lengths.shape[0] if lengths.shape.ndims else None
        if batch is not None and n is not None and batch != n:
            raise ValueError(f"Length of seq_lengths != input.dims({batch_dim}), ({n} vs. {batch})")
    return [(x.dtype, x.shape)]


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None,  # noqa: A002
                     batch_dim=None):
    """Each slice ``i`` of ``input`` along ``batch_axis`` with its first ``seq_lengths[i]`` elements along
    ``seq_axis`` reversed, the rest left in place (op ``ReverseSequence``)."""
    seq_axis = seq_dim if seq_axis is None else seq_axis
    batch_axis = (batch_dim if batch_dim is not None else 0) if batch_axis is None else batch_axis
    with get_default_graph().name_scope(name or "ReverseSequence") as scope:
        x = convert_to_tensor(input, name="input")
        lengths = convert_to_tensor(seq_lengths, name="seq_lengths", preferred_dtype=dtypes.int64)
        rank = x.shape.ndims
        attrs = {"seq_dim": seq_axis % rank if rank else seq_axis, "batch_dim": batch_axis % rank if rank else
                 batch_axis}
        return _out("ReverseSequence", [x, lengths], attrs, name=scope)[0]


@register_gradient("ReverseV2")
def _reverse_grad(op, grad):
    return [reverse(grad, op.inputs[1]), None]


@register_gradient("ReverseSequence")
def _reverse_sequence_grad(op, grad):
    attrs = op._attrs
    return [reverse_sequence(grad, op.inputs[1], seq_axis=attrs["seq_dim"], batch_axis=attrs["batch_dim"]), None]
