"""``tf.train.ExponentialMovingAverage``: shadow variables that follow other variables' values.

``ema.apply([w])`` creates ``w/ExponentialMovingAverage`` (not trainable, colocated with ``w``,
starting at ``w``'s value, or its initial value while ``w`` is uninitialized) and returns the op
that moves every shadow towards its variable::

    shadow -= (1 - decay) * (shadow - w)        # ExponentialMovingAverage/AssignMovingAvg, an AssignSub

``w`` is read afresh by ``ExponentialMovingAverage/AssignMovingAvg/read`` (TensorFlow reads ``w/read``,
which aliases the variable's buffer): created under ``control_dependencies([train_op])``, the
update averages the values the training step wrote.

``decay`` is ``min(decay, (1 + n) / (10 + n))`` with ``num_updates=n``, so that early averages
move faster. Evaluation restores the averages in place of the variables with
``tf.train.Saver(ema.variables_to_restore())``.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     w = tf.Variable(1.0, name="w")
...     ema = tf.train.ExponentialMovingAverage(0.5)
...     update = ema.apply([w])
...     with tf.Session() as sess:
...         _ = sess.run(tf.global_variables_initializer())
...         _ = sess.run(w.assign(3.0))
...         _ = sess.run(update)
...         ema.average(w).op.name, float(sess.run(ema.average(w)))
('w/ExponentialMovingAverage', 2.0)
"""

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.ops import control_flow_ops, init_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.train.learning_rate_decay import _cast
from numflow.train.optimizer import create_zeros_slot

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_VARIABLE_OP_TYPES = ("Variable", "VariableV2", "VarHandleOp")


def _create_slot(primary, value, name):
    """TF's ``slot_creator.create_slot``: a variable ``<primary>/<name>`` (uniquified) set to the tensor
    ``value``, colocated with ``primary``, not trainable, in ``GLOBAL_VARIABLES``."""
    from numflow.variables.partitioned import give_slot_slice_info
    from numflow.variables.scope import get_variable, get_variable_scope, variable_scope

    graph = primary.graph
    scope = get_variable_scope()
    partitioner = scope.partitioner
    scope.set_partitioner(None)
    try:
        with variable_scope(None, default_name=f"{primary.op.name}/{name}"), graph.colocate_with(primary.op):
            return give_slot_slice_info(primary, get_variable("", initializer=value, trainable=False,
                                                              validate_shape=value.get_shape().is_fully_defined()))
    finally:
        scope.set_partitioner(partitioner)


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """The op ``variable -= (variable - value) * (1 - decay)``, named ``AssignMovingAvg``.

    With ``zero_debias`` (for averages that start at zero), the average is computed in a
    ``<variable>/biased`` variable and written to ``variable`` divided by ``1 - decay ** t``, ``t``
    counted in ``<variable>/local_step``.
    """
    from numflow.variables.variable import Variable

    graph = get_default_graph()
    with graph.name_scope(name or "AssignMovingAvg") as scope:
        if isinstance(value, Variable):
            # A fresh read, under the caller's control dependencies: TensorFlow's read of a variable
            # aliases its buffer, so ``with control_dependencies([train]): ema.apply()`` averages the
            # values after the step; numflow's ``w/read`` would be a snapshot taken before it.
            value = value.read_value()
        decay = convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype.base_dtype != variable.dtype.base_dtype:
            decay = math_ops.cast(decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay)
        return state_ops.assign_sub(variable, (variable - value) * decay, name=scope)


def _zero_debias(unbiased_var, value, decay):
    from numflow.variables.scope import get_variable, get_variable_scope, variable_scope

    graph = get_default_graph()
    with variable_scope(unbiased_var.op.name):
        def unique(name):
            # TF's _maybe_get_unique: a second average of the same tensor gets biased_1, local_step_1...
            scope = get_variable_scope()
            if scope.reuse:
                return name
            taken = {v.op.name for v in scope.global_variables()}
            full_name, i = f"{scope.name}/{name}", 0
            while (full_name if i == 0 else f"{full_name}_{i}") in taken:
                i += 1
            return name if i == 0 else f"{name}_{i}"

        with graph.colocate_with(unbiased_var.op):
            dtype = unbiased_var.dtype.base_dtype
            biased_var = get_variable(unique("biased"), initializer=init_ops.zeros_initializer(),
                                      shape=unbiased_var.get_shape(), dtype=dtype, trainable=False)
            local_step = get_variable(unique("local_step"), shape=[], dtype=dtype,
                                      initializer=init_ops.zeros_initializer(), trainable=False)
    update_biased = state_ops.assign_sub(biased_var, (biased_var - value) * decay)
    update_local_step = local_step.assign_add(1)
    bias_factor = 1 - math_ops.pow(1.0 - decay, update_local_step)
    return state_ops.assign(unbiased_var, update_biased / bias_factor, name=graph.get_name_scope() + "/")


class ExponentialMovingAverage:
    """Moving averages of variables (or tensors), each kept in a shadow variable.

    Parameters
    ----------
    decay : float
        How much of the old average each update keeps: 0.999, 0.9999...
    num_updates : int tensor or variable, optional
        Usually the global step: the decay is then ``min(decay, (1 + num_updates) / (10 + num_updates))``.
    zero_debias : bool
        For averages of tensors (not variables), which start at zero: divide out the bias toward zero.
    name : str
        The shadows' suffix (``w/<name>``) and the update ops' scope.
    """

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Create the shadows of ``var_list`` (default: the trainable variables) not yet averaged, and
        return the op updating every average of ``var_list``.

        A shadow of a variable starts at its value and joins ``MOVING_AVERAGE_VARIABLES`` (the
        variable does); a shadow of a tensor starts at zero.

        Raises
        ------
        TypeError
            An item of ``var_list`` is not half, float or double.
        """
        from numflow.variables.variable import Variable, trainable_variables

        if var_list is None:
            var_list = trainable_variables()
        graph = get_default_graph()
        zero_debiased = set()
        for var in var_list:
            if var.dtype.base_dtype not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var in self._averages:
                continue
            with graph.control_dependencies(None):
                if isinstance(var, Variable):
                    with graph.device(var.device):
                        initial = var.initialized_value()
                    avg = _create_slot(var, initial, self._name)
                    graph.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    avg = create_zeros_slot(var, self._name,
                                            colocate_with_primary=var.op.type in _VARIABLE_OP_TYPES)
                    if self._zero_debias:
                        zero_debiased.add(avg)
            self._averages[var] = avg
        with graph.name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = self._num_updates
                if isinstance(num_updates, Variable):
                    num_updates = num_updates.read_value()  # afresh, as the variables (assign_moving_average)
                num_updates = _cast(num_updates, dtypes.float32, name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[var]
                updates.append(assign_moving_average(avg, var, decay, zero_debias=avg in zero_debiased))
            return control_flow_ops.group(*updates, name=scope)

    def average(self, var):
        """The shadow variable of ``var``, or None when ``var`` is not averaged."""
        return self._averages.get(var)

    def average_name(self, var):
        """The name of ``var``'s shadow: its variable's name, or the one ``apply`` would give it."""
        if var in self._averages:
            return self._averages[var].name[:-len(":0")]
        return get_default_graph().unique_name(f"{var.name[:-len(':0')]}/{self._name}", mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """``{checkpoint key: variable}`` restoring each average into its variable, for ``tf.train.Saver``.

        The variables averaged (default: the trainable and the moving-average variables) map from
        their shadows' names; every other global variable maps from its own name.

        >>> import numflow as tf
        >>> with tf.Graph().as_default():
        ...     w = tf.Variable(1.0, name="w")
        ...     step = tf.Variable(0, name="step", trainable=False)
        ...     ema = tf.train.ExponentialMovingAverage(0.9)
        ...     _ = ema.apply([w])
        ...     sorted((key, v.op.name) for key, v in ema.variables_to_restore().items())
        [('step', 'step'), ('w/ExponentialMovingAverage', 'w')]
        """
        from numflow.variables.variable import global_variables, moving_average_variables, trainable_variables

        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + moving_average_variables()
        averaged = list(dict.fromkeys(moving_avg_variables))
        name_map = {self.average_name(v): v for v in averaged}
        averaged_names = {v.name for v in averaged}
        for v in global_variables():
            if v.name not in averaged_names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map

