"""Kernels of TensorFlow 2's variant values: TensorLists and optionals (``list_kernels.h``,
``optional_ops.cc``; the messages are theirs).

A TensorList value is immutable to its users: each op that changes a list returns a new value. A
push onto a list that no other value has grown shares the Python list under it (each value sees
only its first ``length`` items), so a while loop accumulating a tensor per iteration costs one
append per iteration, not a copy of the list.
"""

import threading

import numpy as np

from numflow_kernels.registry import REFERENCE, register

_GROW = threading.Lock()  # a push checks and extends a shared list at once


class TensorList:
    """The items of one list value (None: an item reserved, never set), its element shape (a tuple
    with None for unknown sizes, or None for an unknown rank) and its maximum length (-1: none)."""

    __slots__ = ("_items", "length", "element_shape", "max_length")

    def __init__(self, items, length, element_shape, max_length=-1):
        self._items = items
        self.length = length
        self.element_shape = element_shape
        self.max_length = max_length

    def _with(self, items, length=None):
        return TensorList(items, len(items) if length is None else length, self.element_shape, self.max_length)

    def items(self):
        return self._items[:self.length]

    def pushed(self, item):
        with _GROW:
            items = self._items if len(self._items) == self.length else self._items[:self.length]
            items.append(item)
        return self._with(items, self.length + 1)

    def popped(self):
        return self._with(self._items, self.length - 1), self._items[self.length - 1]

    def get(self, index):
        return self._items[index]

    def set(self, index, item):
        items = self.items()
        items[index] = item
        return self._with(items)


def _shape_of(value):
    """An ``element_shape`` input as a shape: a tuple with None for unknown sizes, None for unknown rank."""
    value = np.asarray(value)
    if value.ndim == 0:
        return None if int(value) == -1 else (int(value),)
    return tuple(None if int(d) < 0 else int(d) for d in value)


def _merged(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ValueError(f"Incompatible ranks during merge: {len(a)} vs. {len(b)}")
    return tuple(x if y is None else y for x, y in zip(a, b))


def _fits(shape, element_shape):
    return element_shape is None or len(shape) == len(element_shape) and all(
        e is None or e == s for s, e in zip(shape, element_shape))


def _text(shape):
    return "<unknown>" if shape is None else "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _zeros(ctx, shape, what):
    """An unset item: zeros of its shape when that is fully known, as TensorFlow gives it."""
    if shape is None or None in shape:
        raise ValueError(f"Trying to read an uninitialized tensor but element_shape is not fully defined: "
                         f"{_text(shape)} and no writes in the list ({what}).")
    return np.zeros(shape, dtype=ctx.attrs["element_dtype"])


def _check_item(ctx, tensor_list, item):
    if not isinstance(item, np.ndarray | np.generic):  # a variant item (an optional): no shape to check
        return item
    expected = ctx.attrs["element_dtype"]
    if item.dtype != expected:
        raise ValueError(f"Invalid data types; list elements {np.dtype(expected).name} but tried to append "
                         f"{item.dtype.name}")
    if not _fits(np.shape(item), tensor_list.element_shape):
        raise ValueError(f"Tried to append a tensor with incompatible shape to a list. Op element shape: "
                         f"{_text(np.shape(item))} list shape: {_text(tensor_list.element_shape)}")
    return item


def add_lists(lists):
    """The sum of TensorLists item by item (an item unset in one list is the other's), as ``AddN`` adds
    the gradients of one list."""
    first = lists[0]
    items = first.items()
    for other in lists[1:]:
        if other.length != first.length:
            raise ValueError(f"Trying to add two lists of tensors with different lengths. One is {first.length} "
                             f"and the other is {other.length}")
        for i, item in enumerate(other.items()):
            if items[i] is None:
                items[i] = item
            elif item is not None:
                if np.shape(items[i]) != np.shape(item):
                    raise ValueError(f"Trying to add two tensors with incompatible element shapes. One is "
                                     f"{_text(np.shape(items[i]))} and the other is {_text(np.shape(item))}")
                items[i] = items[i] + item
    return first._with(items)


def kernel(op_type):
    return register(op_type, REFERENCE)


@kernel("EmptyTensorList")
def empty_tensor_list(ctx, element_shape, max_num_elements):
    return TensorList([], 0, _shape_of(element_shape), int(max_num_elements))


@kernel("TensorListReserve")
def tensor_list_reserve(ctx, element_shape, num_elements):
    count = int(num_elements)
    if count < 0:
        raise ValueError(f"The num_elements to reserve must be a non negative number, but got {count}")
    return TensorList([None] * count, count, _shape_of(element_shape))


@kernel("TensorListFromTensor")
def tensor_list_from_tensor(ctx, tensor, element_shape):
    tensor = np.asarray(tensor)
    if tensor.ndim < 1:
        raise ValueError(f"Tensor must be at least a vector, but saw shape: {_text(tensor.shape)}")
    shape = _shape_of(element_shape)
    if not _fits(tensor.shape[1:], shape):
        raise ValueError(f"Specified a list with shape {_text(shape)} from a tensor with shape {_text(tensor.shape)}")
    return TensorList([tensor[i] for i in range(tensor.shape[0])], tensor.shape[0], _merged(shape, tensor.shape[1:]))


@kernel("TensorListPushBack")
def tensor_list_push_back(ctx, input_handle, tensor):
    if input_handle.max_length != -1 and input_handle.length >= input_handle.max_length:
        raise ValueError(f"Tried to push item into a full list list size: {input_handle.length} max_num_elements: "
                         f"{input_handle.max_length}")
    return input_handle.pushed(_check_item(ctx, input_handle, tensor))


@kernel("TensorListPopBack")
def tensor_list_pop_back(ctx, input_handle, element_shape):
    if input_handle.length == 0:
        raise ValueError("Trying to pop from an empty list.")
    rest, item = input_handle.popped()
    if item is None:
        item = _zeros(ctx, _merged(input_handle.element_shape, _shape_of(element_shape)), "TensorListPopBack")
    return rest, item


@kernel("TensorListGetItem")
def tensor_list_get_item(ctx, input_handle, index, element_shape):
    index = int(index)
    if not 0 <= index < input_handle.length:
        raise ValueError(f"Trying to access element {index} in a list with {input_handle.length} elements.")
    item = input_handle.get(index)
    if item is None:
        item = _zeros(ctx, _merged(input_handle.element_shape, _shape_of(element_shape)), "TensorListGetItem")
    return item


@kernel("TensorListSetItem")
def tensor_list_set_item(ctx, input_handle, index, item):
    index = int(index)
    if not 0 <= index < input_handle.length:
        if not ctx.attrs.get("resize_if_index_out_of_bounds", False) or index < 0:
            raise ValueError(f"Trying to modify element {index} in a list with {input_handle.length} elements.")
        grown = input_handle.items() + [None] * (index + 1 - input_handle.length)
        input_handle = input_handle._with(grown)
    return input_handle.set(index, _check_item(ctx, input_handle, item))


@kernel("TensorListStack")
def tensor_list_stack(ctx, input_handle, element_shape):
    count = ctx.attrs.get("num_elements", -1)
    if count not in (-1, None) and count != input_handle.length:
        raise ValueError(f"Operation expected a list with {count} elements but got a list with "
                         f"{input_handle.length} elements.")
    shape = _merged(input_handle.element_shape, _shape_of(element_shape))
    items = input_handle.items()
    known = next((item for item in items if item is not None), None)
    if known is not None:
        shape = _merged(shape, known.shape)
    if not items:
        if shape is None or None in shape:
            raise ValueError(f"Tried to stack elements of an empty list with non-fully-defined element_shape: "
                             f"{_text(shape)}")
        return np.zeros((0, *shape), dtype=ctx.attrs["element_dtype"])
    return np.stack([item if item is not None else _zeros(ctx, shape, "TensorListStack") for item in items])


@kernel("TensorListConcatV2")
def tensor_list_concat(ctx, input_handle, element_shape, leading_dims):
    """The items one after another along their first axis, and each item's length along it."""
    shape = _merged(input_handle.element_shape, _shape_of(element_shape))
    if shape is not None and len(shape) == 0:
        raise ValueError("Concat requires elements to be at least vectors.")
    items = input_handle.items()
    if None in (item.shape[0] if item is not None else None for item in items) or not items:
        rest = None if shape is None else shape[1:]
        if rest is None or None in rest:
            raise ValueError("All except the first dimension must be fully defined when concating an empty tensor "
                             f"list. element_shape: {_text(shape)}")
        leading = np.asarray(leading_dims).ravel()
        items = [item if item is not None else np.zeros((int(leading[i]), *rest), ctx.attrs["element_dtype"])
                 for i, item in enumerate(items)] if len(leading) >= len(items) else items
        if not items:
            return np.zeros((0, *rest), ctx.attrs["element_dtype"]), np.zeros(0, np.int64)
    if any(item is None for item in items):
        raise ValueError("Trying to concat list with uninitialized tensors but leading_dims has fewer elements "
                         "than the list.")
    return np.concatenate(items), np.array([item.shape[0] for item in items], np.int64)


@kernel("TensorListLength")
def tensor_list_length(ctx, input_handle):
    return np.int32(input_handle.length)


@kernel("TensorListElementShape")
def tensor_list_element_shape(ctx, input_handle):
    dtype = ctx.attrs["shape_type"]
    shape = input_handle.element_shape
    if shape is None:
        return np.array(-1, dtype=dtype)
    return np.array([-1 if d is None else d for d in shape], dtype=dtype)


class Optional:
    """An optional value: a tuple of arrays, or none (``values`` None)."""

    __slots__ = ("values",)

    def __init__(self, values):
        self.values = values


_NONE = Optional(None)
VARIANTS = (TensorList, Optional)


def zeros_like(value):
    """Zeros shaped as variant ``value`` (``ZerosLike``): an optional of its values' zeros, or a list of
    its items' zeros (unset items stay unset)."""
    if isinstance(value, Optional):
        return value if value.values is None else Optional(tuple(zeros_like(v) for v in value.values))
    if isinstance(value, TensorList):
        return value._with([None if item is None else zeros_like(item) for item in value.items()])
    return np.zeros_like(value)


@kernel("OptionalFromValue")
def optional_from_value(ctx, *components):
    return Optional(components)


@kernel("OptionalNone")
def optional_none(ctx):
    return _NONE


@kernel("OptionalHasValue")
def optional_has_value(ctx, optional):
    return np.bool_(optional.values is not None)


@kernel("OptionalGetValue")
def optional_get_value(ctx, optional):
    if optional.values is None:
        raise ValueError("The optional does not have a value.")
    values = optional.values
    return values if len(values) != 1 else values[0]
