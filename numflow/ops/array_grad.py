"""Gradients of the array ops (reshape, transpose, concat, split, stack, slices, pads, gathers, selects,
casts...) and the broadcasting helpers every gradient uses.

Also declares the ops that only gradients build, with TensorFlow's names and inputs where
TensorFlow has one: ``BroadcastTo(input, shape)``, ``StridedSliceGrad(shape, begin, end, strides,
dy)`` and ``MirrorPadGrad(input, paddings)``, and ``NfSumToShape(grad, shape)``: ``grad`` summed down
to ``shape`` (what TensorFlow builds from ``BroadcastGradientArgs``, ``Sum`` and ``Reshape`` when the
shapes are only known at run time; numflow's ``Sum`` takes its axes as an attribute). They are
declared here only when the array ops do not declare them already. Kernels:
``numflow_kernels/grad.py``, and ``reference.py`` for ``MirrorPadGrad``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework import registry as _registry
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import declare
from numflow.framework.shapes import dimension_value
from numflow.ops import array_ops, math_ops, selection_ops
from numflow.ops.constant_op import constant
from numflow.ops.op_util import shape_from_tensor, static_value


# -- registration helpers ------------------------------------------------------------------------
def _declared(op_type):
    try:
        _registry.get(op_type)
    except KeyError:
        return False
    return True


def declare_once(op_type, **kwargs):
    """``registry.declare`` unless ``op_type`` is already declared (then the existing one is kept)."""

    def wrap(infer):
        if not _declared(op_type):
            declare(op_type, **kwargs)(infer)
        return infer

    return wrap


def gradient(*op_types):
    """Register the decorated gradient function for each of ``op_types`` that is declared."""

    def wrap(fn):
        for op_type in op_types:
            if _declared(op_type):
                _registry.register_gradient(op_type)(fn)
        return fn

    return wrap


def _no_gradient(op, *grads):
    return [None] * len(op.inputs)


_no_gradient.not_differentiable = True


def not_differentiable(*op_types):
    """Mark ``op_types`` as having no gradient: their inputs get None (TensorFlow's ``NotDifferentiable``)."""
    for op_type in op_types:
        if _declared(op_type):
            _registry.register_gradient(op_type)(_no_gradient)


# -- ops only gradients build --------------------------------------------------------------------
@declare_once("BroadcastTo")
def _broadcast_to_infer(op):
    x, shape = op.inputs
    return [(x.dtype, shape_from_tensor(shape))]


@declare_once("NfSumToShape")
def _sum_to_shape_infer(op):
    grad, shape = op.inputs
    return [(grad.dtype, shape_from_tensor(shape))]


@declare_once("BroadcastGradientArgs")
def _broadcast_gradient_args_infer(op):
    s0, s1 = op.inputs
    return [(s0.dtype, [None]), (s1.dtype, [None])]


@declare_once("ConcatOffset")  # TensorFlow's gradient of a concat writes it (graph files hold it)
def _concat_offset_infer(op):
    return [(t.dtype, t.shape) for t in op.inputs[1:]]


@declare_once("StridedSliceGrad")
def _strided_slice_grad_infer(op):
    shape, _, _, _, dy = op.inputs
    return [(dy.dtype, shape_from_tensor(shape))]


@declare_once("MirrorPadGrad")
def _mirror_pad_grad_infer(op):
    grad, paddings = op.inputs
    if grad.shape.ndims is None:
        return [(grad.dtype, grad.shape)]
    amounts = static_value(paddings)
    if amounts is None:
        return [(grad.dtype, [None] * grad.shape.ndims)]
    return [(grad.dtype, [None if d is None else d - int(before) - int(after)
                          for d, (before, after) in zip(grad.shape.dim_values, amounts)])]


def _graph():
    from numflow.framework.graph import get_default_graph

    return get_default_graph()


def shape_of(x):
    """``x``'s shape as a list when fully known, else the tensor ``tf.shape(x)``."""
    if x.shape.is_fully_defined():
        return x.shape.as_list()
    return array_ops.shape(x)


def broadcast_to(x, like):
    """``x`` broadcast to ``like``'s shape (op ``BroadcastTo``); ``x`` itself when already that shape."""
    if x.shape.is_fully_defined() and x.shape == like.shape:
        return x
    target = array_ops.shape_tensor(shape_of(like))
    return _graph().create_op("BroadcastTo", [x, target], name="BroadcastTo").outputs[0]


def broadcast_pair(a, b):
    """``a`` and ``b`` broadcast to one shape (ops ``BroadcastTo``; both as they are when already alike)."""
    if a.shape.is_fully_defined() and b.shape.is_fully_defined():
        if a.shape == b.shape:
            return a, b
        target = list(np.broadcast_shapes(tuple(a.shape.as_list()), tuple(b.shape.as_list())))
    else:
        target = array_ops.shape(math_ops.add(a, b))
    target = array_ops.shape_tensor(target)
    return tuple(_graph().create_op("BroadcastTo", [t, target], name="BroadcastTo").outputs[0] for t in (a, b))


def _reduction_plan(x_shape, out_shape, other_shape):
    """The axes of ``out_shape`` to sum so a gradient of it fits ``x_shape`` (``x`` broadcast against
    ``other``): ``(axes, reshape)``, or None when only the run-time shapes can tell."""
    if x_shape.ndims is None or out_shape.ndims is None:
        return None
    lead = out_shape.ndims - x_shape.ndims
    if lead < 0:
        return None
    other = other_shape.dim_values if other_shape is not None and other_shape.ndims is not None else None
    axes = list(range(lead))
    for j, xd in enumerate(x_shape.dim_values):
        od = out_shape.dim_values[lead + j]
        if xd == 1:
            if od != 1:
                axes.append(lead + j)
        elif xd is None and od != 1:
            if other is None:
                return None
            k = len(other) - x_shape.ndims + j
            partner = other[k] if k >= 0 else 1
            if partner != 1:
                return None
    return axes, lead > 0


def sum_to(grad, x, other=None):
    """``grad`` (of a broadcast result) summed back to ``x``'s shape: ``Sum`` + ``Reshape`` where the
    axes are known when the graph is built, else one ``NfSumToShape`` with ``tf.shape(x)``."""
    if grad is None:
        return None
    if grad.shape.is_fully_defined() and grad.shape == x.shape:
        return grad
    plan = _reduction_plan(x.shape, grad.shape, other.shape if other is not None else None)
    if plan is None:
        target = array_ops.shape(x)
        return _graph().create_op("NfSumToShape", [grad, target], name="SumToShape").outputs[0]
    axes, reshape = plan
    if not axes:
        return grad
    summed = math_ops.reduce_sum(grad, axes, keepdims=True, name="Sum")
    if reshape:
        summed = array_ops.reshape(summed, shape_of(x))
    return summed


def kept_dims_shape(x, axes):
    """The shape of a reduction of ``x`` over ``axes`` with ``keepdims=True``: a list or an int tensor."""
    rank = x.shape.ndims
    if rank is None:
        return _dynamic_kept_dims_shape(x, axes)
    if axes is None:
        axes = range(rank)
    reduced = {a % rank for a in axes} if rank else set()
    dims = [1 if i in reduced else d for i, d in enumerate(x.shape.dim_values)]
    if all(d is not None for d in dims):
        return dims
    keep = np.array([0 if i in reduced else 1 for i in range(rank)], dtype=np.int32)
    return math_ops.add(math_ops.multiply(array_ops.shape(x), keep), 1 - keep)


def _dynamic_kept_dims_shape(x, axes):
    """``kept_dims_shape`` of an ``x`` of unknown rank, computed when the graph runs (TensorFlow's
    ``reduced_shape``): ``x``'s shape with a 1 stitched in at each of ``axes``, negative ones counted from the end."""
    from numflow.ops.data_flow_ops import dynamic_stitch

    input_shape = array_ops.shape(x)
    rank = array_ops.rank(x)
    dims = math_ops.range(rank)
    if axes is None:
        return array_ops.ones_like(input_shape)
    axes = math_ops.floormod(math_ops.add(constant(np.asarray(axes, np.int32).reshape(-1)), rank), rank)
    return dynamic_stitch([dims, axes], [input_shape, array_ops.ones_like(axes)])


def reduced_grad(grad, op):
    """The gradient of a reduction op (Sum, Mean, Max, Min) reshaped to its kept-dims shape."""
    x = op.inputs[0]
    if len(op.inputs) > 1 and op._attrs["axis"] is None:
        raise ValueError(f"The gradient of {op.name} ({op.type}) needs its reduction axes when the graph is "
                         "built; they are computed at run time (a graph read from a GraphDef).")
    if op._attrs["keep_dims"] or op._attrs["axis"] is None:  # already broadcastable over x
        return grad
    return array_ops.reshape(grad, kept_dims_shape(x, op._attrs["axis"]))


# -- gradients -------------------------------------------------------------------------------------
not_differentiable("Const", "Shape", "Rank", "ZerosLike", "OnesLike", "StopGradient", "Placeholder",
                   "InvertPermutation", "Assign", "AssignAdd", "AssignSub", "ScatterUpdate", "ScatterAdd", "ScatterSub",
                   "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin",
                   "IsVariableInitialized", "NfSumToShape", "StridedSliceGrad", "Where", "OneHot")


@gradient("Identity", "PlaceholderWithDefault")
def _identity_grad(op, grad):
    """``grad`` itself, an IndexedSlices included (a variable's read passes its gather's sparse gradient on)."""
    return [grad]


_identity_grad.takes_indexed_slices = True


@gradient("Fill")
def _fill_grad(op, grad):
    return [None, math_ops.reduce_sum(grad)]


@gradient("Reshape", "ExpandDims")
def _reshape_grad(op, grad):
    return [array_ops.reshape(grad, shape_of(op.inputs[0])), None]


@gradient("Squeeze")
def _squeeze_grad(op, grad):
    return [array_ops.reshape(grad, shape_of(op.inputs[0]))]


@gradient("Transpose")
def _transpose_grad(op, grad):
    perm = static_value(op.inputs[1])
    if perm is None:
        raise ValueError(f"The gradient of {op.name} (Transpose) needs a permutation known when the graph is built.")
    return [array_ops.transpose(grad, np.argsort(perm).astype(np.int32)), None]


@gradient("Pack")
def _pack_grad(op, grad):
    return array_ops.unstack(grad, num=len(op.inputs), axis=op._attrs["axis"])


@gradient("Unpack")
def _unpack_grad(op, *grads):
    return [array_ops.stack(list(grads), axis=op._attrs["axis"])]


@gradient("ConcatV2")
def _concat_grad(op, grad):
    values, axis_t = op.inputs[:-1], op.inputs[-1]
    axis = static_value(axis_t)
    rank = next((v.shape.ndims for v in values if v.shape.ndims is not None), None)
    if axis is None or rank is None:
        raise ValueError(f"The gradient of {op.name} (ConcatV2) needs its axis and rank known when the graph is "
                         "built.")
    axis = int(axis) % rank
    sizes = [v.shape.dim_values[axis] if v.shape.ndims is not None else None for v in values]
    out = []
    offset = 0
    for v, size in zip(values, sizes):
        if size is None:
            size = array_ops.shape(v)[axis]
        end = offset + size if isinstance(offset, int) and isinstance(size, int) else math_ops.add(offset, size)
        key = (slice(None),) * axis + (slice(offset, end),)
        piece = grad[key]
        piece.set_shape(v.shape)
        out.append(piece)
        offset = end
    return out + [None]


@gradient("StridedSlice")
def _strided_slice_grad(op, grad):
    x, begin, end, strides = op.inputs
    target = array_ops.shape_tensor(shape_of(x))
    attrs = {k: op._attrs[k] for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                        "shrink_axis_mask")}
    dx = _graph().create_op("StridedSliceGrad", [target, begin, end, strides, grad], attrs,
                            name="StridedSliceGrad").outputs[0]
    return [dx, None, None, None]


@gradient("Cast")
def _cast_grad(op, grad):
    src, dst = op.inputs[0].dtype.base_dtype, op._attrs["DstT"]
    if (src.is_floating or src.is_complex) and (dst.is_floating or dst.is_complex):
        return [math_ops.cast(grad, src)]
    return [None]


@gradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return [sum_to(grad, op.inputs[0]), None]


@gradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)


def zeros_like_output(t):
    """Zeros shaped as ``t`` (the gradient of an output nothing depends on)."""
    return array_ops.zeros_like(t)



def _static_rank(op, x):
    if x.shape.ndims is None:
        raise ValueError(f"The gradient of {op.name} ({op.type}) needs its input's rank; it is unknown.")
    return x.shape.ndims


@gradient("Tile")
def _tile_grad(op, grad):
    """The sum over the tiles: ``grad`` reshaped to ``[m0, d0, m1, d1, ...]`` and summed over the ``m`` axes."""
    x, multiples = op.inputs
    rank = _static_rank(op, x)
    times = static_value(multiples)
    if times is not None and x.shape.is_fully_defined():
        split_shape = [d for pair in zip(times.tolist(), x.shape.as_list()) for d in pair]
    else:
        pairs = array_ops.stack([multiples, array_ops.shape(x, out_type=multiples.dtype)])
        split_shape = array_ops.reshape(array_ops.transpose(pairs), [-1])
    summed = math_ops.reduce_sum(array_ops.reshape(grad, split_shape), list(range(0, 2 * rank, 2)))
    return [summed, None]


@gradient("Slice")
def _slice_grad(op, grad):
    """``grad`` padded back to the input's shape with zeros (op ``Pad``)."""
    x, begin, _ = op.inputs
    out = op.outputs[0]
    starts = static_value(begin)
    if starts is not None and x.shape.is_fully_defined() and out.shape.is_fully_defined():
        ends = np.array(x.shape.as_list()) - starts - np.array(out.shape.as_list())
        paddings = np.stack([starts, ends], axis=1).astype(begin.dtype.as_numpy_dtype)
    else:
        index_type = begin.dtype.base_dtype
        ends = math_ops.subtract(math_ops.subtract(array_ops.shape(x, out_type=index_type), begin),
                                 array_ops.shape(out, out_type=index_type))
        paddings = array_ops.stack([begin, ends], axis=1)
    return [array_ops.pad(grad, paddings), None, None]


@gradient("Pad", "PadV2")
def _pad_grad(op, grad):
    """The slice of ``grad`` the input was padded into; the constant value gets no gradient, as in TensorFlow."""
    x, paddings = op.inputs[:2]
    amounts = static_value(paddings)
    if amounts is not None and x.shape.is_fully_defined():
        begin, size = amounts[:, 0], x.shape.as_list()
    else:
        begin, size = paddings[:, 0], array_ops.shape(x, out_type=paddings.dtype.base_dtype)
    return [array_ops.slice(grad, begin, size), None] + [None] * (len(op.inputs) - 2)


@gradient("MirrorPad")
def _mirror_pad_grad(op, grad):
    paddings = op.inputs[1]
    dx = _graph().create_op("MirrorPadGrad", [grad, paddings], {"mode": op._attrs["mode"]},
                            name="MirrorPadGrad").outputs[0]
    return [dx, None]


@gradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    return [array_ops.pad(grad, op.inputs[1], mode=op._attrs["mode"]), None]


@gradient("Split")
def _split_grad(op, *grads):
    return [None, array_ops.concat(list(grads), op.inputs[0])]


@gradient("SplitV")
def _split_v_grad(op, *grads):
    return [array_ops.concat(list(grads), op.inputs[2]), None, None]


@gradient("Select")
def _select_grad(op, grad):
    condition, x = op.inputs[:2]
    zeros = array_ops.zeros_like(x)
    return [None, array_ops.where(condition, grad, zeros), array_ops.where(condition, zeros, grad)]


@gradient("SelectV2")
def _select_v2_grad(op, grad):
    condition, x, y = op.inputs
    zero = array_ops.zeros([], dtype=grad.dtype.base_dtype)
    gx = array_ops.where_v2(condition, grad, zero)
    gy = array_ops.where_v2(condition, zero, grad)
    return [None, sum_to(gx, x), sum_to(gy, y)]


@gradient("GatherV2")
def _gather_grad(op, grad):
    """Along axis 0, an ``IndexedSlices``: the rows of ``grad`` at ``indices`` (flattened), over the
    shape of ``params``, as TensorFlow builds it. Along another axis, a dense gradient (``grad`` summed
    into the rows of ``params`` by ``UnsortedSegmentSum``)."""
    params, indices, axis_t = op.inputs
    rank = _static_rank(op, params)
    axis = static_value(axis_t)
    if axis is None:
        raise ValueError(f"The gradient of {op.name} (GatherV2) needs its axis known when the graph is built.")
    axis = int(axis) % rank
    if op._attrs.get("batch_dims", 0):
        return [_batch_gather_grad(op, grad, axis), None, None]
    if axis == 0:
        graph = op.graph
        with graph.colocate_with(params.op):
            params_shape = array_ops.shape(params)
        n = indices.shape.num_elements()
        size = constant(n, dtype=dtypes.int32, name="Size") if n is not None else \
            math_ops.reduce_prod(array_ops.shape(indices), name="Size")
        indices_size = array_ops.expand_dims(size, 0)
        values_shape = array_ops.concat([indices_size, params_shape[1:]], 0)
        values = array_ops.reshape(grad, values_shape)
        return [IndexedSlices(values, array_ops.reshape(indices, indices_size), params_shape), None, None]
    size = dimension_value(params.shape[axis])
    size = size if size is not None else array_ops.shape(params)[axis]
    if indices.shape.ndims is None:
        raise ValueError(f"The gradient of {op.name} (GatherV2) along axis {axis} needs the rank of its indices.")
    # Move the indices' dimensions to the front, sum into params' rows there, and move that axis back.
    k = indices.shape.ndims
    front = list(range(axis, axis + k)) + list(range(axis)) + list(range(axis + k, rank - 1 + k))
    summed = math_ops.unsorted_segment_sum(array_ops.transpose(grad, front), indices, size)
    back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return [array_ops.transpose(summed, back), None, None]


def _batch_gather_grad(op, grad, axis):
    """The dense gradient of a gather with batch dimensions: ``grad``'s slices summed into each batch
    element's rows of ``params`` (one UnsortedSegmentSum over the batches' rows laid end to end)."""
    params, indices, _ = op.inputs
    if indices.shape.ndims is None:
        raise ValueError(f"The gradient of {op.name} (GatherV2) with batch_dims needs the rank of its indices.")
    rank, n_index = _static_rank(op, params), indices.shape.ndims
    b = selection_ops.batch_dims_from_front(op._attrs["batch_dims"], n_index, op.name)
    n_mid, n_gathered = axis - b, n_index - b
    shape = array_ops.shape(params, out_type=indices.dtype.base_dtype)
    batch, size = math_ops.reduce_prod(shape[:b]), shape[axis]
    # grad is [batch..., mid..., gathered..., rest...]: the gathered dimensions go before mid, then flattened.
    front = [*range(b), *range(b + n_mid, b + n_mid + n_gathered), *range(b, b + n_mid),
             *range(b + n_mid + n_gathered, rank - 1 + n_gathered)]
    values = array_ops.reshape(array_ops.transpose(grad, front),
                               array_ops.concat([[-1], shape[b:axis], shape[axis + 1:]], 0))
    offsets = math_ops.range(batch) * size
    rows = array_ops.reshape(array_ops.reshape(indices, array_ops.stack([batch, -1])) +
                             array_ops.expand_dims(offsets, 1), [-1])
    summed = math_ops.unsorted_segment_sum(values, rows, batch * size)  # [batch * size, mid..., rest...]
    summed = array_ops.reshape(summed, array_ops.concat([shape[:b], [size], shape[b:axis], shape[axis + 1:]], 0))
    back = [*range(b), *range(b + 1, b + 1 + n_mid), b, *range(b + 1 + n_mid, rank)]
    return array_ops.transpose(summed, back)


@gradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    """Each data row gets its segment's gradient; rows of negative (dropped) ids get zeros."""
    data, segment_ids, _ = op.inputs
    extra = _static_rank(op, data) - _static_rank(op, segment_ids)
    gathered = array_ops.gather(grad, math_ops.maximum(segment_ids, 0))
    kept = math_ops.greater_equal(segment_ids, 0)
    for _ in range(extra):
        kept = array_ops.expand_dims(kept, -1)
    zero = array_ops.zeros([], dtype=grad.dtype.base_dtype)
    return [array_ops.where_v2(kept, gathered, zero), None, None]
