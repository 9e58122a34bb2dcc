"""``tf.layers.Layer``: TensorFlow 1.x's legacy layer, with its variable scope, weights, losses and updates.

A layer takes its variable scope on its first call (``dense``, made unique in the enclosing variable
scope: ``dense_1``, ``model/dense``), or when it is made if a scope name is given (the functional forms
pass their ``name``: ``tf.layers.dense(x, 3, name="fc")``). ``build`` makes its variables there with
``add_weight`` (``dense/kernel``, ``dense/bias``) on the first call, and every later call reuses them;
the call's ops go into the scope's name scope (``dense/MatMul``, then ``dense/MatMul_1``). ``reuse=True``
or ``tf.AUTO_REUSE`` (``_reuse`` of the class) shares variables already made under that scope. After
each call the layer's update ops (batch normalization's moving averages) join
``GraphKeys.UPDATE_OPS``; the losses of its regularizers join ``GraphKeys.REGULARIZATION_LOSSES``.

The layer's own name (``layer.name``) is unique among the layers of its graph, and counts from 1 as
TensorFlow's does (``dense_1``, ``dense_2``...), whatever its scope is.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     layer = tf.layers.Dense(3)
...     y = layer(tf.zeros([2, 4]))
...     z = layer(y[:, :1] + tf.zeros([2, 4]))
...     [v.name for v in layer.variables], z.name
(['dense/kernel:0', 'dense/bias:0'], 'dense/BiasAdd_1:0')
"""

import functools
import inspect
import re
import weakref

import numpy as np

from numflow.framework import dtypes, nest
from numflow.framework.graph import GraphKeys, Operation, get_default_graph
from numflow.layers.input_spec import assert_input_compatibility
from numflow.ops import init_ops
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.variables.scope import VariableScope, variable_scope
from numflow.variables.variable import (
    VariableAggregation,
    VariableSynchronization,
    global_variables,
    trainable_variables,
)

_layer_uids = weakref.WeakKeyDictionary()  # graph -> {base name: layers so named}


def unique_layer_name(base_name, zero_based=False):
    """``base_name_1``, ``base_name_2``...: the next free name among the default graph's layers (and cells);
    ``zero_based`` (Keras' layers) names the first ``base_name``. Both kinds share one count, as in TensorFlow."""
    counts = _layer_uids.setdefault(get_default_graph(), {})
    number = counts.get(base_name, 0)
    counts[base_name] = number + 1
    if zero_based:
        return f"{base_name}_{number}" if number else base_name
    return f"{base_name}_{number + 1}"


def reset_layer_names(graph):
    """Forget the layer names given in ``graph`` (Keras' ``clear_session``)."""
    _layer_uids.pop(graph, None)


def capture_scope(scope, base_name, reuse):
    """The variable scope a layer (or cell) takes on its first use: ``scope`` when given; else ``base_name``,
    as it is when reusing, made unique in the current scope otherwise."""
    if reuse:
        with variable_scope(scope if scope is not None else base_name) as captured:
            return captured
    with variable_scope(scope, default_name=base_name) as captured:
        return captured


def to_snake_case(name):
    """A class name as a layer's default name: ``Conv2DTranspose`` -> ``conv2d_transpose``."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return insecure if insecure[0] != "_" else "private" + insecure


def dtype_text(dtype):
    """A DType as TensorFlow prints it in messages: ``<dtype: 'int32'>``."""
    return f"<dtype: '{dtypes.as_dtype(dtype).base_dtype.name}'>"


_ALLOWED_KWARGS = {"input_dim", "input_shape", "batch_input_shape", "batch_size", "weights", "autocast",
                   "implementation"}


def _call_parameters(call):
    params = inspect.signature(call).parameters.values()
    names = {p.name for p in params}
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params)
    return "scope" in names, "training" in names or takes_any


class Layer:
    """The base of the layers (see the module docstring): subclasses make their weights in ``build``
    (with ``add_weight``) and compute in ``call``.

    Parameters
    ----------
    trainable : bool
        Whether the layer's weights are trainable (and in ``TRAINABLE_VARIABLES``).
    name : str or VariableScope, optional
        The layer's name; default: its class name in snake case, made unique in the graph.
    dtype : DType, optional
        The weights' dtype; default: the first input's.

    >>> import numflow as tf
    >>> class Scale(tf.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight("w", [int(input_shape[-1])], initializer=tf.ones_initializer())
    ...     def call(self, inputs):
    ...         return inputs * self.w
    >>> with tf.Graph().as_default():
    ...     y = Scale()(tf.ones([2, 3]))
    ...     y.name, [v.name for v in tf.global_variables()]
    ('scale/mul:0', ['scale/w:0'])
    """

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        self._activity_regularizer = kwargs.pop("activity_regularizer", None)
        for kwarg in kwargs:
            if kwarg not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", kwarg)
        self._trainable = trainable
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype).base_dtype
        self.built = False
        self._build_input_shape = None
        self._input_spec = None
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._updates = []
        self._losses = []
        self._callable_losses = []
        self._stateful = False
        self._init_set_name(name)
        self._call_has_scope_arg, self._expects_training_arg = _call_parameters(self.call)
        self._always_reuse_variable_scope = None
        self._current_scope = None
        self._scope = None
        if scope:
            with variable_scope(scope) as captured:
                self._scope = captured

    def _init_set_name(self, name):
        default = to_snake_case(type(self).__name__)
        if isinstance(name, VariableScope):
            self._name, self._base_name = unique_layer_name(default), name.name
        elif name:
            self._name = self._base_name = name
        else:
            self._name, self._base_name = unique_layer_name(default), default

    # -- properties ----------------------------------------------------------------------------------
    name = property(lambda self: self._name)

    @property
    def dtype(self):
        """The weights' dtype name (``"float32"``), None until the first input sets it."""
        return None if self._dtype is None else self._dtype.name

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = value

    @property
    def stateful(self):
        return self._stateful

    @stateful.setter
    def stateful(self, value):
        self._stateful = value

    @property
    def activity_regularizer(self):
        return self._activity_regularizer

    @activity_regularizer.setter
    def activity_regularizer(self, regularizer):
        self._activity_regularizer = regularizer

    @property
    def input_spec(self):
        return self._input_spec

    @input_spec.setter
    def input_spec(self, value):
        for v in nest.flatten(value):
            if v is not None and "InputSpec" not in type(v).__name__:
                raise TypeError(f"Layer input_spec must be an instance of InputSpec. Got: {v}")
        self._input_spec = value

    @property
    def scope_name(self):
        if not self._scope:
            raise ValueError(f'No name available for layer scope because the layer "{self._name}" has not been '
                             "used yet. The scope name  is determined the first time the layer instance is called. "
                             "You must therefore call the layer before querying `scope_name`.")
        return self._scope.name

    @property
    def trainable_weights(self):
        return _dedup(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return _dedup(self._non_trainable_weights)
        return _dedup(self._trainable_weights + self._non_trainable_weights)

    @property
    def weights(self):
        """The trainable weights, then the others."""
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def updates(self):
        """The layer's update ops (none while it is neither trainable nor stateful)."""
        if not self.trainable and not self.stateful:
            return []
        return list(self._updates)

    @property
    def losses(self):
        """The losses added to the layer; each weight regularizer's loss is built anew (as TensorFlow does)."""
        made = (loss() for loss in self._callable_losses)
        return list(self._losses) + [loss for loss in made if loss is not None]

    def count_params(self):
        """The number of scalars in the layer's weights."""
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer {self.name}, but the layer isn't built. "
                             "You can build it manually via: `" + self.name + ".build(batch_input_shape)`.")
        return int(sum(np.prod(w.shape.as_list()) for w in self.weights))

    # -- weights, losses, updates --------------------------------------------------------------------
    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, use_resource=None, synchronization=VariableSynchronization.AUTO,
                   aggregation=VariableAggregation.NONE, partitioner=None, **kwargs):
        """A variable of the layer, ``<layer scope>/<name>``: made on the first call, shared after.

        ``initializer`` defaults to the variable scope's, else glorot_uniform (zeros for integers and
        booleans). A ``regularizer``'s loss (``<layer>/<name>/Regularizer/...``) joins
        ``REGULARIZATION_LOSSES`` when the variable is made. ``synchronization=ON_READ`` makes it
        non-trainable, as in TensorFlow.
        """
        for kwarg in kwargs:
            if kwarg != "experimental_autocast":
                raise TypeError("Unknown keyword argument:", kwarg)
        if synchronization == VariableSynchronization.ON_READ:
            if trainable:
                raise ValueError("Synchronization value can be set to VariableSynchronization.ON_READ only for "
                                 "non-trainable variables. You have specified trainable=True and "
                                 "synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        existing = {id(v) for v in global_variables()}
        dtype = dtypes.as_dtype(dtype or self._dtype or dtypes.float32)
        self._set_scope(None)
        graph = get_default_graph()
        with variable_scope(self._scope, reuse=self.built or self._reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph.name_scope(scope.original_name_scope):
                initializer = _default_initializer(initializer if initializer is not None else scope.initializer,
                                                   dtype, name, self.name)
                keep = trainable and self.trainable
                variable = scope.get_variable(name, shape=() if shape is None else shape, dtype=dtype,
                                              initializer=initializer, trainable=keep, constraint=constraint,
                                              partitioner=partitioner, use_resource=use_resource,
                                              synchronization=synchronization, aggregation=aggregation)
                if keep and all(v is not variable for v in trainable_variables()):
                    keep = False  # shared from a variable made untrainable
                (self._trainable_weights if keep else self._non_trainable_weights).append(variable)
                if regularizer and id(variable) not in existing:
                    self._handle_weight_regularization(name, variable, regularizer)
        return variable

    def add_variable(self, *args, **kwargs):
        """``add_weight`` under its TensorFlow 1.x name."""
        return self.add_weight(*args, **kwargs)

    def _handle_weight_regularization(self, name, variable, regularizer):
        def loss_for_variable(v):
            with get_default_graph().name_scope(name + "/Regularizer"):
                return regularizer(v)

        self.add_loss(functools.partial(loss_for_variable, variable))

    def add_loss(self, losses, inputs=None):
        """Add loss tensors, or callables that make them, to the layer and to ``REGULARIZATION_LOSSES``.

        A callable is called now and again each time ``losses`` is read.
        """
        del inputs
        new = []
        for loss in nest.flatten(losses):
            if callable(loss):
                self._callable_losses.append(functools.partial(_as_loss, loss))
                new.append(self._callable_losses[-1]())
            elif loss is not None:
                self._losses.append(_as_loss(loss))
                new.append(self._losses[-1])
        _add_to_collection([loss for loss in new if loss is not None], GraphKeys.REGULARIZATION_LOSSES)

    def add_update(self, updates):
        """Add update ops (or tensors, or callables making them) to the layer's ``updates``."""
        for update in updates if isinstance(updates, list | tuple) else [updates]:
            while callable(update) and not isinstance(update, Operation):
                update = update()
            if not isinstance(update, Operation):
                update = update.op if hasattr(update, "op") else convert_to_tensor(update)
            self._updates.append(update)

    # -- building and calling ------------------------------------------------------------------------
    def build(self, input_shape):
        """Make the layer's weights for inputs of ``input_shape`` (TensorShapes); nothing here."""
        self._build_input_shape = input_shape
        self.built = True

    def call(self, inputs, **kwargs):
        """The layer's computation; the identity here."""
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"Please run in eager mode or implement the compute_output_shape method on your "
                                  f"layer ({type(self).__name__}).")

    def apply(self, inputs, *args, **kwargs):
        """``layer(inputs, ...)`` under its TensorFlow 1.x name."""
        return self(inputs, *args, **kwargs)

    def _set_scope(self, scope=None):
        if self._scope is None:
            self._scope = capture_scope(scope, self._base_name, self._reuse)

    def __call__(self, inputs, *args, **kwargs):
        """Run the layer on ``inputs`` in its variable scope (built on the first call).

        ``scope`` (a keyword) names the variable scope of a first call; a ``call`` that takes a
        ``scope`` argument receives the current VariableScope.
        """
        scope = kwargs.pop("scope", None)
        self._set_scope(scope)
        if self.built:
            if self._always_reuse_variable_scope is None:
                self._always_reuse_variable_scope = variable_scope(self._scope, reuse=True,
                                                                   auxiliary_name_scope=False)
            scope_context = self._always_reuse_variable_scope
        else:
            scope_context = variable_scope(self._scope, reuse=self._reuse, auxiliary_name_scope=False)
        with scope_context as current:
            self._current_scope = current
            if self._call_has_scope_arg:
                kwargs["scope"] = current
            outputs = self._call_in_scope(inputs, args, kwargs)
        _add_to_collection(self.updates, GraphKeys.UPDATE_OPS)
        return outputs

    def _call_in_scope(self, inputs, args, kwargs):
        inputs = nest.map_structure(
            lambda x: convert_to_tensor(x) if isinstance(x, np.ndarray | float | int) else x, inputs)
        if "training" in kwargs and not self._expects_training_arg:
            kwargs.pop("training")
        assert_input_compatibility(self.input_spec, inputs, self.name)
        with get_default_graph().name_scope(self._current_scope.original_name_scope):
            self._maybe_build(inputs)
            outputs = self.call(inputs, *args, **kwargs)
            if outputs is None:
                raise ValueError(f"A layer's `call` method should return a Tensor or a list of Tensors, not None "
                                 f"(layer: {self.name}).")
            self._handle_activity_regularization(inputs, outputs)
        return outputs

    def _maybe_build(self, inputs):
        if self.built:
            return
        assert_input_compatibility(self.input_spec, inputs, self.name)
        flat = nest.flatten(inputs)
        if flat and self._dtype is None and hasattr(flat[0], "dtype"):
            self._dtype = dtypes.as_dtype(flat[0].dtype).base_dtype
        shapes = nest.map_structure(lambda x: x.shape, inputs) if any(hasattr(x, "shape") for x in flat) else None
        if type(self).build is not Layer.build:
            self.build(shapes)
        Layer.build(self, shapes)

    def _handle_activity_regularization(self, inputs, outputs):
        if not self._activity_regularizer:
            return
        from numflow.ops import array_ops, math_ops

        with get_default_graph().name_scope("ActivityRegularizer"):
            for output in nest.flatten(outputs):
                loss = convert_to_tensor(self._activity_regularizer(output))
                batch_size = math_ops.cast(array_ops.shape(output)[0], loss.dtype)
                self.add_loss(loss / batch_size, inputs=inputs)


def apply_functional(layer_class, arguments, scoped=True):
    """What the functional forms do: make a ``layer_class`` from the function's ``arguments`` and call it.

    ``inputs`` (and ``training``, where given) go to the call; ``scoped`` forms take the variable scope
    named by ``name`` at once and pass ``reuse`` on, as TensorFlow's ``tf.layers.dense`` does.
    """
    arguments = dict(arguments)
    inputs = arguments.pop("inputs")
    call_arguments = {"training": arguments.pop("training")} if "training" in arguments else {}
    if scoped:
        arguments["_scope"] = arguments["name"]
        arguments["_reuse"] = arguments.pop("reuse")
    return layer_class(**arguments)(inputs, **call_arguments)


def _default_initializer(initializer, dtype, name, layer_name):
    """``initializer`` resolved (a name or an instance), else TensorFlow's default for ``dtype``."""
    if isinstance(initializer, str):
        from numflow.layers.utils import get_initializer

        initializer = get_initializer(initializer)
    if initializer is not None:
        return initializer
    if dtype.is_floating:
        return init_ops.glorot_uniform_initializer()
    if dtype.is_integer or dtype.is_bool:
        return init_ops.zeros_initializer()
    raise ValueError(f"An initializer for variable {name} of type {dtype_text(dtype)} is required for layer "
                     f"{layer_name}")


def _as_loss(loss):
    if callable(loss):
        loss = loss()
    if loss is None or is_tensor(loss):
        return loss
    return convert_to_tensor(loss, dtype=dtypes.float32)


def _dedup(weights):
    seen, out = set(), []
    for w in weights:
        if id(w) not in seen:
            seen.add(id(w))
            out.append(w)
    return out


def _add_to_collection(elements, key):
    """Add ``elements`` not already there to collection ``key`` of the default graph."""
    collection = get_default_graph().get_collection_ref(key)
    present = {id(e) for e in collection}
    for element in nest.flatten(elements):
        if id(element) not in present:
            collection.append(element)
            present.add(id(element))
