"""The Keras recurrent cells of TensorFlow 1.x mode (``tf.compat.v1.keras.layers``): ``SimpleRNNCell``,
``LSTMCell`` and ``GRUCell`` (the v1 classes: ``hard_sigmoid`` gates, ``implementation=1``, GRU's
``reset_after=False``), ``StackedRNNCells`` and ``AbstractRNNCell``, computed step by step with tf-keras' ops
in tf-keras' order, so that the numbers are TensorFlow's to float rounding.

A cell is a Keras layer called on one time step, ``cell(inputs_t, states) -> (output_t, new_states)``. Its
weights are ``kernel``, ``recurrent_kernel`` and ``bias`` in the name scope it is built in: an ``RNN`` layer
builds it in ``<layer>/<cell>`` (``lstm/lstm_cell/kernel``). Dropout masks (``dropout``,
``recurrent_dropout``) are drawn once per call of the ``RNN`` layer, on its first step (outside the loop),
and the same masks serve every step.
"""

import inspect

from numflow.framework import dtypes, nest
from numflow.framework.shapes import TensorShape
from numflow.keras import activations, backend, constraints, initializers, regularizers
from numflow.keras.backend import in_train_phase
from numflow.keras.backend_nn import bias_add
from numflow.keras.engine.base_layer import Layer
from numflow.ops import array_ops
from numflow.ops.dropout_ops import dropout as nn_dropout
from numflow.ops.tile_pad_split_ops import split


def zero_state(batch_size, state_size, dtype):
    """Zeros ``[batch_size] + size`` for each size in ``state_size`` (a nested structure or one size)."""
    if batch_size is None or dtype is None:
        raise ValueError(f"batch_size and dtype cannot be None while constructing initial state. Received: "
                         f"batch_size={batch_size}, dtype={dtype}")

    def zeros(size):
        return array_ops.zeros([batch_size] + TensorShape(size).as_list(), dtype=dtype)

    return nest.map_structure(zeros, state_size) if nest.is_nested(state_size) else zeros(state_size)


def is_multiple_state(state_size):
    """Whether ``state_size`` lists several states (an LSTM's ``[units, units]``) rather than one size."""
    return hasattr(state_size, "__len__") and not isinstance(state_size, TensorShape)


def build_cell(cell, input_shape, dtype):
    """Build ``cell`` (a Keras layer) for step inputs of ``input_shape``, its weights of ``dtype`` unless it has
    its own."""
    if cell._dtype is None and dtype is not None:
        cell._dtype = dtypes.as_dtype(dtype).base_dtype
    cell.build(input_shape)
    cell.built = True


class InnerWeights:
    """A layer's weights and losses: those of the layers it runs (``_inner_layers()``) first, then its own."""

    def _inner_layers(self):
        raise NotImplementedError

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for layer in self._inner_layers() for w in layer.trainable_weights] + super().trainable_weights

    @property
    def non_trainable_weights(self):
        inner = [w for layer in self._inner_layers() for w in layer.non_trainable_weights]
        if not self.trainable:
            inner = [w for layer in self._inner_layers() for w in layer.trainable_weights] + inner
        return inner + super().non_trainable_weights

    @property
    def losses(self):
        return [loss for layer in self._inner_layers() for loss in layer.losses] + super().losses


class AbstractRNNCell(Layer):
    """The base of a custom cell: define ``state_size``, ``output_size`` and ``call(inputs, states)``."""

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Zero states for ``inputs``' batch (or ``batch_size`` and ``dtype``)."""
        if inputs is not None:
            batch_size, dtype = array_ops.shape(inputs)[0], inputs.dtype
        return zero_state(batch_size, self.state_size, dtype)


class DropoutRNNCellMixin:
    """The dropout masks of a cell, drawn on the first step of each call of its ``RNN`` and reused after."""

    def reset_dropout_mask(self):
        self._dropout_masks = {}

    reset_recurrent_dropout_mask = reset_dropout_mask

    def _mask(self, kind, rate, inputs, training, count):
        masks = self.__dict__.setdefault("_dropout_masks", {})
        if kind not in masks:
            ones = array_ops.ones_like(inputs)

            def dropped():
                return nn_dropout(ones, rate=rate)

            made = [in_train_phase(dropped, ones, training=training) for _ in range(count)]
            masks[kind] = made if count > 1 else made[0]
        return masks[kind]

    def get_dropout_mask_for_cell(self, inputs, training, count=1):
        """The inputs' dropout masks (``count`` of them), None without ``dropout``."""
        return None if self.dropout == 0 else self._mask("inputs", self.dropout, inputs, training, count)

    def get_recurrent_dropout_mask_for_cell(self, inputs, training, count=1):
        """The states' dropout masks (``count`` of them), None without ``recurrent_dropout``."""
        if self.recurrent_dropout == 0:
            return None
        return self._mask("recurrent", self.recurrent_dropout, inputs, training, count)


class _GatedCell(DropoutRNNCellMixin, Layer):
    """What the three cells share: arguments, weights, dropout rates and the zero state."""

    _gates = 1
    _config_keys = ("units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                    "recurrent_initializer", "bias_initializer", "kernel_regularizer", "recurrent_regularizer",
                    "bias_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                    "recurrent_dropout", "implementation")

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 implementation=1, **kwargs):
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        kwargs.pop("enable_caching_device", None)
        super().__init__(**kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.implementation = 1 if self.recurrent_dropout != 0 else implementation
        self.state_size = self.output_size = units

    def _bias_initializer(self):
        return self.bias_initializer

    def _bias_shape(self):
        return (self.units * self._gates,)

    def build(self, input_shape):
        input_dim = TensorShape(nest.flatten(input_shape)[0] if nest.is_nested(input_shape) else input_shape)[-1]
        width = self.units * self._gates
        self.kernel = self.add_weight(shape=(int(input_dim), width), name="kernel",
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=(self.units, width), name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(shape=self._bias_shape(), name="bias", initializer=self._bias_initializer(),
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Zero states for ``inputs``' batch (or ``batch_size`` and ``dtype``)."""
        return AbstractRNNCell.get_initial_state(self, inputs, batch_size, dtype)


def _times(x, masks, count):
    """``x`` times each of ``masks``, or ``x`` ``count`` times without masks."""
    return [x * m for m in masks] if masks is not None else [x] * count


class SimpleRNNCell(_GatedCell):
    """``output = activation(inputs @ kernel + bias + state @ recurrent_kernel)``; the output is the state."""

    _config_keys = tuple(k for k in _GatedCell._config_keys if k not in ("recurrent_activation", "implementation"))

    def __init__(self, units, activation="tanh", **kwargs):
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, **kwargs)

    def call(self, inputs, states, training=None):
        previous = states[0] if nest.is_nested(states) else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(previous, training)
        h = backend.dot(inputs * dp_mask if dp_mask is not None else inputs, self.kernel)
        if self.bias is not None:
            h = bias_add(h, self.bias)
        if rec_dp_mask is not None:
            previous = previous * rec_dp_mask
        output = h + backend.dot(previous, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, [output] if nest.is_nested(states) else output


class LSTMCell(_GatedCell):
    """The LSTM step: gates ``i, f, c, o`` (in that order along the weights' columns), ``unit_forget_bias``
    starting the forget gate's bias at 1; the states are ``[h, c]``."""

    _gates = 4
    _config_keys = (*_GatedCell._config_keys, "unit_forget_bias")

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [units, units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer

        def initializer(_, *args, **kwargs):
            return backend.concatenate([self.bias_initializer((self.units,), *args, **kwargs),
                                        initializers.get("ones")((self.units,), *args, **kwargs),
                                        self.bias_initializer((self.units * 2,), *args, **kwargs)])

        return initializer

    def call(self, inputs, states, training=None):
        h_tm1, c_tm1 = states[0], states[1]
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        act, rec = self.activation, self.recurrent_activation
        if self.implementation == 1:
            x = [backend.dot(x_g, k_g) for x_g, k_g in zip(_times(inputs, dp_mask if 0 < self.dropout < 1 else None,
                                                                  4), split(self.kernel, 4, axis=1))]
            if self.use_bias:
                x = [bias_add(x_g, b_g) for x_g, b_g in zip(x, split(self.bias, 4, axis=0))]
            h = _times(h_tm1, rec_dp_mask if 0 < self.recurrent_dropout < 1 else None, 4)
            u, k = self.units, self.recurrent_kernel
            i = rec(x[0] + backend.dot(h[0], k[:, :u]))
            f = rec(x[1] + backend.dot(h[1], k[:, u:u * 2]))
            c = f * c_tm1 + i * act(x[2] + backend.dot(h[2], k[:, u * 2:u * 3]))
            o = rec(x[3] + backend.dot(h[3], k[:, u * 3:]))
        else:
            if 0.0 < self.dropout < 1.0:
                inputs = inputs * dp_mask[0]
            z = backend.dot(inputs, self.kernel)
            z += backend.dot(h_tm1, self.recurrent_kernel)
            if self.use_bias:
                z = bias_add(z, self.bias)
            z0, z1, z2, z3 = split(z, 4, axis=1)
            i, f = rec(z0), rec(z1)
            c = f * c_tm1 + i * act(z2)
            o = rec(z3)
        h = o * act(c)
        return h, [h, c]


class GRUCell(_GatedCell):
    """The GRU step: gates ``z, r, h`` along the weights' columns; ``reset_after`` (False in TensorFlow 1.x) applies
    the reset gate after the recurrent product, with a second, recurrent bias (``bias`` of shape ``(2, 3 *
    units)``)."""

    _gates = 3
    _config_keys = (*_GatedCell._config_keys, "reset_after")

    def __init__(self, units, reset_after=False, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states, training=None):
        h_tm1 = states[0] if nest.is_nested(states) else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=3)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=3)
        u, kernel, rk = self.units, self.kernel, self.recurrent_kernel
        input_bias = recurrent_bias = None
        if self.use_bias:
            input_bias, recurrent_bias = (array_ops.unstack(self.bias) if self.reset_after else (self.bias, None))
        if self.implementation == 1:
            x_in = _times(inputs, dp_mask if 0.0 < self.dropout < 1.0 else None, 3)
            x = [backend.dot(x_in[0], kernel[:, :u]), backend.dot(x_in[1], kernel[:, u:u * 2]),
                 backend.dot(x_in[2], kernel[:, u * 2:])]
            if self.use_bias:
                x = [bias_add(x[0], input_bias[:u]), bias_add(x[1], input_bias[u:u * 2]),
                     bias_add(x[2], input_bias[u * 2:])]
            h = _times(h_tm1, rec_dp_mask if 0.0 < self.recurrent_dropout < 1.0 else None, 3)
            recurrent_z = backend.dot(h[0], rk[:, :u])
            recurrent_r = backend.dot(h[1], rk[:, u:u * 2])
            if self.reset_after and self.use_bias:
                recurrent_z = bias_add(recurrent_z, recurrent_bias[:u])
                recurrent_r = bias_add(recurrent_r, recurrent_bias[u:u * 2])
            z = self.recurrent_activation(x[0] + recurrent_z)
            r = self.recurrent_activation(x[1] + recurrent_r)
            if self.reset_after:
                recurrent_h = backend.dot(h[2], rk[:, u * 2:])
                if self.use_bias:
                    recurrent_h = bias_add(recurrent_h, recurrent_bias[u * 2:])
                recurrent_h = r * recurrent_h
            else:
                recurrent_h = backend.dot(r * h[2], rk[:, u * 2:])
            hh = self.activation(x[2] + recurrent_h)
        else:
            if 0.0 < self.dropout < 1.0:
                inputs = inputs * dp_mask[0]
            matrix_x = backend.dot(inputs, kernel)
            if self.use_bias:
                matrix_x = bias_add(matrix_x, input_bias)
            x_z, x_r, x_h = split(matrix_x, 3, axis=-1)
            if self.reset_after:
                matrix_inner = backend.dot(h_tm1, rk)
                if self.use_bias:
                    matrix_inner = bias_add(matrix_inner, recurrent_bias)
            else:
                matrix_inner = backend.dot(h_tm1, rk[:, :2 * u])
            recurrent_z, recurrent_r, recurrent_h = split(matrix_inner, [u, u, -1], axis=-1)
            z = self.recurrent_activation(x_z + recurrent_z)
            r = self.recurrent_activation(x_r + recurrent_r)
            if self.reset_after:
                recurrent_h = r * recurrent_h
            else:
                recurrent_h = backend.dot(r * h_tm1, rk[:, 2 * u:])
            hh = self.activation(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, [h] if nest.is_nested(states) else h


class StackedRNNCells(InnerWeights, Layer):
    """Cells run one after the other at each step: each cell's output is the next one's input; the states are
    all the cells' states in order."""

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(f"All cells must have a `call` method. Received cell without a `call` method: "
                                 f"{cell}")
            if "state_size" not in dir(cell):
                raise ValueError(f"All cells must have a `state_size` attribute. Received cell without a "
                                 f"`state_size`: {cell}")
        self.cells = cells
        super().__init__(**kwargs)

    def get_config(self):
        from numflow.keras.layers.layer_serialization import serialize

        # The dtype it was made with (None unless given), not the one its RNN built it with, as tf-keras.
        return {**super().get_config(), "dtype": self._constructor_arguments[1].get("dtype"),
                "cells": [serialize(cell) for cell in self.cells]}

    @classmethod
    def from_config(cls, config):
        from numflow.keras.layers.layer_serialization import deserialize

        config = dict(config)
        return cls([deserialize(cell) for cell in config.pop("cells")], **config)

    @property
    def state_size(self):
        return tuple(c.state_size for c in self.cells)

    @property
    def output_size(self):
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        return last.state_size[0] if is_multiple_state(last.state_size) else last.state_size

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Each cell's initial states, in order."""
        states = []
        for cell in self.cells:
            get = getattr(cell, "get_initial_state", None)
            states.append(get(inputs=inputs, batch_size=batch_size, dtype=dtype) if get
                          else zero_state(batch_size, cell.state_size, dtype))
        return tuple(states)

    def call(self, inputs, states, constants=None, training=None, **kwargs):
        nested_states = nest.pack_sequence_as(self.state_size, nest.flatten(states))
        new_nested_states = []
        for cell, cell_states in zip(self.cells, nested_states):
            cell_states = cell_states if nest.is_nested(cell_states) else [cell_states]
            cell_kwargs = {"training": training} if cell._expects_training_arg else {}
            if constants is not None and "constants" in inspect.signature(cell.call).parameters:
                cell_kwargs["constants"] = constants
            inputs, cell_states = cell(inputs, cell_states, **cell_kwargs)
            new_nested_states.append(cell_states)
        return inputs, nest.pack_sequence_as(self.state_size, nest.flatten(new_nested_states))

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with backend.name_scope(cell.name):
                    build_cell(cell, input_shape, self._dtype)
            size = getattr(cell, "output_size", None) or cell.state_size
            size = size[0] if is_multiple_state(size) else size
            input_shape = TensorShape([TensorShape(input_shape)[0]]).concatenate(TensorShape(size))
        self.built = True

    def _inner_layers(self):
        return self.cells
