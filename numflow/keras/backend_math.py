"""The tensor functions of ``tf.keras.backend`` (``mean``, ``square``, ``clip``, ``dot``, the cross entropies,
``function``...), on TensorFlow's ops as Keras' backend builds them; ``backend.py`` re-exports them.

Several take builtins' names (``max``, ``sum``, ``abs``, ``pow``); the module itself calls none of those
builtins. A probability computed by a ``Softmax`` (or ``Sigmoid``) op is taken back to its logits for a cross entropy,
and the cross entropy computed from them, as Keras does.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.ops import array_ops, math_ops
from numflow.ops.clip_ops import clip_by_value
from numflow.ops.constant_op import constant, convert_to_tensor


def _floatx():
    from numflow.keras.backend import floatx

    return floatx()


def _epsilon():
    from numflow.keras.backend import epsilon

    return epsilon()


def _as_float(x):
    x = convert_to_tensor(x)
    return math_ops.cast(x, _floatx()) if x.dtype.base_dtype == dtypes.bool else x


def mean(x, axis=None, keepdims=False):
    """The mean over ``axis`` (booleans counted as floats)."""
    return math_ops.reduce_mean(_as_float(x), axis, keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001  (Keras' name)
    return math_ops.reduce_sum(x, axis, keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_max(x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_min(x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    return math_ops.reduce_prod(x, axis, keepdims)


def sqrt(x):
    """``sqrt(max(x, 0))``."""
    x = convert_to_tensor(x)
    return math_ops.sqrt(math_ops.maximum(x, constant(0.0, dtype=x.dtype.base_dtype)))


def clip(x, min_value, max_value):
    """``x`` clipped to ``[min_value, max_value]`` (a max below the min taken as the min)."""
    if isinstance(min_value, int | float) and isinstance(max_value, int | float) and max_value < min_value:
        max_value = min_value
    return clip_by_value(x, min_value, max_value)


def dot(x, y):
    """The matrix product over ``x``'s last axis and ``y``'s second-to-last, through 2-D reshapes for higher
    ranks, as Keras computes it."""
    x_rank, y_rank = x.shape.ndims, y.shape.ndims
    if x_rank is None or (x_rank <= 2 and y_rank <= 2):
        return math_ops.matmul(x, y)
    x_shape = _static_or_dynamic(x)
    y_shape = _static_or_dynamic(y)
    perm = list(range(y_rank))
    perm = [perm.pop(-2), *perm]
    flat_x = array_ops.reshape(x, [-1, x_shape[-1]])
    flat_y = array_ops.reshape(array_ops.transpose(y, perm=perm), [y_shape[-2], -1])
    return array_ops.reshape(math_ops.matmul(flat_x, flat_y), x_shape[:-1] + y_shape[:-2] + y_shape[-1:])


def _static_or_dynamic(x):
    dynamic = array_ops.unstack(array_ops.shape(x))
    return [d if d is not None else dynamic[i] for i, d in enumerate(x.shape.as_list())]


def concatenate(tensors, axis=-1):
    rank = tensors[0].shape.ndims
    if axis < 0:
        axis = axis % rank if rank else 0
    return array_ops.concat(list(tensors), axis)


def cast(x, dtype):
    return math_ops.cast(x, dtype)


def argmax(x, axis=-1):
    return math_ops.argmax(x, axis)


def softmax(x, axis=-1):
    from numflow import nn

    return nn.softmax(x, axis=axis)


def l2_normalize(x, axis=None):
    from numflow import nn

    return nn.l2_normalize(x, axis=axis)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal values; without a ``seed``, one drawn from numpy's generator, as Keras does."""
    from numflow.ops.random_ops import random_normal as draw

    if seed is None:
        seed = np.random.randint(10e6)
    return draw(shape, mean=mean, stddev=stddev, dtype=dtype or _floatx(), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform values; without a ``seed``, one drawn from numpy's generator, as Keras does."""
    from numflow.ops.random_ops import random_uniform as draw

    if seed is None:
        seed = np.random.randint(10e6)
    return draw(shape, minval=minval, maxval=maxval, dtype=dtype or _floatx(), seed=seed)


def gradients(loss, variables):
    from numflow.ops.gradients import gradients as build

    return build(loss, variables, colocate_gradients_with_ops=True)


square, exp, log, abs, sign = math_ops.square, math_ops.exp, math_ops.log, math_ops.abs, math_ops.sign  # noqa: A001
pow, maximum, minimum, equal = math_ops.pow, math_ops.maximum, math_ops.minimum, math_ops.equal  # noqa: A001
sigmoid, tanh = math_ops.sigmoid, math_ops.tanh
reshape, transpose, expand_dims = array_ops.reshape, array_ops.transpose, array_ops.expand_dims
squeeze, stop_gradient, zeros_like, ones_like = (array_ops.squeeze, array_ops.stop_gradient, array_ops.zeros_like,
                                                 array_ops.ones_like)


# -- cross entropies ---------------------------------------------------------------------------------------
def _logits(output, from_logits, op_type):
    """``(logits, True)`` when ``output`` is the output of an ``op_type`` op; else as given."""
    if not from_logits and output.op.type == op_type:
        return output.op.inputs[0], True
    return output, from_logits


def _clip(output):
    epsilon_ = constant(_epsilon(), dtype=output.dtype.base_dtype)
    return clip_by_value(output, epsilon_, 1.0 - epsilon_)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """``-sum(target * log(output))`` over ``axis``, ``output`` scaled to sum to 1 and clipped at epsilon (from
    the logits, when it is a softmax or ``from_logits``)."""
    from numflow import nn

    target, output = convert_to_tensor(target), convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    output, from_logits = _logits(output, from_logits, "Softmax")
    if from_logits:
        return nn.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
    output = output / math_ops.reduce_sum(output, axis, True)
    return -math_ops.reduce_sum(target * math_ops.log(_clip(output)), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """The categorical cross entropy of integer labels ``target``: ``tf.nn.sparse_softmax_cross_entropy_with_logits``
    of the logits, or of the clipped probabilities' logarithm."""
    from numflow import nn

    output = convert_to_tensor(output)
    target = math_ops.cast(target, dtypes.int64)
    output, from_logits = _logits(output, from_logits, "Softmax")
    if not from_logits:
        output = math_ops.log(_clip(output))
    output_rank = output.shape.ndims
    if output_rank is not None and axis % output_rank != output_rank - 1:
        moved = axis % output_rank
        output = array_ops.transpose(output, perm=[*range(moved), *range(moved + 1, output_rank), moved])
    output_shape = array_ops.shape(output)
    target_rank = target.shape.ndims
    update_shape = target_rank is not None and output_rank is not None and target_rank != output_rank - 1
    if update_shape:
        target = array_ops.reshape(target, [-1])
        output = array_ops.reshape(output, [-1, output_shape[-1]])
    result = nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and output_rank >= 3:
        result = array_ops.reshape(result, output_shape[:-1])
    return result


def binary_crossentropy(target, output, from_logits=False):
    """``-(target log(p + eps) + (1 - target) log(1 - p + eps))``, ``p`` clipped at epsilon (from the logits, when
    ``output`` is a sigmoid or ``from_logits``)."""
    from numflow import nn

    target, output = convert_to_tensor(target), convert_to_tensor(output)
    output, from_logits = _logits(output, from_logits, "Sigmoid")
    if from_logits:
        return nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clip(output)
    losses = target * math_ops.log(output + _epsilon())
    losses += (1 - target) * math_ops.log(1 - output + _epsilon())
    return -losses


def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False):
    """The binary cross entropy times ``(1 - p_t) ** gamma`` (``p_t`` the probability of the true class), and by
    ``alpha`` for ones and ``1 - alpha`` for zeros with ``apply_class_balancing``."""
    sigmoidal = math_ops.sigmoid(output) if from_logits else output
    p_t = target * sigmoidal + (1 - target) * (1 - sigmoidal)
    focal_bce = math_ops.pow(1.0 - p_t, gamma) * binary_crossentropy(target, output, from_logits=from_logits)
    if apply_class_balancing:
        focal_bce = (target * alpha + (1 - target) * (1 - alpha)) * focal_bce
    return focal_bce


def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False, axis=-1):
    """``sum(alpha * (1 - p) ** gamma * -target * log(p))`` over ``axis``, ``p`` the probabilities scaled to sum to
    1 and clipped at epsilon (from the logits, when ``output`` is a softmax or ``from_logits``)."""
    from numflow import nn

    target, output = convert_to_tensor(target), convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    output, from_logits = _logits(output, from_logits, "Softmax")
    if from_logits:
        output = nn.softmax(output, axis=axis)
    output = _clip(output / math_ops.reduce_sum(output, axis, True))
    cce = -target * math_ops.log(output)
    weighting_factor = math_ops.multiply(math_ops.pow(1.0 - output, gamma), alpha)
    return math_ops.reduce_sum(math_ops.multiply(weighting_factor, cce), axis)


# -- functions -----------------------------------------------------------------------------------------------
class Function:
    """``function(inputs, outputs, updates)``: called with a list of input values, it runs ``outputs`` (and the
    ``updates``) in the Keras session and gives the outputs' values."""

    def __init__(self, inputs, outputs, updates=None, name=None):
        from numflow.ops.control_flow_ops import group

        self.inputs, self.outputs, self.name = list(inputs), list(outputs), name
        self._updates = group(*updates) if updates else None

    def __call__(self, inputs):
        from numflow.keras.backend import get_session

        if len(inputs) != len(self.inputs):
            raise ValueError(f"Expected {len(self.inputs)} inputs, got {len(inputs)}.")
        fetches = self.outputs + ([self._updates] if self._updates is not None else [])
        values = get_session().run(fetches, feed_dict=dict(zip(self.inputs, inputs)))
        return values[:len(self.outputs)]


def function(inputs, outputs, updates=None, name=None, **kwargs):
    """A :class:`Function` of ``inputs`` to ``outputs`` run in the Keras session."""
    del kwargs
    return Function(inputs, outputs, updates=updates, name=name)
