"""Kernels of ``CTCLoss``, ``CTCGreedyDecoder`` and ``CTCBeamSearchDecoder``.

Spec: ``tensorflow/core/kernels/ctc_loss_op.cc``, ``core/util/ctc/ctc_loss_calculator.h`` and
``ctc_decoder.h``. The loss of each batch item is ``-log p(labels | inputs)`` by Graves' forward and
backward variables in log space (``LogSumExp(a, b) = max + log1p(exp(min - max))``, float32, through
libm's ``expf``/``log1pf``/``logf`` as there; double inputs in double), over the softmax of the item's first ``seq_len``
frames; its gradient to the logits is ``softmax - exp(log sum over paths through each label -
log p)``. Items run one after another, each alone, so the numbers do not depend on threads. The
loops are Numba (compiled on first use). The beam search is ``ctc_beam_search.h``'s with the
default scorer: prefixes kept by their total log probability, children grown from every beam that
could still enter it.
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
    return (*_sparse_sequences(sequences), log_probability)


def _sparse_sequences(sequences):
    """The label ``sequences`` of the batch items as a SparseTensor's ``(indices, values, dense_shape)``."""
    longest = max((len(s) for s in sequences), default=0)
    indices = np.array([[b, i] for b, s in enumerate(sequences) for i in range(len(s))], np.int64).reshape(-1, 2)
    values = np.array([v for s in sequences for v in s], np.int64)
    return indices, values, np.array([len(sequences), longest], np.int64)


class _Beam:
    """A beam search prefix (TensorFlow's ``BeamEntry``): its last label, parent and children, and
    the log probabilities of its paths ending in a label, in a blank and in all, now and a step ago."""

    __slots__ = ("parent", "label", "children", "new", "old")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.new = [-np.inf, -np.inf, -np.inf]  # total, blank, label
        self.old = [-np.inf, -np.inf, -np.inf]

    def active(self):
        return self.new[0] != -np.inf

    def child(self, label):
        """The prefix extended by ``label``, made on first use (an inactive child is as good as none)."""
        if label not in self.children:
            self.children[label] = _Beam(self, label)
        return self.children[label]

    def labels(self, merge_repeated):
        out, previous, beam = [], -1, self
        while beam.parent is not None:
            if not merge_repeated or beam.label != previous:
                out.append(beam.label)
            previous, beam = beam.label, beam.parent
        return out[::-1]


def _log_sum_exp_f32(a, b):
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    high, low = (a, b) if a > b else (b, a)
    return np.float32(high + np.log1p(np.exp(np.float32(low - high))))


def _beam_search(log_probabilities, beam_width, blank):
    """TensorFlow's ``CTCBeamSearchDecoder::Step`` over the frames' ``log_probabilities`` (``[T,
    classes]``, float32) with the default scorer; the leaves, best first."""
    root = _Beam(None, -1)
    root.new = [np.float32(0), np.float32(0), -np.inf]
    leaves = [root]
    num_labels = log_probabilities.shape[1] - 1

    bottom = []  # the leaf of lowest total while the leaves are unchanged (empty: to be found)

    def lowest():
        if not bottom:
            bottom.append(min(leaves, key=lambda beam: beam.new[0]))
        return bottom[0]

    def is_candidate(probability):
        return probability[0] > -np.inf and (len(leaves) < beam_width or probability[0] > lowest().new[0])

    for frame in log_probabilities:
        branches = sorted(leaves, key=lambda beam: -beam.new[0])
        leaves = []
        bottom.clear()
        for beam in branches:
            beam.old = list(beam.new)
        for beam in branches:
            if beam.parent is not None:
                if beam.parent.active():
                    parent = beam.parent.old
                    previous = parent[1] if beam.label == beam.parent.label else parent[0]
                    beam.new[2] = _log_sum_exp_f32(beam.new[2], previous)
                beam.new[2] = np.float32(beam.new[2] + frame[beam.label])
            beam.new[1] = np.float32(beam.old[0] + frame[blank])
            beam.new[0] = _log_sum_exp_f32(beam.new[1], beam.new[2])
            leaves.append(beam)
        bottom.clear()
        for beam in branches:
            if not is_candidate(beam.old):
                continue
            # A child's total if it grows now, all labels at once. Only those above the beam's
            # current bottom can enter (the bottom only rises): the others need no child made, but
            # an inactive child that exists is reset when refused, as TensorFlow resets it.
            totals = frame[:num_labels] + np.float32(beam.old[0])
            if 0 <= beam.label < num_labels:
                totals[beam.label] = frame[beam.label] + np.float32(beam.old[1])
            floor = lowest().new[0] if len(leaves) == beam_width else -np.inf
            labels = set(np.flatnonzero(totals > floor).tolist()).union(beam.children)
            for label in sorted(labels):
                child = beam.child(label)
                if child.active():
                    continue
                total = totals[label]
                if not is_candidate((total,)):
                    child.old = [-np.inf, -np.inf, -np.inf]
                    continue
                child.new = [total, -np.inf, total]
                if len(leaves) == beam_width:
                    worst = lowest()
                    worst.new = [-np.inf, -np.inf, -np.inf]
                    leaves.remove(worst)
                leaves.append(child)
                bottom.clear()
    return sorted(leaves, key=lambda beam: -beam.new[0])


def _log_softmax(logits):
    """Each frame's log probabilities (its log-softmax): paths are scored by their sums, so that the
    decoder's log probabilities are TensorFlow's (to float rounding)."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


@register("CTCBeamSearchDecoder")
def ctc_beam_search_decoder(ctx, inputs, sequence_length):
    a = ctx.attrs
    if inputs.ndim != 3:
        raise ValueError("inputs is not a 3-Tensor")
    frames, batch, num_classes = inputs.shape
    if sequence_length.ndim != 1 or sequence_length.shape[0] != batch:
        raise ValueError(f"len(sequence_length) != batch_size.  len(sequence_length):  {sequence_length.shape[0]} "
                         f"batch_size: {batch}")
    top_paths, beam_width = a["top_paths"], a["beam_width"]
    if top_paths > beam_width:
        raise ValueError("requested more paths than the beam width.")
    log_probability = np.zeros((batch, top_paths), np.float32)
    paths = [[] for _ in range(top_paths)]
    for item, length in enumerate(np.asarray(sequence_length).tolist()):
        if length > frames:
            raise ValueError(f"sequence_length({item}) <= {frames}")
        leaves = _beam_search(_log_softmax(np.asarray(inputs[:length, item, :], np.float32)), beam_width,
                              num_classes - 1)
        if top_paths > len(leaves):
            raise ValueError("Less leaves in the beam search than requested.")
        for k in range(top_paths):
            paths[k].append(leaves[k].labels(a["merge_repeated"]))
            log_probability[item, k] = leaves[k].new[0]
    indices, values, shapes = zip(*(_sparse_sequences(sequences) for sequences in paths))
    return (*indices, *values, *shapes, log_probability)
