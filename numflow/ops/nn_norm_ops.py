"""Normalization: moments, weighted_moments, sufficient_statistics, normalize_moments,
batch_normalization, batch_norm_with_global_normalization, fused_batch_norm and lrn.

The statistics functions are built from other ops under TensorFlow's name scopes (``moments/mean``,
``moments/variance``, ``moments/Squeeze``...), so their gradients are those ops'. fused_batch_norm
is one ``FusedBatchNormV3`` op with its six outputs and its gradient op ``FusedBatchNormGradV3``;
lrn is ``LRN`` with ``LRNGrad``. Kernels: ``numflow_kernels/reference_norm.py`` and ``cpu/norm.py``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor
from numflow.ops.op_util import _out, check_dtype, check_rank

_BATCH_NORM_TYPES = (dtypes.float16, dtypes.float32)
_DATA_FORMATS = ("NHWC", "NCHW", "NDHWC", "NCDHW")


def _keep_dims(keep_dims, keepdims):
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    return bool(keepdims if keepdims is not None else keep_dims)


def _tensor(value, name):
    return value if is_tensor(value) else convert_to_tensor(value, name=name)


# -- moments ------------------------------------------------------------------------------------
def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """The mean and (biased) variance of ``x`` over ``axes``.

    ``shift`` is accepted and unused, as in TensorFlow: the true mean is computed first and the
    variance is ``mean((x - stop_gradient(mean)) ** 2)``. float16 inputs are reduced in float32.

    >>> import numflow as tf
    >>> mean, variance = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
    >>> [v.tolist() for v in tf.Session().run([mean, variance])]
    [[2.0, 4.0], [1.0, 4.0]]
    """
    del shift
    keep = _keep_dims(keep_dims, keepdims)
    with get_default_graph().name_scope(name or "moments"):
        x = _tensor(x, "x")
        half = x.dtype.base_dtype == dtypes.float16
        y = math_ops.cast(x, dtypes.float32) if half else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(math_ops.squared_difference(y, array_ops.stop_gradient(mean)), axes,
                                        keepdims=True, name="variance")
        if not keep:
            mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
        if half:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """The ``frequency_weights``-weighted mean and variance of ``x`` over ``axes`` (0 where the weights
    sum to 0). The weights broadcast against ``x``."""
    keep = _keep_dims(keep_dims, keepdims)
    with get_default_graph().name_scope(name or "weighted_moments"):
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(frequency_weights, name="frequency_weights")
        half = x.dtype.base_dtype == dtypes.float16
        if half:
            x = math_ops.cast(x, dtypes.float32)
        if weights.dtype.base_dtype != x.dtype.base_dtype:
            weights = math_ops.cast(weights, x.dtype)
        weighted_input_sum = math_ops.reduce_sum(weights * x, axes, name="weighted_input_sum", keepdims=True)
        broadcast_weights = weights + array_ops.zeros_like(x)
        sum_of_weights = math_ops.reduce_sum(broadcast_weights, axes, name="sum_of_weights", keepdims=True)
        mean = math_ops.div_no_nan(weighted_input_sum, sum_of_weights)
        distsq = math_ops.reduce_sum(weights * math_ops.squared_difference(x, mean), axes, name="weighted_distsq",
                                     keepdims=True)
        variance = math_ops.div_no_nan(distsq, sum_of_weights)
        if not keep:
            mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
        if half:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """``(count, sum(x - shift), sum((x - shift) ** 2), shift)`` over ``axes``; ``count`` has ``x``'s dtype."""
    axes = sorted(set(int(a) for a in axes))
    keep = _keep_dims(keep_dims, keepdims)
    with get_default_graph().name_scope(name or "sufficient_statistics"):
        x = convert_to_tensor(x, name="x")
        dims = x.shape.dim_values if x.shape.ndims is not None else None
        if dims is not None and all(dims[d] is not None for d in axes):
            counts = constant(float(np.prod([dims[d] for d in axes])), dtype=x.dtype)
        else:
            sizes = array_ops.gather(math_ops.cast(array_ops.shape(x), x.dtype), axes)
            counts = math_ops.reduce_prod(sizes, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, name="shift")
            m_ss, v_ss = math_ops.subtract(x, shift), math_ops.squared_difference(x, shift)
        else:
            m_ss, v_ss = x, math_ops.square(x)
        m_ss = math_ops.reduce_sum(m_ss, axes, keepdims=keep, name="mean_ss")
        v_ss = math_ops.reduce_sum(v_ss, axes, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """The mean and variance from :func:`sufficient_statistics`' count, sums and shift."""
    with get_default_graph().name_scope(name or "normalize"):
        divisor = math_ops.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = mean = math_ops.multiply(mean_ss, divisor, name="mean")
        variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor), math_ops.square(shifted_mean),
                                     name="variance")
    return mean, variance


# -- batch normalization ------------------------------------------------------------------------
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """``scale * (x - mean) / sqrt(variance + variance_epsilon) + offset``, built as TensorFlow does:
    ``x * inv + (offset - mean * inv)`` with ``inv = scale * rsqrt(variance + variance_epsilon)``.
    ``offset`` and ``scale`` may be None."""
    with get_default_graph().name_scope(name or "batchnorm"):
        x, mean, variance = _tensor(x, "x"), _tensor(mean, "mean"), _tensor(variance, "variance")
        inv = math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        scaled = x * math_ops.cast(inv, x.dtype)
        return scaled + math_ops.cast(offset - mean * inv if offset is not None else -mean * inv, x.dtype)


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, input=None,  # noqa: A002
                                         mean=None, variance=None):
    """TensorFlow 1's batch normalization: :func:`batch_normalization` with ``gamma`` applied only when
    ``scale_after_normalization``. ``input``, ``mean`` and ``variance`` are aliases of ``t``, ``m``, ``v``."""
    t, m, v = (_alias(new, new_name, old, old_name) for new, new_name, old, old_name in
               ((input, "input", t, "t"), (mean, "mean", m, "m"), (variance, "variance", v, "v")))
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon, name)


def _alias(new, new_name, old, old_name):
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'")
    return new if new is not None else old


def _merge_channels(channels, dim):
    if channels is not None and dim is not None and channels != dim:
        raise ValueError(f"Dimensions must be equal, but are {channels} and {dim}")
    return channels if channels is not None else dim


def _batch_norm_layout(x, data_format):
    """``(rank, channel axis)`` of FusedBatchNormV3's ``x`` in ``data_format``; TF's checks."""
    rank = 5 if data_format in ("NDHWC", "NCDHW") else 4
    check_rank(x.shape, rank)
    return rank, 1 if data_format.startswith("NC") else rank - 1


def _check_batch_norm_dtype(x):
    if x.dtype.base_dtype not in _BATCH_NORM_TYPES:
        raise TypeError(f"Value passed to parameter 'x' has DataType {x.dtype.base_dtype.name} not in list of "
                        "allowed values: float16, bfloat16, float32")


@declare("FusedBatchNormV3")
def _fused_batch_norm_infer(op):
    x = op.inputs[0]
    _check_batch_norm_dtype(x)
    a = op._attrs
    rank, axis = _batch_norm_layout(x, a["data_format"])
    dims = x.shape.dim_values if x.shape.ndims is not None else [None] * rank
    channels = dims[axis]
    used = 3 if a["is_training"] and a["exponential_avg_factor"] == 1.0 else 5
    for vec, param in zip(op.inputs[1:used], ("scale", "offset", "mean", "variance")):
        check_dtype(vec, (dtypes.float32,), param)
        check_rank(vec.shape, 1)
        channels = _merge_channels(channels, vec.shape.dim_values[0] if vec.shape.ndims else None)
    dims[axis] = channels
    vector = (dtypes.float32, TensorShape([channels]))
    return [(x.dtype, TensorShape(dims))] + [vector] * 4 + [(dtypes.float32, TensorShape(None))]


@declare("FusedBatchNormGradV3")
def _fused_batch_norm_grad_infer(op):
    dy, x, scale = op.inputs[:3]
    _check_batch_norm_dtype(dy)
    rank, axis = _batch_norm_layout(x, op._attrs["data_format"])
    shape = dy.shape.merge_with(x.shape) if dy.shape.is_compatible_with(x.shape) else dy.shape
    channels = shape.dim_values[axis] if shape.ndims is not None else None
    channels = _merge_channels(channels, scale.shape.dim_values[0] if scale.shape.ndims == 1 else None)
    vector = (dtypes.float32, TensorShape([channels]))
    empty = (dtypes.float32, TensorShape([0]))
    return [(dy.dtype, shape), vector, vector, empty, empty]


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None, exponential_avg_factor=1.0):
    """Batch normalization of a 4-D (or 5-D) ``x`` over all but its channel axis, in one op.

    Returns ``(y, running_mean, running_var)``. Training (``is_training``): ``x`` is normalized by
    its own mean and variance; ``running_var`` is the unbiased variance, and with
    ``exponential_avg_factor`` f != 1 the two are ``(1 - f) * mean + f * batch_mean`` (likewise the
    variance), so ``mean`` and ``variance`` must then be given. Inference: ``mean`` and ``variance``
    (required) normalize ``x``. The op (``FusedBatchNormV3``) has six outputs; its gradient is
    ``FusedBatchNormGradV3``.

    >>> import numflow as tf
    >>> y, mean, var = tf.nn.fused_batch_norm(tf.ones([2, 1, 1, 3]), tf.ones([3]), tf.zeros([3]))
    >>> y.op.type, [t.shape.as_list() for t in (y, mean, var)]
    ('FusedBatchNormV3', [[2, 1, 1, 3], [3], [3]])
    """
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and `variance` {variance!r}")
    if data_format not in _DATA_FORMATS:
        raise ValueError(f"Invalid data_format: {data_format!r}; FusedBatchNormV3 takes one of "
                         f"{', '.join(_DATA_FORMATS)}.")
    x = convert_to_tensor(x, name="input")
    scale = convert_to_tensor(scale, name="scale")
    offset = convert_to_tensor(offset, name="offset")
    mean = constant([]) if mean is None else mean
    variance = constant([]) if variance is None else variance
    attrs = {"epsilon": float(np.float32(epsilon)), "exponential_avg_factor": float(np.float32(exponential_avg_factor)),
             "data_format": data_format, "is_training": bool(is_training), "T": x.dtype.base_dtype,
             "U": dtypes.float32}
    with get_default_graph().name_scope(name or "FusedBatchNormV3") as scope:
        mean, variance = convert_to_tensor(mean, name="mean"), convert_to_tensor(variance, name="variance")
        outputs = _out("FusedBatchNormV3", [x, scale, offset, mean, variance], attrs, name=scope)
    return outputs[0], outputs[1], outputs[2]


_TO_CHANNELS_LAST = {"NCHW": ([0, 2, 3, 1], [0, 3, 1, 2]), "NCDHW": ([0, 2, 3, 4, 1], [0, 4, 1, 2, 3])}


@register_gradient("FusedBatchNormV3")
def _fused_batch_norm_grad(op, grad_y, *unused):
    """TensorFlow's ``_BaseFusedBatchNormGrad``: the saved batch statistics in training; in inference
    the population ones, with NC... data moved to channels-last as TF does."""
    x, scale = op.inputs[0], op.inputs[1]
    a = op._attrs
    attrs = {k: a[k] for k in ("epsilon", "data_format", "is_training", "T", "U")}
    graph = get_default_graph()
    if a["is_training"]:
        inputs = [grad_y, x, scale, op.outputs[3], op.outputs[4], op.outputs[5]]
        dx, dscale, doffset = graph.create_op("FusedBatchNormGradV3", inputs, attrs).outputs[:3]
        return [dx, dscale, doffset, None, None]
    perms = _TO_CHANNELS_LAST.get(a["data_format"])
    if perms is not None:
        x, grad_y = array_ops.transpose(x, perms[0]), array_ops.transpose(grad_y, perms[0])
        attrs["data_format"] = "NHWC" if a["data_format"] == "NCHW" else "NDHWC"
    inputs = [grad_y, x, scale, op.inputs[3], op.inputs[4], op.outputs[5]]
    dx, dscale, doffset = graph.create_op("FusedBatchNormGradV3", inputs, attrs).outputs[:3]
    if perms is not None:
        dx = array_ops.transpose(dx, perms[1])
    return [dx, dscale, doffset, None, None]


# -- local response normalization ---------------------------------------------------------------
def _lrn_infer(op):
    x = op.inputs[0]
    if x.dtype.base_dtype not in _BATCH_NORM_TYPES:
        raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.base_dtype.name} not in list of "
                        "allowed values: float16, bfloat16, float32")
    check_rank(x.shape, 4)
    return [(x.dtype, x.shape)]


declare("LRN")(_lrn_infer)
declare("LRNGrad")(_lrn_infer)


def lrn(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """Local response normalization of a 4-D ``input`` along its last axis (op ``LRN``):
    ``input / (bias + alpha * sqr_sum) ** beta``, ``sqr_sum`` summing the squares of the
    ``2 * depth_radius + 1`` channels centred on each one."""
    attrs = {"depth_radius": int(depth_radius), "bias": float(np.float32(bias)), "alpha": float(np.float32(alpha)),
             "beta": float(np.float32(beta))}
    with get_default_graph().name_scope(name or "LRN") as scope:
        x = convert_to_tensor(input, name="input")
        return _out("LRN", [x], attrs, name=scope)[0]


local_response_normalization = lrn


@register_gradient("LRN")
def _lrn_grad(op, grad):
    attrs = {k: op._attrs[k] for k in ("depth_radius", "bias", "alpha", "beta")}
    inputs = [grad, op.inputs[0], op.outputs[0]]
    return [get_default_graph().create_op("LRNGrad", inputs, attrs, name="LRNGrad").outputs[0]]
