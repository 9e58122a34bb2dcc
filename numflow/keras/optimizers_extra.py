"""Keras' (legacy OptimizerV2) Adadelta, Adamax, Ftrl and Nadam in TensorFlow 1.x mode, made and named as
``optimizers.py``'s (``training/Nadam/momentum_cache``, ``training/Ftrl/dense/kernel/accumulator``) and updating
as tf-keras does: Adadelta and Ftrl by TensorFlow's ``ApplyAdadelta``/``ApplyFtrl`` kernels; Adamax and Nadam by
the same arithmetic as tf-keras' ops. A gradient of some rows (an Embedding's) updates as tf-keras' sparse
updates do, its rows summed by index: Adadelta, Ftrl and Adamax change those rows alone; Nadam decays all of
its slots, then changes those rows of them and of the variable.
"""

from numflow.framework.graph import get_default_graph
from numflow.keras import backend
from numflow.keras.optimizers import Optimizer
from numflow.ops import math_ops, selection_ops, state_ops, training_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_ops import group


def _identity_hyper(optimizer, name, dtype):
    from numflow.ops import array_ops

    return array_ops.identity(optimizer._get_hyper(name, dtype))


class Adadelta(Optimizer):
    """Adadelta: running means of squared gradients (``accum_grad``) and squared updates (``accum_var``)."""

    _SLOTS = ("accum_grad", "accum_var")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._set_hyper("rho", rho)
        self.epsilon = epsilon or backend.epsilon()

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        return training_ops.apply_adadelta(var, self.get_slot(var, "accum_grad"), self.get_slot(var, "accum_var"),
                                           self._decayed_lr(dtype), _identity_hyper(self, "rho", dtype),
                                           convert_to_tensor(self.epsilon, dtype=dtype), grad).op

    def _apply_sparse(self, grad, var):
        dtype = var.dtype.base_dtype
        return training_ops.sparse_apply_adadelta(
            var, self.get_slot(var, "accum_grad"), self.get_slot(var, "accum_var"), self._decayed_lr(dtype),
            _identity_hyper(self, "rho", dtype), convert_to_tensor(self.epsilon, dtype=dtype), grad.values,
            grad.indices).op

    def get_config(self):
        return {**super().get_config(), "epsilon": self.epsilon}


class Adamax(Optimizer):
    """Adamax: ``m = beta_1 m + (1 - beta_1) g``, ``v = max(beta_2 v, |g|)``,
    ``var -= lr / (1 - beta_1 ** t) * m / (v + epsilon)``."""

    _SLOTS = ("m", "v")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Adamax", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or backend.epsilon()

    def _coefficients(self, dtype):
        local_step = math_ops.cast(self._iterations.value() + 1, dtype)
        beta_1_t, beta_2_t = _identity_hyper(self, "beta_1", dtype), _identity_hyper(self, "beta_2", dtype)
        scaled_lr = self._decayed_lr(dtype) / (1 - math_ops.pow(beta_1_t, local_step))
        return beta_1_t, beta_2_t, scaled_lr, convert_to_tensor(self.epsilon, dtype=dtype)

    def _apply_dense(self, grad, var):
        beta_1_t, beta_2_t, scaled_lr, epsilon = self._coefficients(var.dtype.base_dtype)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = state_ops.assign(m, beta_1_t * m.value() + (1 - beta_1_t) * grad)
        v_t = state_ops.assign(v, math_ops.maximum(beta_2_t * v.value(), math_ops.abs(grad)))
        return state_ops.assign_sub(var, scaled_lr * (m_t / (v_t + epsilon))).op

    def _apply_sparse(self, grad, var):
        beta_1_t, beta_2_t, scaled_lr, epsilon = self._coefficients(var.dtype.base_dtype)
        m, v, rows = self.get_slot(var, "m"), self.get_slot(var, "v"), grad.indices
        m_rows = selection_ops.gather(m.value(), rows) * beta_1_t + grad.values * (1 - beta_1_t)
        v_rows = math_ops.maximum(selection_ops.gather(v.value(), rows) * beta_2_t, math_ops.abs(grad.values))
        return group(state_ops.scatter_update(m, rows, m_rows), state_ops.scatter_update(v, rows, v_rows),
                     state_ops.scatter_add(var, rows, -scaled_lr * (m_rows / (v_rows + epsilon))))

    def get_config(self):
        return {**super().get_config(), "epsilon": self.epsilon}


class Ftrl(Optimizer):
    """Follow-the-regularized-leader (``ApplyFtrl``; ``ApplyFtrlV2`` with L2 shrinkage), its accumulators from
    ``initial_accumulator_value``; ``beta`` adds ``beta / (2 lr)`` to the L2 strength."""

    _SLOTS = ("accumulator", "linear")
    _SLOTS_PER_VARIABLE = True

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, name="Ftrl",
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, **kwargs):
        super().__init__(name, **kwargs)
        for argument, value, rule in (
                ("initial_accumulator_value", initial_accumulator_value, "positive or zero"),
                ("learning_rate_power", -learning_rate_power, "negative or zero"),
                ("l1_regularization_strength", l1_regularization_strength, "positive or zero"),
                ("l2_regularization_strength", l2_regularization_strength, "positive or zero"),
                ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength, "positive or zero")):
            if value < 0.0:
                shown = -value if argument == "learning_rate_power" else value
                raise ValueError(f"`{argument}` needs to be {rule}. Received: {argument}={shown}.")
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("learning_rate_power", learning_rate_power)
        self._set_hyper("l1_regularization_strength", l1_regularization_strength)
        self._set_hyper("l2_regularization_strength", l2_regularization_strength)
        self._set_hyper("beta", beta)
        self._initial_accumulator_value = initial_accumulator_value
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength

    def _slot(self, var, slot_name, value=0.0):
        return super()._slot(var, slot_name, self._initial_accumulator_value if slot_name == "accumulator" else 0.0)

    def _apply_dense(self, grad, var):
        return training_ops.apply_ftrl(var, self.get_slot(var, "accumulator"), self.get_slot(var, "linear"), grad,
                                       *self._arguments(var.dtype.base_dtype)).op

    def _apply_sparse(self, grad, var):
        return training_ops.sparse_apply_ftrl(var, self.get_slot(var, "accumulator"), self.get_slot(var, "linear"),
                                              grad.values, grad.indices, *self._arguments(var.dtype.base_dtype)).op

    def _arguments(self, dtype):
        """``lr, l1, l2, lr_power`` and ``l2_shrinkage`` of an update (the L2 strength plus ``beta / (2 lr)``)."""
        lr_t = self._decayed_lr(dtype)
        l2 = _identity_hyper(self, "l2_regularization_strength", dtype) + _identity_hyper(self, "beta", dtype) / (
            2.0 * lr_t)
        shrinkage = self._l2_shrinkage_regularization_strength
        return (lr_t, _identity_hyper(self, "l1_regularization_strength", dtype), l2,
                _identity_hyper(self, "learning_rate_power", dtype),
                math_ops.cast(shrinkage, dtype) if shrinkage > 0.0 else None)

    def get_config(self):
        return {**super().get_config(), "initial_accumulator_value": self._initial_accumulator_value,
                "l2_shrinkage_regularization_strength": self._l2_shrinkage_regularization_strength}


class Nadam(Optimizer):
    """Adam with Nesterov momentum, its momentum schedule ``beta_1 (1 - 0.96 ** (schedule_decay t) / 2)`` kept
    as a product in ``momentum_cache``; the learning rate is not decayed."""

    _SLOTS = ("m", "v")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Nadam", **kwargs):
        kwargs["decay"] = kwargs.pop("schedule_decay", 0.004)
        if callable(kwargs.get("lr", learning_rate)):
            raise ValueError("The Nadam optimizer does not support tf.keras.optimizers.LearningRateSchedules as the "
                             "learning rate.")
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or backend.epsilon()
        self._m_cache, self._step = None, None

    def _create_extra_variables(self):
        import numpy as np

        from numflow.framework import dtypes

        if self._m_cache is None:
            self._m_cache = self._variable(np.float32(1.0), "momentum_cache", dtypes.float32)
            self._extra_variables.append(self._m_cache)

    def _prepare_step(self):
        from numflow.ops import array_ops

        dtype = self._m_cache.dtype.base_dtype
        m_cache_read = array_ops.identity(self._m_cache.value())
        lr_t = _identity_hyper(self, "learning_rate", dtype)
        beta_1_t, beta_2_t = _identity_hyper(self, "beta_1", dtype), _identity_hyper(self, "beta_2", dtype)
        local_step = math_ops.cast(self._iterations.value() + 1, dtype)
        next_step = math_ops.cast(self._iterations.value() + 2, dtype)
        decay_base = math_ops.cast(0.96, dtype)
        m_t = beta_1_t * (1.0 - 0.5 * math_ops.pow(decay_base, self._initial_decay * local_step))
        m_t_1 = beta_1_t * (1.0 - 0.5 * math_ops.pow(decay_base, self._initial_decay * next_step))
        m_schedule_new = array_ops.identity(state_ops.assign(self._m_cache, m_cache_read * m_t))
        self._step = {"lr_t": lr_t, "beta_1_t": beta_1_t, "beta_2_t": beta_2_t, "m_t": m_t, "m_t_1": m_t_1,
                      "m_schedule_new": m_schedule_new, "m_schedule_next": m_schedule_new * m_t_1,
                      "v_t_prime_denominator": 1.0 - math_ops.pow(beta_2_t, local_step)}

    def _apply_dense(self, grad, var):
        c = self._step
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        g_prime = grad / (1.0 - c["m_schedule_new"])
        m_t = state_ops.assign(m, c["beta_1_t"] * m.value() + (1 - c["beta_1_t"]) * grad)
        m_t_prime = m_t / (1.0 - c["m_schedule_next"])
        v_t = state_ops.assign(v, c["beta_2_t"] * v.value() + (1 - c["beta_2_t"]) * math_ops.square(grad))
        v_t_prime = v_t / c["v_t_prime_denominator"]
        m_t_bar = (1.0 - c["m_t"]) * g_prime + c["m_t_1"] * m_t_prime
        epsilon = convert_to_tensor(self.epsilon, dtype=var.dtype.base_dtype)
        return state_ops.assign(var, var.value() - c["lr_t"] * m_t_bar / (math_ops.sqrt(v_t_prime) + epsilon)).op

    def _apply_sparse(self, grad, var):
        c, rows, values = self._step, grad.indices, grad.values
        g_prime = values / (1.0 - c["m_schedule_new"])
        m_rows = self._decay_and_add(self.get_slot(var, "m"), c["beta_1_t"], rows, values * (1 - c["beta_1_t"]))
        m_t_bar = (1.0 - c["m_t"]) * g_prime + c["m_t_1"] * (m_rows / (1.0 - c["m_schedule_next"]))
        v_rows = self._decay_and_add(self.get_slot(var, "v"), c["beta_2_t"], rows,
                                     (values * values) * (1 - c["beta_2_t"]))
        epsilon = convert_to_tensor(self.epsilon, dtype=var.dtype.base_dtype)
        v_prime_sqrt_plus_eps = math_ops.sqrt(v_rows / c["v_t_prime_denominator"]) + epsilon
        return state_ops.scatter_add(var, rows, -c["lr_t"] * m_t_bar / v_prime_sqrt_plus_eps).op

    @staticmethod
    def _decay_and_add(slot, decay, rows, scaled):
        """``slot *= decay`` (all of it), then ``scaled`` added to its ``rows``; their new values."""
        decayed = state_ops.assign(slot, slot.value() * decay)
        with get_default_graph().control_dependencies([decayed.op]):
            return selection_ops.gather(state_ops.scatter_add(slot, rows, scaled), rows)

    def get_config(self):
        return {**super().get_config(), "epsilon": self.epsilon}
