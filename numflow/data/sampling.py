"""Datasets drawing from other datasets: ``choose_from_datasets`` (the input each element of a
choice dataset names), ``sample_from_datasets`` (inputs drawn at random, with weights) and
``Dataset.random``, with TensorFlow's ops and, for the same seeds, TensorFlow's draws.

``random`` gives the uint32 words of the Philox stream of its seeds (as int64), as TensorFlow's
``RandomDataset`` does; ``sample_from_datasets`` builds TensorFlow's graph: pairs of those words
seed a ``StatelessMultinomial`` over the weights' logits that picks each element's input
(``DirectedInterleaveDataset``).

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0], tf.int64))
...     ds = tf.data.experimental.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)],
...                                                    choice)
...     element = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [int(sess.run(element)) for _ in range(4)]
[0, 10, 11, 1]
"""

import numpy as np

from numflow.data import structure
from numflow.data.dataset_ops import Dataset, _make, _seeds
from numflow.data.datasets import Dataset as _DatasetValue
from numflow.data.datasets import _scalar
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import control_flow_util as cfu
from numflow.ops.constant_op import convert_to_tensor
from numflow_kernels.philox_words import PhiloxWords, seeds_or_fresh
from numflow_kernels.registry import register

_SCALAR_INT64 = Spec(dtypes.int64, TensorShape([]))


def random(seed=None, rerandomize_each_iteration=None, name=None):
    """A dataset without end of pseudorandom int64 values (uint32 words) drawn from ``seed``."""
    if rerandomize_each_iteration:
        raise NotImplementedError("numflow's Dataset.random draws the same values for each iteration: "
                                  "rerandomize_each_iteration=True is not supported.")
    seed_t, seed2_t = _seeds(seed)
    return _make("RandomDataset", [seed_t, seed2_t], _SCALAR_INT64, name)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """A dataset of the elements of ``datasets``, each from the input the next element of
    ``choice_dataset`` (int64 scalars) names; an ended input's turns are skipped (or end the
    dataset with ``stop_on_empty_dataset``).

    Raises
    ------
    ValueError, TypeError
        No datasets; a choice dataset that is no dataset of int64 scalars.
    """
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, Dataset):
        raise TypeError(f"Invalid `choice_dataset`. `choice_dataset` should be a `tf.data.Dataset` but is "
                        f"{type(choice_dataset)}.")
    spec = choice_dataset._specs
    if structure.is_nested(spec) or spec.dtype != dtypes.int64 or not spec.shape.is_compatible_with([]):
        raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` tensors "
                        f"but are {spec}.")
    with get_default_graph().name_scope("RewriteDataset") as scope:
        rewrite = convert_to_tensor("replicate_on_split", dtype=dtypes.string, name="rewrite_name")
        choice_dataset = choice_dataset._make("RewriteDataset", [rewrite], choice_dataset._specs, scope)
    return _directed_interleave(choice_dataset, datasets, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """A dataset of the elements of ``datasets``, each from an input drawn with probabilities
    ``weights`` (uniform when None; a dataset of them gives each draw its own), from ``seed``; an
    ended input is skipped when drawn.

    Raises
    ------
    ValueError, TypeError
        No datasets; weights of another length than the datasets, or not floats.
    """
    from numflow.ops import array_ops, math_ops, stateless_random_ops

    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if isinstance(weights, Dataset):  # each element of `weights`: the weights of one draw
        logits = weights.map(lambda *p: math_ops.log(p, name="logits"))

        def select_dataset_varying_logits(logits, seed):
            return array_ops.squeeze(stateless_random_ops.stateless_multinomial(logits, 1, seed=seed), axis=[0, 1])

        seeds = random(seed, rerandomize_each_iteration).batch(2)
        selector = Dataset.zip((logits, seeds)).map(select_dataset_varying_logits)
        return _directed_interleave(selector, datasets, stop_on_empty_dataset)
    if weights is None:
        logits = [[1.0] * len(datasets)]
    else:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible with "
                                 f"`[len(datasets)]` but is {weights.shape}.")
        elif len(datasets) != len(weights):
            raise ValueError(f"Invalid `weights`. `weights` should have the same length as `datasets` but got "
                             f"`len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
        else:
            kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
            datasets, weights = zip(*kept) if kept else ([datasets[0].take(0)], [1.0])
        weights = convert_to_tensor(list(weights) if isinstance(weights, tuple) else weights, name="weights")
        if weights.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but is "
                            f"{weights.dtype}.")
        logits = array_ops.expand_dims(math_ops.log(weights, name="logits"), 0)
    if len(datasets) == 1:
        return datasets[0]

    def select_dataset_constant_logits(seed):
        return array_ops.squeeze(stateless_random_ops.stateless_multinomial(logits, 1, seed=seed), axis=[0, 1])

    selector = random(seed, rerandomize_each_iteration).batch(2).map(select_dataset_constant_logits)
    return _directed_interleave(selector, datasets, stop_on_empty_dataset)


def _directed_interleave(selector, datasets, stop_on_empty_dataset):
    specs = datasets[0]._specs
    for i, dataset in enumerate(datasets[1:], 1):
        if not structure.same_structure(specs, dataset._specs) or \
                [s.dtype for s in structure.flatten(specs)] != [s.dtype for s in dataset._flat_specs()]:
            raise TypeError(f"Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset 0 "
                            f"element_spec={datasets[0]._specs}.\nDataset {i} element_spec={dataset._specs}.")
        specs = structure.pack(specs, [Spec(a.dtype, cfu.most_specific_compatible_shape(a.shape, b.shape))
                                       for a, b in zip(structure.flatten(specs), dataset._flat_specs())])
    return _make("DirectedInterleaveDataset", [selector._variant_tensor, *[d._variant_tensor for d in datasets]],
                 specs, N=len(datasets), stop_on_empty_dataset=stop_on_empty_dataset)


# -- kernels --------------------------------------------------------------------------------------
class RandomDataset(_DatasetValue):
    def __init__(self, seed, seed2):
        self.seeds = seeds_or_fresh(seed, seed2)

    def elements(self):
        words = PhiloxWords(*self.seeds)
        while True:
            yield (np.array(words(), np.int64),)


class DirectedInterleaveDataset(_DatasetValue):
    """TensorFlow's ``DirectedInterleaveDataset``: each element from the input the selector names."""

    def __init__(self, selector, inputs, stop_on_empty):
        self.selector, self.inputs, self.stop_on_empty = selector, inputs, stop_on_empty

    def elements(self):
        inputs = [d.elements() for d in self.inputs]
        active = len(inputs)
        for (choice,) in self.selector.elements():
            index = int(choice)
            if not 0 <= index < len(inputs):
                raise ValueError(f"Selector index out of range: {index} >= {len(inputs)}")
            if inputs[index] is None:
                continue
            element = next(inputs[index], None)
            if element is not None:
                yield element
                continue
            if self.stop_on_empty:
                return
            inputs[index] = None
            active -= 1
            if not active:
                return


@register("RandomDataset")
def _random(ctx, seed, seed2):
    return RandomDataset(_scalar(seed, "seed"), _scalar(seed2, "seed2"))


@register("DirectedInterleaveDataset")
def _directed(ctx, selector, *inputs):
    return DirectedInterleaveDataset(selector, inputs, ctx.attrs["stop_on_empty_dataset"])
