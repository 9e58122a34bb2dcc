"""``tf.keras.optimizers.schedules``: learning rates as functions of the optimizer's step, as tf-keras computes
them; a Keras optimizer given one as its ``learning_rate`` evaluates it at ``iterations`` each step (and makes
no ``learning_rate`` variable).
"""

import math

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor


class LearningRateSchedule:
    """The base of the schedules: ``schedule(step)`` is the learning rate tensor at ``step``."""

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  "`__call__(self, step)`.")

    def get_config(self):
        return {key: value for key, value in vars(self).items()}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _Decay(LearningRateSchedule):
    """A schedule from ``initial_learning_rate`` over ``decay_steps``."""

    _DEFAULT_NAME = ""

    def __call__(self, step):
        with get_default_graph().name_scope(self.name or self._DEFAULT_NAME) as name:
            initial = convert_to_tensor(self.initial_learning_rate, name="initial_learning_rate")
            dtype = initial.dtype.base_dtype
            return self._decay(initial, math_ops.cast(step, dtype), dtype, name.rstrip("/"))


class _StepRatioDecay(_Decay):
    """A decay of ``step / decay_steps`` (floored with ``staircase``) at ``decay_rate``."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def _ratio(self, step, dtype):
        p = step / math_ops.cast(self.decay_steps, dtype)
        return math_ops.floor(p) if self.staircase else p


class ExponentialDecay(_StepRatioDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (the exponent floored with ``staircase``)."""

    _DEFAULT_NAME = "ExponentialDecay"

    def _decay(self, initial, step, dtype, name):
        decay = math_ops.pow(math_ops.cast(self.decay_rate, dtype), self._ratio(step, dtype))
        return math_ops.multiply(initial, decay, name=name)


class InverseTimeDecay(_StepRatioDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the ratio floored with ``staircase``)."""

    _DEFAULT_NAME = "InverseTimeDecay"

    def _decay(self, initial, step, dtype, name):
        denominator = math_ops.add(math_ops.cast(1, dtype), math_ops.multiply(math_ops.cast(self.decay_rate, dtype),
                                                                              self._ratio(step, dtype)))
        return math_ops.divide(initial, denominator, name=name)


class PolynomialDecay(_Decay):
    """From ``initial_learning_rate`` to ``end_learning_rate`` along ``(1 - step / decay_steps) ** power`` (with
    ``cycle``, over multiples of ``decay_steps``)."""

    _DEFAULT_NAME = "PolynomialDecay"

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name=None):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = end_learning_rate, power, cycle, name

    def _decay(self, initial, step, dtype, name):
        end = math_ops.cast(self.end_learning_rate, dtype)
        decay_steps = math_ops.cast(self.decay_steps, dtype)
        if self.cycle:
            multiplier = array_ops.where(math_ops.equal(step, 0), math_ops.cast(1.0, dtype),
                                         math_ops.ceil(step / self.decay_steps))
            decay_steps = math_ops.multiply(decay_steps, multiplier)
        else:
            step = math_ops.minimum(step, decay_steps)
        p = math_ops.divide(step, decay_steps)
        return math_ops.add(math_ops.multiply(initial - end, math_ops.pow(1 - p, math_ops.cast(self.power, dtype))),
                            end, name=name)


class CosineDecay(_Decay):
    """``initial_learning_rate`` times a half cosine from 1 to ``alpha`` over ``decay_steps`` (after a linear
    warm-up to ``warmup_target`` over ``warmup_steps``, when given)."""

    _DEFAULT_NAME = "CosineDecay"

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None, warmup_target=None, warmup_steps=0):
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = (initial_learning_rate, decay_steps,
                                                                               alpha, name)
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _cosine(self, step, decay_steps, decay_from, dtype):
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(convert_to_tensor(math.pi, dtype=dtype) * (step / decay_steps)))
        return math_ops.multiply(decay_from, (1 - self.alpha) * cosine_decayed + self.alpha)

    def _decay(self, initial, step, dtype, name):
        decay_steps = math_ops.cast(self.decay_steps, dtype)
        if self.warmup_target is None:
            return self._cosine(math_ops.minimum(step, decay_steps), decay_steps, initial, dtype)
        target = math_ops.cast(self.warmup_target, dtype)
        warmup_steps = math_ops.cast(self.warmup_steps, dtype)
        step = math_ops.minimum(step, decay_steps + warmup_steps)
        warming = (target - initial) * (step / warmup_steps) + initial
        return array_ops.where(step < warmup_steps, warming,
                               self._cosine(step - warmup_steps, decay_steps, target, dtype))


class CosineDecayRestarts(_Decay):
    """Cosine decay restarted every period, the periods ``t_mul`` times longer and the peaks ``m_mul`` times
    lower each time (SGDR)."""

    _DEFAULT_NAME = "SGDRDecay"

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name=None):
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, first_decay_steps
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}

    def _decay(self, initial, step, dtype, name):
        alpha, t_mul, m_mul = (math_ops.cast(v, dtype) for v in (self.alpha, self._t_mul, self._m_mul))
        completed = step / math_ops.cast(self.first_decay_steps, dtype)
        if self._t_mul == 1.0:
            i_restart = math_ops.floor(completed)
            completed -= i_restart
        else:
            i_restart = math_ops.floor(math_ops.log(1.0 - completed * (1.0 - t_mul)) / math_ops.log(t_mul))
            sum_r = (1.0 - t_mul ** i_restart) / (1.0 - t_mul)
            completed = (completed - sum_r) / t_mul ** i_restart
        cosine_decayed = 0.5 * m_mul ** i_restart * (1.0 + math_ops.cos(convert_to_tensor(math.pi, dtype=dtype)
                                                                         * completed))
        return math_ops.multiply(initial, (1 - alpha) * cosine_decayed + alpha, name=name)


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` up to ``boundaries[0]`` (inclusive), ``values[i]`` after ``boundaries[i - 1]`` up to
    ``boundaries[i]``, ``values[-1]`` after the last."""

    def __init__(self, boundaries, values, name=None):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries, self.values, self.name = boundaries, values, name

    def __call__(self, step):
        with get_default_graph().name_scope(self.name or "PiecewiseConstant"):
            step = convert_to_tensor(step)
            boundaries = math_ops.cast(convert_to_tensor(list(self.boundaries)), step.dtype.base_dtype)
            passed = math_ops.reduce_sum(math_ops.cast(math_ops.greater(step, boundaries), dtypes.int32))
            return array_ops.gather(convert_to_tensor(list(self.values)), passed)


_CLASSES = (ExponentialDecay, InverseTimeDecay, PolynomialDecay, CosineDecay, CosineDecayRestarts,
            PiecewiseConstantDecay)


def serialize(schedule):
    """``schedule`` as ``{"class_name", "config"}``."""
    from numflow.keras import serialization

    return serialization.serialize_keras_object(schedule)


def deserialize(config, custom_objects=None):
    """The schedule a config of :func:`serialize` describes."""
    from numflow.keras import serialization

    return serialization.deserialize_keras_object(config, {cls.__name__: cls for cls in _CLASSES},
                                                  "decay", custom_objects)
