"""Keras' layer wrappers and masking in TensorFlow 1.x mode: ``TimeDistributed`` (a layer applied to every time
step), ``Bidirectional`` (a recurrent layer run forwards and backwards, the two merged) and ``Masking`` (the
steps whose features all equal ``mask_value`` masked for the layers after it).

A wrapper builds the layer it wraps in its own name scope (``time_distributed/kernel``); ``Bidirectional``
runs two copies of its layer, ``forward_<name>`` and ``backward_<name>`` (``bidirectional/forward_lstm/
lstm_cell/kernel``), as TensorFlow does.
"""

import copy
import inspect

from numflow.framework import nest
from numflow.framework.shapes import TensorShape
from numflow.keras import backend
from numflow.keras.backend_ops import reverse
from numflow.keras.engine.base_layer import Layer
from numflow.keras.layers.recurrent_cells import InnerWeights, build_cell
from numflow.ops import array_ops, math_ops


class Wrapper(InnerWeights, Layer):
    """The base of layers that run another layer (``layer``), whose weights are theirs."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to wrapper is not a supported layer type. Please ensure "
                             "wrapped layer is a valid TF-Keras layer.")
        self.layer = layer
        super().__init__(**kwargs)

    def _inner_layers(self):
        return [self.layer]

    def get_config(self):
        from numflow.keras.layers.layer_serialization import serialize

        return {**super().get_config(), "layer": serialize(self.layer)}

    @classmethod
    def from_config(cls, config):
        from numflow.keras.layers.layer_serialization import deserialize

        config = dict(config)
        return cls(deserialize(config.pop("layer")), **config)

    def build(self, input_shape=None):
        if not self.layer.built:
            build_cell(self.layer, input_shape, self._dtype)
        self.built = True


class TimeDistributed(Wrapper):
    """``layer`` applied to each time step of ``[batch, time, ...]`` inputs (as one call on ``[batch * time,
    ...]``)."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `tf.keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def build(self, input_shape):
        dims = TensorShape(input_shape)
        if dims.ndims is None or dims.ndims < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape ` with at least 3 dimensions, "
                             f"received: {input_shape}")
        dims = dims.as_list()
        super().build(TensorShape([dims[0]] + dims[2:]))

    @staticmethod
    def _shape(init, tensor, start):
        """``init`` followed by ``tensor``'s dimensions from ``start`` (static where known, else dynamic)."""
        known = backend.int_shape(tensor)[start:]
        if None not in known:
            return (*init, *known)
        dynamic = array_ops.shape(tensor)
        return (*init, *(d if d is not None else dynamic[start + i] for i, d in enumerate(known)))

    def _steps(self, inputs):
        return backend.int_shape(inputs)[1] or array_ops.shape(inputs)[1]

    def call(self, inputs, training=None, mask=None):
        kwargs = {"training": training} if self.layer._expects_training_arg else {}
        batch_size = backend.int_shape(inputs)[0]
        steps = self._steps(inputs)
        inner = array_ops.reshape(inputs, self._shape((-1,), inputs, 2))
        if mask is not None and "mask" in inspect.signature(self.layer.call).parameters:
            kwargs["mask"] = array_ops.reshape(mask, self._shape((-1,), mask, 2))
        y = self.layer(inner, **kwargs)
        return array_ops.reshape(y, self._shape((batch_size or -1, steps), y, 1))

    def compute_mask(self, inputs, mask=None):
        inner_mask = None if mask is None else array_ops.reshape(mask, self._shape((-1,), mask, 2))
        inner_inputs = array_ops.reshape(inputs, self._shape((-1,), inputs, 2))
        output_mask = self.layer.compute_mask(inner_inputs, inner_mask)
        if output_mask is None:
            if mask is None:
                return None
            output_mask = mask
            for _ in range(2, len(backend.int_shape(mask))):
                output_mask = math_ops.reduce_any(output_mask, axis=-1)
            return output_mask
        batch_size = backend.int_shape(inputs)[0]
        return array_ops.reshape(output_mask, self._shape((batch_size or -1, self._steps(inputs)), output_mask, 1))

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        inner = TensorShape(self.layer.compute_output_shape(TensorShape([dims[0]] + dims[2:]))).as_list()
        return TensorShape([inner[0], dims[1]] + inner[1:])


_MERGES = {"concat": lambda y, y_rev: backend.concatenate([y, y_rev]), "sum": lambda y, y_rev: y + y_rev,
           "ave": lambda y, y_rev: (y + y_rev) / 2, "mul": lambda y, y_rev: y * y_rev,
           None: lambda y, y_rev: [y, y_rev]}


class Bidirectional(Wrapper):
    """A recurrent ``layer`` run forwards and (a copy of it, or ``backward_layer``) backwards, the outputs merged
    by ``merge_mode``: ``"concat"`` (the default), ``"sum"``, ``"ave"``, ``"mul"`` or None (both, in a list)."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `tf.keras.layers.Layer` instance. "
                             f"Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(f"`backward_layer` need to be a `tf.keras.layers.Layer` instance. Received: "
                             f"{backward_layer}")
        if weights is not None:
            raise NotImplementedError("Bidirectional(weights=...) is not supported: set the weights with "
                                      "`set_weights` once the layer is built.")
        if merge_mode not in _MERGES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of {{'sum', "
                             "'mul', 'ave', 'concat', None}")
        super().__init__(layer, **kwargs)
        self.forward_layer = _copy_of(layer)
        self._given_backward_layer = backward_layer is not None
        self.backward_layer = backward_layer if backward_layer is not None else _copy_of(layer, backwards=True)
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different `go_backwards` value. Received: "
                             f"forward_layer.go_backwards {self.forward_layer.go_backwards}, "
                             f"backward_layer.go_backwards: {self.backward_layer.go_backwards}")
        for name in ("stateful", "return_sequences", "return_state"):
            if getattr(self.forward_layer, name) != getattr(self.backward_layer, name):
                raise ValueError(f"Forward layer and backward layer are expected to have the same value for attribute "
                                 f'"{name}", got "{getattr(self.forward_layer, name)}" for forward layer and '
                                 f'"{getattr(self.backward_layer, name)}" for backward layer')
        for copied in (self.forward_layer, self.backward_layer):
            if hasattr(copied, "zero_output_for_mask"):
                copied.zero_output_for_mask = copied.return_sequences
        self.merge_mode = merge_mode
        self.stateful, self.return_sequences = layer.stateful, layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True

    def _inner_layers(self):
        return [self.forward_layer, self.backward_layer]

    def build(self, input_shape):
        for layer in (self.forward_layer, self.backward_layer):
            with backend.name_scope(layer.name):
                build_cell(layer, input_shape, self._dtype)
        self.built = True

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        if isinstance(inputs, list) and initial_state is None:
            inputs, initial_state = inputs[0], (inputs[1:] or None)
        if initial_state is None:
            return super().__call__(inputs, **kwargs)
        if len(initial_state) % 2:
            raise ValueError(f"When passing `initial_state` to a Bidirectional RNN, the state should be a list "
                             f"containing the states of the underlying RNNs. Received: {initial_state}")
        return super().__call__([inputs] + list(initial_state), **kwargs)

    def call(self, inputs, training=None, mask=None):
        kwargs = {"training": training, "mask": mask}
        if isinstance(inputs, list):
            states = inputs[1:]
            half = len(states) // 2
            y = self.forward_layer([inputs[0]] + states[:half], **kwargs)
            y_rev = self.backward_layer([inputs[0]] + states[half:], **kwargs)
        else:
            y = self.forward_layer(inputs, **kwargs)
            y_rev = self.backward_layer(inputs, **kwargs)
        states = []
        if self.return_state:
            states = y[1:] + y_rev[1:]
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = reverse(y_rev, 0 if getattr(self.forward_layer, "time_major", False) else 1)
        output = _MERGES[self.merge_mode](y, y_rev)
        if self.return_state:
            return (output if self.merge_mode is None else [output]) + states
        return output

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = mask if self.merge_mode else [mask, mask]
        else:
            output_mask = None if self.merge_mode else [None, None]
        if self.return_state:
            state_mask = [None for _ in nest.flatten(self.forward_layer.states)] * 2
            return (output_mask if isinstance(output_mask, list) else [output_mask]) + state_mask
        return output_mask

    def reset_states(self, states=None):
        """Reset both layers' states (``states``: the forward layer's, then the backward layer's)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        half = None if states is None else len(states) // 2
        self.forward_layer.reset_states(None if states is None else states[:half])
        self.backward_layer.reset_states(None if states is None else states[half:])

    def get_config(self):
        from numflow.keras.layers.layer_serialization import serialize

        config = {**super().get_config(), "merge_mode": self.merge_mode}
        if self._given_backward_layer:
            config["backward_layer"] = serialize(self.backward_layer)
        return config

    @classmethod
    def from_config(cls, config):
        from numflow.keras.layers.layer_serialization import deserialize

        config = dict(config)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = deserialize(config["backward_layer"])
        return super().from_config(config)


def _copy_of(layer, backwards=False):
    """A new, unbuilt layer like ``layer`` (TensorFlow remakes it from its config), running the other way when
    ``backwards``."""
    if layer.built:
        raise ValueError(f"Bidirectional needs a layer that has not been called yet, to copy it; layer {layer.name} "
                         "was already built.")
    made = copy.deepcopy(layer)
    if backwards:
        made.go_backwards = not made.go_backwards
    return made


class Masking(Layer):
    """The inputs unchanged but for the masked steps (zeroed): a step is masked where all its features equal
    ``mask_value``, and the layers after it (recurrent layers) skip it."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        boolean_mask = math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        return inputs * math_ops.cast(boolean_mask, inputs.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
