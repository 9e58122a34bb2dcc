"""Indexing by index tuples: ``gather_nd`` (op ``GatherNd``), ``scatter_nd`` (op ``ScatterNd``), the
``tensor_scatter_nd_*`` ops (``TensorScatterUpdate``, ``TensorScatterAdd``, ``TensorScatterSub``,
``TensorScatterMax``, ``TensorScatterMin``) and their in-place twins on variables, ``scatter_nd_update``,
``scatter_nd_add`` and ``scatter_nd_sub`` (ops ``ScatterNdUpdate``, ``ScatterNdAdd``, ``ScatterNdSub``).

The last dimension of ``indices`` holds one index tuple of length ``k``; each tuple picks a slice
``params[i0, ..., ik-1]`` of rank ``rank(params) - k``. ``scatter_nd`` adds duplicate indices'
updates; ``tensor_scatter_nd_update`` keeps the last one, as TensorFlow's CPU kernel does. An index
outside the shape fails at run time with InvalidArgumentError naming it. Gradients are TensorFlow's
(``array_grad.py``).
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, dims_text
from numflow.ops import array_ops, math_ops, state_ops
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, check_rank, check_same_dtype, shape_from_tensor

_INDEX_TYPES = (dtypes.int16, dtypes.int32, dtypes.int64)


@declare("GatherNd")
def _gather_nd_infer(op):
    params, indices = op.inputs
    check_dtype(indices, _INDEX_TYPES, "indices")
    check_rank(indices.shape, 1, at_least=True)
    if params.shape.ndims is None or indices.shape.ndims is None or indices.shape.dim_values[-1] is None:
        return [(params.dtype, TensorShape(None))]
    k = indices.shape.dim_values[-1]
    if k > params.shape.ndims:
        raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
                         f"{dims_text(indices.shape.dim_values)} and params shape: "
                         f"{dims_text(params.shape.dim_values)}")
    return [(params.dtype, TensorShape(indices.shape.dim_values[:-1] + params.shape.dim_values[k:]))]


def gather_nd(params, indices, name=None, batch_dims=0):
    """The slices of ``params`` at the index tuples in the last dimension of ``indices`` (op ``GatherNd``).

    The result has shape ``indices.shape[:-1] + params.shape[indices.shape[-1]:]``. Only
    ``batch_dims=0`` is supported.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.gather_nd([[1, 2], [3, 4]], [[1, 0], [0, 1]])).tolist()
    [3, 2]
    """
    if batch_dims != 0:
        raise NotImplementedError("gather_nd supports batch_dims=0 only.")
    with get_default_graph().name_scope(name or "GatherNd") as scope:
        params = convert_to_tensor(params, name="params")
        indices = convert_to_tensor(indices, name="indices")
        return _out("GatherNd", [params, indices], name=scope)[0]


def _check_updates(indices, updates, target, target_name):
    """TensorFlow's static check: ``updates.shape == indices.shape[:-1] + target[k:]``."""
    if indices.ndims is None or updates.ndims is None or indices.dim_values[-1] is None:
        return
    outer = indices.ndims - 1
    _check_dims(indices.dim_values[:outer], updates.dim_values[:outer], 0, outer, "indices", indices, updates)
    if target.ndims is not None:
        k = indices.dim_values[-1]
        _check_dims(target.dim_values[k:], updates.dim_values[outer:], k, target.ndims, target_name, target, updates,
                    outer, updates.ndims)


def _check_dims(a, b, begin, end, name, shape_a, updates, ub=None, ue=None):
    ub, ue = (begin, end) if ub is None else (ub, ue)
    mismatch = len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b))
    if mismatch:
        raise ValueError(f"Dimensions [{begin},{end}) of {name}[shape={dims_text(shape_a.dim_values)}] = "
                         f"{dims_text(a)} "
                         f"must match dimensions [{ub},{ue}) of updates[shape={dims_text(updates.dim_values)}] = "
                         f"{dims_text(b)}")


@declare("ScatterNd")
def _scatter_nd_infer(op):
    indices, updates, shape = op.inputs
    check_dtype(indices, _INDEX_TYPES, "indices")
    check_dtype(shape, _INDEX_TYPES, "shape")
    check_rank(indices.shape, 1, at_least=True)
    check_rank(shape.shape, 1)
    out = shape_from_tensor(shape)
    _check_updates(indices.shape, updates.shape, out, "shape")
    return [(updates.dtype, out)]


def scatter_nd(indices, updates, shape, name=None):
    """A tensor of ``shape``, zero but where ``updates`` are added at the index tuples of ``indices``.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.scatter_nd([[1], [3], [1]], [5, 6, 7], [4])).tolist()
    [0, 12, 0, 6]
    """
    with get_default_graph().name_scope(name or "ScatterNd") as scope:
        indices = convert_to_tensor(indices, name="indices")
        updates = convert_to_tensor(updates, name="updates")
        shape = convert_to_tensor(shape, name="shape", preferred_dtype=indices.dtype.base_dtype)
        return _out("ScatterNd", [indices, updates, shape], name=scope)[0]


def _tensor_scatter_infer(op):
    tensor, indices, updates = op.inputs
    check_dtype(indices, _INDEX_TYPES, "indices")
    check_same_dtype(tensor, updates, op.type, "tensor", "updates")
    _check_updates(indices.shape, updates.shape, tensor.shape, "input")
    return [(tensor.dtype, tensor.shape)]


def _make_tensor_scatter(op_type, public_name, what):
    declare(op_type)(_tensor_scatter_infer)

    def fn(tensor, indices, updates, name=None):
        with get_default_graph().name_scope(name or op_type) as scope:
            tensor = convert_to_tensor(tensor, name="tensor")
            indices = convert_to_tensor(indices, name="indices")
            updates = convert_to_tensor(updates, name="updates", preferred_dtype=tensor.dtype.base_dtype)
            return _out(op_type, [tensor, indices, updates], name=scope)[0]

    fn.__name__ = public_name
    fn.__doc__ = f"A copy of ``tensor`` with ``updates`` {what} at the index tuples of ``indices`` (op ``{op_type}``)."
    return fn


tensor_scatter_nd_update = _make_tensor_scatter("TensorScatterUpdate", "tensor_scatter_nd_update",
                                                "written (the last of duplicates wins)")
tensor_scatter_nd_add = _make_tensor_scatter("TensorScatterAdd", "tensor_scatter_nd_add", "added")
tensor_scatter_nd_sub = _make_tensor_scatter("TensorScatterSub", "tensor_scatter_nd_sub", "subtracted")
tensor_scatter_nd_max = _make_tensor_scatter("TensorScatterMax", "tensor_scatter_nd_max",
                                             "combined by their maximum")
tensor_scatter_nd_min = _make_tensor_scatter("TensorScatterMin", "tensor_scatter_nd_min",
                                             "combined by their minimum")


def _scatter_nd_variable_infer(op):
    ref, indices, updates = op.inputs
    check_dtype(indices, (dtypes.int32, dtypes.int64), "indices")
    if ref.dtype.base_dtype != updates.dtype.base_dtype:
        raise TypeError(f"Input 'updates' of '{op.type}' Op has type {updates.dtype.base_dtype.name} that does not "
                        f"match type {ref.dtype.base_dtype.name} of argument 'ref'.")
    _check_updates(indices.shape, updates.shape, ref.shape, "ref")
    return [(ref.dtype, ref.shape)]


for _op_type in ("ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"):
    declare(_op_type, stateful=True, ref_inputs=(0,), ref_output=True)(_scatter_nd_variable_infer)


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    """Write ``updates`` into variable ``ref`` at the index tuples of ``indices``; the result is the variable
    after the update (op ``ScatterNdUpdate``)."""
    return state_ops._scatter("ScatterNdUpdate", ref, indices, updates, use_locking, name)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    """Add ``updates`` to variable ``ref`` at the index tuples of ``indices`` (repeats add up; op
    ``ScatterNdAdd``)."""
    return state_ops._scatter("ScatterNdAdd", ref, indices, updates, use_locking, name)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    """Subtract ``updates`` from variable ``ref`` at the index tuples of ``indices`` (op ``ScatterNdSub``)."""
    return state_ops._scatter("ScatterNdSub", ref, indices, updates, use_locking, name)


# -- gradients (TensorFlow's array_grad.py) --------------------------------------------------------------
@gradient("GatherNd")
def _gather_nd_grad(op, grad):
    """An IndexedSlices for a matrix of single indices (rows of ``params``), else a ``ScatterNd`` of ``grad``."""
    params, indices = op.inputs
    params_shape = array_ops.shape(params, out_type=indices.dtype.base_dtype)
    if indices.shape.ndims == 2 and indices.shape.dim_values[-1] == 1:
        return [IndexedSlices(grad, array_ops.squeeze(indices, axis=-1), params_shape), None]
    return [scatter_nd(indices, grad, params_shape), None]


@gradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return [None, gather_nd(grad, op.inputs[0]), None]


@gradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    indices, updates = op.inputs[1:]
    cleared = tensor_scatter_nd_update(array_ops.identity(grad), indices, array_ops.zeros_like(updates))
    return [cleared, None, gather_nd(grad, indices)]


@gradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    return [array_ops.identity(grad), None, gather_nd(grad, op.inputs[1])]


@gradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    return [array_ops.identity(grad), None, math_ops.negative(gather_nd(grad, op.inputs[1]))]


def _tensor_scatter_min_or_max_grad(op, grad):
    """TensorFlow's: the gradient goes to the inputs equal to the result, split evenly between ties."""
    x, indices, y = op.inputs
    output = op.outputs[0]
    x_indicators = math_ops.cast(math_ops.equal(x, output), grad.dtype)
    y_output = gather_nd(output, indices)
    y_indicators = math_ops.cast(math_ops.equal(y, y_output), grad.dtype)
    ys_indicators = scatter_nd(indices, y_indicators, array_ops.shape(x, out_type=indices.dtype))
    indicators = x_indicators + ys_indicators
    x_grad = grad * x_indicators / indicators
    y_grad = gather_nd(grad / indicators, indices) * y_indicators
    return [x_grad, None, y_grad]


gradient("TensorScatterMax")(_tensor_scatter_min_or_max_grad)
gradient("TensorScatterMin")(_tensor_scatter_min_or_max_grad)
