"""``tf.keras.layers.Layer`` in TensorFlow 1.x mode: a ``tf.layers.Layer`` named and scoped as Keras does.

What differs from ``tf.layers``:

- names count from zero in the graph (``dense``, ``dense_1``...; ``tf.layers`` counts from 1) and share the
  count with ``tf.layers``' layers;
- a call opens a name scope of the layer's name, made unique in the graph as any name scope is (a layer's
  second call is in ``dense_1``, and a second layer named ``dense_1`` then calls in ``dense_1_1``); the
  weights are made in the first call's scope as plain ``tf.Variable`` s (``dense/kernel:0``, whatever the
  variable scope is, which only prefixes the name scope);
- no variable scope, so no reuse: every layer makes its own variables;
- a weight regularizer's loss is made each time ``losses`` is read (``dense/kernel/Regularizer/...``) and
  neither it nor the updates join ``REGULARIZATION_LOSSES`` or ``UPDATE_OPS``: a Keras model collects them
  from its layers;
- ``training`` left out means the Keras learning phase (``backend.learning_phase()``);
- each call is recorded (``engine/node.py``) so that functional models can find their layers.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     layer = tf.keras.layers.Dense(3)
...     y = layer(tf.zeros([2, 4]))
...     z = layer(y[:, :1] + tf.zeros([2, 4]))
...     layer.name, [v.name for v in layer.weights], z.name
('dense', ['dense/kernel:0', 'dense/bias:0'], 'dense_1/BiasAdd:0')
"""

import functools
import inspect

import numpy as np

from numflow.framework import dtypes, nest
from numflow.framework.graph import get_default_graph
from numflow.keras import backend
from numflow.keras.engine import node as node_module
from numflow.layers import base as legacy
from numflow.layers.input_spec import assert_input_compatibility
from numflow.ops.constant_op import convert_to_tensor
from numflow.variables.variable import Variable, VariableSynchronization


class Layer(legacy.Layer):
    """The base of Keras' layers (see the module docstring): make the weights in ``build`` with ``add_weight``,
    compute in ``call``.

    Parameters
    ----------
    trainable : bool
        Whether the weights are in ``trainable_weights``.
    name : str, optional
        Default: the class name in snake case, made unique in the graph (``dense``, ``dense_1``).
    dtype : DType, optional
        The weights' dtype; default: the first input's.
    input_shape, batch_input_shape, batch_size, input_dim
        The shape of the inputs, for a model's first layer.
    """

    def __init_subclass__(cls, **kwargs):
        """Each layer keeps the arguments it was made with (the outermost constructor's), for ``clone_model``."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def recording_init(self, *args, **kw):
            if "_constructor_arguments" not in self.__dict__:
                self._constructor_arguments = (args, dict(kw))
            init(self, *args, **kw)

        cls.__init__ = recording_init

    def __init__(self, *args, **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        batch_size = kwargs.pop("batch_size", None)
        if input_shape is None and input_dim is not None:
            input_shape = (input_dim,)
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size, *tuple(input_shape))
        self._batch_input_shape = None if batch_input_shape is None else tuple(batch_input_shape)
        self._inbound_nodes = []
        super().__init__(*args, **kwargs)

    def _init_set_name(self, name):
        if not name:
            name = legacy.unique_layer_name(legacy.to_snake_case(type(self).__name__), zero_based=True)
        self._name = self._base_name = name

    @property
    def scope_name(self):
        return self._name

    # -- weights and losses --------------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, use_resource=None, synchronization=VariableSynchronization.AUTO,
                   aggregation=None, partitioner=None, **kwargs):
        """A ``tf.Variable`` ``<name scope>/<name>`` of the layer (Keras' default initializer: glorot_uniform
        for floats, zeros for integers); a ``regularizer``'s loss joins ``losses``."""
        del use_resource, aggregation, partitioner, kwargs
        if synchronization == VariableSynchronization.ON_READ:
            trainable = False
        elif trainable is None:
            trainable = True
        dtype = dtypes.as_dtype(dtype or self._dtype or backend.floatx()).base_dtype
        initializer = _initializer(initializer, dtype, name, self.name)
        shape = () if shape is None else tuple(shape)
        variable = Variable(functools.partial(initializer, shape, dtype=dtype), name=name, trainable=trainable,
                            dtype=dtype, constraint=constraint)
        backend.track_variable(variable)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(variable)
        if regularizer is not None:
            regularizer = _regularizer(regularizer)
            self._handle_weight_regularization(variable.op.name, variable, regularizer)
        return variable

    def add_loss(self, losses, inputs=None):
        """Add loss tensors (or callables making them, called each time ``losses`` is read)."""
        del inputs
        for loss in nest.flatten(losses):
            if callable(loss):
                self._callable_losses.append(functools.partial(legacy._as_loss, loss))
            elif loss is not None:
                self._losses.append(legacy._as_loss(loss))

    def get_weights(self):
        """The weights' values (numpy arrays) in the Keras session."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Set the weights from a list of numpy arrays of their shapes, in the Keras session."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f'Layer {self.name} weight shape {len(params)} is not compatible with provided weight '
                             f"shape {len(weights)}.")
        pairs = []
        for param, value in zip(params, weights):
            value = np.asarray(value)
            if tuple(param.shape.as_list()) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(param.shape.as_list())} is not compatible "
                                 f"with provided weight shape {value.shape}.")
            pairs.append((param, value))
        backend.batch_set_value(pairs)

    # -- calling -------------------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        """Run the layer on ``inputs`` in a name scope of its name (built on the first call)."""
        inputs = nest.map_structure(
            lambda x: convert_to_tensor(x) if isinstance(x, np.ndarray | float | int | list) else x, inputs)
        if "training" in kwargs and not self._expects_training_arg:
            kwargs.pop("training")
        given = {k: v for k, v in kwargs.items() if k != "training"}  # a call's record, as Keras keeps it
        assert_input_compatibility(self.input_spec, inputs, self.name)
        input_masks = _input_masks(inputs)
        if input_masks is not None and "mask" not in kwargs and _takes_mask(self.call):
            kwargs["mask"] = input_masks
        with get_default_graph().name_scope(self.name):
            self._maybe_build(inputs)
            outputs = self.call(inputs, *args, **kwargs)
            if outputs is None:
                raise ValueError(f"A layer's `call` method should return a Tensor or a list of Tensors, not None "
                                 f"(layer: {self.name}).")
            self._handle_activity_regularization(inputs, outputs)
            self._set_mask_metadata(inputs, outputs, kwargs.get("mask", input_masks))
        node_module.record(self, inputs, outputs, args, given)
        return outputs

    # -- masks ---------------------------------------------------------------------------------------
    supports_masking = False

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs: the input's when the layer ``supports_masking``, else None."""
        if not self.supports_masking:
            if any(m is not None for m in nest.flatten(mask)):
                raise TypeError(f"Layer {self.name} does not support masking, but was passed an input_mask: {mask}")
            return None
        return mask

    def _set_mask_metadata(self, inputs, outputs, previous_mask):
        """Give each output its mask (``compute_mask``'s, when the layer supports masks or computes its own)."""
        flat_outputs = nest.flatten(outputs)
        masks = [None] * len(flat_outputs)
        if self.supports_masking or type(self).compute_mask is not Layer.compute_mask:
            computed = self.compute_mask(inputs, previous_mask)
            if computed is not None:
                masks = nest.flatten(computed)
        for output, mask in zip(flat_outputs, masks):
            node_module.set_mask(output, mask)

    @property
    def output(self):
        """The output of the layer's first call."""
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        outputs = self._inbound_nodes[0].outputs
        return outputs[0] if len(outputs) == 1 else outputs

    @property
    def input(self):
        """The input of the layer's first call."""
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        inputs = self._inbound_nodes[0].inputs
        return inputs[0] if len(inputs) == 1 else inputs

    @property
    def output_shape(self):
        """The static shape of the first call's output, as a tuple."""
        return backend.int_shape(self.output)

    # The constructor arguments ``get_config`` writes, each read from the layer's attribute of that name.
    _config_keys = ()

    def get_config(self):
        """The layer's constructor arguments as tf-keras writes them: ``name``, ``trainable``,
        ``batch_input_shape`` (when given), ``dtype`` and ``_config_keys`` as plain values (initializers,
        regularizers and constraints as ``{"class_name", "config"}``, activations by name)."""
        config = {"name": self.name, "trainable": self.trainable}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = list(self._batch_input_shape)
        config["dtype"] = self.dtype
        for key in self._config_keys:
            config[key] = config_value(key, getattr(self, key))
        return config

    @classmethod
    def from_config(cls, config):
        """The layer ``config`` (``get_config``'s) describes."""
        return cls(**config)


def config_value(key, value):
    """``value`` of the constructor argument ``key`` as a plain (JSON) value, as tf-keras writes it."""
    from numflow.keras import activations, constraints, initializers, regularizers

    if key.endswith("activation"):
        return "linear" if value is None else activations.serialize(value)
    if value is None:
        return None
    for suffix, module in (("_initializer", initializers), ("_regularizer", regularizers),
                           ("_constraint", constraints)):
        if key.endswith(suffix):
            return module.serialize(value)
    if isinstance(value, tuple | list):
        return [config_value("", v) for v in value]
    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    return value


def _input_masks(inputs):
    """The Keras masks of ``inputs`` in their structure, None when none has one."""
    masks = [node_module.mask_of(t) for t in nest.flatten(inputs)]
    if all(m is None for m in masks):
        return None
    return nest.pack_sequence_as(inputs, masks) if nest.is_nested(inputs) else masks[0]


def _takes_mask(call):
    return "mask" in inspect.signature(call).parameters


def _initializer(identifier, dtype, name, layer_name):
    """``identifier`` resolved by Keras' names, else the default for ``dtype`` (``tf.layers``' rule)."""
    from numflow.keras import initializers

    return legacy._default_initializer(initializers.get(identifier), dtype, name, layer_name)


def _regularizer(identifier):
    from numflow.keras import regularizers

    return regularizers.get(identifier)
