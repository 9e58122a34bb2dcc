"""``tf.layers.Dense``, ``Dropout`` and ``Flatten`` and their functional forms, built as TensorFlow 1.x builds
them: ``dense/MatMul`` and ``dense/BiasAdd`` on ``dense/kernel`` and ``dense/bias``; a dropout whose
``training`` is a Python bool (decided now) or a bool tensor (a ``tf.cond``, ``dropout/cond/Merge``);
``flatten/Reshape``."""

import functools
import numbers
import operator
import weakref

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.layers import utils
from numflow.layers.base import Layer, apply_functional, dtype_text
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops, init_ops, math_ops
from numflow.ops.cond import cond
from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor
from numflow.ops.dropout_ops import dropout as nn_dropout
from numflow.ops.einsum_ops import tensordot
from numflow.ops.nn_ops import bias_add
from numflow.ops.op_util import static_value
from numflow.variables.variable import Variable

_ZEROS = init_ops.zeros_initializer()
_learning_phases = weakref.WeakKeyDictionary()  # graph -> its keras_learning_phase tensor


def learning_phase():
    """The graph's ``keras_learning_phase``: a bool placeholder defaulting to False, made on first use."""
    graph = get_default_graph()
    if graph not in _learning_phases:
        with graph.name_scope(""):
            _learning_phases[graph] = array_ops.placeholder_with_default(False, shape=(), name="keras_learning_phase")
    return _learning_phases[graph]


def constant_value(pred):
    """``pred`` as a Python bool when it is known now (a bool, 0 or 1, a constant tensor), else None."""
    if isinstance(pred, Variable):
        return None
    if is_tensor(pred):
        value = static_value(pred)
        return None if value is None else bool(value)
    if isinstance(pred, bool) or pred in (0, 1):
        return bool(pred)
    raise TypeError(f"Argument `pred` must be a Tensor, or a Python bool, or 1 or 0. Received: pred={pred} of type "
                    f"{type(pred).__name__}")


def smart_cond(pred, true_fn, false_fn, name=None):
    """``true_fn()`` or ``false_fn()`` now when ``pred`` is known, else ``tf.cond(pred, ...)``."""
    value = constant_value(pred)
    if value is None:
        return cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
    return true_fn() if value else false_fn()


class Dense(Layer):
    """A densely connected layer: ``activation(inputs @ kernel + bias)``.

    Inputs of rank above 2 are multiplied along their last axis (``Tensordot``). ``kernel_initializer``
    None takes the variable scope's initializer, else glorot_uniform; the bias starts at zeros.
    """

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units = units if isinstance(units, int) else int(units)
        if self.units < 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        utils.set_kernel_and_bias(self, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                                  bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        dtype = dtypes.as_dtype(self.dtype or dtypes.float32)
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError(f"A Dense layer can only be built with a floating-point dtype. Received: "
                            f"dtype={dtype_text(dtype)}")
        last_dim = dimension_value(input_shape[-1])
        if last_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. Full "
                             f"input shape received: {input_shape}")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                      dtype=self.dtype, trainable=True)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        dtype=self.dtype, trainable=True)

    def call(self, inputs):
        if inputs.dtype.base_dtype != self._dtype:
            inputs = math_ops.cast(inputs, self._dtype)
        rank = inputs.shape.ndims
        if rank == 2 or rank is None:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            outputs = tensordot(inputs, self.kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        if self.use_bias:
            outputs = bias_add(outputs, self.bias)
        return outputs if self.activation is None else self.activation(outputs)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).with_rank_at_least(2)
        if input_shape.dim_values[-1] is None:
            raise ValueError(f"The last dimension of the input shape of a Dense layer should be defined. Found None. "
                             f"Received: input_shape={input_shape}")
        return input_shape[:-1].concatenate(self.units)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
          reuse=None):
    """A :class:`Dense` layer applied to ``inputs``: ``activation(inputs @ kernel + bias)``.

    Parameters
    ----------
    inputs : Tensor
        Of rank 2 or more, its last dimension known.
    units : int
        The output's last dimension.
    name : str, optional
        The variable scope (``name/kernel``); default ``dense``, made unique.
    reuse : bool or AUTO_REUSE, optional
        Share the variables of an earlier layer of the same scope.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     y = tf.layers.dense(tf.zeros([2, 4]), 3, activation=tf.nn.relu, name="fc")
    ...     y.name, y.shape.as_list()
    ('fc/Relu:0', [2, 3])
    """
    return apply_functional(Dense, locals())


class Dropout(Layer):
    """Zero each input element with probability ``rate`` and scale the others by ``1 / (1 - rate)``, when
    ``training`` (a Python bool, or a bool tensor for a ``tf.cond``) is true; else pass the input on.

    ``seed`` seeds the first call's mask, ``seed + 1`` the next call's, and so on, as in TensorFlow.
    """

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if isinstance(rate, int | float) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value between 0 and 1.")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self._next_seed = seed

    def _get_noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        shape = array_ops.shape(inputs)
        return convert_to_tensor([shape[i] if value is None else value for i, value in enumerate(self.noise_shape)])

    def _legacy_seed(self):
        seed = self._next_seed
        if seed is not None:
            self._next_seed += 1
        return seed

    def call(self, inputs, training=False):
        if isinstance(self.rate, numbers.Real) and self.rate == 0:
            return array_ops.identity(inputs)
        if training is None:
            training = learning_phase()

        def dropped_inputs():
            return nn_dropout(inputs, rate=self.rate, noise_shape=self._get_noise_shape(inputs),
                              seed=self._legacy_seed())

        return smart_cond(training, dropped_inputs, lambda: array_ops.identity(inputs))

    def compute_output_shape(self, input_shape):
        return input_shape


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """:class:`Dropout` applied to ``inputs``: each element zeroed with probability ``rate`` while
    ``training`` (a Python bool or a bool tensor), the others scaled by ``1 / (1 - rate)``.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     is_training = tf.placeholder(tf.bool, [])
    ...     tf.layers.dropout(tf.ones([2, 3]), training=is_training).name
    'dropout/cond/Merge:0'
    """
    return apply_functional(Dropout, locals(), scoped=False)


class Flatten(Layer):
    """Flatten all but the first dimension: ``[batch, ...]`` to ``[batch, size]``."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        with utils.naming_layer(self):
            self.data_format = utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        rank = inputs.shape.ndims
        if self.data_format == "channels_first" and rank and rank > 1:
            inputs = array_ops.transpose(inputs, perm=[0, *range(2, rank), 1])
        if rank == 1:
            return array_ops.expand_dims(inputs, axis=1)
        batch = dimension_value(inputs.shape[0])
        rest = inputs.shape[1:]
        if rest.is_fully_defined():
            shape = constant([-1, int(functools.reduce(operator.mul, rest.as_list(), 1))])
        elif batch is not None:
            shape = constant([int(batch), -1])
        else:
            shape = [array_ops.shape(inputs)[0], -1]
        return array_ops.reshape(inputs, shape)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if not dims:
            return TensorShape([1])
        rest = dims[1:]
        return TensorShape([dims[0], functools.reduce(operator.mul, rest, 1) if all(rest) else None])


def flatten(inputs, name=None, data_format="channels_last"):
    """:class:`Flatten` applied to ``inputs``: all but the first dimension in one.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     tf.layers.flatten(tf.zeros([2, 3, 4])).shape.as_list()
    [2, 12]
    """
    return apply_functional(Flatten, locals(), scoped=False)
