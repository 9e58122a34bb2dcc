"""Keras' attention layers: Attention (dot-product or concat scores), AdditiveAttention (Bahdanau), EinsumDense
and MultiHeadAttention (query, key, value and output projections as EinsumDense sublayers ``query``, ``key``,
``value`` and ``attention_output``), with Keras' equations, weights and ops."""

import math
import re
import string

import numpy as np

from numflow.framework import dtypes
from numflow.framework.shapes import TensorShape
from numflow.keras import activations, initializers, regularizers
from numflow.keras.engine.base_layer import Layer, config_value
from numflow.keras.layers.activation import Softmax
from numflow.keras.layers.noise import SeededLayer
from numflow.keras.layers.wrapped import KERNEL_AND_BIAS_KEYS, Dropout
from numflow.ops import array_ops, math_ops
from numflow.ops.einsum_ops import einsum


# -- dense attention ---------------------------------------------------------------------------------------
class _DenseAttention(SeededLayer):
    """Attention of ``[query, value]`` or ``[query, value, key]`` (``[batch, T, dim]`` each): ``softmax(scores)``
    (masked by ``mask=[query_mask, value_mask]`` and ``use_causal_mask``; dropped out at ``dropout`` in training)
    times ``value``."""

    _config_keys = ("dropout",)

    def __init__(self, dropout=0.0, **kwargs):
        self.causal = kwargs.pop("causal", False)
        super().__init__(**kwargs)
        self.dropout = dropout

    def _apply_scores(self, scores, value, scores_mask=None, training=None):
        from numflow.keras import backend
        from numflow.layers.core import smart_cond
        from numflow.ops.dropout_ops import dropout
        from numflow.ops.nn_ops import softmax

        if scores_mask is not None:
            padding_mask = math_ops.logical_not(scores_mask)
            big = 65504.0 if scores.dtype.base_dtype == dtypes.float16 else 1.0e9
            scores -= big * math_ops.cast(padding_mask, dtype=scores.dtype)
        if training is None:
            training = backend.learning_phase()
        weights = softmax(scores)
        if self.dropout > 0:
            kept = weights
            weights = smart_cond(training, lambda: dropout(kept, rate=self.dropout, seed=self._legacy_seed()),
                                 lambda: array_ops.identity(kept))
        return math_ops.matmul(weights, value), weights

    def call(self, inputs, mask=None, training=None, return_attention_scores=False, use_causal_mask=False):
        self._validate_call_args(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = mask[0] if mask else None
        value_mask = mask[1] if mask else None
        scores = self._calculate_scores(query=query, key=key)
        if value_mask is not None:
            value_mask = array_ops.expand_dims(value_mask, axis=-2)
        causal_mask = None
        if self.causal or use_causal_mask:
            scores_shape = array_ops.shape(scores)
            causal_mask = _lower_triangular_mask(
                array_ops.concat([array_ops.ones_like(scores_shape[:-2]), scores_shape[-2:]], axis=0))
        scores_mask = _merge_masks(value_mask, causal_mask)
        result, attention_scores = self._apply_scores(scores, value, scores_mask=scores_mask, training=training)
        if query_mask is not None:
            result *= math_ops.cast(array_ops.expand_dims(query_mask, axis=-1), dtype=result.dtype)
        return (result, attention_scores) if return_attention_scores else result

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape[0])

    def _validate_call_args(self, inputs, mask):
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or [query, "
                             f"value, key]. Received: {inputs}.")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or [query, "
                             f"value, key]. Received length: {len(inputs)}.")
        if mask:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, value_mask]. Received: "
                                 f"{mask}.")
            if len(mask) < 2 or len(mask) > len(inputs):
                raise ValueError(f"{name} layer mask must be a list of length 2, namely [query_mask, value_mask]. "
                                 f"Received length: {len(mask)}.")


def _lower_triangular_mask(shape):
    """True on and below the diagonal of the last two dimensions."""
    from numflow.ops.scan_ops import cumsum

    ones = array_ops.ones(shape=shape, dtype=dtypes.int32)
    return math_ops.greater_equal(cumsum(ones, axis=-2), cumsum(ones, axis=-1))


def _merge_masks(x, y):
    if x is None:
        return y
    return x if y is None else math_ops.logical_and(x, y)


class Attention(_DenseAttention):
    """Luong-style attention: scores ``query @ key^T`` (``score_mode="dot"``, times a learned ``scale`` when
    ``use_scale``) or ``sum(tanh(query + key))`` (``"concat"``, times a learned ``concat_score_weight``)."""

    _config_keys = ("use_scale", "score_mode", "dropout")

    def __init__(self, use_scale=False, score_mode="dot", **kwargs):
        super().__init__(**kwargs)
        self.use_scale, self.score_mode = use_scale, score_mode
        if score_mode not in ("dot", "concat"):
            raise ValueError(f'Received: score_mode={score_mode}. Acceptable values are: ["dot", "concat"]')

    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones", dtype=self.dtype,
                                     trainable=True) if self.use_scale else None
        self.concat_score_weight = None
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(name="concat_score_weight", shape=(), initializer="ones",
                                                       dtype=self.dtype, trainable=True)
        self.built = True

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = math_ops.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else scores * self.scale
        q_reshaped = array_ops.expand_dims(query, axis=-2)
        k_reshaped = array_ops.expand_dims(key, axis=-3)
        summed = q_reshaped + k_reshaped if self.scale is None else self.scale * (q_reshaped + k_reshaped)
        return self.concat_score_weight * math_ops.reduce_sum(math_ops.tanh(summed), axis=-1)


class AdditiveAttention(_DenseAttention):
    """Bahdanau-style attention: scores ``sum(scale * tanh(query + key))`` with a learned ``scale`` of the
    value's width (1 when not ``use_scale``)."""

    _config_keys = ("use_scale", "dropout")

    def __init__(self, use_scale=True, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        dim = TensorShape(input_shape[1]).as_list()[-1]
        self.scale = self.add_weight(name="scale", shape=[dim], initializer="glorot_uniform", dtype=self.dtype,
                                     trainable=True) if self.use_scale else None
        self.built = True

    def _calculate_scores(self, query, key):
        q_reshaped = array_ops.expand_dims(query, axis=-2)
        k_reshaped = array_ops.expand_dims(key, axis=-3)
        scale = self.scale if self.use_scale else 1.0
        return math_ops.reduce_sum(scale * math_ops.tanh(q_reshaped + k_reshaped), axis=-1)


# -- EinsumDense -------------------------------------------------------------------------------------------
class EinsumDense(Layer):
    """``activation(einsum(equation, inputs, kernel) + bias)``: the kernel's shape follows from the equation, the
    inputs' shape and ``output_shape`` (the output's dimensions after the batch); ``bias_axes`` names the output
    letters the bias spans."""

    def __init__(self, equation, output_shape, activation=None, bias_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.equation = equation
        self.partial_output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    _config_keys = ("equation", "activation", "bias_axes", *KERNEL_AND_BIAS_KEYS)

    def get_config(self):
        """tf-keras' config: with ``output_shape`` as the list of dimensions given."""
        return {**super().get_config(), "output_shape": self.partial_output_shape}

    def build(self, input_shape):
        kernel_shape, bias_shape, self.full_output_shape = _analyze_einsum_string(
            self.equation, self.bias_axes, TensorShape(input_shape).as_list(), self.partial_output_shape)
        self.kernel = self.add_weight("kernel", shape=kernel_shape, initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                      dtype=self.dtype, trainable=True)
        self.bias = None
        if bias_shape is not None:
            self.bias = self.add_weight("bias", shape=bias_shape, initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        dtype=self.dtype, trainable=True)
        self.built = True

    def compute_output_shape(self, input_shape):
        return TensorShape(self.full_output_shape)

    def call(self, inputs):
        result = einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            result += self.bias
        return result if self.activation is None else self.activation(result)


def _analyze_einsum_string(equation, bias_axes, input_shape, output_shape):
    """``(kernel shape, bias shape or None, full output shape)`` of an EinsumDense."""
    replaced = re.sub(r"\.\.\.", "0", equation)
    for pattern, left_elided in (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", False),
                                 ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", True),
                                 ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0", False)):
        split = re.match(pattern, replaced)
        if split:
            return _analyze_split_string(split, bias_axes, input_shape, output_shape, left_elided)
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
                     "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _analyze_split_string(split, bias_axes, input_shape, output_shape, left_elided):
    input_spec, weight_spec, output_spec = split.group(1), split.group(2), split.group(3)
    elided = len(input_shape) - len(input_spec)
    output_shape = [input_shape[0], *output_shape]
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        output_shape.extend(input_shape[len(input_shape) - elided:])
    if left_elided:
        input_dim_map = {dim: i + elided - len(input_shape) for i, dim in enumerate(input_spec)}
        output_dim_map = {dim: i + elided for i, dim in enumerate(output_spec)}
    else:
        input_dim_map = {dim: i for i, dim in enumerate(input_spec)}
        output_dim_map = {dim: i for i, dim in enumerate(output_spec)}
    for dim in input_spec:
        if dim in output_dim_map:
            wanted = output_shape[output_dim_map[dim]]
            if wanted is not None and wanted != input_shape[input_dim_map[dim]]:
                raise ValueError(f"Input shape and output shape do not match at shared dimension '{dim}'. Input "
                                 f"shape is {input_shape[input_dim_map[dim]]}, and output shape is {wanted}.")
    for dim in output_spec:
        if dim not in input_spec and dim not in weight_spec:
            raise ValueError(f"Dimension '{dim}' was specified in the output '{output_spec}' but has no "
                             f"corresponding dim in the input spec '{input_spec}' or weight spec '{output_spec}'")
    weight_shape = []
    for dim in weight_spec:
        if dim in input_dim_map:
            weight_shape.append(input_shape[input_dim_map[dim]])
        elif dim in output_dim_map:
            weight_shape.append(output_shape[output_dim_map[dim]])
        else:
            raise ValueError(f"Weight dimension '{dim}' did not have a match in either the input spec "
                             f"'{input_spec}' or the output spec '{output_spec}'. For this layer, the weight must be "
                             "fully specified.")
    if bias_axes is None:
        return weight_shape, None, output_shape
    offset = elided if left_elided else 0
    sizes = {char: output_shape[i + offset] for i, char in enumerate(output_spec)}
    for char in bias_axes:
        if char not in output_spec:
            raise ValueError(f"Bias dimension '{char}' was requested, but is not part of the output spec "
                             f"'{output_spec}'")
    first = min(output_spec.find(char) for char in bias_axes)
    bias_shape = [sizes[char] if char in bias_axes else 1 for char in output_spec[first:]]
    if not left_elided:
        bias_shape.extend([1] * elided)
    return weight_shape, bias_shape, output_shape


# -- MultiHeadAttention ------------------------------------------------------------------------------------
_LETTERS = string.ascii_lowercase


def _attention_equations(rank, attn_axes):
    """``(dot product equation, combine equation, rank of the scores)`` over the ``attn_axes`` of projected
    tensors of ``rank`` (the last two: heads and features)."""
    target = _LETTERS[:rank]
    batch_dims = tuple(np.delete(range(rank), (*attn_axes, rank - 1)))
    offset = rank
    source = ""
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _LETTERS[offset]
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes]
                      + [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def _projection_equation(free_dims, bound_dims, output_dims):
    """``(equation, bias axes, output rank)`` of a projection keeping ``free_dims``, contracting ``bound_dims``
    and making ``output_dims``."""
    input_str = _LETTERS[:free_dims + bound_dims]
    kernel_str = _LETTERS[free_dims:free_dims + bound_dims + output_dims]
    bias_axes = _LETTERS[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    output_str = _LETTERS[:free_dims] + bias_axes
    return f"{input_str},{kernel_str}->{output_str}", bias_axes, len(output_str)


def _output_shape(output_rank, known_last_dims):
    return [None] * (output_rank - len(known_last_dims)) + list(known_last_dims)


class MultiHeadAttention(Layer):
    """Multi-head attention (Vaswani et al.): ``query``, ``key`` and ``value`` projected to ``num_heads`` heads
    of ``key_dim`` (``value_dim``) features, attended over ``attention_axes`` (all but the batch and features by
    default) and projected back to the query's width (or ``output_shape``)."""

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, softmax_robust_masking=False, **kwargs):
        super().__init__(**kwargs)
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout, self._use_bias, self._output_shape = dropout, use_bias, output_shape
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._sublayer_activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint, self._bias_constraint = kernel_constraint, bias_constraint
        self._softmax_robust_masking = softmax_robust_masking
        if attention_axes is not None and not isinstance(attention_axes, list | tuple):
            attention_axes = (attention_axes,)
        self._attention_axes = attention_axes
        self._built_from_signature = False

    def get_config(self):
        """tf-keras' config: the constructor's arguments, and the shapes of the first call's inputs (None before)."""
        arguments = {"num_heads": self._num_heads, "key_dim": self._key_dim, "value_dim": self._value_dim,
                     "dropout": self._dropout, "use_bias": self._use_bias, "output_shape": self._output_shape,
                     "attention_axes": self._attention_axes, **self._sublayer_arguments(),
                     "softmax_robust_masking": self._softmax_robust_masking}
        shapes = {f"{kind}_shape": getattr(self, f"_{kind}_shape").as_list() if self._built_from_signature else None
                  for kind in ("query", "key", "value")}
        return {**super().get_config(), **{key: config_value(key, value) for key, value in arguments.items()},
                **shapes}

    @classmethod
    def from_config(cls, config):
        """The layer ``config`` describes, built on its first call (the inputs' shapes in it are left to that)."""
        config = {key: value for key, value in config.items() if key not in ("query_shape", "key_shape",
                                                                              "value_shape")}
        return cls(**config)

    def _sublayers(self):
        """The projections, whose weights and losses are the layer's (in Keras' order)."""
        if not self._built_from_signature:
            return []
        return [self._query_dense, self._key_dense, self._value_dense, self._output_dense]

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for layer in self._sublayers() for w in layer.trainable_weights] + super().trainable_weights

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return [w for layer in self._sublayers() for w in layer.weights] + super().non_trainable_weights
        return [w for layer in self._sublayers() for w in layer.non_trainable_weights] + super().non_trainable_weights

    @property
    def losses(self):
        return super().losses + [loss for layer in self._sublayers() for loss in layer.losses]

    def _sublayer_arguments(self):
        return {"kernel_regularizer": self._kernel_regularizer, "bias_regularizer": self._bias_regularizer,
                "activity_regularizer": self._sublayer_activity_regularizer,
                "kernel_constraint": self._kernel_constraint, "bias_constraint": self._bias_constraint,
                "kernel_initializer": self._kernel_initializer, "bias_initializer": self._bias_initializer}

    def _projection(self, rank, dims, name, bound_dims=1):
        equation, bias_axes, output_rank = _projection_equation(rank - 1, bound_dims, len(dims))
        return EinsumDense(equation, output_shape=_output_shape(output_rank - 1, dims),
                           bias_axes=bias_axes if self._use_bias else None, name=name, **self._sublayer_arguments())

    def _build_from_signature(self, query, value, key=None):
        self._built_from_signature = True
        self._query_shape = TensorShape(query.shape)
        self._value_shape = TensorShape(value.shape)
        self._key_shape = self._value_shape if key is None else TensorShape(key.shape)
        self._query_dense = self._projection(self._query_shape.ndims, [self._num_heads, self._key_dim], "query")
        self._key_dense = self._projection(self._key_shape.ndims, [self._num_heads, self._key_dim], "key")
        self._value_dense = self._projection(self._value_shape.ndims, [self._num_heads, self._value_dim], "value")
        output_rank = self._value_shape.ndims + 1
        if self._attention_axes is None:
            self._attention_axes = tuple(range(1, output_rank - 2))
        else:
            self._attention_axes = tuple(self._attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = _attention_equations(
            output_rank, self._attention_axes)
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, robust_masking=self._softmax_robust_masking)
        self._dropout_layer = Dropout(rate=self._dropout)
        if self._output_shape:
            dims = list(self._output_shape) if isinstance(self._output_shape, list | tuple) else [self._output_shape]
        else:
            dims = [self._query_shape.as_list()[-1]]
        self._output_dense = self._projection(self._query_shape.ndims, dims, "attention_output", bound_dims=2)

    def _masked_softmax(self, attention_scores, attention_mask=None):
        if attention_mask is not None:
            expansion_axis = -len(self._attention_axes) * 2 - 1
            for _ in range(attention_scores.shape.ndims - attention_mask.shape.ndims):
                attention_mask = array_ops.expand_dims(attention_mask, axis=expansion_axis)
        return self._softmax(attention_scores, attention_mask)

    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        query = math_ops.multiply(query, 1.0 / math.sqrt(float(self._key_dim)))
        attention_scores = einsum(self._dot_product_equation, key, query)
        attention_scores = self._masked_softmax(attention_scores, attention_mask)
        dropped = self._dropout_layer(attention_scores, training=training)
        return einsum(self._combine_equation, dropped, value), attention_scores

    def call(self, query, value, key=None, attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        if not self._built_from_signature:
            self._build_from_signature(query=query, value=value, key=key)
        if key is None:
            key = value
        if use_causal_mask:
            causal = self._compute_causal_mask(query, value)
            attention_mask = causal if attention_mask is None else math_ops.logical_and(
                math_ops.cast(attention_mask, dtypes.bool), causal)
        query = self._query_dense(query)
        key = self._key_dense(key)
        value = self._value_dense(value)
        output, scores = self._compute_attention(query, key, value, attention_mask, training)
        output = self._output_dense(output)
        return (output, scores) if return_attention_scores else output

    def _compute_causal_mask(self, query, value=None):
        from numflow.ops.linalg_ops import matrix_band_part

        q_length = array_ops.shape(query)[1]
        v_length = q_length if value is None else array_ops.shape(value)[1]
        return matrix_band_part(array_ops.ones((1, q_length, v_length), dtypes.bool), -1, 0)

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        query_shape, value_shape = TensorShape(query_shape), TensorShape(value_shape)
        key_shape = value_shape if key_shape is None else TensorShape(key_shape)
        if query_shape[-1] != value_shape[-1]:
            raise ValueError(f"The last dimension of `query_shape` and `value_shape` must be equal, but are "
                             f"{query_shape[-1]}, {value_shape[-1]}. Received: query_shape={query_shape}, "
                             f"value_shape={value_shape}")
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(f"All dimensions of `value` and `key`, except the last one, must be equal. Received "
                             f"{value_shape} and {key_shape}")
        if self._output_shape:
            return query_shape[:-1].concatenate(self._output_shape)
        return query_shape
