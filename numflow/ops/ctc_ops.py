"""Connectionist temporal classification: ``tf.nn.ctc_loss`` (op ``CTCLoss``, with its gradient) and
``tf.nn.ctc_greedy_decoder`` (op ``CTCGreedyDecoder``), as TensorFlow 1's speech and handwriting
models use them. Kernels: ``numflow_kernels/cpu/ctc.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient, not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_rank


def _dim(tensor, index):
    return tensor.shape.dim_values[index] if tensor.shape.ndims is not None else None


@declare("CTCLoss")
def _ctc_loss_infer(op):
    inputs, labels_indices, labels_values, sequence_length = op.inputs
    check_rank(inputs.shape, 3)
    check_rank(labels_indices.shape, 2)
    check_rank(labels_values.shape, 1)
    check_rank(sequence_length.shape, 1)
    dtype = inputs.dtype.base_dtype
    return [(dtype, TensorShape([_dim(inputs, 1)])), (dtype, inputs.shape)]


@declare("CTCGreedyDecoder")
def _ctc_greedy_infer(op):
    inputs, sequence_length = op.inputs
    check_rank(inputs.shape, 3)
    check_rank(sequence_length.shape, 1)
    return [(dtypes.int64, TensorShape([None, 2])), (dtypes.int64, TensorShape([None])),
            (dtypes.int64, TensorShape([2])), (inputs.dtype.base_dtype, TensorShape([_dim(inputs, 1), 1]))]


@declare("PreventGradient")
def _prevent_gradient_infer(op):
    return [(op.inputs[0].dtype, op.inputs[0].shape)]


@gradient("PreventGradient")
def _prevent_gradient_grad(op, grad):
    raise LookupError(f"Gradient explicitly disabled. Reason: {op._attrs['message']}")


@declare("CTCBeamSearchDecoder")
def _ctc_beam_infer(op):
    inputs, sequence_length = op.inputs
    check_rank(inputs.shape, 3)
    check_rank(sequence_length.shape, 1)
    paths = op._attrs["top_paths"]
    return ([(dtypes.int64, TensorShape([None, 2]))] * paths + [(dtypes.int64, TensorShape([None]))] * paths
            + [(dtypes.int64, TensorShape([2]))] * paths
            + [(inputs.dtype.base_dtype, TensorShape([_dim(inputs, 1), paths]))])


not_differentiable("CTCGreedyDecoder", "CTCBeamSearchDecoder")


def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
             ignore_longer_outputs_than_inputs=False, time_major=True, logits=None):
    """The CTC loss of each batch item: ``-log p(labels | inputs)`` over all alignments.

    Parameters
    ----------
    labels : SparseTensor
        int32 labels, ``[batch, max label length]``; class ``num_classes - 1`` is the blank.
    inputs : Tensor
        Unnormalized logits, ``[max_time, batch, num_classes]`` (``[batch, max_time, ...]`` unless
        ``time_major``); ``logits`` is its other name.
    sequence_length : Tensor
        int32 ``[batch]``: each item's frames.
    preprocess_collapse_repeated, ctc_merge_repeated, ignore_longer_outputs_than_inputs : bool
        As TensorFlow: merge repeated labels before, or repeated outputs within, the loss; give 0
        (instead of an error) for labels longer than their frames.
    """
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected labels (first argument) to be a SparseTensor")
    if inputs is not None and logits is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    inputs = convert_to_tensor(inputs if inputs is not None else logits, name="logits")
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    original = inputs.dtype.base_dtype
    if original == dtypes.float16:
        inputs = math_ops.cast(inputs, dtypes.float32)
    with get_default_graph().name_scope("CTCLoss") as scope:
        attrs = {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
                 "ctc_merge_repeated": bool(ctc_merge_repeated),
                 "ignore_longer_outputs_than_inputs": bool(ignore_longer_outputs_than_inputs)}
        loss, _ = _out("CTCLoss", [inputs, labels.indices, labels.values,
                                   convert_to_tensor(sequence_length, dtype=dtypes.int32)], attrs, name=scope)
    return math_ops.cast(loss, original) if original != loss.dtype.base_dtype else loss


@gradient("CTCLoss")
def _ctc_loss_grad(op, grad_loss, _):
    message = ("Currently there is no way to take the second derivative of ctc_loss due to the fused "
               "implementation's interaction with tf.gradients()")
    with get_default_graph().name_scope("PreventGradient") as scope:
        frozen = _out("PreventGradient", [op.outputs[1]], {"message": message}, name=scope)[0]
    return [array_ops.expand_dims(grad_loss, -1) * frozen, None, None, None]


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """The best path of each item (the most likely class of each frame, blanks and, with
    ``merge_repeated``, repeats dropped): ``([SparseTensor of int64 labels], [batch, 1] negative sums
    of the frames' best logits)``."""
    with get_default_graph().name_scope("CTCGreedyDecoder") as scope:
        inputs = convert_to_tensor(inputs, name="inputs")
        sequence_length = convert_to_tensor(sequence_length, dtype=dtypes.int32, name="sequence_length")
        attrs = {"merge_repeated": bool(merge_repeated), "blank_index": -1 if blank_index is None else int(blank_index)}
        indices, values, shape, log_probability = _out("CTCGreedyDecoder", [inputs, sequence_length], attrs,
                                                       name=scope)
    return [SparseTensor(indices, values, shape)], log_probability


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """The ``top_paths`` most likely label sequences of each item by beam search over the logits
    ``inputs`` (``[max_time, batch, num_classes]``, the last class the blank), keeping
    ``beam_width`` prefixes: ``([SparseTensor per path], [batch, top_paths] log probabilities)``."""
    if top_paths > beam_width:
        raise ValueError("top_paths must be <= beam_width")
    with get_default_graph().name_scope("CTCBeamSearchDecoder") as scope:
        inputs = convert_to_tensor(inputs, name="inputs")
        sequence_length = convert_to_tensor(sequence_length, dtype=dtypes.int32, name="sequence_length")
        attrs = {"beam_width": int(beam_width), "top_paths": int(top_paths), "merge_repeated": bool(merge_repeated)}
        outputs = _out("CTCBeamSearchDecoder", [inputs, sequence_length], attrs, name=scope)
    indices, values, shapes = (outputs[k * top_paths:(k + 1) * top_paths] for k in range(3))
    return [SparseTensor(*parts) for parts in zip(indices, values, shapes)], outputs[-1]


def _dim_or_shape(tensor, index):
    """Dimension ``index`` of ``tensor``: static when known, else read from ``tf.shape`` when run."""
    dim = _dim(tensor, index)
    return dim if dim is not None else array_ops.shape(tensor)[index]


def collapse_repeated(labels, seq_length, name=None):
    """``labels`` (a batch of rows) with each run of a repeated label collapsed to one, padded with 0,
    and the new lengths; built as TensorFlow builds it.

    Parameters
    ----------
    labels : Tensor
        ``[batch, max_length]``.
    seq_length : Tensor
        ``[batch]``: how much of each row counts.
    name : str, optional

    Returns
    -------
    tuple of Tensor
        The collapsed labels, ``[batch, new max_length]``, and their lengths (``seq_length``'s dtype).
    """
    from numflow.ops.scatter_ops import scatter_nd
    from numflow.ops.sequence_ops import boolean_mask, sequence_mask

    with get_default_graph().name_scope(name or "collapse_repeated_labels"):
        labels = convert_to_tensor(labels, name="labels")
        seq_length = convert_to_tensor(seq_length, name="seq_length")
        label_mask = array_ops.concat([array_ops.ones_like(labels[:, :1], dtypes.bool),
                                       math_ops.not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        seq_mask = sequence_mask(seq_length, maxlen=_dim_or_shape(labels, 1))
        label_mask = math_ops.logical_and(label_mask, seq_mask)
        new_seq_len = math_ops.reduce_sum(math_ops.cast(label_mask, dtypes.int32), axis=1)
        new_maxlen = math_ops.reduce_max(new_seq_len)
        idx_mask = sequence_mask(new_seq_len, maxlen=new_maxlen)
        flat_labels = array_ops.reshape(labels, [-1])
        flat_label_mask = array_ops.reshape(label_mask, [-1])
        flat_idx_mask = array_ops.reshape(idx_mask, [-1])
        idx = math_ops.range(_dim_or_shape(flat_idx_mask, 0))
        flat = scatter_nd(indices=array_ops.expand_dims(boolean_mask(idx, flat_idx_mask), axis=1),
                          updates=boolean_mask(flat_labels, flat_label_mask), shape=array_ops.shape(flat_idx_mask))
        return (array_ops.reshape(flat, [_dim_or_shape(labels, 0), new_maxlen]),
                math_ops.cast(new_seq_len, seq_length.dtype))


def ctc_unique_labels(labels, name=None):
    """Each row's distinct labels in order of first appearance, padded with 0 to the row's length, and
    for each label its index among them (``tf.unique`` per row, by ``map_fn``).

    Returns
    -------
    list of Tensor
        The int64 unique labels and the int32 indices, both of ``labels``' shape.
    """
    from numflow.ops.functional_ops import map_fn
    from numflow.ops.selection_ops import unique
    from numflow.ops.tile_pad_split_ops import pad

    with get_default_graph().name_scope(name or "ctc_unique_labels"):
        labels = convert_to_tensor(labels, name="labels")

        def _unique(x):
            u = unique(x)
            y = pad(u.y, [[0, _dim_or_shape(u.idx, 0) - _dim_or_shape(u.y, 0)]])
            return [math_ops.cast(y, dtypes.int64), u.idx]

        return map_fn(_unique, labels, dtype=[dtypes.int64, dtypes.int32])
