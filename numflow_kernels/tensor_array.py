"""TensorArray kernels: a list of tensors made by ``TensorArrayV3`` in each run and changed in place by
the ops given its handle, as TensorFlow's TensorArray resource (``tensor_array.h`` and
``tensor_array_ops.cc``; the messages are theirs). A flow value (a float32 zero) orders the ops
that use one array: each write returns the flow the next op takes.

A gradient array (``TensorArrayGradV3``) is made once per forward array and gradient source; its
writes to one index add up, as the gradients of several reads of one element do.
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register

_FLOW = np.float32(0.0)


class TensorArray:
    """The elements of one TensorArray in one run (None where nothing was written)."""

    __slots__ = ("name", "dtype", "elements", "dynamic_size", "clear_after_read", "identical_shapes", "element_shape",
                 "aggregate", "grads", "closed", "cleared")

    def __init__(self, name, dtype, size, dynamic_size, clear_after_read, identical_shapes, element_shape,
                 aggregate=False):
        self.name = name  # as TensorFlow's messages name the array: "TensorArray <name>: ..."
        self.dtype = np.dtype(dtype)
        self.elements = [None] * size
        self.dynamic_size = dynamic_size
        self.clear_after_read = clear_after_read
        self.identical_shapes = identical_shapes
        self.element_shape = element_shape  # a tuple with None for unknown sizes, or None for an unknown rank
        self.aggregate = aggregate
        self.grads = {}
        self.closed = False
        self.cleared = set()

    def error(self, message):
        return ValueError(f"TensorArray {self.name}: {message}")

    def check_open(self):
        if self.closed:
            raise self.error("TensorArray has already been closed.")

    def read(self, index):
        self.check_open()
        if not 0 <= index < len(self.elements):
            raise ValueError(f"Tried to read from index {index} but array size is: {len(self.elements)}")
        value = self.elements[index]
        if value is None:
            if index in self.cleared:
                raise self.error(f"Could not read index {index} twice because it was cleared after a previous read "
                                 "(perhaps try setting clear_after_read = false?).")
            value = self.zeros(f"Could not read from TensorArray index {index}.  Furthermore, the element shape is not "
                               f"fully defined: {_shape_text(self.known_shape())}.  It is possible you are working "
                               "with a resizeable TensorArray and stop_gradients is not allowing the gradients to "
                               "be written.  If you set the full element_shape property on the forward "
                               "TensorArray, the proper all-zeros tensor will be returned instead of incurring "
                               "this error.")
        elif self.clear_after_read and not self.aggregate:
            self.elements[index] = None
            self.cleared.add(index)
        return value

    def write(self, index, value):
        self.check_open()
        value = np.asarray(value)
        if index < 0:
            raise ValueError(f"Tried to write to index {index} but array size is: {len(self.elements)}")
        if index >= len(self.elements):
            if not self.dynamic_size:
                raise self.error(f"Tried to write to index {index} but array is not resizeable and size is: "
                                 f"{len(self.elements)}")
            self.elements.extend([None] * (index + 1 - len(self.elements)))
        known = self.known_shape()
        if self.identical_shapes and not _fits(value.shape, known):
            raise self.error(f"Could not write to TensorArray index {index} because the value shape is "
                             f"{_shape_text(value.shape)} which is incompatible with the TensorArray's inferred "
                             f"element shape: {_shape_text(known)} (consider setting infer_shape=False).")
        old = self.elements[index]
        if old is not None:
            if not self.aggregate:
                raise self.error(f"Could not write to TensorArray index {index} because it has already been "
                                 "written to.")
            if old.shape != value.shape:
                raise self.error(f"Could not aggregate to TensorArray index {index} because the existing shape is "
                                 f"{_shape_text(old.shape)} but the new input shape is {_shape_text(value.shape)}.")
            value = old + value
        elif index in self.cleared:
            raise self.error(f"Could not write to TensorArray index {index} because it has already been read.")
        self.elements[index] = value
        if self.identical_shapes:
            self.element_shape = value.shape

    def known_shape(self):
        """The elements' shape as far as known: the written elements', else the declared one."""
        return self.element_shape

    def zeros(self, message):
        shape = self.known_shape()
        if shape is None or any(d is None for d in shape):
            raise self.error(message)
        return np.zeros(shape, self.dtype)

    def stacked(self, indices):
        self.check_open()
        if not len(indices):
            shape = self.known_shape()
            if shape is None or any(d is None for d in shape):
                raise NotImplementedError(f"TensorArray has size zero, but element shape {_shape_text(shape)} is not "
                                          "fully defined. Currently only static shapes are supported when packing "
                                          "zero-size TensorArrays.")
            return np.zeros((0, *shape), self.dtype)
        values = [self.read(int(i)) for i in indices]
        first = values[0].shape
        for i, v in zip(indices, values):
            if v.shape != first:
                raise ValueError(f"TensorArray has inconsistent shapes.  Index {int(indices[0])} has shape: "
                                 f"{_shape_text(first)} but index {int(i)} has shape: {_shape_text(v.shape)}")
        return np.stack(values).astype(self.dtype, copy=False)


def _fits(shape, known):
    if known is None:
        return True
    return len(shape) == len(known) and all(k is None or a == k for a, k in zip(shape, known))


def _shape_text(shape):
    if shape is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _index(value):
    if np.ndim(value) != 0:
        raise ValueError(f"index must be a scalar, got shape {list(np.shape(value))}")
    return int(value)


def kernel(op_type):
    return register(op_type, REFERENCE)


@kernel("TensorArrayV3")
def create(ctx, size):
    attrs = ctx.attrs
    array = TensorArray(attrs["tensor_array_name"] or ctx.op_name, attrs["dtype"], _index(size),
                        attrs["dynamic_size"], attrs["clear_after_read"], attrs["identical_element_shapes"],
                        attrs["element_shape_dims"])
    return array, _FLOW


@kernel("TensorArrayGradV3")
def grad(ctx, array, flow):
    """The gradient array of ``array`` for this source, made on first use with its size and element shape."""
    source = ctx.attrs["source"]
    g = array.grads.get(source)
    if g is None:
        g = array.grads[source] = TensorArray(f"{array.name}@{source}", array.dtype, len(array.elements), False,
                                              False, array.identical_shapes, array.known_shape(), aggregate=True)
    return g, _FLOW


@kernel("TensorArrayReadV3")
def read(ctx, array, index, flow):
    return array.read(_index(index))


@kernel("TensorArrayWriteV3")
def write(ctx, array, index, value, flow):
    array.write(_index(index), value)
    return _FLOW


@kernel("TensorArrayGatherV3")
def gather(ctx, array, indices, flow):
    return array.stacked(np.asarray(indices).reshape(-1))


@kernel("TensorArrayScatterV3")
def scatter(ctx, array, indices, value, flow):
    indices = np.asarray(indices).reshape(-1)
    value = np.asarray(value)
    if value.ndim == 0 or len(indices) != value.shape[0]:
        raise ValueError(f"Expected len(indices) == values.shape[0], but saw: {len(indices)} vs. "
                         f"{value.shape[0] if value.ndim else 0}")
    for i, row in zip(indices, value):
        array.write(int(i), row)
    return _FLOW


@kernel("TensorArrayConcatV3")
def concat(ctx, array, flow):
    array.check_open()
    values = [array.read(i) for i in range(len(array.elements))]
    lengths = np.array([v.shape[0] for v in values], np.int64)
    if not values:
        rest = ctx.attrs["element_shape_except0"]
        if rest is None or any(d is None for d in rest):
            raise NotImplementedError("TensorArray has size zero, but element_shape_except0 is not fully defined. "
                                      "Currently only static shapes are supported when concatenating zero-size "
                                      "TensorArrays.")
        return np.zeros((0, *rest), array.dtype), lengths
    return np.concatenate(values).astype(array.dtype, copy=False), lengths


@kernel("TensorArraySplitV3")
def split(ctx, array, value, lengths, flow):
    value = np.asarray(value)
    lengths = np.asarray(lengths).reshape(-1)
    if value.ndim == 0 or lengths.sum() != value.shape[0]:
        raise ValueError(f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths is "
                         f"{int(lengths.sum())} and value's shape is: {_shape_text(value.shape)}")
    start = 0
    for i, n in enumerate(lengths):
        array.write(i, value[start:start + int(n)])
        start += int(n)
    return _FLOW


@kernel("TensorArraySizeV3")
def size(ctx, array, flow):
    return np.int32(len(array.elements))


@kernel("TensorArrayCloseV3")
def close(ctx, array):
    array.closed = True
    return ()
