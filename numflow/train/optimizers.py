"""TensorFlow 1.x's optimizers: gradient descent, momentum, Adam, Adagrad, RMSProp (Adadelta and the
proximal ones are in ``optimizers_more.py``).

Each builds one fused ``Apply*`` op per variable (``numflow/ops/training_ops.py``) with the same
defaults, slot names and hyperparameter tensors as ``tf.compat.v1.train``. Update formulas are in
``numflow_kernels/cpu/training.py``. An IndexedSlices gradient (from ``tf.gather``) takes TF 1's sparse
path: gradient descent ``scatter_sub``s its rows, the others sum repeated rows and then run
``SparseApply*`` (``numflow_kernels/cpu/training_sparse.py``), or, for Adam, TF 1's decay of m and v
followed by ``scatter_add``s of the batch's rows.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     w = tf.Variable([1.0, 2.0], name="w")
...     opt = tf.train.AdamOptimizer(0.1)
...     train = opt.minimize(tf.reduce_sum(w * w))
...     [v.op.name for v in opt.variables()]
['beta1_power', 'beta2_power', 'w/Adam', 'w/Adam_1']
"""

from numflow.framework.indexed_slices import IndexedSlices
from numflow.ops import training_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.train.optimizer import Optimizer


class GradientDescentOptimizer(Optimizer):
    """``var -= learning_rate * grad``."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_gradient_descent(var, self._cast(self._learning_rate_tensor, var), grad,
                                                   use_locking=self._use_locking).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        """``scatter_sub`` of the rows times the rate: repeated indices subtract each of their rows, as in TF."""
        from numflow.ops import math_ops

        delta = IndexedSlices(math_ops.multiply(grad.values, self._cast(self._learning_rate_tensor, var)),
                              grad.indices, grad.dense_shape)
        return var.scatter_sub(delta, use_locking=self._use_locking).op


class MomentumOptimizer(Optimizer):
    """``accum = momentum * accum + grad; var -= learning_rate * accum``; one slot, ``momentum``.

    With ``use_nesterov``, ``var -= learning_rate * (grad + momentum * accum)``.
    """

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")

    def _apply_dense(self, grad, var):
        return training_ops.apply_momentum(
            var, self.get_slot(var, "momentum"), self._cast(self._learning_rate_tensor, var), grad,
            self._cast(self._momentum_tensor, var), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov).op

    def _apply_sparse(self, grad, var):
        """``SparseApplyMomentum``: rows absent from ``grad`` keep their variable and accumulator."""
        return training_ops.sparse_apply_momentum(
            var, self.get_slot(var, "momentum"), self._cast(self._learning_rate_tensor, var), grad.values,
            grad.indices, self._cast(self._momentum_tensor, var), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov).op


class AdamOptimizer(Optimizer):
    """Adam (Kingma and Ba): slots ``m`` (``w/Adam``) and ``v`` (``w/Adam_1``), and the non-slot
    variables ``beta1_power`` and ``beta2_power`` colocated with the first variable by name.

    ``lr_t = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)``;
    ``m = beta1 * m + (1 - beta1) * g``; ``v = beta2 * v + (1 - beta2) * g * g``;
    ``var -= lr_t * m / (sqrt(v) + epsilon)``.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lr_t = self._beta1_t = self._beta2_t = self._epsilon_t = None

    def _get_beta_accumulators(self):
        from numflow.framework.graph import get_default_graph

        graph = get_default_graph()
        return self._get_non_slot_variable("beta1_power", graph), self._get_non_slot_variable("beta2_power", graph)

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power", colocate_with=first_var)
        self._create_non_slot_variable(initial_value=self._beta2, name="beta2_power", colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta1_t = convert_to_tensor(self._call_if_callable(self._beta1), name="beta1")
        self._beta2_t = convert_to_tensor(self._call_if_callable(self._beta2), name="beta2")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        beta1_power, beta2_power = self._get_beta_accumulators()
        return training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"),
            self._cast(beta1_power.value(), var), self._cast(beta2_power.value(), var),
            self._cast(self._lr_t, var), self._cast(self._beta1_t, var), self._cast(self._beta2_t, var),
            self._cast(self._epsilon_t, var), grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """TF 1's sparse Adam: m and v decay on every row (``Assign``), the batch's rows gain their
        gradient terms (``ScatterAdd``), and every row of the variable takes its step (``AssignSub``)."""
        from numflow.framework.graph import get_default_graph
        from numflow.ops import control_flow_ops, math_ops, state_ops

        graph = get_default_graph()
        beta1_power, beta2_power = (self._cast(p.value(), var) for p in self._get_beta_accumulators())
        lr_t, beta1_t, beta2_t, epsilon_t = (self._cast(t, var) for t in (self._lr_t, self._beta1_t, self._beta2_t,
                                                                           self._epsilon_t))
        lr = lr_t * math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad.values * (1 - beta1_t)
        m_t = state_ops.assign(m, m * beta1_t, use_locking=self._use_locking)
        with graph.control_dependencies([m_t]):
            m_t = state_ops.scatter_add(m, grad.indices, m_scaled_g_values, use_locking=self._use_locking)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (grad.values * grad.values) * (1 - beta2_t)
        v_t = state_ops.assign(v, v * beta2_t, use_locking=self._use_locking)
        with graph.control_dependencies([v_t]):
            v_t = state_ops.scatter_add(v, grad.indices, v_scaled_g_values, use_locking=self._use_locking)
        v_sqrt = math_ops.sqrt(v_t)
        var_update = state_ops.assign_sub(var, lr * m_t / (v_sqrt + epsilon_t), use_locking=self._use_locking)
        return control_flow_ops.group(var_update, m_t, v_t)

    def _finish(self, update_ops, name_scope):
        from numflow.framework.graph import get_default_graph
        from numflow.ops import control_flow_ops

        graph = get_default_graph()
        with graph.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            with graph.colocate_with(beta1_power.op):
                update_beta1 = beta1_power.assign(beta1_power * self._beta1_t, use_locking=self._use_locking)
                update_beta2 = beta2_power.assign(beta2_power * self._beta2_t, use_locking=self._use_locking)
        return control_flow_ops.group(*update_ops, update_beta1, update_beta2, name=name_scope)


class AdagradOptimizer(Optimizer):
    """``accum += grad * grad; var -= learning_rate * grad / sqrt(accum)``; slot ``accumulator``
    (``w/Adagrad``) starting at ``initial_accumulator_value``."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._learning_rate_tensor = None

    def _create_slots(self, var_list):
        from numflow.ops import init_ops

        for v in var_list:
            dtype = v.dtype.base_dtype
            init = init_ops.constant_initializer(self._initial_accumulator_value, dtype=dtype)
            self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_adagrad(var, self.get_slot(var, "accumulator"),
                                          self._cast(self._learning_rate_tensor, var), grad,
                                          use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """``SparseApplyAdagrad``: the rows of ``grad`` only."""
        return training_ops.sparse_apply_adagrad(var, self.get_slot(var, "accumulator"),
                                                 self._cast(self._learning_rate_tensor, var), grad.values,
                                                 grad.indices, use_locking=self._use_locking).op


class RMSPropOptimizer(Optimizer):
    """RMSProp: slots ``rms`` (``w/RMSProp``, starting at ones), ``momentum`` and, when
    ``centered``, ``mg`` (the mean gradient).

    ``ms = decay * ms + (1 - decay) * g * g``;
    ``mom = momentum * mom + learning_rate * g / sqrt(ms + epsilon)``; ``var -= mom``.
    """

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False, centered=False,
                 name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered

    def _create_slots(self, var_list):
        from numflow.ops import init_ops

        for v in var_list:
            dtype = v.dtype.base_dtype
            self._get_or_make_slot_with_initializer(v, init_ops.ones_initializer(dtype=dtype), v.get_shape(), dtype,
                                                    "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._decay_tensor = convert_to_tensor(self._call_if_callable(self._decay), name="decay")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")
        self._epsilon_tensor = convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        args = [self._cast(t, var) for t in (self._learning_rate_tensor, self._decay_tensor, self._momentum_tensor,
                                             self._epsilon_tensor)]
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        if self._centered:
            return training_ops.apply_centered_rms_prop(var, self.get_slot(var, "mg"), rms, mom, *args, grad,
                                                        use_locking=self._use_locking).op
        return training_ops.apply_rms_prop(var, rms, mom, *args, grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """``SparseApplyRMSProp`` (or the centered one): rows absent from ``grad`` keep their variable and slots."""
        args = [self._cast(t, var) for t in (self._learning_rate_tensor, self._decay_tensor, self._momentum_tensor,
                                             self._epsilon_tensor)]
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        if self._centered:
            return training_ops.sparse_apply_centered_rms_prop(var, self.get_slot(var, "mg"), rms, mom, *args,
                                                               grad.values, grad.indices,
                                                               use_locking=self._use_locking).op
        return training_ops.sparse_apply_rms_prop(var, rms, mom, *args, grad.values, grad.indices,
                                                  use_locking=self._use_locking).op
