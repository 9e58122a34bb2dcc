"""``tf.keras.layers.LayerNormalization``: each example normalized over ``axis`` (the last by default) and
scaled by ``gamma`` and shifted by ``beta``, through one ``FusedBatchNormV3`` of the examples as channels, as
Keras does when it can."""

from numflow.framework.shapes import TensorShape
from numflow.keras import constraints, initializers, regularizers
from numflow.keras.engine.base_layer import Layer
from numflow.ops import array_ops, math_ops


class LayerNormalization(Layer):
    """``gamma * (x - mean) / sqrt(variance + epsilon) + beta`` with the moments of each example over
    ``axis``."""

    _config_keys = ("axis", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer",
                    "beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint")

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, list | tuple) else axis
        self.epsilon, self.center, self.scale = epsilon, center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        ndims = shape.ndims
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        self.axis = sorted(a + ndims if a < 0 else a for a in axes)
        for a in self.axis:
            if a < 0 or a >= ndims:
                raise ValueError(f"Invalid axis: {a}")
        param_shape = [shape.as_list()[a] for a in self.axis]
        self.gamma = self.add_weight("gamma", shape=param_shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                     trainable=True) if self.scale else None
        self.beta = self.add_weight("beta", shape=param_shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                    trainable=True) if self.center else None

    def call(self, inputs):
        from numflow.ops.nn_norm_ops import fused_batch_norm

        input_shape = inputs.shape
        ndims = input_shape.ndims
        broadcast_shape = [1] * ndims
        for a in self.axis:
            broadcast_shape[a] = input_shape.as_list()[a]

        def broadcast(v):
            if v is not None and len(v.shape) != ndims and self.axis != [ndims - 1]:
                return array_ops.reshape(v, broadcast_shape)
            return v

        tensor_shape = array_ops.shape(inputs)
        pre_dim, in_dim = 1, 1
        for dim in range(ndims):
            if dim < self.axis[0]:
                pre_dim = pre_dim * tensor_shape[dim]
            else:
                in_dim = in_dim * tensor_shape[dim]
        squeezed = array_ops.reshape(inputs, [1, pre_dim, in_dim, 1])
        ones = array_ops.ones([pre_dim], dtype=self._dtype)
        zeros = array_ops.zeros([pre_dim], dtype=self._dtype)
        outputs, _, _ = fused_batch_norm(squeezed, scale=ones, offset=zeros, epsilon=self.epsilon,
                                         data_format="NCHW")
        outputs = array_ops.reshape(outputs, tensor_shape)
        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        if scale is not None:
            outputs = outputs * math_ops.cast(scale, outputs.dtype)
        if offset is not None:
            outputs = outputs + math_ops.cast(offset, outputs.dtype)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape
