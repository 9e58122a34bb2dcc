"""nce_loss and sampled_softmax_loss: losses over the true classes and a sample of the others, built from
other ops as TensorFlow's ``nn_impl._compute_sampled_logits`` builds them (same sampler op, seeds and
so the same numbers), so their gradients are those ops'.

The logits of a row are its input times the rows of ``weights`` (one tensor, or a list of
partitions looked up with ``partition_strategy``) of its ``num_true`` true classes and of the
``num_sampled`` sampled ones, plus the biases. ``subtract_log_q`` subtracts the log of each class's
expected count under the sampler; ``remove_accidental_hits`` sets to ``-FLOAT_MAX`` the sampled
logits of a row that are among its true classes.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import array_ops, math_ops, nn_impl, nn_ops
from numflow.ops.candidate_sampling_ops import compute_accidental_hits, log_uniform_candidate_sampler
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.embedding_ops import embedding_lookup
from numflow.ops.sparse_ops import sparse_to_dense


def _sum_rows(x):
    """Each row of the matrix ``x`` summed, as a product with a column of ones (TensorFlow's ``_sum_rows``)."""
    cols = array_ops.shape(x)[1]
    ones = array_ops.ones(array_ops.stack([cols, 1]), x.dtype)
    return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                           sampled_values=None, subtract_log_q=True, remove_accidental_hits=False,
                           partition_strategy="mod", name=None, seed=None):
    """``(logits, labels)`` ``[batch, num_true + num_sampled]``: the true classes' logits, then the sampled
    ones; the labels are ``1 / num_true`` for the true classes and 0 for the others.

    ``sampled_values`` is a sampler's output; by default classes are drawn with
    :func:`numflow.nn.log_uniform_candidate_sampler` (unique, ``range_max=num_classes``, ``seed``).
    """
    weights = list(weights) if isinstance(weights, list | tuple) else [weights]
    graph = get_default_graph()
    with graph.name_scope(name or "compute_sampled_logits"):
        labels = convert_to_tensor(labels, name="labels")
        inputs = convert_to_tensor(inputs, name="inputs")
        if labels.dtype.base_dtype != dtypes.int64:
            labels = math_ops.cast(labels, dtypes.int64)
        labels_flat = array_ops.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True, num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (array_ops.stop_gradient(s) for s in sampled_values)
        sampled = math_ops.cast(sampled, dtypes.int64)
        all_ids = array_ops.concat([labels_flat, sampled], 0)
        all_w = embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        if all_w.dtype.base_dtype != inputs.dtype.base_dtype:
            all_w = math_ops.cast(all_w, inputs.dtype)
        num_labels = array_ops.shape(labels_flat)[0]
        true_w = array_ops.slice(all_w, [0, 0], array_ops.stack([num_labels, -1]))
        sampled_w = array_ops.slice(all_w, array_ops.stack([num_labels, 0]), [-1, -1])
        sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)
        all_b = embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype.base_dtype != inputs.dtype.base_dtype:
            all_b = math_ops.cast(all_b, inputs.dtype)
        true_b = array_ops.slice(all_b, [0], array_ops.shape(labels_flat))
        sampled_b = array_ops.slice(all_b, array_ops.shape(labels_flat), [-1])
        dim = array_ops.shape(true_w)[1:2]
        row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1),
                                          array_ops.reshape(true_w, array_ops.concat([[-1, num_true], dim], 0)))
        dots_as_matrix = array_ops.reshape(row_wise_dots, array_ops.concat([[-1], dim], 0))
        true_logits = array_ops.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
        true_logits += array_ops.reshape(true_b, [-1, num_true])
        sampled_logits += sampled_b
        if remove_accidental_hits:
            sampled_logits += _accidental_hits_mask(labels, sampled, num_sampled, num_true, sampled_logits.dtype)
        if subtract_log_q:
            true_logits -= math_ops.log(true_expected_count)
            sampled_logits -= math_ops.log(sampled_expected_count)
        out_logits = array_ops.concat([true_logits, sampled_logits], 1)
        out_labels = array_ops.concat([array_ops.ones_like(true_logits) / num_true,
                                       array_ops.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


def _accidental_hits_mask(labels, sampled, num_sampled, num_true, dtype):
    """``-FLOAT_MAX`` where a row's sampled class is one of its true classes, else 0: ``[batch, num_sampled]``."""
    indices, ids, weights = compute_accidental_hits(labels, sampled, num_true=num_true)
    sparse_indices = array_ops.concat([array_ops.reshape(indices, [-1, 1]),
                                       array_ops.reshape(math_ops.cast(ids, dtypes.int32), [-1, 1])], 1,
                                      name="sparse_indices")
    shape = array_ops.concat([array_ops.shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
    if weights.dtype.base_dtype != dtype.base_dtype:
        weights = math_ops.cast(weights, dtype)
    return sparse_to_dense(sparse_indices, shape, weights, default_value=0.0, validate_indices=False)


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    """The noise-contrastive estimation loss of each row of ``inputs`` ``[batch, dim]``: the logistic loss
    of its true classes (``labels``, ``[batch, num_true]``) against ``num_sampled`` classes drawn from
    ``[0, num_classes)``. ``weights`` ``[num_classes, dim]`` (or a list of partitions) and ``biases``
    ``[num_classes]`` are the output layer. Returns ``[batch]`` losses.
    """
    logits, labels = compute_sampled_logits(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy,
        name=name)
    sampled_losses = nn_impl.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="sampled_losses")
    return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, partition_strategy="mod", name="sampled_softmax_loss",
                         seed=None):
    """The softmax cross entropy of each row over its true classes and ``num_sampled`` sampled ones (the
    sampled ones that are true classes removed), an estimate of the full softmax loss for training.
    Arguments as :func:`nce_loss`. Returns ``[batch]`` losses.
    """
    logits, labels = compute_sampled_logits(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy,
        name=name, seed=seed)
    labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return nn_ops.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
