"""``tf.keras.Sequential``: a model of layers called one after the other.

Its first layer's ``input_shape`` (or ``batch_input_shape``, ``input_dim``) gives it an ``Input`` named
``<layer>_input`` at once, and each layer added is called on the last output outside any model scope
(``dense/kernel``); without one, the model gets its input (``input_1``) from the data of its first
``fit``/``evaluate``/``predict`` or its first call, and its layers are called in the model's name scope
(``sequential/dense/kernel``), as in TensorFlow.
"""

from numflow.keras import backend
from numflow.keras.engine import node as node_module
from numflow.keras.engine.training import Model
from numflow.keras.layers.input_layer import Input, InputLayer


class Sequential(Model):
    """A linear stack of layers.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    ...     model.inputs[0].name, model.outputs[0].name
    ('dense_input:0', 'dense/BiasAdd:0')
    """

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self._stack = []
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        return [layer for layer in self._stack if not isinstance(layer, InputLayer)]

    def add(self, layer):
        """Put ``layer`` on top of the stack (and call it on the last output, when the model has inputs)."""
        if not hasattr(layer, "_inbound_nodes"):
            raise TypeError(f"The added layer must be an instance of class Layer. Received: layer={layer} of type "
                            f"{type(layer)}.")
        if isinstance(layer, InputLayer):
            self._stack.append(layer)
            self._set_graph([layer.output], [layer.output])
            return
        self._stack.append(layer)
        if not self.outputs and len(self.layers) == 1 and layer._batch_input_shape is not None:
            inputs = Input(batch_shape=layer._batch_input_shape, dtype=layer._dtype or backend.floatx(),
                           name=f"{layer.name}_input")
            self._set_graph([inputs], [layer(inputs)])
        elif self.outputs:
            self._set_graph(self.inputs, [layer(self.outputs[0])])

    def pop(self):
        """Remove the top layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._stack.pop()
        self._set_graph(self.inputs, [self._stack[-1].output] if self._stack else [])

    def get_config(self):
        """tf-keras' config: the model's name and its layers' configs in order (its ``InputLayer`` first)."""
        from numflow.keras.engine.model_config import sequential_config

        return sequential_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The model ``config`` describes: its layers made and stacked again."""
        from numflow.keras.engine.model_config import sequential_from_config

        return sequential_from_config(cls, config, custom_objects)

    def _set_graph(self, inputs, outputs):
        self.inputs, self.outputs = list(inputs), list(outputs)
        self._nested_inputs, self._nested_outputs = self.inputs[0], self.outputs[0] if self.outputs else None
        self._nodes = node_module.nodes_between(self.inputs, self.outputs) if self.outputs else []
        self._layers = self.layers
        self._is_graph_network = True
        self.built = bool(self.outputs)

    def _build_input(self, batch_shape, dtype):
        """Give the model an input of ``batch_shape`` and call it there (in its name scope)."""
        inputs = Input(batch_shape=batch_shape, dtype=dtype)
        self._stack = [layer for layer in self._stack if not isinstance(layer, InputLayer)]
        outputs = self(inputs)
        self._set_graph([inputs], [outputs])

    def build(self, input_shape=None):
        if not self.built and input_shape is not None:
            self._build_input(tuple(input_shape), backend.floatx())

    def call(self, inputs, training=None, mask=None):
        outputs = inputs
        for layer in self._stack:
            if isinstance(layer, InputLayer):
                continue
            kwargs = {"training": training} if training is not None and layer._expects_training_arg else {}
            outputs = layer(outputs, **kwargs)
        return outputs

    @property
    def _layers(self):
        return self.layers

    @_layers.setter
    def _layers(self, value):
        del value
