"""Neural-network ops: activations, softmax, conv2d, bias_add, l2_loss and the cross-entropy losses.

Each op keeps TensorFlow's op type, inputs and attrs (``Conv2D`` with ``strides``, ``padding``,
``explicit_paddings``, ``data_format``, ``dilations``; the two-output ``SoftmaxCrossEntropyWithLogits``
whose second output is the gradient with respect to the logits), so their gradients are written as
TensorFlow's are. Softmax and the losses are computed from ``logits - max(logits)``, as TF does.
"""

import numbers

import numpy as np

from numflow.framework import dtypes, errors
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops import array_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, REAL, cast
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, check_same_dtype
from numflow.ops.registry import declare

_CONV_TYPES = FLOATS + (dtypes.int32,)


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
    dims = value.shape.dims
    c = 1 if nchw else -1
    b = bias.shape[0] if bias.shape.ndims == 1 else None
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


# -- conv2d -------------------------------------------------------------------------------------
def conv_output_size(size, k, stride, dilation, padding, pads=(0, 0)):
    """One spatial output size of a convolution, by TensorFlow's rules; None when unknown."""
    if size is None or k is None:
        return None
    effective = (k - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    padded = size + pads[0] + pads[1]
    if padded < effective:
        raise ValueError(f"Negative dimension size caused by subtracting {effective} from {padded}")
    return (padded - effective) // stride + 1


def _conv2d_infer(op):
    x, w = op.inputs
    check_same_dtype(x, w, "Conv2D", "input", "filter")
    check_dtype(x, _CONV_TYPES, "input")
    check_rank(x.shape, 4)
    check_rank(w.shape, 4)
    a = op._attrs
    nchw = a["data_format"] == "NCHW"
    xd = x.shape.dims if x.shape.ndims is not None else [None] * 4
    wd = w.shape.dims if w.shape.ndims is not None else [None] * 4
    n, c, h, wi = (xd[0], xd[1], xd[2], xd[3]) if nchw else (xd[0], xd[3], xd[1], xd[2])
    kh, kw, ci, co = wd
    if c is not None and ci is not None:
        if ci == 0 or c % ci:
            raise ValueError(f"Depth of input ({c}) is not a multiple of input depth of filter ({ci})")
        if co is not None and co % (c // ci):
            raise ValueError(f"Depth of output ({co}) is not a multiple of the number of groups ({c // ci})")
    sh, sw = (a["strides"][2], a["strides"][3]) if nchw else (a["strides"][1], a["strides"][2])
    dh, dw = (a["dilations"][2], a["dilations"][3]) if nchw else (a["dilations"][1], a["dilations"][2])
    pads = a["explicit_paddings"]
    ph, pw = ((pads[4:6], pads[6:8]) if nchw else (pads[2:4], pads[4:6])) if pads else ((0, 0), (0, 0))
    oh = conv_output_size(h, kh, sh, dh, a["padding"], ph)
    ow = conv_output_size(wi, kw, sw, dw, a["padding"], pw)
    dims = [n, co, oh, ow] if nchw else [n, oh, ow, co]
    return [(x.dtype, TensorShape(dims))]


declare("Conv2D")(_conv2d_infer)


def _sequence(value, name, nchw):
    """TensorFlow's ``_get_sequence``: an int or 1, 2 or 4 values as the 4 values of an attr."""
    if value is None:
        return [1, 1, 1, 1]
    values = [value] if isinstance(value, numbers.Integral) else [int(v) for v in value]
    if len(values) == 1:
        values = values * 2
    if len(values) == 2:
        return [1, 1, *values] if nchw else [1, *values, 1]
    if len(values) == 4:
        return values
    raise ValueError(
        f"{name} should be of length 1, 2 or 4. Received: {name}={list(value)} of length {len(values)}"
    )


def _padding(padding, nchw):
    """``(padding, explicit_paddings)`` attrs from a padding string or a list of 4 [before, after] pairs."""
    if isinstance(padding, str | bytes):
        padding = padding.decode() if isinstance(padding, bytes) else padding
        if padding not in ("SAME", "VALID", "EXPLICIT"):
            raise ValueError(
                f"Attr 'padding' of 'Conv2D' Op passed string '{padding}' not in: "
                '"SAME", "VALID", "EXPLICIT".'
            )
        return padding, []
    pairs = [list(p) for p in padding]
    if len(pairs) != 4 or any(len(p) != 2 for p in pairs):
        raise ValueError(f"When padding is a list, it must hold 4 [before, after] pairs, got {padding!r}")
    batch, channel = (pairs[0], pairs[1]) if nchw else (pairs[0], pairs[3])
    if any(batch) or any(channel):
        raise ValueError("Nonzero explicit padding in the batch or depth dimensions is not supported")
    if any(v < 0 for p in pairs for v in p):
        raise ValueError(f"All elements of explicit_paddings must be nonnegative, got {padding!r}")
    return "EXPLICIT", [int(v) for p in pairs for v in p]


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=None, name=None, filters=None):
    """2-D convolution of a 4-D ``input`` with ``filter`` [height, width, in, out] (op ``Conv2D``).

    ``padding`` is "SAME" (output size ``ceil(in / stride)``), "VALID" (``ceil((in - (k - 1) *
    dilation) / stride)``) or a list of [before, after] pairs per dimension. ``strides`` and
    ``dilations`` are an int or 1, 2 or 4 values.

    >>> import numflow as tf
    >>> x = tf.placeholder(tf.float32, [None, 10, 10, 32])
    >>> tf.nn.conv2d(x, tf.ones([5, 5, 32, 32]), strides=[1, 1, 1, 1], padding="SAME").shape.as_list()
    [None, 10, 10, 32]
    """
    if filter is not None and filters is not None:
        raise ValueError("filter and filters arguments cannot both be provided")
    filter = filters if filter is None else filter  # noqa: A001
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"Invalid data_format: {data_format!r}; numflow's Conv2D takes NHWC or NCHW.")
    nchw = data_format == "NCHW"
    padding, explicit = _padding(padding, nchw)
    attrs = {
        "strides": _sequence(strides, "strides", nchw), "padding": padding, "explicit_paddings": explicit,
        "data_format": data_format, "dilations": _sequence(dilations, "dilations", nchw),
        "use_cudnn_on_gpu": bool(use_cudnn_on_gpu),
    }
    with get_default_graph().name_scope(name or "Conv2D") as scope:
        x = convert_to_tensor(input, name="input")
        w = convert_to_tensor(filter, name="filter")
        return _out("Conv2D", [x, w], attrs, name=scope)[0]


# -- cross entropy ------------------------------------------------------------------------------
def _xent_infer(op):
    logits, labels = op.inputs
    check_same_dtype(logits, labels, op.type, "features", "labels")
    check_dtype(logits, FLOATS, "features")
    check_rank(logits.shape, 2)
    check_rank(labels.shape, 2)
    ld = logits.shape.dims if logits.shape.ndims is not None else [None, None]
    bd = labels.shape.dims if labels.shape.ndims is not None else [None, None]
    if ld[1] is not None and bd[1] is not None and ld[1] != bd[1]:
        raise ValueError(f"Dimensions must be equal, but are {ld[1]} and {bd[1]}")
    classes = ld[1] if ld[1] is not None else bd[1]
    try:
        batch = broadcast_shapes([ld[0]], [bd[0]])[0]
    except ValueError:
        raise ValueError(f"Dimensions must be equal, but are {ld[0]} and {bd[0]}") from None
    return [(logits.dtype, TensorShape([batch])), (logits.dtype, TensorShape([batch, classes]))]


def _sparse_xent_infer(op):
    logits, labels = op.inputs
    check_dtype(logits, FLOATS, "features")
    check_dtype(labels, INDEX_TYPES, "labels")
    check_rank(logits.shape, 2)
    check_rank(labels.shape, 1)
    ld = logits.shape.dims if logits.shape.ndims is not None else [None, None]
    batch = labels.shape[0] if labels.shape.ndims == 1 else None
    if ld[0] is not None and batch is not None and ld[0] != batch:
        raise ValueError(f"Dimensions must be equal, but are {ld[0]} and {batch}")
    batch = ld[0] if ld[0] is not None else batch
    return [(logits.dtype, TensorShape([batch])), (logits.dtype, TensorShape([batch, ld[1]]))]


declare("SoftmaxCrossEntropyWithLogits")(_xent_infer)
declare("SparseSoftmaxCrossEntropyWithLogits")(_sparse_xent_infer)


def _flatten_outer_dims(x):
    """``x`` as a matrix [-1, last dimension]."""
    last = x.shape[-1] if x.shape.ndims else None
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
        if rank == 2:
            return _out("SoftmaxCrossEntropyWithLogits", [logits, labels], name=scope)[0]
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

