"""Datasets that carry state from element to element: ``scan`` (a state threaded through a function,
TensorFlow's ``ScanDataset``), ``take_while`` (``TakeWhileDataset``), ``unique`` (``UniqueDataset``)
and the ``Counter`` made of a scan, with TensorFlow's ops, names and errors.

>>> import numpy as np
>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ds = tf.data.Dataset.range(5).scan(np.int64(0), lambda total, x: (total + x, total)).take_while(lambda t: t < 5)
...     element = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [int(sess.run(element)) for _ in range(4)]
[0, 0, 1, 3]
"""

import numpy as np

from numflow.data import function as _function
from numflow.data import structure
from numflow.data.datasets import Dataset as _DatasetValue
from numflow.data.datasets import FunctionDataset, _bound
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import control_flow_util as cfu
from numflow.ops.constant_op import convert_to_tensor
from numflow_kernels.registry import register


def scan(dataset, initial_state, scan_func, name=None):
    """See ``Dataset.scan``.

    Raises
    ------
    TypeError
        ``scan_func`` returns no pair, or a new state of other dtypes than the initial state's.
    """
    from numflow.data.dataset_ops import _fn_name, _normalize

    initial_state = _normalize(initial_state)
    state_specs = structure.map_structure(lambda t: Spec(t.dtype, t.shape), initial_state)
    while True:
        fn = _function.trace(scan_func, (state_specs, dataset._specs), _fn_name(scan_func, "Dataset_scan"))
        if not isinstance(fn.output_specs, tuple) or len(fn.output_specs) != 2:
            raise TypeError(f"Invalid `scan_func`. `scan_func` should return a pair consisting of new state and the "
                            f"output value but its return type is {fn.output_specs}.")
        new_specs, output_specs = fn.output_specs
        state, new = structure.flatten(state_specs), structure.flatten(new_specs)
        if not structure.same_structure(state_specs, new_specs) or [s.dtype for s in state] != [s.dtype for s in new]:
            raise TypeError(f"Invalid `scan_func`. The element types for the new state must match the initial state. "
                            f"Expected {structure.types_of(state_specs)}, got {structure.types_of(new_specs)}.")
        relaxed = [Spec(s.dtype, cfu.most_specific_compatible_shape(s.shape, n.shape)) for s, n in zip(state, new)]
        if all(s.shape.ndims is None or r.shape.as_list() == s.shape.as_list() for r, s in zip(relaxed, state)):
            break
        state_specs = structure.pack(state_specs, relaxed)
    flat_state = structure.flatten(initial_state)
    return dataset._make("ScanDataset", [*flat_state, *fn.captured], output_specs, name, functions=[fn],
                         Tstate=[t.dtype for t in flat_state], preserve_cardinality=True, use_default_device=True)


def take_while(dataset, predicate, name=None):
    """See ``Dataset.take_while``."""
    from numflow.data.dataset_ops import _fn_name

    fn = _function.trace(predicate, dataset._specs, _fn_name(predicate, "Dataset_take_while"))
    out = fn.output_specs
    if structure.is_nested(out) or out.dtype != dtypes.bool or not out.shape.is_compatible_with([]):
        raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return type "
                         f"is{out}.")
    return dataset._make("TakeWhileDataset", fn.captured, dataset._specs, name, functions=[fn])


def unique(dataset, name=None):
    """See ``Dataset.unique``."""
    for spec in dataset._flat_specs():
        if spec.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError(f"`tf.data.Dataset.unique` does not support type {spec.dtype} -- only `tf.int32`, "
                            "`tf.int64`, and `tf.string` are supported.")
    return dataset._make("UniqueDataset", [], dataset._specs, name)


def counter(start=0, step=1, dtype=dtypes.int64):
    """A dataset without end of ``start``, ``start + step``... (``tf.data.experimental.Counter``)."""
    from numflow.data.dataset_ops import Dataset

    with get_default_graph().name_scope("counter"):
        start = convert_to_tensor(start, dtype=dtype, name="start")
        step = convert_to_tensor(step, dtype=dtype, name="step")
        return Dataset.from_tensors(0).repeat(None).scan(start, lambda state, _: (state + step, state))


# -- kernels --------------------------------------------------------------------------------------
class ScanDataset(FunctionDataset):
    def __init__(self, source, fn, state):
        super().__init__(source, fn)
        self.state = state

    def elements(self):
        state, count = self.state, len(self.state)
        for element in self.source.elements():
            outputs = self.fn(state + element)
            state = outputs[:count]
            yield outputs[count:]


class TakeWhileDataset(FunctionDataset):
    def elements(self):
        for element in self.source.elements():
            keep = self.fn(element)[0]
            if np.size(keep) != 1:
                raise ValueError("`predicate` must returns a scalar bool tensor.")
            if not keep:
                return
            yield element


class UniqueDataset(_DatasetValue):
    def __init__(self, source):
        self.source = source

    def elements(self):
        seen = set()
        for element in self.source.elements():
            (value,) = element
            key = value.item() if isinstance(value, np.ndarray) else value
            if key not in seen:
                seen.add(key)
                yield element


@register("ScanDataset")
def _scan(ctx, source, *inputs):
    count = len(ctx.attrs["Tstate"])
    state = tuple(np.asarray(v) for v in inputs[:count])
    return ScanDataset(source, _bound(ctx, inputs[count:]), state)


@register("TakeWhileDataset")
def _take_while(ctx, source, *captured):
    return TakeWhileDataset(source, _bound(ctx, captured))


@register("UniqueDataset")
def _unique(ctx, source):
    return UniqueDataset(source)
