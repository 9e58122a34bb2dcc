"""Array ops over sequences and grids: ``linspace``, ``sequence_mask``, ``meshgrid``, ``boolean_mask``,
``reverse`` (op ``ReverseV2``), ``reverse_sequence`` (op ``ReverseSequence``) and ``size`` (op ``Size``).

``linspace``, ``sequence_mask``, ``meshgrid`` and ``boolean_mask`` are built from other ops as
TensorFlow builds them, so their values (``linspace``'s ``start + i * delta`` rounded in the output
dtype) and gradients are TensorFlow's.
"""

import numbers

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import broadcast_pair, gradient, not_differentiable
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, merge_dims, static_value
from numflow_kernels.reference_arrays import check_reverse_axes


# -- size ---------------------------------------------------------------------------------------------------
@declare("Size")
def _size_infer(op):
    return [(op._attrs["out_type"], TensorShape([]))]


def size(input, name=None, out_type=dtypes.int32):  # noqa: A002 - TensorFlow's argument name
    """The number of elements of ``input``: a constant when its shape is known, else a ``Size`` op."""
    with get_default_graph().name_scope(name or "Size") as scope:
        x = convert_to_tensor(input, name="input")
        n = x.shape.num_elements()
        if n is not None:
            return constant(n, dtype=out_type, name=scope)
        return _out("Size", [x], {"out_type": dtypes.as_dtype(out_type)}, name=scope)[0]


not_differentiable("Size")


# -- reverse --------------------------------------------------------------------------------------------------
@declare("ReverseV2")
def _reverse_infer(op):
    x, axis = op.inputs
    check_dtype(axis, INDEX_TYPES, "axis")
    check_rank(axis.shape, 1)
    axes, rank = static_value(axis), x.shape.ndims
    if axes is not None and rank is not None:
        check_reverse_axes(axes.tolist(), rank)
    return [(x.dtype, x.shape)]


def reverse(tensor, axis, name=None):
    """``tensor`` with the order of its elements reversed along each dimension in ``axis`` (op ``ReverseV2``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.reverse([[1, 2], [3, 4]], [1])).tolist()
    [[2, 1], [4, 3]]
    """
    with get_default_graph().name_scope(name or "ReverseV2") as scope:
        tensor = convert_to_tensor(tensor, name="tensor")
        axis = convert_to_tensor(axis, name="axis", preferred_dtype=dtypes.int32)
        return _out("ReverseV2", [tensor, axis], name=scope)[0]


reverse_v2 = reverse


@gradient("ReverseV2")
def _reverse_grad(op, grad):
    return [reverse(grad, op.inputs[1]), None]


@declare("ReverseSequence")
def _reverse_sequence_infer(op):
    x, lengths = op.inputs
    check_dtype(lengths, INDEX_TYPES, "seq_lengths")
    check_rank(lengths.shape, 1)
    seq_dim, batch_dim = op._attrs["seq_dim"], op._attrs["batch_dim"]
    rank = x.shape.ndims
    if rank is None:
        return [(x.dtype, x.shape)]
    if seq_dim >= rank:
        raise ValueError(f"seq_dim must be < input rank: {seq_dim} vs. {rank}")
    if batch_dim >= rank:
        raise ValueError(f"batch_dim must be < input rank: {batch_dim} vs. {rank}")
    dims = x.shape.dim_values
    if lengths.shape.ndims == 1:
        a, b = dims[batch_dim], lengths.shape.dim_values[0]
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        dims[batch_dim] = merge_dims(a, b, 0, dims, lengths.shape.dim_values)
    return [(x.dtype, TensorShape(dims))]


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None,  # noqa: A002
                     batch_dim=None):
    """Each slice ``i`` along ``batch_axis`` of ``input`` with its first ``seq_lengths[i]`` elements along
    ``seq_axis`` reversed and the rest unchanged (op ``ReverseSequence``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3], seq_axis=1, batch_axis=0)).tolist()
    [[2, 1, 3], [6, 5, 4]]
    """
    seq_axis = _one_of("seq_axis", seq_axis, "seq_dim", seq_dim)
    batch_axis = _one_of("batch_axis", batch_axis, "batch_dim", batch_dim)
    if seq_axis is None:
        raise TypeError("Expected int for argument 'seq_dim' not None.")
    with get_default_graph().name_scope(name or "ReverseSequence") as scope:
        x = convert_to_tensor(input, name="input")
        lengths = convert_to_tensor(seq_lengths, name="seq_lengths", preferred_dtype=dtypes.int64)
        attrs = {"seq_dim": int(seq_axis), "batch_dim": 0 if batch_axis is None else int(batch_axis)}
        return _out("ReverseSequence", [x, lengths], attrs, name=scope)[0]


def _one_of(name, value, old_name, old_value):
    if value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both '{name}' and '{old_name}'.")
    return value if value is not None else old_value


@gradient("ReverseSequence")
def _reverse_sequence_grad(op, grad):
    return [reverse_sequence(grad, op.inputs[1], seq_axis=op._attrs["seq_dim"], batch_axis=op._attrs["batch_dim"]),
            None]


# -- linspace, sequence_mask, meshgrid, boolean_mask (composites) -----------------------------------------
def linspace(start, stop, num, name=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive, along a new ``axis`` when
    ``start`` and ``stop`` are tensors (broadcast against each other).

    Integer ``start`` and ``stop`` give float64 values. A negative ``num`` fails at run time.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.linspace(0.0, 1.0, 5)).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    with get_default_graph().name_scope(name or "linspace"):
        start = convert_to_tensor(start, name="start")
        stop = convert_to_tensor(stop, name="stop", dtype=start.dtype.base_dtype)
        num_int = convert_to_tensor(num, name="num", preferred_dtype=dtypes.int32)
        check_dtype(num_int, INDEX_TYPES, "num")
        start, stop = broadcast_pair(start, stop)
        rank = start.shape.ndims
        if rank is not None:
            if not -(rank + 1) <= axis <= rank:
                raise ValueError(f"axis {axis} is out of range for start and stop of rank {rank}")
            axis %= rank + 1
        first, last = array_ops.expand_dims(start, axis), array_ops.expand_dims(stop, axis)
        known = static_value(num_int)
        if known is not None:
            count = int(known)
            fill, steps = max(count - 2, 0), max(count - 1, 1)
            range_end = steps if count >= 0 else -1
        else:
            count = num_int
            fill = math_ops.maximum(num_int - 2, 0)
            steps = math_ops.maximum(num_int - 1, 1)
            range_end = array_ops.where_v2(math_ops.greater_equal(num_int, 0), steps, -1)
        delta = math_ops.truediv(math_ops.subtract(last, first), math_ops.cast(steps, last.dtype.base_dtype))
        first, last = math_ops.cast(first, delta.dtype.base_dtype), math_ops.cast(last, delta.dtype.base_dtype)
        steps_between = math_ops.cast(math_ops.range(1, range_end, dtype=dtypes.int64), delta.dtype.base_dtype)
        between_shape, size_ = _linspace_shapes(first, axis, fill, count)
        res = math_ops.add(first, math_ops.multiply(delta, array_ops.reshape(steps_between, between_shape)))
        joined = array_ops.concat([first, res, last], axis=axis)
        return array_ops.slice(joined, array_ops.zeros_like(size_) if not isinstance(size_, list) else
                               [0] * len(size_), size_)


def _linspace_shapes(first, axis, fill, count):
    """The shape of the in-between steps (``fill`` along ``axis``, 1 elsewhere) and of the result (``count``
    along ``axis``): lists when ``first``'s rank is known, else int tensors built as TensorFlow builds them."""
    rank = first.shape.ndims
    if rank is not None:
        dims = first.shape.as_list() if first.shape.is_fully_defined() else array_ops.shape(first)
        return ([1] * axis + [fill] + [1] * (rank - axis - 1),
                [count if i == axis else dims[i] for i in range(rank)])
    shape = array_ops.shape(first)
    ndims = array_ops.shape(shape)[0]
    on_axis = math_ops.equal(axis if axis >= 0 else ndims + axis, math_ops.range(ndims))
    return array_ops.where_v2(on_axis, fill, 1), array_ops.where_v2(on_axis, count, shape)


lin_space = linspace


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """``mask[..., j] = j < lengths[...]`` for ``j`` in ``[0, maxlen)`` (``maxlen``: the largest length).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.sequence_mask([1, 3], 4)).astype(int).tolist()
    [[1, 0, 0, 0], [1, 1, 1, 0]]
    """
    with get_default_graph().name_scope(name or "SequenceMask"):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = math_ops.reduce_max(lengths, axis=None)
            maxlen = math_ops.maximum(constant(0, maxlen.dtype.base_dtype), maxlen)
        else:
            maxlen = convert_to_tensor(maxlen)
        if maxlen.shape.ndims is not None and maxlen.shape.ndims != 0:
            raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen} with "
                             f"shape '{maxlen.shape}' instead")
        index_type = maxlen.dtype.base_dtype
        row = math_ops.range(constant(0, index_type), maxlen, constant(1, index_type))
        # Always a Cast op, as TensorFlow's raw cast builds one even to the same dtype.
        expanded = array_ops.expand_dims(lengths, -1)
        matrix = get_default_graph().create_op("Cast", [expanded], {"DstT": index_type,
                                                                    "SrcT": expanded.dtype.base_dtype},
                                               name="Cast").outputs[0]
        result = math_ops.less(row, matrix)
        if dtype is None or dtypes.as_dtype(dtype) == dtypes.bool:
            return result
        return math_ops.cast(result, dtype)


def meshgrid(*args, **kwargs):
    """Coordinate grids of the 1-D ``args``: ``indexing="xy"`` (default, Cartesian) or ``"ij"`` (matrix).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     [g.tolist() for g in sess.run(tf.meshgrid([1, 2, 3], [4, 5]))]
    [[[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]]]
    """
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    with get_default_graph().name_scope(name or "meshgrid"):
        ndim = len(args)
        if not ndim:
            return []
        ones_shape = (1,) * ndim
        output = [array_ops.reshape(array_ops.stack(x), ones_shape[:i] + (-1,) + ones_shape[i + 1:])
                  for i, x in enumerate(args)]
        shapes = [size(x) for x in args]
        output_dtype = convert_to_tensor(args[0]).dtype.base_dtype
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        factor = array_ops.ones(shapes, output_dtype)
        return [x * factor for x in output]


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """The elements (or slices, for a mask of lower rank) of ``tensor`` where ``mask`` is True.

    ``mask``'s shape must match ``tensor``'s dimensions from ``axis`` (default 0) on; those dimensions
    become one of the number of True elements.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True])).tolist()
    [[1, 2], [5, 6]]
    """
    with get_default_graph().name_scope(name or "boolean_mask"):
        tensor = convert_to_tensor(tensor, name="tensor")
        mask = convert_to_tensor(mask, name="mask")
        ndims_mask = mask.shape.ndims
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if ndims_mask is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  E.g. "
                             "shape=[None] is ok, but shape=None is not.")
        axis = 0 if axis is None else axis
        axis_value = static_value(convert_to_tensor(axis)) if not isinstance(axis, numbers.Integral) else axis
        static = tensor.shape
        if axis_value is not None and static.ndims is not None:
            axis = int(axis_value)
            part = TensorShape(static.dim_values[axis:axis + ndims_mask])
            if not part.is_compatible_with(mask.shape):
                raise ValueError(f"Shapes {_tuple_text(part)} and {_tuple_text(mask.shape)} are incompatible")
        shape = array_ops.shape(tensor)
        leading = math_ops.reduce_prod(shape[axis:axis + ndims_mask], [0])
        tensor = array_ops.reshape(tensor, array_ops.concat([shape[:axis], [leading], shape[axis + ndims_mask:]], 0))
        if axis_value is not None and static.ndims is not None:
            first = TensorShape(static.dim_values[axis:axis + ndims_mask]).num_elements()
            tensor.set_shape(TensorShape(static.dim_values[:axis] + [first] + static.dim_values[axis + ndims_mask:]))
        mask = array_ops.reshape(mask, [-1])
        indices = array_ops.squeeze(array_ops.where(mask), axis=[1])
        return array_ops.gather(tensor, indices, axis=axis)


def _tuple_text(shape):
    """A shape as TensorFlow's ``TensorShape.__str__`` prints it: ``(2,)``, ``(None, 3)``."""
    dims = shape.dim_values
    if dims is None:
        return "<unknown>"
    inner = ", ".join("None" if d is None else str(d) for d in dims)
    return f"({inner},)" if len(dims) == 1 else f"({inner})"
