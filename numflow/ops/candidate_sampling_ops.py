"""Candidate samplers and compute_accidental_hits, with TensorFlow's ops and, for the same seeds, its numbers.

Each sampler is one stateful op (``UniformCandidateSampler``, ``LogUniformCandidateSampler``,
``LearnedUnigramCandidateSampler``, ``FixedUnigramCandidateSampler``, ``AllCandidateSampler``)
taking ``true_classes`` (int64, ``[batch, num_true]``) and giving ``(sampled_candidates,
true_expected_count, sampled_expected_count)``. Seeds come from :func:`numflow.get_seed` as for
the random ops; a second run of the op draws the next numbers of its stream. None of the outputs
has a gradient. Kernels: ``numflow_kernels/reference_sampling.py``.
"""

import collections

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.seeds import get_seed
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import check_rank

_SAMPLERS = ("UniformCandidateSampler", "LogUniformCandidateSampler", "LearnedUnigramCandidateSampler",
             "FixedUnigramCandidateSampler", "AllCandidateSampler")
# Each op's outputs as a namedtuple named after the op, as TensorFlow returns them.
_SAMPLER_OUTPUTS = {op_type: collections.namedtuple(
    op_type, ["sampled_candidates", "true_expected_count", "sampled_expected_count"]) for op_type in _SAMPLERS}
AccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])


def _check_int64(tensor, op_type, name):
    if tensor.dtype.base_dtype != dtypes.int64:
        raise TypeError(f"Input '{name}' of '{op_type}' Op has type {tensor.dtype.base_dtype.name} that does not match "
                        "expected type of int64.")


def _sampler_infer(op):
    true_classes = op.inputs[0]
    _check_int64(true_classes, op.type, "true_classes")
    check_rank(true_classes.shape, 2)
    a = op._attrs
    batch = true_classes.shape.dim_values[0] if true_classes.shape.ndims == 2 else None
    sampled = TensorShape([a["num_sampled"]])
    return [(dtypes.int64, sampled), (dtypes.float32, TensorShape([batch, a["num_true"]])), (dtypes.float32, sampled)]


for _op_type in _SAMPLERS:
    declare(_op_type, stateful=True)(_sampler_infer)


def _check_attrs(num_true, num_sampled, range_max):
    for name, value in (("num_true", num_true), ("num_sampled", num_sampled), ("range_max", range_max)):
        if value is not None and int(value) < 1:
            raise ValueError(f"Attr '{name}' of value {int(value)} must be at least minimum 1")


def _sampler(op_type, true_classes, num_true, num_sampled, unique, range_max, seed, name, **extra):
    _check_attrs(num_true, num_sampled, range_max)
    seed1, seed2 = get_seed(seed)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "seed": seed1 or 0, "seed2": seed2 or 0, **extra}
    if range_max is not None:
        attrs["range_max"] = int(range_max)
    with get_default_graph().name_scope(name or op_type) as scope:
        true_classes = convert_to_tensor(true_classes, name="true_classes", preferred_dtype=dtypes.int64)
        op = get_default_graph().create_op(op_type, [true_classes], attrs, name=scope)
    return _SAMPLER_OUTPUTS[op_type](*op.outputs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """``num_sampled`` classes drawn uniformly from ``[0, range_max)`` (without repeats when ``unique``),
    and the expected count of each true and sampled class under that sampling."""
    return _sampler("UniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed, name)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Classes drawn from the log-uniform (Zipfian) distribution ``P(k) = log((k + 2) / (k + 1)) /
    log(range_max + 1)``, for classes sorted by decreasing frequency; as :func:`uniform_candidate_sampler`.

    >>> import numflow as tf
    >>> out = tf.nn.log_uniform_candidate_sampler([[1]], 1, 4, True, 10, seed=3)
    >>> [t.shape.as_list() for t in out]
    [[4], [1, 1], [4]]
    """
    return _sampler("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed, name)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Classes drawn by how often they were true classes so far in this session (each counts 1 at
    first); each run then counts its ``true_classes``."""
    return _sampler("LearnedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                    name)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """Classes drawn with probability proportional to ``unigrams[k] ** distortion`` (or the last
    comma-separated field of line k of ``vocab_file``), the first ``num_reserved_ids`` never drawn;
    ``num_shards`` and ``shard`` keep the ids of one shard."""
    extra = {"vocab_file": str(vocab_file), "distortion": float(np.float32(distortion)),
             "num_reserved_ids": int(num_reserved_ids), "num_shards": int(num_shards), "shard": int(shard),
             "unigrams": [float(np.float32(u)) for u in unigrams]}
    return _sampler("FixedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                    name, **extra)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Every class ``0 .. num_sampled - 1``, each with expected count 1 (a test double of the samplers)."""
    return _sampler("AllCandidateSampler", true_classes, num_true, num_sampled, unique, None, seed, name)


@declare("ComputeAccidentalHits")
def _accidental_hits_infer(op):
    true_classes, sampled = op.inputs
    _check_int64(true_classes, op.type, "true_classes")
    _check_int64(sampled, op.type, "sampled_candidates")
    check_rank(true_classes.shape, 2)
    check_rank(sampled.shape, 1)
    num_true = op._attrs["num_true"]
    if true_classes.shape.ndims == 2 and true_classes.shape.dim_values[1] not in (None, num_true):
        raise ValueError(f"Dimension must be {num_true} but is {true_classes.shape.dim_values[1]}")
    vector = TensorShape([None])
    return [(dtypes.int32, vector), (dtypes.int64, vector), (dtypes.float32, vector)]


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Where a sampled candidate is one of a row's true classes: ``(indices, ids, weights)``, the row,
    the position in ``sampled_candidates`` and ``-FLOAT_MAX``, one entry per hit (op
    ``ComputeAccidentalHits``). Adding them to the sampled logits removes those hits."""
    seed1, seed2 = get_seed(seed)
    attrs = {"num_true": int(num_true), "seed": seed1 or 0, "seed2": seed2 or 0}
    with get_default_graph().name_scope(name or "ComputeAccidentalHits") as scope:
        true_classes = convert_to_tensor(true_classes, name="true_classes", preferred_dtype=dtypes.int64)
        sampled = convert_to_tensor(sampled_candidates, name="sampled_candidates", preferred_dtype=dtypes.int64)
        op = get_default_graph().create_op("ComputeAccidentalHits", [true_classes, sampled], attrs, name=scope)
    return AccidentalHits(*op.outputs)


not_differentiable(*_SAMPLERS, "ComputeAccidentalHits")
