"""``tf.nn.dropout`` as TensorFlow 1.x's compat.v1 builds it, so that a seed drops the same elements.

``x * (1 / (1 - rate))`` (``Mul`` by a constant; ``RealDiv`` by ``1 - rate`` when ``rate`` is a tensor)
where ``random_uniform(noise_shape, seed) >= rate`` (``GreaterEqual``), else 0 (``SelectV2``). The
uniform values are TensorFlow's Philox bits for the same (graph seed, op seed) pair, so the mask is
TensorFlow's, element for element.
"""

import numbers

from numflow.framework.graph import get_default_graph
from numflow.framework.seeds import get_seed
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops import math_ops, random_ops
from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor
from numflow.ops.op_util import shape_or_constant
from numflow.ops.selection_ops import where_v2


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """``x`` with each element zeroed with probability ``rate`` (or ``1 - keep_prob``) and the others
    scaled by ``1 / (1 - rate)``.

    ``noise_shape`` (broadcastable to ``x``'s shape) makes the same choice along its size-1 dimensions.
    ``rate`` and ``keep_prob`` may be Python numbers or scalar tensors (a fed ``keep_prob`` placeholder).

    >>> import numflow as tf
    >>> out = tf.nn.dropout(tf.ones([2, 4]), rate=0.5, seed=1)
    >>> sorted(set(tf.Session().run(out).ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
    True
    """
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'keep_prob' and 'rate'.")
    if keep_prob is not None:
        try:
            rate = 1.0 - keep_prob
        except TypeError:
            raise ValueError(f"`keep_prob` must be a floating point number or Tensor. Received: "
                             f"keep_prob={keep_prob}") from None
    if rate is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    with get_default_graph().name_scope(name or "dropout"):
        is_number = isinstance(rate, numbers.Real)
        if is_number and not 0 <= rate < 1:
            raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
        x = convert_to_tensor(x, name="x")
        dtype = x.dtype.base_dtype
        if not dtype.is_floating:
            raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                             f"x_dtype=<dtype: '{dtype.name}'>")
        if is_number and rate == 0:
            get_seed(seed)  # as TF: the seed counter moves as if the mask were drawn
            return x
        if is_tensor(rate):
            rate.shape.assert_has_rank(0)
            if rate.dtype.base_dtype != dtype:
                if not rate.dtype.base_dtype.is_compatible_with(dtype):
                    raise ValueError(f"`x.dtype` must be compatible with `rate.dtype`. Received: x.dtype=<dtype: "
                                     f"'{dtype.name}'> and rate.dtype=<dtype: '{rate.dtype.base_dtype.name}'>")
                rate = math_ops.cast(rate, dtype, name="rate")
            kept = math_ops.realdiv(x, math_ops.subtract(constant(1, dtype=dtype), rate))
        elif is_number:
            kept = math_ops.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=dtype))
        else:
            raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
        noise = random_ops.random_uniform(_noise_shape(x, noise_shape), seed=seed, dtype=dtype)
        keep = noise >= rate
        out = where_v2(keep, kept, constant(0, dtype=dtype))
        out.set_shape(x.shape)
        return out


def _noise_shape(x, noise_shape):
    """TensorFlow's ``_get_noise_shape``: ``x``'s shape, or ``noise_shape`` with its unknown dims from ``x``."""
    if noise_shape is None:
        return shape_or_constant(x)
    if is_tensor(noise_shape):  # as TF: a shape tensor is used as it is (not read element by element)
        return noise_shape
    try:
        given = as_shape(noise_shape)
    except (TypeError, ValueError):
        return noise_shape
    if x.shape.ndims is not None and given.ndims == x.shape.ndims:
        return TensorShape([d if n is None else n for n, d in zip(given.dim_values, x.shape.dim_values)])
    return noise_shape
