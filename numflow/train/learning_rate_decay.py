"""Learning-rate schedules of ``tf.compat.v1.train``: graph ops computing a rate from the global step.

Each function returns a scalar tensor that changes as the step does, so it can be an optimizer's
learning rate: run ``minimize(loss, global_step=gs)`` and every step uses the rate of the step's
current value. The ops are TensorFlow's, in its order and with its names (``ExponentialDecay:0``,
``ExponentialDecay/Cast_2`` for the step's cast...), and compute in the initial rate's dtype.

Where TensorFlow branches (``piecewise_constant``'s ``case``, ``polynomial_decay(cycle=True)``'s
``where``, ``cosine_decay_restarts``' ``cond``) numflow stacks the candidates and slices out the
chosen one: the same value, bit for bit, from ops named otherwise. TensorFlow's Grappler turns a
division by a constant into a product with its reciprocal (``150 / 30`` becomes ``5.0000005``, and a
cycle restarts a step early); numflow divides, as TensorFlow does with Grappler off.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     gs = tf.train.get_or_create_global_step()
...     lr = tf.train.exponential_decay(0.5, gs, decay_steps=10, decay_rate=0.5, staircase=True)
...     with tf.Session() as sess:
...         _ = sess.run(tf.global_variables_initializer())
...         _ = sess.run(gs.assign(25))
...         lr.name, float(sess.run(lr))
('ExponentialDecay:0', 0.125)
"""

import math

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor


def _dtype_text(dtype):
    return f"<dtype: '{dtype.base_dtype.name}'>"


def _cast(x, dtype, name=None):
    """TF's ``math_ops.cast``, names included: a Python value becomes ``Cast/x``, cast by an op ``Cast``
    only when its dtype differs (numflow's ``cast`` names the constant ``Const``)."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and x.dtype.base_dtype == dtype:
        return x
    with get_default_graph().name_scope(name or "Cast") as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype != dtype:
            x = math_ops.cast(x, dtype, name=scope)
        return x


def _step(global_step, dtype):
    if global_step is None:
        raise ValueError("None values not supported: pass the global step, e.g. tf.train.get_or_create_global_step().")
    return _cast(global_step, dtype)


def _select(pred, if_true, if_false, name):
    """``if_true`` where the scalar ``pred`` holds, else ``if_false``: a NaN in the one not chosen stays out."""
    with get_default_graph().name_scope(name):
        if_true = convert_to_tensor(if_true, name="t")
        return array_ops.stack([if_false, if_true])[math_ops.cast(pred, dtypes.int32)]


def _decay_terms(learning_rate, global_step, decay_steps, decay_rate, staircase):
    """``(initial rate, decay rate, global_step / decay_steps)`` in the rate's dtype, the last floored
    with ``staircase``: the ops the exponential and inverse-time schedules share, named as in TF."""
    initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = initial.dtype.base_dtype
    steps = _cast(decay_steps, dtype)
    rate = _cast(decay_rate, dtype)
    p = _step(global_step, dtype) / steps
    if staircase:
        p = math_ops.floor(p)
    return initial, rate, p


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """``learning_rate * decay_rate ** (global_step / decay_steps)``, the exponent floored with ``staircase``.

    Parameters
    ----------
    learning_rate : float or scalar float tensor
        The rate at step 0; the result has its dtype.
    global_step : integer scalar tensor, variable or number
        The step (``tf.train.get_or_create_global_step()``).
    decay_steps, decay_rate : number or scalar tensor
        The rate is multiplied by ``decay_rate`` every ``decay_steps`` steps.
    staircase : bool
        Decay at whole multiples of ``decay_steps`` only.
    name : str
        The name scope and the result's name (default ``ExponentialDecay``).

    Raises
    ------
    ValueError
        ``global_step`` is None.
    """
    with get_default_graph().name_scope(name or "ExponentialDecay") as scope:
        initial, rate, p = _decay_terms(learning_rate, global_step, decay_steps, decay_rate, staircase)
        return math_ops.multiply(initial, math_ops.pow(rate, p), name=scope)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """``learning_rate * exp(-decay_rate * global_step / decay_steps)``, floored as above with ``staircase``.

    Built as TensorFlow builds it: ``exp(-decay_rate)`` (ops ``Neg`` and ``Exp`` outside the scope)
    as the rate of :func:`exponential_decay`, whose scope it takes (``ExponentialDecay``).
    """
    natural_rate = math_ops.exp(math_ops.negative(decay_rate))
    return exponential_decay(learning_rate, global_step, decay_steps, natural_rate, staircase=staircase, name=name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)``, floored with ``staircase``."""
    with get_default_graph().name_scope(name or "InverseTimeDecay") as scope:
        initial, rate, p = _decay_terms(learning_rate, global_step, decay_steps, decay_rate, staircase)
        one = _cast(constant(1), initial.dtype.base_dtype)
        return math_ops.truediv(initial, math_ops.add(one, math_ops.multiply(rate, p)), name=scope)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    """From ``learning_rate`` to ``end_learning_rate`` in ``decay_steps`` steps along ``(1 - t) ** power``.

    ``(learning_rate - end) * (1 - min(step, decay_steps) / decay_steps) ** power + end``. With
    ``cycle``, the step is not clipped: ``decay_steps`` becomes its first multiple at or past the
    step (``decay_steps`` itself at step 0), so the rate climbs back after each multiple.
    """
    with get_default_graph().name_scope(name or "PolynomialDecay") as scope:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype.base_dtype
        end = _cast(end_learning_rate, dtype)
        power = _cast(power, dtype)
        step = _step(global_step, dtype)
        steps = _cast(decay_steps, dtype)
        if cycle:
            # TF: where_v2(step == 0, 1.0, ceil(step / decay_steps)), dividing by decay_steps as given; its
            # float32 1.0 makes a float64 rate fail, here as there.
            is_zero = math_ops.equal(step, 0)
            multiplier = _select(is_zero, 1.0, math_ops.ceil(step / decay_steps), "SelectV2")
            steps = math_ops.multiply(steps, multiplier)
        else:
            step = math_ops.minimum(step, steps)
        p = math_ops.truediv(step, steps)
        return math_ops.add(math_ops.multiply(initial - end, math_ops.pow(1 - p, power)), end, name=scope)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """``learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha)``.

    As in TensorFlow, the result is not named after the scope (``CosineDecay/Mul_3:0``), and a
    float64 rate fails (the constant pi is float32).
    """
    with get_default_graph().name_scope(name or "CosineDecay"):
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype.base_dtype
        steps = _cast(decay_steps, dtype)
        step = math_ops.minimum(_step(global_step, dtype), steps)
        completed_fraction = step / steps
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant(math.pi) * completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(initial, decayed)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    """Cosine decay with warm restarts (SGDR): period ``i`` lasts ``first_decay_steps * t_mul**i`` steps
    and starts from ``learning_rate * m_mul**i``; each decays to ``alpha`` times its start.

    The scope is TensorFlow's ``SGDRDecay``. Both of TensorFlow's ``cond`` branches (``t_mul == 1``:
    equal periods; else geometric) are built in ``cond``, and the one ``t_mul`` picks is sliced out.
    """
    graph = get_default_graph()
    with graph.name_scope(name or "SGDRDecay") as scope:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype.base_dtype
        first_steps = _cast(first_decay_steps, dtype)
        alpha = _cast(alpha, dtype)
        t_mul = _cast(t_mul, dtype)
        m_mul = _cast(m_mul, dtype)
        completed_fraction = _step(global_step, dtype) / first_steps
        equal_periods = math_ops.equal(t_mul, 1.0)
        with graph.name_scope("cond"):
            linear_restart = math_ops.floor(completed_fraction)
            linear_fraction = completed_fraction - linear_restart
            geometric_restart = math_ops.floor(
                math_ops.log(1.0 - completed_fraction * (1.0 - t_mul)) / math_ops.log(t_mul))
            sum_r = (1.0 - t_mul ** geometric_restart) / (1.0 - t_mul)
            geometric_fraction = (completed_fraction - sum_r) / t_mul ** geometric_restart
            i_restart = _select(equal_periods, linear_restart, geometric_restart, "Merge")
            fraction = _select(equal_periods, linear_fraction, geometric_fraction, "Merge_1")
        m_fac = m_mul ** i_restart
        cosine_decayed = 0.5 * m_fac * (1.0 + math_ops.cos(constant(math.pi) * fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(initial, decayed, name=scope)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001,
                        name=None):
    """``learning_rate * ((alpha + linear) * cosine + beta)`` with ``linear = (decay_steps - step) / decay_steps``
    and ``cosine = 0.5 * (1 + cos(2 * pi * num_periods * step / decay_steps))``, ``step`` clipped to
    ``decay_steps`` (Bello et al., 2017)."""
    return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                          name or "LinearCosineDecay")


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """:func:`linear_cosine_decay` with normal noise added to the linear part, its variance
    ``initial_variance / (1 + step) ** variance_decay`` (a ``random_normal`` op, seeded as any)."""
    return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                          name or "NoisyLinearCosineDecay", noise=(initial_variance, variance_decay))


def _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta, name, noise=None):
    """Both linear cosine schedules, their ops built in TensorFlow's order; ``noise``: the noisy one's
    ``(initial_variance, variance_decay)``."""
    from numflow.ops.random_ops import random_normal

    with get_default_graph().name_scope(name) as scope:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype.base_dtype
        steps = _cast(decay_steps, dtype)
        if noise is not None:
            initial_variance, variance_decay = (_cast(v, dtype) for v in noise)
        num_periods = _cast(num_periods, dtype)
        alpha = _cast(alpha, dtype)
        beta = _cast(beta, dtype)
        step = math_ops.minimum(_step(global_step, dtype), steps)
        linear_decayed = (steps - step) / steps
        if noise is not None:
            variance = initial_variance / math_ops.pow(1.0 + step, variance_decay)
            linear_decayed = linear_decayed + random_normal(linear_decayed.shape, stddev=math_ops.sqrt(variance))
        completed_fraction = step / steps
        fraction = 2.0 * num_periods * completed_fraction
        pi = constant(math.pi) if noise is None else constant(math.pi, dtype=dtype)  # as each of TF's builds it
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(pi * fraction))
        return math_ops.multiply(initial, (alpha + linear_decayed) * cosine_decayed + beta, name=scope)


def piecewise_constant(x, boundaries, values, name=None):
    """``values[0]`` while ``x <= boundaries[0]``, ``values[i]`` while ``boundaries[i-1] < x <= boundaries[i]``,
    and ``values[-1]`` past ``boundaries[-1]``.

    ``boundaries`` must be strictly increasing (TensorFlow checks it only at run time, when ``x``
    falls where two intervals overlap; numflow does not check it). A NaN ``x`` gives ``values[0]``.

    Parameters
    ----------
    x : scalar tensor
        Usually the global step.
    boundaries : list of numbers or scalar tensors
        Of ``x``'s dtype; int32 boundaries are cast to an int64 ``x``'s dtype.
    values : list of numbers or tensors
        One more than ``boundaries``, all of one dtype.

    Raises
    ------
    ValueError
        A boundary's dtype is not ``x``'s, the values' dtypes differ, or ``len(values) !=
        len(boundaries) + 1`` (TensorFlow's messages).
    """
    boundaries = [convert_to_tensor(b) for b in _flat(boundaries)]
    values = [convert_to_tensor(v) for v in _flat(values)]
    x = convert_to_tensor(x)
    x_dtype = x.dtype.base_dtype
    for i, b in enumerate(boundaries):
        if b.dtype.base_dtype != x_dtype:
            if b.dtype.base_dtype == dtypes.int32 and x_dtype == dtypes.int64:
                boundaries[i] = math_ops.cast(b, x_dtype)
            else:
                raise ValueError(f"Boundaries ({_dtype_text(b.dtype)}) must have the same dtype as x "
                                 f"({_dtype_text(x_dtype)}).")
    for v in values[1:]:
        if v.dtype.base_dtype != values[0].dtype.base_dtype:
            raise ValueError(f"Values must have elements all with the same dtype ({_dtype_text(values[0].dtype)} vs "
                             f"{_dtype_text(v.dtype)}).")
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with get_default_graph().name_scope(name or "PiecewiseConstant"):
        if not boundaries:
            return array_ops.identity(values[0])
        # The interval's index is how many boundaries x is past.
        index = math_ops.reduce_sum(math_ops.cast(math_ops.greater(x, array_ops.stack(boundaries)), dtypes.int32))
        return array_ops.stack(values)[index]


piecewise_constant_decay = piecewise_constant


def _flat(items):
    if isinstance(items, list | tuple):
        for item in items:
            yield from _flat(item)
    else:
        yield items
