"""Neural-network ops: activations, softmax, bias_add, l2_loss and the cross-entropy losses.

Each op keeps TensorFlow's op type, inputs and attrs (the two-output ``SoftmaxCrossEntropyWithLogits``
whose second output is the gradient with respect to the logits), so their gradients are written as
TensorFlow's are. Softmax and the losses are computed from ``logits - max(logits)``, as TF does.
The convolutions are in ``conv_ops.py``, the pools in ``pool_ops.py``.
"""


import numpy as np

from numflow.framework import errors
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops import array_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, REAL, cast
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, check_same_dtype


def _same_shape(allowed, param):
    def infer(op):
        x = op.inputs[0]
        check_dtype(x, allowed, param)
        return [(x.dtype, x.shape)]

    return infer


declare("Relu")(_same_shape(REAL, "features"))
declare("Relu6")(_same_shape(REAL, "features"))


def _unary(op_type, x, name, param):
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(x, name=param)
        return _out(op_type, [x], name=scope)[0]


def relu(features, name=None):
    """``max(features, 0)`` elementwise (op ``Relu``)."""
    return _unary("Relu", features, name, "features")


def relu6(features, name=None):
    """``min(max(features, 0), 6)`` elementwise (op ``Relu6``)."""
    return _unary("Relu6", features, name, "features")


# -- softmax ------------------------------------------------------------------------------------
def _softmax_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "logits")
    check_rank(x.shape, 1, at_least=True)
    return [(x.dtype, x.shape)]


declare("Softmax")(_softmax_infer)
declare("LogSoftmax")(_softmax_infer)


def _swap_perm(rank, axis):
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return perm


def _last_axis_op(op_type, logits, axis, name):
    """``op_type`` (which works on the last axis) applied along ``axis``, transposing around it.

    As TensorFlow's ``_wrap_2d_function``: along the last axis the op takes ``name``; along another
    the op keeps its type's name between two transposes, the second taking ``name``."""
    graph = get_default_graph()
    x = logits if array_ops.is_tensor(logits) else None
    rank = x.shape.ndims if x is not None else np.ndim(logits)
    if axis == -1 or (rank is not None and axis == rank - 1):
        with graph.name_scope(name or op_type) as scope:
            return _out(op_type, [convert_to_tensor(logits, name="logits")], name=scope)[0]
    if rank is None:
        raise ValueError(f"{op_type} along axis {axis} needs logits of known rank, got shape {x.shape}.")
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            None, None,
            f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number of dimensions in "
            f"the input. Received: dim={axis}",
        )
    perm = _swap_perm(rank, axis % rank)
    moved = array_ops.transpose(convert_to_tensor(logits, name="logits"), perm)
    out = _out(op_type, [moved], name=op_type)[0]
    return array_ops.transpose(out, perm, name=name or "transpose")


def _axis(axis, dim):
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    return -1 if axis is None else int(axis)


def softmax(logits, axis=None, name=None, dim=None):
    """``exp(logits) / sum(exp(logits))`` along ``axis`` (default the last), computed stably."""
    return _last_axis_op("Softmax", logits, _axis(axis, dim), name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """``logits - log(sum(exp(logits)))`` along ``axis`` (default the last), computed stably."""
    return _last_axis_op("LogSoftmax", logits, _axis(axis, dim), name)


# -- l2_loss, bias_add --------------------------------------------------------------------------
def _l2_loss_infer(op):
    check_dtype(op.inputs[0], FLOATS, "t")
    return [(op.inputs[0].dtype, TensorShape([]))]


declare("L2Loss")(_l2_loss_infer)


def l2_loss(t, name=None):
    """``sum(t ** 2) / 2`` (op ``L2Loss``), a scalar."""
    return _unary("L2Loss", t, name, "t")


def _bias_add_infer(op):
    value, bias = op.inputs
    check_same_dtype(value, bias, "BiasAdd", "value", "bias")
    check_dtype(value, REAL, "value")
    nchw = op._attrs["data_format"] == "NCHW"
    check_rank(value.shape, 3 if nchw else 2, at_least=True)
    check_rank(bias.shape, 1)
    if value.shape.ndims is None:
        return [(value.dtype, value.shape)]
    dims = value.shape.dim_values
    c = 1 if nchw else -1
    b = bias.shape.dim_values[0] if bias.shape.ndims == 1 else None
    if dims[c] is not None and b is not None and dims[c] != b:
        raise ValueError(f"Dimensions must be equal, but are {dims[c]} and {b}")
    dims[c] = dims[c] if dims[c] is not None else b
    return [(value.dtype, TensorShape(dims))]


declare("BiasAdd")(_bias_add_infer)


def _bias_format(data_format):
    if data_format is None:
        return "NHWC"
    if data_format.startswith("NC"):
        return "NCHW"
    if data_format.startswith("N") and data_format.endswith("C"):
        return "NHWC"
    raise ValueError(
        f"`data_format` must be of the form `N...C` or `NC...`. Received: data_format={data_format}"
    )


def bias_add(value, bias, data_format=None, name=None):
    """``value + bias`` with the 1-D ``bias`` added along the channel dimension (last for NHWC)."""
    data_format = _bias_format(data_format)
    with get_default_graph().name_scope(name or "BiasAdd") as scope:
        value = convert_to_tensor(value, name="input")
        if array_ops.is_tensor(bias):
            bias = convert_to_tensor(bias)
            if bias.dtype.base_dtype != value.dtype.base_dtype:
                raise ValueError(
                    f"bias: Tensor conversion requested dtype {value.dtype.base_dtype.name} for Tensor with "
                    f"dtype {bias.dtype.base_dtype.name}: {bias!r}"
                )
        else:
            bias = convert_to_tensor(bias, dtype=value.dtype.base_dtype, name="bias")
        return _out("BiasAdd", [value, bias], {"data_format": data_format}, name=scope)[0]


# -- cross entropy ------------------------------------------------------------------------------
def _xent_infer(op):
    logits, labels = op.inputs
    check_same_dtype(logits, labels, op.type, "features", "labels")
    check_dtype(logits, FLOATS, "features")
    check_rank(logits.shape, 2)
    check_rank(labels.shape, 2)
    ld = logits.shape.dim_values if logits.shape.ndims is not None else [None, None]
    bd = labels.shape.dim_values if labels.shape.ndims is not None else [None, None]
    if ld[1] is not None and bd[1] is not None and ld[1] != bd[1]:
        raise ValueError(f"Dimensions must be equal, but are {ld[1]} and {bd[1]}")
    classes = ld[1] if ld[1] is not None else bd[1]
    try:
        (batch,) = broadcast_shapes([ld[0]], [bd[0]]).dim_values
    except ValueError:
        raise ValueError(f"Dimensions must be equal, but are {ld[0]} and {bd[0]}") from None
    return [(logits.dtype, TensorShape([batch])), (logits.dtype, TensorShape([batch, classes]))]


def _sparse_xent_infer(op):
    logits, labels = op.inputs
    check_dtype(logits, FLOATS, "features")
    check_dtype(labels, INDEX_TYPES, "labels")
    check_rank(logits.shape, 2)
    check_rank(labels.shape, 1)
    ld = logits.shape.dim_values if logits.shape.ndims is not None else [None, None]
    batch = labels.shape.dim_values[0] if labels.shape.ndims == 1 else None
    if ld[0] is not None and batch is not None and ld[0] != batch:
        raise ValueError(f"Dimensions must be equal, but are {ld[0]} and {batch}")
    batch = ld[0] if ld[0] is not None else batch
    return [(logits.dtype, TensorShape([batch])), (logits.dtype, TensorShape([batch, ld[1]]))]


declare("SoftmaxCrossEntropyWithLogits")(_xent_infer)
declare("SparseSoftmaxCrossEntropyWithLogits")(_sparse_xent_infer)


def _flatten_outer_dims(x):
    """``x`` as a matrix [-1, last dimension]."""
    last = x.shape.dim_values[-1] if x.shape.ndims else None
    if last is not None:
        return array_ops.reshape(x, [-1, last])
    return array_ops.reshape(x, array_ops.concat([[-1], array_ops.shape(x)[-1:]], 0))


def _restore_outer_dims(cost, like):
    """``cost`` (one value per row) reshaped to ``like``'s shape, without its last dimension."""
    outer = like.shape[:-1] if like.shape.ndims is not None else TensorShape(None)
    if outer.is_fully_defined():
        return array_ops.reshape(cost, outer.as_list())
    out = array_ops.reshape(cost, array_ops.shape(like)[:-1])
    out.set_shape(outer)
    return out


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """``-sum(labels * log_softmax(logits))`` along ``axis`` (default the last), computed stably.

    ``labels`` are probabilities (each row summing to 1); gradients flow into them too.
    """
    axis = _axis(axis, dim)
    with get_default_graph().name_scope(name or "softmax_cross_entropy_with_logits") as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        if labels.dtype.base_dtype != logits.dtype.base_dtype:
            labels = cast(labels, logits.dtype)
        rank = logits.shape.ndims
        if rank == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        if axis != -1 and not (rank is not None and axis % rank == rank - 1):
            if rank is None:
                raise ValueError(f"Cross entropy along axis {axis} needs logits of known rank.")
            # TF's _move_dim_to_end: the other dimensions keep their order in the loss.
            axis %= rank
            perm = [*range(axis), *range(axis + 1, rank), axis]
            logits, labels = array_ops.transpose(logits, perm), array_ops.transpose(labels, perm)
        if rank == 2 and labels.shape.ndims == 2:
            return _out("SoftmaxCrossEntropyWithLogits", [logits, labels], name=scope)[0]
        # As TensorFlow's, both flattened to matrices: labels of another rank (``[one_hot]``, say) too.
        flat = [_flatten_outer_dims(logits), _flatten_outer_dims(labels)]
        cost = _out("SoftmaxCrossEntropyWithLogits", flat, name="SoftmaxCrossEntropyWithLogits")[0]
        return _restore_outer_dims(cost, logits) if rank != 1 else array_ops.reshape(cost, [], name=scope)


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """The v2 loss with ``labels`` under ``stop_gradient`` (TensorFlow 1's deprecated spelling)."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    with get_default_graph().name_scope(name or "softmax_cross_entropy_with_logits_sg") as scope:
        labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
        return softmax_cross_entropy_with_logits_v2(labels, logits, axis=dim if axis is None else axis,
                                                    name=scope)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``-log_softmax(logits)[label]`` per row; ``labels`` are int32/int64 class indices.

    ``labels`` has ``logits``' shape without its last dimension. A label outside ``[0, classes)``
    fails at run time with InvalidArgumentError.

    >>> import numflow as tf
    >>> loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0], logits=[[1000.0, 0.0]])
    >>> float(tf.Session().run(loss)[0])
    0.0
    """
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    with get_default_graph().name_scope(name or "SparseSoftmaxCrossEntropyWithLogits") as scope:
        labels = convert_to_tensor(labels, name="labels")
        logits = convert_to_tensor(logits, name="logits")
        check_dtype(labels, INDEX_TYPES, "labels")
        check_dtype(logits, FLOATS, "features")
        ls, gs = labels.shape, logits.shape
        if gs.ndims == 0:
            raise ValueError(f"`logits` cannot be a scalar. Received logits={logits!r}`")
        if ls.ndims is not None and gs.ndims is not None:
            if ls.ndims != gs.ndims - 1:
                raise ValueError(
                    f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape={ls} of "
                    f"rank {ls.ndims} and logits.shape={gs} of rank {gs.ndims}"
                )
            if not ls.is_compatible_with(gs[:-1]):
                raise ValueError(
                    "`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                    f"labels.shape={ls} and logits.shape={gs}"
                )
        if gs.ndims == 2:
            return _out("SparseSoftmaxCrossEntropyWithLogits", [logits, labels],
                        name="SparseSoftmaxCrossEntropyWithLogits")[0]
        flat_labels = array_ops.reshape(labels, [-1])
        cost = _out("SparseSoftmaxCrossEntropyWithLogits", [_flatten_outer_dims(logits), flat_labels],
                    name="SparseSoftmaxCrossEntropyWithLogits")[0]
        if ls.is_fully_defined():
            return array_ops.reshape(cost, ls.as_list(), name=scope)
        out = array_ops.reshape(cost, array_ops.shape(labels), name=scope)
        out.set_shape(ls)
        return out

