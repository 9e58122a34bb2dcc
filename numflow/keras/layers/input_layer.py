"""``tf.keras.layers.InputLayer`` and ``tf.keras.Input``: a model's entry, a placeholder named after the layer
(``input_1``, ``input_2``..., counted per graph)."""

from numflow.keras import backend
from numflow.keras.engine import node as node_module
from numflow.keras.engine.base_layer import Layer


class InputLayer(Layer):
    """The layer whose output is a placeholder of ``(batch_size,) + input_shape`` (or ``input_tensor``)."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None, sparse=False, name=None,
                 ragged=False, batch_input_shape=None, **kwargs):
        del sparse, ragged
        kwargs.pop("optional", None)
        if not name:
            name = f"input_{backend.get_uid('input')}"
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size, *tuple(input_shape))
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.built = True
        if input_tensor is None:
            input_tensor = backend.placeholder(shape=batch_input_shape, dtype=dtype or backend.floatx(), name=name)
        self._batch_input_shape = backend.int_shape(input_tensor)
        self.is_placeholder = input_tensor.op.type == "Placeholder"
        node_module.record(self, [], [input_tensor])

    def call(self, inputs):
        return inputs

    def get_config(self):
        """tf-keras' config of an input layer: its batch shape, dtype and name."""
        dtype = self.output.dtype.base_dtype.name
        return {"batch_input_shape": list(self._batch_input_shape), "dtype": dtype, "sparse": False,
                "ragged": False, "name": self.name, "optional": False}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None, ragged=False,  # noqa: N802
          batch_shape=None, **kwargs):
    """A Keras tensor: the placeholder of a new :class:`InputLayer` of ``shape`` (the batch left out)."""
    if shape is None and tensor is None and batch_shape is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note that "
                         "`shape` does not include the batch dimension.")
    layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype, input_tensor=tensor,
                       batch_input_shape=batch_shape, **kwargs)
    return layer.output
