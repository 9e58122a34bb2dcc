"""``tf.keras.optimizers`` in TensorFlow 1.x mode: Keras' (legacy OptimizerV2) SGD, Adam, RMSprop and Adagrad
(Adadelta, Adamax, Ftrl and Nadam in ``optimizers_extra.py``), and ``TFOptimizer`` for a ``tf.train`` optimizer
given to ``compile``.

An optimizer makes its variables on its first ``get_updates``, in a name scope of its name inside the caller's
(``training/Adam/iter``, its hyperparameters in name order ``training/Adam/beta_1``..., then each slot for
every variable, ``training/Adam/dense/kernel/m``), and updates as Keras does: Adam's bias correction from
``pow(beta, iterations + 1)`` and epsilon 1e-7; RMSprop's mean square starting at zero; SGD's momentum as
``accum = momentum * accum - lr * grad; var += accum``. A gradient of some rows (an IndexedSlices, an
Embedding's) updates those rows alone where Keras' sparse update does (SGD's, RMSprop's with momentum),
else it is made dense.
"""

import sys

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.keras import backend
from numflow.layers import utils
from numflow.ops import math_ops, training_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_ops import group
from numflow.ops.gradients import gradients
from numflow.train.optimizer import summed_by_index
from numflow.variables.variable import Variable


class Optimizer:
    """The base of Keras' optimizers: hyperparameters as variables, slots per variable, ``get_updates``."""

    _HYPER_DEFAULTS = {}
    _SLOTS = ()
    _SLOTS_PER_VARIABLE = False  # all of a variable's slots made together (Ftrl), else slot by slot

    def __init__(self, name, **kwargs):
        allowed = {"clipnorm", "clipvalue", "lr", "decay", "global_clipnorm"}
        for key in kwargs:
            if key not in allowed:
                raise TypeError(f"Unexpected keyword argument passed to optimizer: {key}. Allowed kwargs are "
                                f"{allowed}.")
        self._name = name
        self._hyper = {}
        self._hyper_variables = {}
        self._slots = {}
        self._slot_order = []  # the slots in the order they were made, as Keras lists its weights
        self._extra_variables = []
        self._iterations = None
        self._initial_decay = float(kwargs.pop("decay", 0.0))
        self.clipnorm = kwargs.pop("clipnorm", None)
        self.clipvalue = kwargs.pop("clipvalue", None)
        self._lr_alias = kwargs.pop("lr", None)

    def _set_hyper(self, name, value):
        """Set a hyperparameter: its value, and its variable's in the Keras session once it has one."""
        self._hyper[name] = value
        if name in self._hyper_variables:
            backend.set_value(self._hyper_variables[name], value)

    def __getattr__(self, name):
        """A hyperparameter (``lr`` for ``learning_rate``): its variable once made, else its value."""
        state = self.__dict__
        name = "learning_rate" if name == "lr" else name
        if name in state.get("_hyper", {}):
            return state["_hyper_variables"].get(name, state["_hyper"][name])
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        name_of_hyper = "learning_rate" if name == "lr" else name
        if name_of_hyper in self.__dict__.get("_hyper", {}):
            self._set_hyper(name_of_hyper, value)
        else:
            super().__setattr__(name, value)

    @property
    def iterations(self):
        """The number of steps taken, an int64 variable (made with the others)."""
        return self._iterations

    def get_config(self):
        config = {"name": self._name, **{k: v for k, v in self._hyper.items()}}
        if callable(config.get("learning_rate")):
            config["learning_rate"] = schedules.serialize(config["learning_rate"])
        config["decay"] = self._initial_decay
        return config

    def variables(self):
        """The optimizer's weights in the order they were made, as Keras lists them: ``iter``, then the slots
        (its hyperparameters' variables are not among them)."""
        made = [] if self._iterations is None else [self._iterations]
        return made + self._extra_variables + self._slot_order

    weights = property(variables)

    # -- variables -------------------------------------------------------------------------------------------
    def _create_all_weights(self, var_list):
        if self._iterations is None:
            self._iterations = self._variable(np.int64(0), "iter", dtypes.int64)
            hypers = {**self._hyper, "decay": self._initial_decay}
            for name in sorted(hypers):
                if not callable(hypers[name]):  # a schedule is evaluated each step, not kept
                    self._hyper_variables[name] = self._variable(np.float32(hypers[name]), name, dtypes.float32)
        self._create_extra_variables()
        order = ([(var, name) for var in var_list for name in self._SLOTS] if self._SLOTS_PER_VARIABLE
                 else [(var, name) for name in self._SLOTS for var in var_list])
        for var, slot_name in order:
            slots = self._slots.setdefault(slot_name, [])
            if all(s._primary is not var for s in slots):
                slots.append(self._slot(var, slot_name))
                self._slot_order.append(slots[-1])

    def _create_extra_variables(self):
        """Make the variables an optimizer keeps beside its hyperparameters and slots (Nadam's)."""

    def _variable(self, value, name, dtype):
        made = Variable(lambda: convert_to_tensor(value, dtype=dtype), name=name, trainable=False, dtype=dtype)
        backend.track_variable(made)
        return made

    def _slot(self, var, slot_name, value=0.0):
        from numflow.ops import array_ops

        dtype = var.dtype.base_dtype
        slot = Variable(lambda: array_ops.fill(var.shape.as_list(), convert_to_tensor(value, dtype=dtype)),
                        name=f"{var.op.name}/{slot_name}", trainable=False, dtype=dtype)
        slot._primary = var
        backend.track_variable(slot)
        return slot

    def get_slot(self, var, slot_name):
        """The slot ``slot_name`` of ``var``."""
        for slot in self._slots.get(slot_name, []):
            if slot._primary is var:
                return slot
        raise KeyError(f"No slot {slot_name} for variable {var.name}")

    def _get_hyper(self, name, dtype=dtypes.float32):
        value = self._hyper_variables[name].value()
        return value if value.dtype.base_dtype == dtype else math_ops.cast(value, dtype)

    def _decayed_lr(self, dtype):
        schedule = self._hyper["learning_rate"]
        if callable(schedule):
            lr_t = math_ops.cast(schedule(math_ops.cast(self._iterations.value(), dtype)), dtype)
        else:
            lr_t = self._get_hyper("learning_rate", dtype)
        if self._initial_decay > 0.0:
            local_step = math_ops.cast(self._iterations.value(), dtype)
            lr_t = lr_t / (1.0 + self._get_hyper("decay", dtype) * local_step)
        return lr_t

    # -- updates ---------------------------------------------------------------------------------------------
    def get_gradients(self, loss, params):
        """``tf.gradients`` of ``loss`` for ``params`` in ``<name>/gradients``, clipped as configured."""
        with get_default_graph().name_scope(self._name + "/gradients"):
            grads = gradients(loss, params)
        missing = [p.name for p, g in zip(params, grads) if g is None]
        if missing:
            raise ValueError(f"Variables with no gradient: {missing}. Check that the loss depends on them.")
        if self.clipnorm is not None:
            from numflow.ops.clip_ops import clip_by_norm

            grads = [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.clipvalue is not None:
            from numflow.ops.clip_ops import clip_by_value

            grads = [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def get_updates(self, loss, params):
        """The update ops of one training step on ``params`` (then ``iterations += 1``)."""
        grads = self.get_gradients(loss, params)
        return [self.apply_gradients(zip(grads, params))]

    def apply_gradients(self, grads_and_vars, name=None):
        """One update per ``(gradient, variable)`` pair, then ``iterations += 1``; the op that does it all."""
        from numflow.ops.state_ops import assign_add

        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        graph = get_default_graph()
        with graph.name_scope(self._name) as scope:
            self._create_all_weights([v for _, v in pairs])
            updates = []
            with graph.name_scope(name or self._name):
                self._prepare_step()
                for grad, var in pairs:
                    with graph.name_scope(f"update_{var.op.name}"):
                        update = self._apply_sparse_duplicate_indices(grad, var) if hasattr(grad, "indices") else None
                        if update is None:
                            update = self._apply_dense(convert_to_tensor(grad), var)
                        updates.append(self._constrained(update, var))
                update = group(*updates, name="group_deps")
                with graph.control_dependencies([update]):
                    step = assign_add(self._iterations, np.int64(1))
            del scope
        return step.op if hasattr(step, "op") else step

    @staticmethod
    def _constrained(update, var):
        """``update``, then ``var`` assigned its constraint's value of it (when it has one), as Keras does."""
        if var.constraint is None:
            return update
        from numflow.keras import constraints
        from numflow.ops.state_ops import assign

        with get_default_graph().control_dependencies([update]):
            return assign(var, constraints.get(var.constraint)(var.value())).op

    def _prepare_step(self):
        """Build what every variable's update of a step shares (Nadam's momentum schedule)."""

    def _apply_dense(self, grad, var):
        raise NotImplementedError

    # (grad, var) -> the update changing only the rows of ``grad``, an IndexedSlices without repeated
    # indices, where Keras' optimizer has a sparse update; None where it has none.
    _apply_sparse = None

    def _apply_sparse_duplicate_indices(self, grad, var):
        """The update for an IndexedSlices ``grad`` (its indices may repeat): ``_apply_sparse`` of its rows
        summed by index, as Keras' base optimizer builds it; None where there is no ``_apply_sparse`` (then
        ``grad`` made dense updates every row)."""
        if self._apply_sparse is None:
            return None
        return self._apply_sparse(summed_by_index(grad), var)

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(config["learning_rate"])
        return cls(**config)


class SGD(Optimizer):
    """Gradient descent, with ``momentum`` (and ``nesterov``) as Keras computes it."""

    _SLOTS = ()

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(name, **kwargs)
        if isinstance(momentum, int | float) and not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} (of type "
                             f"{type(momentum)}).")
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._set_hyper("momentum", momentum)
        self._momentum = momentum > 0
        self.nesterov = nesterov
        if self._momentum:
            self._SLOTS = ("momentum",)

    def _apply_dense(self, grad, var):
        from numflow.ops import state_ops

        dtype = var.dtype.base_dtype
        lr_t = self._decayed_lr(dtype)
        if not self._momentum:
            return training_ops.apply_gradient_descent(var, lr_t, grad).op
        momentum = self._get_hyper("momentum", dtype)
        accum = self.get_slot(var, "momentum")
        new_accum = state_ops.assign(accum, accum.value() * momentum - grad * lr_t)
        step = new_accum * momentum - grad * lr_t if self.nesterov else new_accum
        return state_ops.assign_add(var, step).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        """Keras' sparse SGD: without momentum each row of ``grad`` added in turn (``ResourceScatterAdd``);
        with it, the rows summed by index, then ``_apply_sparse``."""
        from numflow.ops import state_ops

        if self._momentum:
            return super()._apply_sparse_duplicate_indices(grad, var)
        return state_ops.scatter_add(var, grad.indices, -grad.values * self._decayed_lr(var.dtype.base_dtype)).op

    def _apply_sparse(self, grad, var):
        """``ResourceSparseApplyKerasMomentum``: rows absent from ``grad`` keep their variable and momentum."""
        from numflow.ops import selection_ops, state_ops

        dtype = var.dtype.base_dtype
        lr_t = self._decayed_lr(dtype)
        momentum = self._get_hyper("momentum", dtype)
        accum = self.get_slot(var, "momentum")
        rows = selection_ops.gather(accum.value(), grad.indices) * momentum - grad.values * lr_t
        step = rows * momentum - grad.values * lr_t if self.nesterov else rows
        return group(state_ops.scatter_update(accum, grad.indices, rows),
                     state_ops.scatter_add(var, grad.indices, step))


class Adam(Optimizer):
    """Adam, epsilon 1e-7, its bias correction from ``pow(beta, iterations + 1)``."""

    _SLOTS = ("m", "v")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name="Adam",
                 **kwargs):
        super().__init__(name, **kwargs)
        if amsgrad:
            raise NotImplementedError("Adam(amsgrad=True) is not implemented in numflow.")
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or backend.epsilon()
        self.amsgrad = amsgrad

    def _apply_dense(self, grad, var):
        from numflow.ops import array_ops

        dtype = var.dtype.base_dtype
        lr_t = self._decayed_lr(dtype)
        local_step = math_ops.cast(self._iterations.value() + 1, dtype)
        beta_1_t = array_ops.identity(self._get_hyper("beta_1", dtype))
        beta_2_t = array_ops.identity(self._get_hyper("beta_2", dtype))
        beta_1_power, beta_2_power = math_ops.pow(beta_1_t, local_step), math_ops.pow(beta_2_t, local_step)
        return training_ops.apply_adam(var, self.get_slot(var, "m"), self.get_slot(var, "v"), beta_1_power,
                                       beta_2_power, lr_t, beta_1_t, beta_2_t,
                                       convert_to_tensor(self.epsilon, dtype=dtype), grad).op

    def get_config(self):
        return {**super().get_config(), "epsilon": self.epsilon, "amsgrad": self.amsgrad}


class RMSprop(Optimizer):
    """RMSprop: ``rms = rho * rms + (1 - rho) * grad ** 2`` (from zeros), ``var -= lr * grad / (sqrt(rms) +
    epsilon)``; with ``momentum``, TensorFlow's ``ApplyRMSProp``."""

    _SLOTS = ("rms",)

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, name="RMSprop",
                 **kwargs):
        super().__init__(name, **kwargs)
        if centered:
            raise NotImplementedError("RMSprop(centered=True) is not implemented in numflow.")
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._set_hyper("rho", rho)
        self._set_hyper("momentum", momentum)
        self._momentum = momentum > 0
        if self._momentum:
            self._SLOTS = ("rms", "momentum")
        self.epsilon = epsilon or backend.epsilon()
        self.centered = centered

    def _apply_dense(self, grad, var):
        from numflow.ops import array_ops, state_ops

        dtype = var.dtype.base_dtype
        lr_t = self._decayed_lr(dtype)
        rho = array_ops.identity(self._get_hyper("rho", dtype))
        epsilon = convert_to_tensor(self.epsilon, dtype=dtype)
        rms = self.get_slot(var, "rms")
        if self._momentum:
            return training_ops.apply_rms_prop(var, rms, self.get_slot(var, "momentum"), lr_t, rho,
                                               self._get_hyper("momentum", dtype), epsilon, grad).op
        rms_t = state_ops.assign(rms, rho * rms.value() + (1.0 - rho) * math_ops.square(grad))
        return state_ops.assign(var, var.value() - lr_t * grad / (math_ops.sqrt(rms_t) + epsilon)).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        # Without momentum, Keras' sparse update is the dense one's.
        return super()._apply_sparse_duplicate_indices(grad, var) if self._momentum else None

    def _apply_sparse(self, grad, var):
        """With momentum, ``ResourceSparseApplyRMSProp``: rows absent from ``grad`` keep their variable and slots."""
        from numflow.ops import array_ops

        dtype = var.dtype.base_dtype
        return training_ops.sparse_apply_rms_prop(
            var, self.get_slot(var, "rms"), self.get_slot(var, "momentum"), self._decayed_lr(dtype),
            array_ops.identity(self._get_hyper("rho", dtype)), self._get_hyper("momentum", dtype),
            convert_to_tensor(self.epsilon, dtype=dtype), grad.values, grad.indices).op

    def get_config(self):
        return {**super().get_config(), "epsilon": self.epsilon, "centered": self.centered}


class Adagrad(Optimizer):
    """Adagrad: ``accum += grad ** 2`` (from ``initial_accumulator_value``), ``var -= lr * grad / sqrt(accum)``."""

    _SLOTS = ("accumulator",)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name="Adagrad", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", self._lr_alias or learning_rate)
        self._initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon or backend.epsilon()

    def _slot(self, var, slot_name, value=0.0):
        return super()._slot(var, slot_name, self._initial_accumulator_value)

    def _apply_dense(self, grad, var):
        from numflow.ops import state_ops

        dtype = var.dtype.base_dtype
        accum = state_ops.assign_add(self.get_slot(var, "accumulator"), math_ops.square(grad))
        epsilon = convert_to_tensor(self.epsilon, dtype=dtype)
        return state_ops.assign_sub(var, self._decayed_lr(dtype) * grad / (math_ops.sqrt(accum) + epsilon)).op


class TFOptimizer:
    """A ``tf.train`` optimizer in a Keras model: its ``compute_gradients`` and ``apply_gradients``, stepping
    ``TFOptimizer/iterations``."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        with get_default_graph().name_scope("TFOptimizer"):
            self.iterations = Variable(lambda: convert_to_tensor(np.int64(0)), name="iterations", trainable=False,
                                       dtype=dtypes.int64)
        backend.track_variable(self.iterations)

    def get_updates(self, loss, params):
        grads = self.optimizer.compute_gradients(loss, params)
        return [self.optimizer.apply_gradients(grads, global_step=self.iterations)]

    def variables(self):
        return [self.iterations, *self.optimizer.variables()]


from numflow.keras import optimizers_schedules as schedules  # noqa: E402  (tf.keras.optimizers.schedules)
from numflow.keras.optimizers_extra import Adadelta, Adamax, Ftrl, Nadam  # noqa: E402  (they extend Optimizer)

_CLASSES = (SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Ftrl, Nadam)
_BY_NAME = {cls.__name__.lower(): cls for cls in _CLASSES}


def serialize(optimizer):
    """``optimizer`` as ``{"class_name", "config"}``."""
    from numflow.keras import serialization

    return serialization.serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """The optimizer a config of :func:`serialize` describes (class names in any case)."""
    from numflow.keras import serialization

    if isinstance(config, dict) and isinstance(config.get("class_name"), str):
        names = {cls.__name__.lower(): cls.__name__ for cls in _CLASSES}
        config = {**config, "class_name": names.get(config["class_name"].lower(), config["class_name"])}
    by_name = {**{cls.__name__: cls for cls in _CLASSES}, **_BY_NAME}
    return serialization.deserialize_keras_object(config, by_name, "optimizer", custom_objects)


def get(identifier):
    """The optimizer ``identifier`` names (``"adam"``, with Keras' defaults) or describes (a config), a Keras
    optimizer, or a ``tf.train`` optimizer wrapped in :class:`TFOptimizer`."""
    from numflow.train.optimizer import Optimizer as TrainOptimizer

    if isinstance(identifier, Optimizer | TFOptimizer):
        return identifier
    if isinstance(identifier, TrainOptimizer):
        return TFOptimizer(identifier)
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    if isinstance(identifier, str):
        raise utils.unknown_object_error("optimizer", identifier)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


legacy = sys.modules[__name__]  # tf.keras.optimizers.legacy: these same (legacy OptimizerV2) optimizers
