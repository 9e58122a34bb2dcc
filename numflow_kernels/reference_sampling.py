"""Kernels of the candidate samplers and ComputeAccidentalHits, drawing TensorFlow's numbers for its seeds.

Spec: TensorFlow's ``candidate_sampler_ops.cc``, ``range_sampler.cc``, ``random/simple_philox.h``,
``exact_uniform_int.h``, ``weighted_picker.cc`` and ``distribution_sampler.cc``.

Random draws: each run of a sampler op takes the Philox stream of its ``(seed, seed2)`` (random
seeds when both are 0) from the session's counter, and moves that counter on by the
``2048 * num_sampled`` 32-bit samples TensorFlow reserves (``512 * num_sampled`` Philox calls), as
``GuardedPhiloxRandom::ReserveSamples32`` does. A run reads 32-bit words from its start in order
(four per Philox call, as ``SingleSampleAdapter``): ``Rand64`` is two words (low first),
``RandDouble`` two (20 + 32 mantissa bits), ``RandFloat`` one (23 bits); ``Uniform``/``Uniform64``
reject draws below ``(2^bits - 1) % n + 1`` unless ``n`` is a power of two.

Samplers (value ``v`` in ``[0, range_max)``):

- uniform: ``Uniform64(range)``; probability ``1 / range``.
- log-uniform: ``int(exp(RandDouble() * log(range + 1))) - 1`` (mod range); probability
  ``log((v + 2) / (v + 1)) / log(range + 1)``.
- learned unigram: ``Uniform32(total weight)`` through the cumulative weights (every weight
  starts at 1); after each run the true classes' weights go up by 1, kept in the session.
- fixed unigram: Walker's alias table of ``weight ** distortion`` (``RandFloat`` against the
  bucket's probability, then ``Uniform32(n)`` for the bucket); the weights come from ``unigrams``
  or the last field of each line of ``vocab_file``, after ``num_reserved_ids`` zeros, the ids of
  this ``shard`` of ``num_shards`` only.

With ``unique`` a batch redraws values already taken; an expected count is then
``1 - (1 - p) ** tries`` (``-expm1(tries * log1p(-p))`` in float32), else ``p * num_sampled``.
Those float32 functions and the log-uniform probabilities must round as libm's do, as TF's calls
do, and so must the distorted unigram weights (``powf``); numpy's own vectorized versions differ
in the last bit, so three small loops run compiled by Numba (imported on a sampler's first run),
whose math calls libm.
"""

import math

import numpy as np

from numflow_kernels.buffer_ops import RESERVED_PER_OUTPUT, random_stream
from numflow_kernels.cpu.init_numpy import philox_calls
from numflow_kernels.registry import REFERENCE, register

SAMPLES_PER_CANDIDATE = 2048  # 32-bit samples TF reserves per sampled candidate and run
_CALLS_PER_REFILL = 256
_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_F32_MAX = np.finfo(np.float32).max


class SimplePhilox:
    """TensorFlow's ``SimplePhilox`` over Philox calls ``base, base + 1, ...`` of ``(seed, seed2)``."""

    def __init__(self, seed, seed2, base):
        self._seed, self._seed2, self._next_call = seed, seed2, base
        self._words = []
        self._pos = 0

    def rand32(self):
        if self._pos == len(self._words):
            calls = philox_calls(self._seed, self._seed2, self._next_call, _CALLS_PER_REFILL)
            self._words = np.stack(calls, axis=1).reshape(-1).tolist()
            self._next_call = (self._next_call + _CALLS_PER_REFILL) & _M64
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def rand64(self):
        low = self.rand32()
        return low | (self.rand32() << 32)

    def rand_float(self):
        return np.float32(self.rand32() & 0x7FFFFF) * np.float32(2.0**-23)

    def rand_double(self):
        high = self.rand32() & 0xFFFFF
        return ((high << 32) | self.rand32()) * 2.0**-52

    def uniform32(self, n):
        return _exact_uniform(n, self.rand32, _M32)

    def uniform64(self, n):
        return _exact_uniform(n, self.rand64, _M64)


def _exact_uniform(n, draw, full):
    """``ExactUniformInt``: an unbiased integer in ``[0, n)`` by rejection."""
    if n == 0:
        draw()
        return 0
    if n & (n - 1) == 0:
        return draw() & (n - 1)
    reject = full % n + 1
    value = draw()
    while value < reject:
        value = draw()
    return value % n


class UniformSampler:
    def __init__(self, range_max):
        self.range = range_max
        self._p = np.float32(1.0 / range_max)

    def sample(self, rnd):
        return rnd.uniform64(self.range)

    def probabilities(self, values):
        return np.full(np.shape(values), self._p, np.float32)


class LogUniformSampler:
    def __init__(self, range_max):
        self.range = range_max
        self._log_range = math.log1p(range_max)

    def sample(self, rnd):
        # libm's exp, as TF's: the truncation to an integer must see the same double.
        return (int(math.exp(rnd.rand_double() * self._log_range)) - 1) % self.range

    def probabilities(self, values):
        v = np.asarray(values, np.float64)
        return _libm_kernels()[1](v.reshape(-1), self._log_range).reshape(v.shape)


class UnigramSampler:
    """The learned unigram sampler: integer weights, all 1 at first (``WeightedPicker``)."""

    def __init__(self, range_max):
        self.range = range_max
        self.weights = np.ones(range_max, np.int64)
        self._cumulative = None

    def sample(self, rnd):
        if self._cumulative is None:
            self._cumulative = np.cumsum(self.weights)
        position = rnd.uniform32(int(self._cumulative[-1]))
        return int(np.searchsorted(self._cumulative, position, side="right"))

    def probabilities(self, values):
        total = np.float32(self.weights.sum())
        return (self.weights[np.asarray(values)].astype(np.float32) / total).astype(np.float32)

    def update(self, values):
        room = (2**31 - 1) - int(self.weights.sum())
        np.add.at(self.weights, np.asarray(values).reshape(-1)[:max(room, 0)], 1)
        self._cumulative = None


class FixedUnigramSampler:
    """Walker's alias table over fixed weights (``DistributionSampler``), probabilities in float32."""

    def __init__(self, range_max, weights):
        self.range = range_max
        self.weights = weights
        self._total = np.float32(0)
        for w in weights:  # a float accumulator, as TF's
            self._total = np.float32(self._total + w)
        self._prob, self._alt = _alias_table(weights)

    def sample(self, rnd):
        r = rnd.rand_float()
        bucket = rnd.uniform32(len(self._prob))
        return bucket if r < self._prob[bucket] else int(self._alt[bucket])

    def probabilities(self, values):
        v = np.asarray(values)
        inside = (v >= 0) & (v < len(self.weights))
        picked = self.weights[np.where(inside, v, 0)]
        return np.where(inside, picked / self._total, np.float32(0)).astype(np.float32)


def _alias_table(weights):
    n = len(weights)
    total = 0.0
    for w in weights:
        total += float(w)
    pr = [float(np.float32(w) * np.float32(n)) / total for w in weights]  # weight * n in float, as TF
    alt = [-1] * n
    low = [i for i in range(n) if pr[i] < 1.0]
    high = [i for i in range(n) if pr[i] >= 1.0]
    while high and low:
        small, large = low.pop(), high.pop()
        alt[small] = large
        pr[large] -= 1.0 - pr[small]
        (low if pr[large] < 1.0 else high).append(large)
    prob = np.array(pr, np.float32)
    for i in high + low:  # what rounding left over: keep the bucket whole
        prob[i], alt[i] = np.float32(1.0), i
    return prob, np.array(alt, np.int64)


def fixed_unigram_weights(attrs):
    """FixedUnigramSampler's weights: reserved zeros, then ``unigrams`` or the vocabulary file's last
    fields, each raised to ``distortion``, for this shard's ids only."""
    shards, shard, distortion = attrs["num_shards"], attrs["shard"], np.float32(attrs["distortion"])
    weights = [0.0 for word_id in range(attrs["num_reserved_ids"]) if word_id % shards == shard]
    if attrs["vocab_file"]:
        values = _vocabulary_weights(attrs["vocab_file"])
    else:
        values = [np.float32(u) for u in attrs["unigrams"]]
    word_id = len(weights)
    kept = []
    for w in values:
        if word_id % shards == shard:
            kept.append(w)
        word_id += 1
    distorted = _libm_kernels()[2](np.array(kept, np.float32), distortion)
    return np.concatenate([np.array(weights, np.float32), distorted])


def _vocabulary_weights(path):
    weights = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            try:
                weights.append(np.float32(float(line.split(",")[-1])))
            except ValueError:
                raise ValueError(f"Wrong vocabulary format at line: {line}") from None
    return weights


def sample_batch(sampler, rnd, unique, num_sampled, extras):
    """``SampleBatchGetExpectedCount``: the batch, its expected counts and those of ``extras``."""
    batch = np.empty(num_sampled, np.int64)
    if unique:
        used = set()
        tries = 0
        while len(used) < num_sampled:
            tries += 1
            value = sampler.sample(rnd)
            if value not in used:
                batch[len(used)] = value
                used.add(value)
    else:
        for i in range(num_sampled):
            batch[i] = sampler.sample(rnd)
        tries = num_sampled
    return batch, _expected_count(sampler.probabilities(batch), num_sampled, tries), \
        _expected_count(sampler.probabilities(extras), num_sampled, tries)


def _expected_count(p, batch_size, tries):
    p = np.asarray(p, np.float32)
    if tries == batch_size:
        return (p * np.float32(batch_size)).astype(np.float32)
    return _libm_kernels()[0](p.reshape(-1), np.float32(tries)).reshape(p.shape)


def _collision_counts(p, tries):
    """``-expm1(tries * log1p(-p))`` with float32's libm functions (``log1pf``, ``expm1f``), as TF's
    ``std::`` calls on floats: numpy's float32 versions differ in the last bit."""
    out = np.empty_like(p)
    for i in range(p.shape[0]):
        out[i] = -math.expm1(tries * math.log1p(-p[i]))
    return out


def _log_uniform_probabilities(values, log_range):
    """``log((v + 2) / (v + 1)) / log_range`` with libm's double ``log`` (numpy's may differ), rounded to float32."""
    out = np.empty(values.shape[0], np.float32)
    for i in range(values.shape[0]):
        out[i] = math.log((values[i] + 2.0) / (values[i] + 1.0)) / log_range
    return out


def _powers(values, exponent):
    """``values ** exponent`` with libm's ``powf``, as TF's ``std::pow`` of floats."""
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        out[i] = values[i] ** exponent
    return out


_LIBM = []


def _libm_kernels():
    """The three functions above compiled by Numba, whose float32 math calls libm's float functions."""
    if not _LIBM:
        import numba

        _LIBM.extend(numba.njit(nogil=True, cache=True)(fn)
                     for fn in (_collision_counts, _log_uniform_probabilities, _powers))
    return _LIBM


def _sampler_kernel(op_type, make_sampler):
    @register(op_type, REFERENCE)
    def run(ctx, true_classes):
        a = ctx.attrs
        num_true, num_sampled = a["num_true"], a["num_sampled"]
        if true_classes.ndim != 2:
            raise ValueError("true_classes must be a matrix")
        if true_classes.shape[1] != num_true:
            raise ValueError(f"true_classes must have num_true columns, expected: {true_classes.shape[1]} was: "
                             f"{num_true}")
        sampler = ctx.resources.get_or_create(("candidate_sampler", ctx.op_name), lambda: make_sampler(a))
        if a["unique"] and num_sampled > sampler.range:
            raise ValueError("Sampler's range is too small.")
        bad = (true_classes < 0) | (true_classes >= sampler.range)
        if bad.any():
            raise ValueError(f"`true_candidate` out of range [0, {sampler.range}), received "
                             f"{true_classes[bad][0]}")
        stream = random_stream(ctx)
        calls = (SAMPLES_PER_CANDIDATE * num_sampled + 3) // 4  # ReserveSamples32 -> ReserveSamples128
        base = stream.reserve(calls // RESERVED_PER_OUTPUT)
        rnd = SimplePhilox(stream.seed, stream.seed2, base)
        batch, batch_counts, true_counts = sample_batch(sampler, rnd, a["unique"], num_sampled, true_classes)
        if isinstance(sampler, UnigramSampler):
            sampler.update(true_classes)
        return batch, true_counts.reshape(true_classes.shape), batch_counts

    return run


def _learned(attrs):
    if attrs["range_max"] >= 2**31 - 1:
        raise ValueError(f"range_max must be less than {2**31 - 1} for unigram samplers, got {attrs['range_max']}")
    return UnigramSampler(attrs["range_max"])


def _fixed(attrs):
    if not attrs["vocab_file"] and not attrs["unigrams"]:
        raise ValueError("Must provide either vocab_file or unigrams.")
    if attrs["vocab_file"] and attrs["unigrams"]:
        raise ValueError("Must only provide one of vocab_file and unigrams.")
    weights = fixed_unigram_weights(attrs)
    if len(weights) != attrs["range_max"]:
        raise ValueError(f"range is {attrs['range_max']} must be equal to weights size  {len(weights)}")
    return FixedUnigramSampler(attrs["range_max"], weights)


_sampler_kernel("UniformCandidateSampler", lambda a: UniformSampler(a["range_max"]))
_sampler_kernel("LogUniformCandidateSampler", lambda a: LogUniformSampler(a["range_max"]))
_sampler_kernel("LearnedUnigramCandidateSampler", _learned)
_sampler_kernel("FixedUnigramCandidateSampler", _fixed)


@register("AllCandidateSampler", REFERENCE)
def all_candidates(ctx, true_classes):
    a = ctx.attrs
    if true_classes.ndim != 2 or true_classes.shape[1] != a["num_true"]:
        raise ValueError("true_classes must be a matrix with num_true columns")
    n = a["num_sampled"]
    return np.arange(n, dtype=np.int64), np.ones(true_classes.shape, np.float32), np.ones(n, np.float32)


@register("ComputeAccidentalHits", REFERENCE)
def compute_accidental_hits(ctx, true_classes, sampled):
    num_true = ctx.attrs["num_true"]
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise ValueError("true_candidates must be a batch_size * num_true matrix")
    if sampled.ndim != 1:
        raise ValueError("sampled_candidates must be a vector, which is typically an output from CandidateSampler")
    position = {int(c): i for i, c in enumerate(sampled.tolist())}  # a repeated candidate: its last position
    rows, ids = [], []
    for i, row in enumerate(true_classes.tolist()):
        for c in row:
            if c in position:
                rows.append(i)
                ids.append(position[c])
    return (np.array(rows, np.int32), np.array(ids, np.int64), np.full(len(rows), -_F32_MAX, np.float32))
