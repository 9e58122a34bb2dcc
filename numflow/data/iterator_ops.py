"""``tf.data.Iterator`` in graph mode: one-shot, initializable, reinitializable and feedable iterators,
with TensorFlow's ops (``OneShotIterator``, ``IteratorV2``, ``MakeIterator``, ``IteratorGetNext``,
``IteratorToStringHandle``, ``IteratorFromStringHandleV2``) and names.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     x = tf.placeholder(tf.float32, [None])
...     iterator = tf.data.Dataset.from_tensor_slices(x).make_initializable_iterator()
...     y = iterator.get_next()
...     with tf.Session() as sess:
...         _ = sess.run(iterator.initializer, {x: [1.0, 2.0]})
...         values = [float(sess.run(y)), float(sess.run(y))]
...         try:
...             sess.run(y)
...         except tf.errors.OutOfRangeError as e:
...             end = e.message.splitlines()[0]
>>> values, end
([1.0, 2.0], 'End of sequence')
"""

from numflow.data import (
    iterators,  # noqa: F401  (the iterator kernels, registered by import)
    structure,
)
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape

_SCALAR = TensorShape([])


def _resource_infer(op):
    return [(dtypes.resource, _SCALAR)]


declare("IteratorV2", stateful=True)(_resource_infer)
declare("IteratorFromStringHandleV2", stateful=True)(_resource_infer)
declare("OneShotIterator", stateful=True, functional=True)(_resource_infer)


@declare("MakeIterator", stateful=True)
def _make_iterator_infer(op):
    return []


@declare("IteratorGetNext", stateful=True)
def _get_next_infer(op):
    return list(zip(op._attrs["output_types"], op._attrs["output_shapes"]))


@declare("IteratorToStringHandle", stateful=True)
def _string_handle_infer(op):
    return [(dtypes.string, _SCALAR)]


def _spec_attrs(specs):
    flat = structure.flatten(specs)
    return {"output_types": [s.dtype for s in flat], "output_shapes": [s.shape for s in flat]}


class Iterator(structure.Described):
    """An iterator over a dataset's elements (TensorFlow's compat.v1 ``tf.data.Iterator``)."""

    def __init__(self, resource, initializer, specs):
        self._iterator_resource = resource
        self._initializer = initializer
        self._specs = specs
        self._string_handle = get_default_graph().create_op("IteratorToStringHandle", [resource]).outputs[0]

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
        """An iterator with no dataset yet: ``make_initializer(dataset)`` starts it on one whose
        elements have these types and (compatible) shapes."""
        specs = structure.specs_from(output_types, output_shapes)
        attrs = {"shared_name": shared_name or "", "container": "", **_spec_attrs(specs)}
        resource = get_default_graph().create_op("IteratorV2", [], attrs, name="IteratorV2").outputs[0]
        return Iterator(resource, None, specs)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
        """The iterator whose ``string_handle()`` value is fed to ``string_handle`` (a string scalar
        placeholder): one graph reading from whichever iterator the run names."""
        specs = structure.specs_from(output_types, output_shapes)
        op = get_default_graph().create_op("IteratorFromStringHandleV2", [string_handle], _spec_attrs(specs))
        return Iterator(op.outputs[0], None, specs)

    @property
    def initializer(self):
        """The op (re)starting the iterator at its dataset's first element."""
        if self._initializer is None:
            raise ValueError("The iterator does not have an initializer. This means it was likely created using "
                             "`tf.data.Dataset.make_one_shot_iterator()`. For an initializable iterator, use "
                             "`tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        """An op starting this iterator on ``dataset``, whose elements must fit its types and shapes.

        Raises
        ------
        TypeError
            ``dataset``'s elements are of another structure, dtypes, or incompatible shapes.
        """
        mine, theirs = structure.flatten(self._specs), structure.flatten(dataset._specs)
        if not structure.same_structure(self._specs, dataset._specs) or \
                [s.dtype for s in mine] != [s.dtype for s in theirs]:
            raise TypeError(f"Expected output types {structure.types_of(self._specs)} but got dataset with output "
                            f"types {dataset.output_types}.")
        if not all(a.shape.is_compatible_with(b.shape) for a, b in zip(mine, theirs)):
            raise TypeError(f"Expected output shapes compatible with {structure.shapes_of(self._specs)} but got "
                            f"dataset with output shapes {dataset.output_shapes}.")
        graph = get_default_graph()
        with graph.name_scope(name or "make_initializer") as scope:
            return graph.create_op("MakeIterator", [dataset._variant_tensor, self._iterator_resource], name=scope)

    def get_next(self, name=None):
        """The next element, as a structure of tensors; each run of them moves the iterator on.

        Running it past the last element raises ``tf.errors.OutOfRangeError``.
        """
        op = get_default_graph().create_op("IteratorGetNext", [self._iterator_resource], _spec_attrs(self._specs),
                                           name=name or "IteratorGetNext")
        return structure.pack(self._specs, op.outputs)

    def string_handle(self, name=None):
        """A string tensor naming this iterator, to feed an ``Iterator.from_string_handle``'s handle."""
        if name is None:
            return self._string_handle
        return get_default_graph().create_op("IteratorToStringHandle", [self._iterator_resource], name=name).outputs[0]


def initializable_iterator(dataset, shared_name=None):
    """An IteratorV2 and its ``MakeIterator`` initializer over ``dataset``."""
    graph = get_default_graph()
    attrs = {"shared_name": shared_name or "", "container": "", **_spec_attrs(dataset._specs)}
    resource = graph.create_op("IteratorV2", [], attrs, name="IteratorV2").outputs[0]
    initializer = graph.create_op("MakeIterator", [dataset._variant_tensor, resource], name="MakeIterator")
    return Iterator(resource, initializer, dataset._specs)


def one_shot_iterator(dataset):
    """A OneShotIterator over ``dataset``: it makes the dataset on its first run in each session.

    Raises
    ------
    ValueError
        The dataset depends on a placeholder: a one-shot iterator cannot be fed (TensorFlow's error).
    """
    placeholder = _placeholder_under(dataset._variant_tensor)
    if placeholder is not None:
        raise ValueError(f"Cannot capture a placeholder (name:{placeholder.name}, type:{placeholder.type}) by value.")
    attrs = {"dataset": dataset._variant_tensor, "shared_name": "", "container": "", **_spec_attrs(dataset._specs)}
    resource = get_default_graph().create_op("OneShotIterator", [], attrs, name="OneShotIterator").outputs[0]
    return Iterator(resource, None, dataset._specs)


def _placeholder_under(tensor):
    """A Placeholder op among the ops ``tensor`` is computed from, or None."""
    seen, stack = set(), [tensor.op]
    while stack:
        op = stack.pop()
        if op.type == "Placeholder":
            return op
        for t in op.inputs:
            if t.op not in seen:
                seen.add(t.op)
                stack.append(t.op)
    return None


def make_one_shot_iterator(dataset):
    """``tf.data.make_one_shot_iterator(dataset)``: see :meth:`Dataset.make_one_shot_iterator`."""
    return dataset.make_one_shot_iterator()


def make_initializable_iterator(dataset, shared_name=None):
    """``tf.data.make_initializable_iterator(dataset)``: see :meth:`Dataset.make_initializable_iterator`."""
    return dataset.make_initializable_iterator(shared_name)


def get_output_types(dataset_or_iterator):
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator):
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator):
    return dataset_or_iterator.output_classes
