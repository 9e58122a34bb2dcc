"""TensorFlow 1.x's Adadelta, proximal gradient descent, proximal Adagrad, Adagrad dual averaging and FTRL
optimizers.

As in ``optimizers.py``: one fused ``Apply*`` op per variable, TensorFlow's defaults, slot names and
hyperparameter tensors; an IndexedSlices gradient has its repeated rows summed, then
``SparseApply*`` updates its rows only.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     w = tf.Variable([1.0, 2.0], name="w")
...     opt = tf.train.AdadeltaOptimizer(0.1)
...     train = opt.minimize(tf.reduce_sum(w * w))
...     [v.op.name for v in opt.variables()]
['w/Adadelta', 'w/Adadelta_1']
"""

from numflow.ops import training_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.train.optimizer import Optimizer


class AdadeltaOptimizer(Optimizer):
    """Adadelta (Zeiler): slots ``accum`` (``w/Adadelta``) and ``accum_update`` (``w/Adadelta_1``).

    ``accum = rho * accum + (1 - rho) * g * g``;
    ``update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * g``; ``var -= learning_rate * update``;
    ``accum_update = rho * accum_update + (1 - rho) * update * update``.
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False, name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon
        self._lr_t = self._rho_t = self._epsilon_t = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="lr")
        self._rho_t = convert_to_tensor(self._call_if_callable(self._rho), name="rho")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _args(self, var):
        return (self.get_slot(var, "accum"), self.get_slot(var, "accum_update"),
                *(self._cast(t, var) for t in (self._lr_t, self._rho_t, self._epsilon_t)))

    def _apply_dense(self, grad, var):
        return training_ops.apply_adadelta(var, *self._args(var), grad, use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        """``SparseApplyAdadelta``: rows absent from ``grad`` keep their variable and slots."""
        return training_ops.sparse_apply_adadelta(var, *self._args(var), grad.values, grad.indices,
                                                  use_locking=self._use_locking).op


class _ProximalOptimizer(Optimizer):
    """The hyperparameter tensors both proximal optimizers make, passed to their ops uncast, as TensorFlow does."""

    def __init__(self, learning_rate, l1_regularization_strength, l2_regularization_strength, use_locking, name):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._learning_rate_tensor = self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate, name="learning_rate")
        self._l1_regularization_strength_tensor = convert_to_tensor(self._l1_regularization_strength,
                                                                    name="l1_regularization_strength")
        self._l2_regularization_strength_tensor = convert_to_tensor(self._l2_regularization_strength,
                                                                    name="l2_regularization_strength")

    def _hyperparameters(self):
        return (self._learning_rate_tensor, self._l1_regularization_strength_tensor,
                self._l2_regularization_strength_tensor)


class ProximalGradientDescentOptimizer(_ProximalOptimizer):
    """FOBOS with gradient descent: ``v = var - learning_rate * grad``, then
    ``var = sign(v) * max(|v| - learning_rate * l1, 0) / (1 + learning_rate * l2)``; no slots."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalGradientDescent"):
        super().__init__(learning_rate, l1_regularization_strength, l2_regularization_strength, use_locking, name)

    def _apply_dense(self, grad, var):
        return training_ops.apply_proximal_gradient_descent(var, *self._hyperparameters(), grad,
                                                            use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """``SparseApplyProximalGradientDescent``: the rows of ``grad`` only."""
        return training_ops.sparse_apply_proximal_gradient_descent(
            var, *self._hyperparameters(), grad.values, grad.indices, use_locking=self._use_locking).op


class ProximalAdagradOptimizer(_ProximalOptimizer):
    """FOBOS with Adagrad's rate: ``accum += grad * grad``, then the proximal gradient descent step at
    the rate ``learning_rate / sqrt(accum)``; slot ``accumulator`` (``w/ProximalAdagrad``) starting at
    ``initial_accumulator_value``."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(learning_rate, l1_regularization_strength, l2_regularization_strength, use_locking, name)
        self._initial_accumulator_value = initial_accumulator_value

    def _create_slots(self, var_list):
        from numflow.ops import init_ops

        for v in var_list:
            dtype = v.dtype.base_dtype
            init = init_ops.constant_initializer(self._initial_accumulator_value, dtype=dtype)
            self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype, "accumulator", self._name)

    def _apply_dense(self, grad, var):
        return training_ops.apply_proximal_adagrad(var, self.get_slot(var, "accumulator"), *self._hyperparameters(),
                                                   grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """``SparseApplyProximalAdagrad``: the rows of ``grad`` only."""
        return training_ops.sparse_apply_proximal_adagrad(
            var, self.get_slot(var, "accumulator"), *self._hyperparameters(), grad.values, grad.indices,
            use_locking=self._use_locking).op


class AdagradDAOptimizer(Optimizer):
    """Adagrad dual averaging (Duchi et al.): slots ``gradient_accumulator`` (``w/AdagradDA``, from 0) and
    ``gradient_squared_accumulator`` (``w/AdagradDA_1``, from ``initial_gradient_squared_accumulator_value``).

    With ``T = global_step + 1`` (read once per step), ``ga += grad``, ``gga += grad * grad`` and
    ``var = -sign(ga) * lr * max(|ga| - l1 * T, 0) / (l2 * T * lr + sqrt(gga))``: the variable is a
    function of the accumulated gradients, not of its previous value. ``global_step`` is the int64
    step variable the training loop advances (``minimize(..., global_step=...)``).
    """

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: "
                             f"{initial_gradient_squared_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = initial_gradient_squared_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._global_step = global_step
        self._learning_rate_tensor = self._global_step_on_worker = None

    def _create_slots(self, var_list):
        from numflow.ops import init_ops

        for v in var_list:
            dtype = v.dtype.base_dtype
            for slot, value in (("gradient_accumulator", 0.0),
                                ("gradient_squared_accumulator", self._initial_gradient_squared_accumulator_value)):
                init = init_ops.constant_initializer(value, dtype=dtype)
                self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype, slot, self._name)

    def _prepare(self):
        from numflow.framework.graph import get_default_graph
        from numflow.ops import array_ops

        self._learning_rate_tensor = convert_to_tensor(self._learning_rate, name="learning_rate")
        # One read of the step per run, beside the learning rate (on the worker), as TensorFlow reads it.
        with get_default_graph().colocate_with(self._learning_rate_tensor.op):
            self._global_step_on_worker = array_ops.identity(self._global_step) + 1

    def _args(self, var):
        from numflow.ops import array_ops

        step = array_ops.identity(self._global_step_on_worker)
        return (self.get_slot(var, "gradient_accumulator"), self.get_slot(var, "gradient_squared_accumulator"),
                self._cast(self._learning_rate_tensor, var), _cast_number(self._l1_regularization_strength, var),
                _cast_number(self._l2_regularization_strength, var), step)

    def _apply_dense(self, grad, var):
        ga, gga, lr, l1, l2, step = self._args(var)
        return training_ops.apply_adagrad_da(var, ga, gga, grad, lr, l1, l2, step, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """``SparseApplyAdagradDA``: the rows of ``grad`` only."""
        ga, gga, lr, l1, l2, step = self._args(var)
        return training_ops.sparse_apply_adagrad_da(var, ga, gga, grad.values, grad.indices, lr, l1, l2, step,
                                                    use_locking=self._use_locking).op


def _cast_number(value, var):
    """TensorFlow's ``math_ops.cast`` of a Python number to ``var``'s dtype: the constant ``Cast/x`` (float32),
    cast by an op named ``Cast`` when ``var`` is of another dtype."""
    from numflow.framework.graph import get_default_graph
    from numflow.ops import math_ops

    with get_default_graph().name_scope("Cast") as scope:
        x = convert_to_tensor(value, name="x")
        return x if x.dtype.base_dtype == var.dtype.base_dtype else math_ops.cast(x, var.dtype.base_dtype, name=scope)


class FtrlOptimizer(Optimizer):
    """FTRL-proximal (McMahan et al.): slots ``accum`` (``w/Ftrl``, starting at
    ``initial_accumulator_value``) and ``linear`` (``w/Ftrl_1``). ``ApplyFtrl``, or ``ApplyFtrlV2``
    with ``l2_shrinkage_regularization_strength > 0``; ``beta`` adds ``beta / (2 * learning_rate)`` to l2.
    """

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0, beta=None):
        super().__init__(use_locking, name)
        checks = [(initial_accumulator_value < 0.0, "initial_accumulator_value %f needs to be positive or zero",
                   initial_accumulator_value),
                  (learning_rate_power > 0.0, "learning_rate_power %f needs to be negative or zero",
                   learning_rate_power),
                  (l1_regularization_strength < 0.0, "l1_regularization_strength %f needs to be positive or zero",
                   l1_regularization_strength),
                  (l2_regularization_strength < 0.0, "l2_regularization_strength %f needs to be positive or zero",
                   l2_regularization_strength),
                  (l2_shrinkage_regularization_strength < 0.0,
                   "l2_shrinkage_regularization_strength %f needs to be positive or zero",
                   l2_shrinkage_regularization_strength)]
        for failed, message, value in checks:
            if failed:
                raise ValueError(message % value)
        self._learning_rate = learning_rate
        self._learning_rate_power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self._accum_name = accum_name
        self._linear_name = linear_name
        self._tensors = None

    def _create_slots(self, var_list):
        from numflow.ops import array_ops

        def accum_initializer(shape, dtype=None, partition_info=None):
            return array_ops.ones(shape=shape, dtype=dtype) * self._initial_accumulator_value

        for v in var_list:
            self._get_or_make_slot_with_initializer(v, accum_initializer, v.shape, v.dtype.base_dtype, "accum",
                                                    self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        from numflow.ops import math_ops

        adjusted_l2 = self._l2_regularization_strength + self._beta / (
            2.0 * math_ops.maximum(self._learning_rate, 1e-36))
        self._tensors = {
            "lr": convert_to_tensor(self._learning_rate, name="learning_rate"),
            "l1": convert_to_tensor(self._l1_regularization_strength, name="l1_regularization_strength"),
            "l2": convert_to_tensor(adjusted_l2, name="adjusted_l2_regularization_strength"),
            "beta": convert_to_tensor(self._beta, name="beta"),
            "l2_shrinkage": convert_to_tensor(self._l2_shrinkage_regularization_strength,
                                              name="l2_shrinkage_regularization_strength"),
            "lr_power": convert_to_tensor(self._learning_rate_power, name="learning_rate_power"),
        }

    def _scalars(self, var):
        scalars = {n: self._cast(self._tensors[n], var) for n in ("lr", "l1", "l2", "lr_power")}
        if self._l2_shrinkage_regularization_strength > 0.0:
            scalars["l2_shrinkage"] = self._cast(self._tensors["l2_shrinkage"], var)
        return scalars

    def _apply_dense(self, grad, var):
        return training_ops.apply_ftrl(var, self.get_slot(var, "accum"), self.get_slot(var, "linear"), grad,
                                       **self._scalars(var), use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        """``SparseApplyFtrl`` (``V2`` with shrinkage): the rows of ``grad`` only."""
        return training_ops.sparse_apply_ftrl(var, self.get_slot(var, "accum"), self.get_slot(var, "linear"),
                                              grad.values, grad.indices, **self._scalars(var),
                                              use_locking=self._use_locking).op
