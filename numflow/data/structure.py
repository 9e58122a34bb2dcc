"""The elements of tf.data datasets: nested structures of components, nested as tf.data nests them.

A structure is a tuple, a namedtuple or a dict (its keys in sorted order) of structures, or one
component. Unlike ``tf.nest``, a list is a component (converted to one tensor), as in TensorFlow
2.x's ``tf.data``. A dataset describes its elements by a structure of :class:`Spec` (a dtype and a
static shape), from which ``output_types``, ``output_shapes`` and ``output_classes`` are read.

>>> flatten({"b": (1, 2), "a": [3]})
[[3], 1, 2]
>>> pack({"b": (0, 0), "a": 0}, [3, 1, 2])
{'b': (1, 2), 'a': 3}
"""

import collections.abc

from numflow.framework.shapes import TensorShape, as_shape


class Spec:
    """One component of an element: its dtype and its static shape (``TensorSpec`` in TensorFlow)."""

    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype = dtype.base_dtype
        self.shape = TensorShape(shape)

    def __repr__(self):  # as TensorFlow's TensorSpec prints
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name=None)"


class DatasetSpec(Spec):
    """A component that is itself a dataset (each window of ``Dataset.window``): a variant scalar
    whose elements are described by ``element``, a structure of Specs (TensorFlow's ``DatasetSpec``)."""

    __slots__ = ("element",)

    def __init__(self, element):
        from numflow.framework import dtypes

        super().__init__(dtypes.variant, [])
        self.element = element

    def __repr__(self):
        return f"DatasetSpec({self.element!r}, TensorShape([]))"  # as TensorFlow's DatasetSpec prints


class Described:
    """What a dataset and an iterator tell of their elements, from their structure of Specs (``_specs``)."""

    _specs = None

    @property
    def output_types(self):
        return types_of(self._specs)

    @property
    def output_shapes(self):
        return shapes_of(self._specs)

    @property
    def output_classes(self):
        return classes_of(self._specs)

    @property
    def element_spec(self):
        return self._specs


def is_nested(value):
    """Whether ``value`` is a tuple or mapping: a structure rather than one component."""
    return isinstance(value, tuple | collections.abc.Mapping)


def _children(value):
    if isinstance(value, collections.abc.Mapping):
        return [value[k] for k in sorted(value)]
    return list(value)


def flatten(structure):
    """The components of ``structure``, depth first (one component alone gives a one-element list)."""
    if not is_nested(structure):
        return [structure]
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def pack(template, flat):
    """``flat`` (as :func:`flatten` gives it) in the structure of ``template``."""
    flat = list(flat)
    packed, used = _pack(template, flat, 0)
    if used != len(flat):
        raise ValueError(f"The structure {template!r} has {used} components, but {len(flat)} values were given.")
    return packed


def _pack(template, flat, start):
    if not is_nested(template):
        return flat[start], start + 1
    children = []
    for child in _children(template):
        value, start = _pack(child, flat, start)
        children.append(value)
    if isinstance(template, collections.abc.Mapping):
        return type(template)(zip(sorted(template), children)), start
    if hasattr(template, "_fields"):
        return type(template)(*children), start
    return tuple(children), start


def map_structure(fn, structure):
    """``structure`` with ``fn`` applied to each component."""
    return pack(structure, [fn(c) for c in flatten(structure)])


def same_structure(a, b):
    """Whether ``a`` and ``b`` nest alike (the same kinds, lengths and keys)."""
    if is_nested(a) != is_nested(b):
        return False
    if not is_nested(a):
        return True
    if isinstance(a, collections.abc.Mapping) != isinstance(b, collections.abc.Mapping):
        return False
    if isinstance(a, collections.abc.Mapping) and sorted(a) != sorted(b):
        return False
    ca, cb = _children(a), _children(b)
    return len(ca) == len(cb) and all(same_structure(x, y) for x, y in zip(ca, cb))


def types_of(specs):
    """``output_types``: the structure of ``specs`` with each component's dtype."""
    return map_structure(lambda s: s if isinstance(s, DatasetSpec) else s.dtype, specs)


def shapes_of(specs):
    """``output_shapes``: the structure of ``specs`` with each component's static shape."""
    return map_structure(lambda s: s if isinstance(s, DatasetSpec) else s.shape, specs)


def classes_of(specs):
    """``output_classes``: the structure of ``specs`` with the Tensor class for each component."""
    from numflow.framework.graph import Tensor

    return map_structure(lambda s: s if isinstance(s, DatasetSpec) else Tensor, specs)


def specs_from(types, shapes=None):
    """The structure of Specs from ``output_types`` and ``output_shapes`` (unknown shapes when None)."""
    from numflow.framework.dtypes import as_dtype

    flat_types = flatten(types)
    flat_shapes = [None] * len(flat_types) if shapes is None else flatten_up_to(types, shapes, "output_shapes")
    return pack(types, [Spec(as_dtype(t), as_shape(s)) for t, s in zip(flat_types, flat_shapes)])


def flatten_up_to(template, value, what):
    """The parts of ``value`` standing where ``template`` has components (a list or a shape there
    is one part); ValueError naming ``what`` when ``value`` nests otherwise."""
    if not is_nested(template):
        return [value]
    if not is_nested(value) or isinstance(template, collections.abc.Mapping) != isinstance(
            value, collections.abc.Mapping) or len(template) != len(value) or (
            isinstance(template, collections.abc.Mapping) and sorted(template) != sorted(value)):
        raise ValueError(f"The {what} {value!r} do not match the structure of the elements {template!r}.")
    out = []
    for t, v in zip(_children(template), _children(value)):
        out.extend(flatten_up_to(t, v, what))
    return out
