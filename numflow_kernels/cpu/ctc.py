"""Kernels of ``CTCLoss`` and ``CTCGreedyDecoder``.

Spec: ``tensorflow/core/kernels/ctc_loss_op.cc``, ``core/util/ctc/ctc_loss_calculator.h`` and
``ctc_decoder.h``. The loss of each batch item is ``-log p(labels | inputs)`` by Graves' forward and
backward variables in log space (``LogSumExp(a, b) = max + log1p(exp(min - max))``, float32, through
libm's ``expf``/``log1pf``/``logf`` as there; double inputs in double), over the softmax of the item's first ``seq_len``
frames; its gradient to the logits is ``softmax - exp(log sum over paths through each label -
log p)``. Items run one after another, each alone, so the numbers do not depend on threads. The
loops are Numba (compiled on first use).
"""

import math

import numpy as np

from numflow_kernels.registry import register

_loops = None


def _log_sum_exp(a, b):
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    if a > b:
        return a + math.log1p(math.exp(b - a))
    return b + math.log1p(math.exp(a - b))


def _item(y, l_prime, blank, merge_repeated, gradient):
    """``-log p`` of one item; ``gradient`` (``[T, classes]``) is filled when it has rows."""
    num_classes, frames = y.shape
    units = len(l_prime)
    alpha = np.full((units, frames), -np.inf, y.dtype)
    beta = np.full((units, frames), -np.inf, y.dtype)
    minus_inf = alpha[0, 0]  # in y's dtype: Numba's math functions keep float32 as float32
    alpha[0, 0] = math.log(y[blank, 0])
    alpha[1, 0] = math.log(y[l_prime[1] if units > 1 else blank, 0])
    for t in range(1, frames):
        for u in range(max(0, units - 2 * (frames - t)), min(units, 2 * (t + 1))):
            total = minus_inf
            if merge_repeated or l_prime[u] == blank:
                total = alpha[u, t - 1]
            if u > 0:
                total = _log_sum_exp(total, alpha[u - 1, t - 1])
            if u > 1 and l_prime[u] != blank and not (merge_repeated and l_prime[u] == l_prime[u - 2]):
                total = _log_sum_exp(total, alpha[u - 2, t - 1])
            alpha[u, t] = math.log(y[l_prime[u], t]) + total
    for u in range(units - 2, units):
        beta[u, frames - 1] = 0
    for t in range(frames - 2, -1, -1):
        for u in range(max(0, units - 2 * (frames - t)), min(units, 2 * (t + 1))):
            if merge_repeated or l_prime[u] == blank:
                beta[u, t] = _log_sum_exp(beta[u, t], beta[u, t + 1] + math.log(y[l_prime[u], t + 1]))
            if u + 1 < units:
                beta[u, t] = _log_sum_exp(beta[u, t],
                                          beta[u + 1, t + 1] + math.log(y[l_prime[u + 1], t + 1]))
            if u + 2 < units and l_prime[u] != blank and not (merge_repeated and l_prime[u] == l_prime[u + 2]):
                beta[u, t] = _log_sum_exp(beta[u, t],
                                          beta[u + 2, t + 1] + math.log(y[l_prime[u + 2], t + 1]))
    log_p = minus_inf
    for u in range(units):
        log_p = _log_sum_exp(log_p, alpha[u, 0] + beta[u, 0])
    if gradient.shape[0]:
        if log_p == minus_inf:
            for t in range(frames):
                for c in range(num_classes):
                    gradient[t, c] = y[c, t]
        else:
            for t in range(frames):
                through = np.full(num_classes, -np.inf, y.dtype)
                for u in range(units):
                    through[l_prime[u]] = _log_sum_exp(through[l_prime[u]], alpha[u, t] + beta[u, t])
                for c in range(num_classes):
                    gradient[t, c] = y[c, t] - math.exp(through[c] - log_p)
    return -log_p


def _compiled():
    global _loops, _log_sum_exp
    if _loops is None:
        import numba

        _log_sum_exp = numba.njit(inline="always")(_log_sum_exp)
        _loops = numba.njit(nogil=True, cache=True, error_model="numpy")(_item)
    return _loops


def _softmax_columns(logits):
    """``[classes, frames]`` softmax of the ``[frames, classes]`` logits, in float32."""
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.ascontiguousarray((shifted / shifted.sum(axis=1, keepdims=True)).T)


def _label_sequences(indices, values, batch):
    """Each item's labels from the SparseTensor's ``indices``/``values`` (rows in order, as TensorFlow requires)."""
    if indices.ndim != 2:
        raise ValueError("labels_indices is not a matrix")
    if values.ndim != 1:
        raise ValueError("labels_values is not a vector")
    if indices.shape[0] != values.shape[0]:
        raise ValueError("labels_indices and labels_values must contain the same number of rows, but saw "
                         f"shapes: {list(indices.shape)} vs. {list(values.shape)}")
    sequences = [[] for _ in range(batch)]
    previous = None
    for (row, column), value in zip(indices.tolist(), values.tolist()):
        if previous is not None and (row, column) <= previous:
            raise ValueError("Indices are not ordered")
        if not 0 <= row < batch:
            raise ValueError(f"labels batch index must be between 0 and {batch - 1} got {row}")
        previous = (row, column)
        sequences[row].append(value)
    return sequences


def _l_prime(labels, item, num_classes, collapse, blank):
    if not labels:
        raise ValueError(f"Labels length is zero in batch {item}")
    kept, finished = [], False
    for i, label in enumerate(labels):
        if i and collapse and label == labels[i - 1]:
            continue
        if label >= num_classes - 1:
            finished = True
        elif finished:
            raise ValueError(f"Saw a non-null label (index >= num_classes - 1) following a null label, batch: {item} "
                             f"num_classes: {num_classes} labels: {','.join(map(str, labels))} labels seen so far: "
                             f"{','.join(map(str, kept))}")
        else:
            kept.append(label)
    if any(label < 0 for label in kept):
        raise ValueError(f"All labels must be nonnegative integers, batch: {item} labels: {','.join(map(str, kept))}")
    l_prime = [blank]
    for label in kept:
        l_prime += [label, blank]
    return np.array(l_prime, np.int64)


@register("CTCLoss")
def ctc_loss(ctx, inputs, labels_indices, labels_values, sequence_length):
    a = ctx.attrs
    if inputs.ndim != 3:
        raise ValueError("inputs is not a 3-Tensor")
    if sequence_length.ndim != 1:
        raise ValueError("sequence_length is not a vector")
    frames, batch, num_classes = inputs.shape
    if batch == 0:
        raise ValueError("batch_size must not be 0")
    if sequence_length.shape[0] != batch:
        raise ValueError(f"len(sequence_length) != batch_size.  len(sequence_length):  {sequence_length.shape[0]} "
                         f"batch_size: {batch}")
    sequences = _label_sequences(np.asarray(labels_indices), np.asarray(labels_values), batch)
    lengths = np.asarray(sequence_length).tolist()
    for item, length in enumerate(lengths):
        if length < 0:
            raise ValueError(f"seq_len({item}) < 0")
        if length > frames:
            raise ValueError(f"seq_len({item}) > num_time_steps")
    blank = num_classes - 1
    l_primes = []
    for item, labels in enumerate(sequences):
        l_primes.append(_l_prime(labels, item, num_classes, a["preprocess_collapse_repeated"], blank))
        if not a["ignore_longer_outputs_than_inputs"] and len(labels) > lengths[item]:
            raise ValueError(f"Not enough time for target transition sequence (required: {len(labels)}, available: "
                             f"{lengths[item]}){item}You can turn this error into a warning by using the flag "
                             "ignore_longer_outputs_than_inputs")
    dtype = inputs.dtype
    loss = np.zeros(batch, dtype)
    gradient = np.zeros(inputs.shape, dtype)
    item_loss = _compiled()
    for item, length in enumerate(lengths):
        if length == 0 or (a["ignore_longer_outputs_than_inputs"] and len(sequences[item]) > length):
            continue
        y = _softmax_columns(inputs[:length, item, :])
        item_gradient = np.zeros((length, num_classes), dtype)
        loss[item] = item_loss(y, l_primes[item], blank, a["ctc_merge_repeated"], item_gradient)
        gradient[:length, item, :] = item_gradient
    return loss, gradient


@register("CTCGreedyDecoder")
def ctc_greedy_decoder(ctx, inputs, sequence_length):
    if inputs.ndim != 3:
        raise ValueError("inputs is not a 3-Tensor")
    frames, batch, num_classes = inputs.shape
    if sequence_length.ndim != 1 or sequence_length.shape[0] != batch:
        raise ValueError(f"len(sequence_length) != batch_size.  len(sequence_length):  {sequence_length.shape[0]} "
                         f"batch_size: {batch}")
    blank = ctx.attrs["blank_index"]
    blank = blank + num_classes if blank < 0 else blank
    merge = ctx.attrs["merge_repeated"]
    log_probability = np.zeros((batch, 1), inputs.dtype)
    sequences = []
    for item, length in enumerate(np.asarray(sequence_length).tolist()):
        if length > frames:
            raise ValueError(f"sequence_length({item}) <= {frames}")
        best = inputs[:length, item, :].argmax(axis=1)
        for value in inputs[np.arange(length), item, best]:  # one frame after another, as TensorFlow adds
            log_probability[item, 0] += -value
        decoded, previous = [], -1
        for label in best.tolist():
            if label != blank and not (merge and label == previous):
                decoded.append(label)
            previous = label
        sequences.append(decoded)
    longest = max((len(s) for s in sequences), default=0)
    indices = np.array([[b, i] for b, s in enumerate(sequences) for i in range(len(s))], np.int64).reshape(-1, 2)
    values = np.array([v for s in sequences for v in s], np.int64)
    return indices, values, np.array([batch, longest], np.int64), log_probability
