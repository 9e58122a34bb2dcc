"""The CPU kernels of the training ops: one pass per update, serial and parallel twins, locks, TensorFlow's errors."""

import threading

import numpy as np
import pytest

import numflow as tf
from numflow_kernels import parallel
from numflow_kernels.cpu import training

SIZES = [1, 1000, parallel.PARALLEL_THRESHOLD + 3]


def _arrays(n, count, dtype, seed=0, positive=()):
    rng = np.random.default_rng(seed)
    out = [rng.normal(size=n).astype(dtype) for _ in range(count)]
    for i in positive:
        out[i] = np.abs(out[i]) + dtype(0.1)
    return out


def _numpy_step(name, arrays, *scalars):
    """The kernels' formulas in numpy (the arrays are var, slots..., grad)."""
    a = [x.copy() for x in arrays]
    g = a[-1]
    if name == "gradient_descent":
        (alpha,) = scalars
        a[0] -= g * alpha
    elif name == "momentum":
        lr, mom = scalars
        a[1] = a[1] * mom + g
        a[0] -= a[1] * lr
    elif name == "adam":
        lr_t, b1, b2, eps = scalars
        one = a[0].dtype.type(1)
        a[1] += (g - a[1]) * (one - b1)
        a[2] += (g * g - a[2]) * (one - b2)
        a[0] -= (a[1] * lr_t) / (np.sqrt(a[2]) + eps)
    elif name == "adagrad":
        (lr,) = scalars
        a[1] += g * g
        a[0] -= g * lr / np.sqrt(a[1])
    elif name == "rms_prop":
        lr, rho, mom, eps = scalars
        one = a[0].dtype.type(1)
        a[1] += (g * g - a[1]) * (one - rho)
        a[2] = a[2] * mom + (g * lr) / np.sqrt(a[1] + eps)
        a[0] -= a[2]
    elif name == "centered_rms_prop":
        lr, rho, mom, eps = scalars
        one = a[0].dtype.type(1)
        a[2] += (g * g - a[2]) * (one - rho)
        a[1] += (g - a[1]) * (one - rho)
        a[3] = a[3] * mom + (g * lr) / np.sqrt(a[2] - a[1] * a[1] + eps)
        a[0] -= a[3]
    elif name == "adadelta":
        lr, rho, eps = scalars
        one = a[0].dtype.type(1)
        a[1] = a[1] * rho + g * g * (one - rho)
        update = np.sqrt(a[2] + eps) * (one / np.sqrt(a[1] + eps)) * g
        a[0] -= update * lr
        a[2] = a[2] * rho + update * update * (one - rho)
    elif name in ("proximal_gradient_descent", "proximal_adagrad"):
        lr, l1, l2 = scalars
        one = a[0].dtype.type(1)
        if name == "proximal_adagrad":
            a[1] += g * g
            lr = lr * (one / np.sqrt(a[1]))
        v = a[0] - g * lr
        a[0] = np.sign(v) * np.maximum(np.abs(v) - lr * l1, 0) / (one + l2 * lr)
    elif name == "ftrl":
        lr, l1, l2, shrinkage, lr_power = scalars
        two = a[0].dtype.type(2)

        def power(x):  # libm's correctly rounded pow (numpy's float32 power may be a SIMD approximation)
            return np.power(x.astype(np.float64), -np.float64(lr_power)).astype(x.dtype)

        new_accum = a[1] + g * g
        a[2] = a[2] + ((g + two * shrinkage * a[0]) - (power(new_accum) - power(a[1])) / lr * a[0])
        x = np.clip(a[2], -l1, l1) - a[2]
        a[0] = x / (power(new_accum) / lr + two * l2)
        a[1] = new_accum
    return a[:-1]


KERNELS = {  # name: (arrays incl. grad, scalars, indices of arrays that must stay positive)
    "gradient_descent": (2, (0.1,), ()),
    "momentum": (3, (0.1, 0.9), ()),
    "adam": (4, (0.01, 0.9, 0.999, 1e-8), (2,)),
    "adagrad": (3, (0.1,), (1,)),
    "rms_prop": (4, (0.01, 0.9, 0.5, 1e-10), (1,)),
    "centered_rms_prop": (5, (0.01, 0.9, 0.5, 1e-3), (2,)),
    "adadelta": (4, (1.0, 0.95, 1e-6), (1, 2)),
    "proximal_gradient_descent": (2, (0.5, 0.3, 0.2), ()),
    "proximal_adagrad": (3, (0.5, 0.3, 0.2), (1,)),
    "ftrl": (4, (0.5, 0.05, 0.2, 0.1, -0.3), (1,)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_host_kernels_match_numpy(name, n, dtype):
    count, scalars, positive = KERNELS[name]
    arrays = _arrays(n, count, dtype, positive=positive)
    if name == "centered_rms_prop":
        arrays[2] += arrays[1] * arrays[1]  # ms >= mg^2, as the updates keep it
    scalars = [dtype(s) for s in scalars]
    want = _numpy_step(name, arrays, *scalars)
    getattr(training, name)(*arrays, *scalars)
    for got, expected in zip(arrays, want):
        # FTRL's var is a difference of near terms: a last-bit difference of pow (the parallel loop's
        # vectorized pow against libm's) shows as an absolute error of an ulp of linear
        atol = (1e-6 if dtype == np.float32 else 1e-15) if name == "ftrl" else 0
        np.testing.assert_allclose(got, expected, rtol=2e-6 if dtype == np.float32 else 1e-13, atol=atol)


def test_nesterov_variants():
    var, accum, grad = _arrays(7, 3, np.float64)
    want_var = var - (grad * 0.1 + (accum * 0.9 + grad) * 0.9 * 0.1)
    training.momentum(var, accum, grad, 0.1, 0.9, use_nesterov=True)
    np.testing.assert_allclose(var, want_var)
    var, m, v, grad = _arrays(7, 4, np.float64, positive=(2,))
    m1 = m + (grad - m) * 0.1
    v1 = v + (grad * grad - v) * (1 - 0.999)
    want_var = var - ((grad * 0.1 + 0.9 * m1) * 0.01) / (np.sqrt(v1) + 1e-8)
    training.adam(var, m, v, grad, 0.01, 0.9, 0.999, 1e-8, use_nesterov=True)
    np.testing.assert_allclose(var, want_var)


def test_adam_learning_rate_is_computed_in_the_variables_dtype():
    lr = training.adam_lr(np.float32(0.001), np.float32(0.9), np.float32(0.999), np.float32)
    assert lr.dtype == np.float32
    assert lr == np.float32(0.001) * np.sqrt(np.float32(1) - np.float32(0.999)) / (np.float32(1) - np.float32(0.9))


def test_apply_ops_check_shapes_in_tensorflows_words():
    v = tf.Variable([1.0, 2.0], name="v")
    acc = tf.Variable([1.0, 2.0, 3.0], name="acc", validate_shape=False)
    from numflow.ops import training_ops

    with pytest.raises(ValueError, match="do not have the same shape"):
        training_ops.apply_gradient_descent(v, 0.1, tf.constant([1.0, 2.0, 3.0]))
    op = training_ops.apply_adagrad(v, acc, 0.1, tf.constant([1.0, 2.0]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        message = r"var and accum do not have the same shape\[2\] \[3\]"
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(op)


def test_apply_ops_are_colocated_with_their_variable():
    with tf.device("/cpu:0"):
        w = tf.Variable([1.0], name="w")
    with tf.device("/job:localhost"):
        train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w))
    update = tf.get_default_graph().get_operation_by_name("GradientDescent/update_w/ApplyGradientDescent")
    assert update.colocation_groups() == [b"loc:@w"] and update.device == w.device
    assert train.type == "NoOp"


def test_concurrent_updates_hold_the_variable_lock():
    """Threads applying the same gradient to one variable: every update lands (none is lost)."""
    n = parallel.PARALLEL_THRESHOLD * 2
    v = tf.Variable(np.zeros(n, np.float32))
    train = tf.train.GradientDescentOptimizer(1.0).apply_gradients([(tf.constant(np.ones(n, np.float32)), v)])
    with tf.Session() as sess:
        sess.run(v.initializer)

        def work():
            for _ in range(10):
                sess.run(train)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        np.testing.assert_array_equal(sess.run(v), np.full(n, -40.0, np.float32))


def test_threading_layer_is_thread_safe():
    assert parallel.threading_layer() in ("tbb", "omp", "workqueue")


@pytest.mark.parametrize("n", [3, parallel.PARALLEL_THRESHOLD + 1])
def test_division_by_zero_gives_inf_and_nan_as_tensorflow(n):
    var, accum, grad = np.zeros(n, np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)
    grad[0] = 1.0
    training.adagrad(var, accum, grad, np.float32(0.1), update_slots=False)
    assert var[0] == -np.inf and np.isnan(var[1])


@pytest.mark.parametrize("name", ["proximal_gradient_descent", "proximal_adagrad"])
def test_proximal_steps_without_l1_only_divide(name):
    """l1 = 0 takes TensorFlow's other branch: no shrinking, a sign of zero kept."""
    var, *rest = _arrays(5, 3 if name == "proximal_adagrad" else 2, np.float64, positive=(1,) if name ==
                         "proximal_adagrad" else ())
    grad = rest[-1]
    var[0], grad[0] = 0.0, 0.0
    accum = rest[0].copy() if name == "proximal_adagrad" else None
    rate = 0.5 / np.sqrt(accum + grad * grad) if accum is not None else 0.5
    want = (var - grad * rate) / (1 + 0.2 * rate)
    getattr(training, name)(var, *rest, 0.5, 0.0, 0.2)
    np.testing.assert_allclose(var, want, rtol=1e-14)
    assert var[0] == 0.0


def test_ftrl_takes_the_square_root_at_power_minus_a_half():
    var, accum, linear, grad = _arrays(6, 4, np.float64, positive=(1,))
    new_accum = accum + grad * grad
    want_linear = linear + (grad - (np.sqrt(new_accum) - np.sqrt(accum)) / 0.5 * var)
    want_var = np.where(np.abs(want_linear) > 0.3,
                        (0.3 * np.sign(want_linear) - want_linear) / (np.sqrt(new_accum) / 0.5 + 0.0), 0.0)
    training.ftrl(var, accum, linear, grad, 0.5, 0.3, 0.0, 0.0, -0.5)
    np.testing.assert_allclose(linear, want_linear, rtol=1e-14)
    np.testing.assert_allclose(var, want_var, rtol=1e-14)
    assert (var == 0).any() and (var != 0).any()
