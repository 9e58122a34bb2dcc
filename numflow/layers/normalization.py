"""``tf.layers.BatchNormalization`` and ``tf.layers.batch_normalization``, built as TensorFlow 1.x builds them.

The layer normalizes by the batch's mean and variance while ``training`` (a Python bool, or a bool
tensor switching at run time through ``tf.cond``), else by its moving averages, ``moving_mean`` and
``moving_variance``. Training adds their updates (``batch_normalization/AssignMovingAvg`` and
``AssignMovingAvg_1``: ``moving -= (moving - batch) * (1 - momentum)``) to ``GraphKeys.UPDATE_OPS``, which
the training op must depend on::

    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = optimizer.minimize(loss)

4-D and 5-D inputs normalized along their channel axis go through one ``FusedBatchNormV3`` op (``fused``
None or True), whose batch variance, and so the moving variance's update, is the unbiased one; other
inputs, or ``fused=False``, through ``tf.nn.moments`` and ``tf.nn.batch_normalization`` (the biased
variance), as in TensorFlow. ``renorm`` (batch renormalization), ``virtual_batch_size`` (statistics of
sub-batches) and ``adjustment`` work as TensorFlow's, without fusing.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.layers.base import Layer, VariableAggregation, VariableSynchronization, apply_functional
from numflow.layers.core import constant_value, learning_phase, smart_cond
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops, init_ops, math_ops, state_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.nn_norm_ops import batch_normalization as nn_batch_normalization
from numflow.ops.nn_norm_ops import fused_batch_norm, moments, weighted_moments
from numflow.ops.nn_ops import relu

_ZEROS = init_ops.zeros_initializer()
_ONES = init_ops.ones_initializer()
_FUSED_DATA_FORMATS = {(1, 4): "NCHW", (1, 5): "NCDHW", (3, 4): "NHWC", (4, 5): "NDHWC"}


def validate_axis(axis, input_shape):
    """``axis`` (an int or ints, negative from the end) as a list of axes of ``input_shape``."""
    rank = TensorShape(input_shape).ndims
    if not rank:
        raise ValueError(f"Input has undefined rank. Received: input_shape={input_shape}")
    axis = [axis] if isinstance(axis, int) else list(axis)
    axis = [rank + a if a < 0 else a for a in axis]
    if any(a < 0 or a >= rank for a in axis):
        raise ValueError(f"Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with "
                         f"inputs.rank={rank}). Received: axis={tuple(axis)}")
    if len(axis) != len(set(axis)):
        raise ValueError(f"Duplicate axis: {tuple(axis)}")
    return axis


class BatchNormalization(Layer):
    """Batch normalization: ``gamma * (x - mean) / sqrt(variance + epsilon) + beta`` along ``axis``
    (see the module docstring for training, the moving averages and fusing).

    Parameters
    ----------
    axis : int or list of int
        The axis of the features (-1: channels-last; 1 for ``channels_first``).
    momentum : float
        Of the moving averages.
    center, scale : bool
        Whether to make ``beta`` and ``gamma``.
    fused : bool, optional
        None or True: one ``FusedBatchNormV3`` op where it applies; False: never.
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer=_ZEROS,
                 gamma_initializer=_ONES, moving_mean_initializer=_ZEROS, moving_variance_initializer=_ONES,
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None, trainable=True,
                 virtual_batch_size=None, adjustment=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not isinstance(axis, list | tuple | int):
            raise TypeError(f"Expected an int or a list/tuple of ints for the argument 'axis', but received: {axis!r}")
        self.axis = list(axis) if isinstance(axis, list | tuple) else axis
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = beta_initializer
        self.gamma_initializer = gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer = beta_regularizer
        self.gamma_regularizer = gamma_regularizer
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint
        self.renorm = renorm
        self.virtual_batch_size = virtual_batch_size
        self.adjustment = adjustment
        self.fused = True if fused is None else fused
        self.trainable = trainable
        if renorm:
            renorm_clipping = renorm_clipping or {}
            keys = ["rmax", "rmin", "dmax"]
            if set(renorm_clipping) - set(keys):
                raise ValueError(f"Received invalid keys for `renorm_clipping` argument: {renorm_clipping}. "
                                 f"Supported values: {keys}.")
            self.renorm_clipping = renorm_clipping
            self.renorm_momentum = renorm_momentum

    def _fused_can_be_used(self):
        axis = [self.axis] if isinstance(self.axis, int) else self.axis
        return not (self.renorm or len(axis) > 1 or axis[0] not in (-4, -3, -1, 1, 3, 4)
                    or self.virtual_batch_size is not None or self.adjustment is not None
                    or self.dtype not in ("float16", "bfloat16", "float32", None))

    @property
    def _param_dtype(self):
        if self._dtype == dtypes.float16:
            return dtypes.float32
        return self._dtype or dtypes.float32

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        self.axis = validate_axis(self.axis, input_shape)
        rank = input_shape.ndims
        if self.virtual_batch_size is not None:
            self._check_virtual_batch()
        if self.fused:
            self.fused = rank in (4, 5) and self._fused_can_be_used()
        if self.fused:
            self._data_format = _FUSED_DATA_FORMATS.get((self.axis[0], rank))
            if self._data_format is None and rank == 4:
                raise ValueError(f"Unsupported axis. The use of `fused=True` is only possible with `axis=1` or "
                                 f"`axis=3` for 4D input tensors. Received: axis={tuple(self.axis)}")
            self.fused = self._data_format is not None
        dims = input_shape.as_list()
        axis_to_dim = {a: dims[a] for a in self.axis}
        if any(d is None for d in axis_to_dim.values()):
            raise ValueError(f"Input has undefined `axis` dimension. Received input with shape {tuple(dims)} and "
                             f"axis={tuple(self.axis)}")
        self.input_spec = InputSpec(ndim=rank, axes=axis_to_dim)
        if len(axis_to_dim) == 1 and self.virtual_batch_size is None:
            param_shape = (next(iter(axis_to_dim.values())),)
        else:
            param_shape = [axis_to_dim.get(i, 1) for i in range(rank)]
            if self.virtual_batch_size is not None:
                param_shape.insert(1, 1)
                self.axis = [a + 1 for a in self.axis]
        self._param_shape = param_shape
        self._make_weights(param_shape)

    def _check_virtual_batch(self):
        if self.virtual_batch_size <= 0:
            raise ValueError(f"`virtual_batch_size` must be a positive integer that divides the true batch size of "
                             f"the input tensor. Received: virtual_batch_size={self.virtual_batch_size}")
        if 0 in self.axis:
            raise ValueError(f"When using `virtual_batch_size`, the batch dimension must be 0 and thus axis cannot "
                             f"include 0. Received axis={self.axis}")
        if self.adjustment is not None:
            raise ValueError("When using `virtual_batch_size`, adjustment cannot be specified")

    def _statistic(self, name, initializer):
        return self.add_weight(name, shape=self._param_shape, dtype=self._param_dtype, initializer=initializer,
                               synchronization=VariableSynchronization.ON_READ, trainable=False,
                               aggregation=VariableAggregation.MEAN, experimental_autocast=False)

    def _make_weights(self, param_shape):
        def weight(name, initializer, regularizer, constraint):
            return self.add_weight(name, shape=param_shape, dtype=self._param_dtype, initializer=initializer,
                                   regularizer=regularizer, constraint=constraint, trainable=True,
                                   experimental_autocast=False)

        self.gamma = weight("gamma", self.gamma_initializer, self.gamma_regularizer,
                            self.gamma_constraint) if self.scale else None
        self.beta = weight("beta", self.beta_initializer, self.beta_regularizer,
                           self.beta_constraint) if self.center else None
        partitioner = self._scope.partitioner if self._scope else None  # the statistics are never partitioned
        if partitioner:
            self._scope.set_partitioner(None)
        try:
            self.moving_mean = self._statistic("moving_mean", self.moving_mean_initializer)
            self.moving_variance = self._statistic("moving_variance", self.moving_variance_initializer)
            if self.renorm:
                def moving_stddev_initializer(*args, **kwargs):
                    return math_ops.sqrt(self.moving_variance_initializer(*args, **kwargs))

                self.moving_stddev = self._statistic("moving_stddev", moving_stddev_initializer)
                self.renorm_mean = self._statistic("renorm_mean", self.moving_mean_initializer)
                self.renorm_stddev = self._statistic("renorm_stddev", moving_stddev_initializer)
        finally:
            if partitioner:
                self._scope.set_partitioner(partitioner)

    def call(self, inputs, training=False, mask=None):
        if self._dtype is not None:
            inputs = math_ops.cast(inputs, self._dtype)
        if training is None:
            training = learning_phase()
        if self.virtual_batch_size is not None:
            original_shape = array_ops.shape(inputs)
            original_shape = array_ops.concat([constant([-1]), original_shape[1:]], axis=0)
            expanded_shape = array_ops.concat([constant([self.virtual_batch_size, -1]), original_shape[1:]], axis=0)
            inputs = array_ops.reshape(inputs, expanded_shape)
        if self.fused:
            outputs = self._fused_batch_norm(inputs, training)
        else:
            outputs = self._batch_norm(inputs, training, mask)
        if self.virtual_batch_size is not None:
            outputs = array_ops.reshape(outputs, original_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape

    # -- the fused path ------------------------------------------------------------------------------
    def _fused_batch_norm(self, inputs, training):
        beta = self.beta if self.center else constant(0.0, dtype=self._param_dtype, shape=self._param_shape)
        gamma = self.gamma if self.scale else constant(1.0, dtype=self._param_dtype, shape=self._param_shape)

        def batch_statistics():
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                                    epsilon=self.epsilon, is_training=True, data_format=self._data_format)

        def moving_statistics():
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                                    epsilon=self.epsilon, is_training=False, data_format=self._data_format)

        output, mean, variance = smart_cond(training, batch_statistics, moving_statistics)
        training_value = constant_value(training)
        if training_value or training_value is None:
            if training_value is None:
                momentum = smart_cond(training, lambda: self.momentum, lambda: 1.0)
            else:
                momentum = convert_to_tensor(self.momentum)
            self.add_update(lambda: self._assign_moving_average(self.moving_mean, mean, momentum))
            self.add_update(lambda: self._assign_moving_average(self.moving_variance, variance, momentum))
        return output

    def _assign_moving_average(self, variable, value, momentum):
        graph = get_default_graph()
        with graph.name_scope("AssignMovingAvg") as scope, graph.colocate_with(variable.op):
            decay = convert_to_tensor(1.0 - momentum, name="decay")
            if decay.dtype != variable.dtype.base_dtype:
                decay = math_ops.cast(decay, variable.dtype.base_dtype)
            delta = (variable - math_ops.cast(value, variable.dtype.base_dtype)) * decay
            return state_ops.assign_sub(variable, delta, name=scope)

    def _assign_new_value(self, variable, value):
        graph = get_default_graph()
        with graph.name_scope("AssignNewValue") as scope, graph.colocate_with(variable.op):
            return state_ops.assign(variable, value, name=scope)

    # -- the unfused path ----------------------------------------------------------------------------
    def _batch_norm(self, inputs, training, mask):
        inputs_dtype = inputs.dtype.base_dtype
        if inputs_dtype == dtypes.float16:
            inputs = math_ops.cast(inputs, dtypes.float32)
        input_shape = inputs.shape
        ndims = input_shape.ndims
        reduction_axes = [i for i in range(ndims) if i not in self.axis]
        if self.virtual_batch_size is not None:
            del reduction_axes[1]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axis[0]] = input_shape.as_list()[self.axis[0]]

        def broadcast(v):
            if v is not None and v.shape.ndims != ndims and reduction_axes != list(range(ndims - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v

        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        if constant_value(training) is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            scale, offset = self._adjust(inputs, training, scale, offset)
            keep_dims = self.virtual_batch_size is not None or len(self.axis) > 1
            mean, variance = self._moments(math_ops.cast(inputs, self._param_dtype), reduction_axes, keep_dims, mask)
            moving_mean, moving_variance = self.moving_mean, self.moving_variance
            mean = smart_cond(training, lambda: mean, lambda: convert_to_tensor(moving_mean))
            variance = smart_cond(training, lambda: variance, lambda: convert_to_tensor(moving_variance))
            if self.virtual_batch_size is not None:
                new_mean = math_ops.reduce_mean(mean, axis=1, keepdims=True)
                new_variance = math_ops.reduce_mean(variance, axis=1, keepdims=True)
            else:
                new_mean, new_variance = mean, variance
            if self.renorm:
                r, d, new_mean, new_variance = self._renorm_correction_and_moments(new_mean, new_variance, training)
                r = broadcast(array_ops.stop_gradient(r, name="renorm_r"))
                d = broadcast(array_ops.stop_gradient(d, name="renorm_d"))
                scale, offset = _compose_transforms(r, d, scale, offset)
            self._add_moving_updates(training, new_mean, new_variance)
        mean, variance = math_ops.cast(mean, inputs.dtype), math_ops.cast(variance, inputs.dtype)
        offset = None if offset is None else math_ops.cast(offset, inputs.dtype)
        scale = None if scale is None else math_ops.cast(scale, inputs.dtype)
        outputs = nn_batch_normalization(inputs, broadcast(mean), broadcast(variance), offset, scale, self.epsilon)
        if inputs_dtype == dtypes.float16:
            outputs = math_ops.cast(outputs, inputs_dtype)
        outputs.set_shape(input_shape)
        return outputs

    def _adjust(self, inputs, training, scale, offset):
        if not self.adjustment:
            return scale, offset
        adj_scale, adj_bias = self.adjustment(array_ops.shape(inputs))
        adj_scale = smart_cond(training, lambda: adj_scale, lambda: array_ops.ones_like(adj_scale))
        adj_bias = smart_cond(training, lambda: adj_bias, lambda: array_ops.zeros_like(adj_bias))
        return _compose_transforms(adj_scale, adj_bias, scale, offset)

    def _moments(self, inputs, reduction_axes, keep_dims, mask):
        if mask is None:
            return moments(inputs, reduction_axes, keepdims=keep_dims)
        mask_weights = math_ops.cast(mask, self._dtype, name="mask_weights")
        mask_weights = array_ops.expand_dims(mask_weights, axis=-1, name="mask_weights_broadcasted")
        return weighted_moments(inputs, axes=reduction_axes, frequency_weights=mask_weights, keepdims=keep_dims)

    def _add_moving_updates(self, training, new_mean, new_variance):
        def mean_update():
            return smart_cond(training, lambda: self._assign_moving_average(self.moving_mean, new_mean, self.momentum),
                              lambda: self.moving_mean)

        def variance_update():
            def renorm_update():
                moving_stddev = self._assign_moving_average(self.moving_stddev,
                                                            math_ops.sqrt(new_variance + self.epsilon), self.momentum)
                return self._assign_new_value(self.moving_variance, relu(moving_stddev * moving_stddev - self.epsilon))

            def plain_update():
                return self._assign_moving_average(self.moving_variance, new_variance, self.momentum)

            return smart_cond(training, renorm_update if self.renorm else plain_update, lambda: self.moving_variance)

        self.add_update(mean_update)
        self.add_update(variance_update)

    def _renorm_correction_and_moments(self, mean, variance, training):
        """TensorFlow's batch renormalization: the corrections ``r`` and ``d`` (clipped) and the moments,
        after the renorm statistics' updates."""
        stddev = math_ops.sqrt(variance + self.epsilon)
        renorm_stddev = math_ops.maximum(self.renorm_stddev, math_ops.sqrt(self.epsilon))
        r = stddev / renorm_stddev
        d = (mean - self.renorm_mean) / renorm_stddev
        with get_default_graph().control_dependencies([r, d]):
            mean = array_ops.identity(mean)
            stddev = array_ops.identity(stddev)
        rmin, rmax, dmax = (self.renorm_clipping.get(key) for key in ("rmin", "rmax", "dmax"))
        if rmin is not None:
            r = math_ops.maximum(r, rmin)
        if rmax is not None:
            r = math_ops.minimum(r, rmax)
        if dmax is not None:
            d = math_ops.minimum(math_ops.maximum(d, -dmax), dmax)
        r = smart_cond(training, lambda: r, lambda: array_ops.ones_like(r))
        d = smart_cond(training, lambda: d, lambda: array_ops.zeros_like(d))

        def update(var, value):
            value = array_ops.identity(value)
            return smart_cond(training, lambda: self._assign_moving_average(var, value, self.renorm_momentum),
                              lambda: array_ops.identity(var))

        new_mean = update(self.renorm_mean, mean)
        new_stddev = update(self.renorm_stddev, stddev)
        with get_default_graph().control_dependencies([new_mean, new_stddev]):
            return r, d, array_ops.identity(mean), array_ops.identity(variance)


def _compose_transforms(scale, offset, then_scale, then_offset):
    if then_scale is not None:
        scale *= then_scale
        offset *= then_scale
    if then_offset is not None:
        offset += then_offset
    return scale, offset


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=_ZEROS, gamma_initializer=_ONES, moving_mean_initializer=_ZEROS,
                        moving_variance_initializer=_ONES, beta_regularizer=None, gamma_regularizer=None,
                        beta_constraint=None, gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None,
                        virtual_batch_size=None, adjustment=None):
    """A :class:`BatchNormalization` layer applied to ``inputs``.

    ``training`` (a Python bool or a bool tensor) chooses the batch's statistics (and adds the moving
    averages' updates to ``UPDATE_OPS``) or the moving averages; ``name`` is the variable scope
    (``name/gamma``, ``name/beta``, ``name/moving_mean``, ``name/moving_variance``), ``reuse`` shares an
    earlier layer's variables.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     is_training = tf.placeholder(tf.bool, [])
    ...     y = tf.layers.batch_normalization(tf.ones([2, 4, 4, 3]), training=is_training)
    ...     updates = [op.name for op in tf.get_collection(tf.GraphKeys.UPDATE_OPS)]
    ...     y.name, updates[1]
    ('batch_normalization/cond/Merge:0', 'batch_normalization/AssignMovingAvg_1')
    """
    return apply_functional(BatchNormalization, locals())
