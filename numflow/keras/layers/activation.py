"""Keras' activation layers: LeakyReLU, PReLU (a learned slope), ELU, ReLU, Softmax and ThresholdedReLU, computed
by the backend functions Keras' own call."""

from numflow.framework.shapes import TensorShape
from numflow.keras import backend, initializers, regularizers
from numflow.keras.engine.base_layer import Layer
from numflow.layers.input_spec import InputSpec
from numflow.ops import math_ops


class _Elementwise(Layer):
    def compute_output_shape(self, input_shape):
        return input_shape


def _not_none(value, message):
    if value is None:
        raise ValueError(f"{message} Received: {value}")
    return backend.cast_to_floatx(value)


class LeakyReLU(_Elementwise):
    """``x`` above 0, ``alpha * x`` below."""

    _config_keys = ("alpha",)

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        self.alpha = _not_none(alpha, "The alpha value of a Leaky ReLU layer cannot be None, Expecting a float.")

    def call(self, inputs):
        return backend.relu(inputs, alpha=self.alpha)


class ELU(_Elementwise):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = _not_none(alpha, "Alpha of an ELU layer cannot be None, expecting a float.")

    def call(self, inputs):
        return backend.elu(inputs, self.alpha)


class ThresholdedReLU(_Elementwise):
    """``x`` where it is above ``theta``, else 0."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        theta = _not_none(theta, "Theta of a Thresholded ReLU layer cannot be None, expecting a float.")
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. Received: {theta}")
        self.theta = theta

    def call(self, inputs):
        return inputs * math_ops.cast(math_ops.greater(inputs, self.theta), inputs.dtype.base_dtype)


class ReLU(_Elementwise):
    """``max(x, 0)`` capped at ``max_value``, with slope ``negative_slope`` below ``threshold``."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: {max_value}")
        for name, value in (("negative_slope", negative_slope), ("threshold", threshold)):
            if value is None or value < 0.0:
                raise ValueError(f"{name} of a ReLU layer cannot be a negative value. Received: {value}")
        self.max_value = None if max_value is None else backend.cast_to_floatx(max_value)
        self.negative_slope = backend.cast_to_floatx(negative_slope)
        self.threshold = backend.cast_to_floatx(threshold)

    def call(self, inputs):
        return backend.relu(inputs, alpha=self.negative_slope, max_value=self.max_value, threshold=self.threshold)


class Softmax(_Elementwise):
    """The softmax over ``axis`` (several axes: ``exp(x - logsumexp(x))``); a ``mask`` (1 to keep) pushes the
    masked entries to a large negative number first."""

    def __init__(self, axis=-1, robust_masking=False, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.robust_masking = axis, robust_masking

    def call(self, inputs, mask=None):
        from numflow.ops.scan_ops import reduce_logsumexp

        if mask is not None:
            inputs = _masked_logits(inputs, mask, self.robust_masking)
        if isinstance(self.axis, tuple | list):
            if len(self.axis) > 1:
                return math_ops.exp(inputs - reduce_logsumexp(inputs, axis=self.axis, keepdims=True))
            return backend.softmax(inputs, axis=self.axis[0])
        return backend.softmax(inputs, axis=self.axis)


def large_negative(dtype):
    """The large negative number a masked logit takes: -1e9, or float16's lowest."""
    from numflow.framework import dtypes

    return dtypes.float16.min if dtype == dtypes.float16 else -1e9


def _masked_logits(inputs, mask, robust):
    from numflow.framework import dtypes
    from numflow.ops.constant_op import constant
    from numflow.ops.selection_ops import where_v2

    if robust:
        if mask.dtype.base_dtype != dtypes.bool:
            mask = math_ops.greater(mask, constant(0.5, dtype=mask.dtype))
        return where_v2(mask, inputs, large_negative(inputs.dtype.base_dtype))
    return inputs + (1.0 - math_ops.cast(mask, inputs.dtype)) * large_negative(inputs.dtype.base_dtype)


class PReLU(_Elementwise):
    """``x`` above 0, ``alpha * x`` below, with a learned ``alpha`` per input element (shared along
    ``shared_axes``)."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = alpha_constraint
        if shared_axes is None:
            self.shared_axes = None
        else:
            self.shared_axes = list(shared_axes) if isinstance(shared_axes, list | tuple) else [shared_axes]

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        param_shape = dims[1:]
        for axis in self.shared_axes or ():
            param_shape[axis - 1] = 1
        self.alpha = self.add_weight(shape=param_shape, name="alpha", initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        axes = {i: dims[i] for i in range(1, len(dims)) if i not in self.shared_axes} if self.shared_axes else {}
        self.input_spec = InputSpec(ndim=len(dims), axes=axes)
        self.built = True

    def call(self, inputs):
        return backend.relu(inputs) + -self.alpha * backend.relu(-inputs)
