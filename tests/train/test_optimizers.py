"""Optimizers: updates against a numpy rewrite of TensorFlow's formulas, slots, the global step, errors,
an end-to-end training and concurrent steps."""

import threading

import numpy as np
import pytest

import numflow as tf

RNG = np.random.default_rng(7)


# -- TensorFlow's update formulas in numpy, in the variable's dtype -------------------------------------
# Python hyperparameters become float32 constants, cast to the variable's dtype (as in TensorFlow).
def hp(value, dt):
    return dt(np.float32(value))


def np_gd(state, g, lr):
    state["var"] = state["var"] - g * hp(lr, state["var"].dtype.type)


def np_momentum(state, g, lr, momentum, nesterov=False):
    dt = state["var"].dtype.type
    lr, momentum = hp(lr, dt), hp(momentum, dt)
    state["momentum"] = state["momentum"] * momentum + g
    if nesterov:
        state["var"] = state["var"] - (g * lr + state["momentum"] * momentum * lr)
    else:
        state["var"] = state["var"] - state["momentum"] * lr


def np_adam(state, g, lr, beta1, beta2, eps, t):
    """beta1_power and beta2_power are float32 variables (from Python floats) multiplied each step."""
    dt = state["var"].dtype.type
    powers = state.setdefault("powers", [np.float32(beta1), np.float32(beta2)])
    b1p, b2p = dt(powers[0]), dt(powers[1])
    lr, beta1_t, beta2_t, eps = (hp(x, dt) for x in (lr, beta1, beta2, eps))
    lr_t = lr * np.sqrt(dt(1) - b2p) / (dt(1) - b1p)
    state["m"] = state["m"] + (g - state["m"]) * (dt(1) - beta1_t)
    state["v"] = state["v"] + (g * g - state["v"]) * (dt(1) - beta2_t)
    state["var"] = state["var"] - state["m"] * lr_t / (np.sqrt(state["v"]) + eps)
    powers[0], powers[1] = powers[0] * np.float32(beta1), powers[1] * np.float32(beta2)


def np_adagrad(state, g, lr):
    lr = hp(lr, state["var"].dtype.type)
    state["accumulator"] = state["accumulator"] + g * g
    state["var"] = state["var"] - g * lr / np.sqrt(state["accumulator"])


def np_rmsprop(state, g, lr, decay, momentum, eps, centered):
    dt = state["var"].dtype.type
    lr, decay, momentum, eps = (hp(x, dt) for x in (lr, decay, momentum, eps))
    state["rms"] = state["rms"] + (g * g - state["rms"]) * (dt(1) - dt(decay))
    denom = state["rms"]
    if centered:
        state["mg"] = state["mg"] + (g - state["mg"]) * (dt(1) - dt(decay))
        denom = denom - state["mg"] * state["mg"]
    state["momentum"] = state["momentum"] * dt(momentum) + g * dt(lr) / np.sqrt(denom + dt(eps))
    state["var"] = state["var"] - state["momentum"]


CASES = {
    "gd": (lambda: tf.train.GradientDescentOptimizer(0.2), {}, lambda s, g, t: np_gd(s, g, 0.2)),
    "momentum": (lambda: tf.train.MomentumOptimizer(0.1, 0.9), {"momentum": 0},
                 lambda s, g, t: np_momentum(s, g, 0.1, 0.9)),
    "nesterov": (lambda: tf.train.MomentumOptimizer(0.1, 0.7, use_nesterov=True), {"momentum": 0},
                 lambda s, g, t: np_momentum(s, g, 0.1, 0.7, nesterov=True)),
    "adam": (lambda: tf.train.AdamOptimizer(0.05), {"m": 0, "v": 0},
             lambda s, g, t: np_adam(s, g, 0.05, 0.9, 0.999, 1e-8, t)),
    "adagrad": (lambda: tf.train.AdagradOptimizer(0.3, initial_accumulator_value=0.2), {"accumulator": 0.2},
                lambda s, g, t: np_adagrad(s, g, 0.3)),
    "rmsprop": (lambda: tf.train.RMSPropOptimizer(0.02, decay=0.8, momentum=0.3), {"rms": 1, "momentum": 0},
                lambda s, g, t: np_rmsprop(s, g, 0.02, 0.8, 0.3, 1e-10, False)),
    "rmsprop_centered": (lambda: tf.train.RMSPropOptimizer(0.02, centered=True, epsilon=1e-4),
                         {"rms": 1, "mg": 0, "momentum": 0},
                         lambda s, g, t: np_rmsprop(s, g, 0.02, 0.9, 0.0, 1e-4, True)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(CASES))
def test_updates_match_tensorflows_formulas(name, dtype):
    make, slots, step_fn = CASES[name]
    shapes = [(3, 4), (5,), (80_000,)]  # the last takes the parallel kernel
    init = [RNG.normal(size=s).astype(dtype) for s in shapes]
    grads_per_step = [[RNG.normal(size=s).astype(dtype) for s in shapes] for _ in range(4)]
    vs = [tf.Variable(v, name=f"v{i}") for i, v in enumerate(init)]
    gs = [tf.placeholder(dtype, s) for s in shapes]
    opt = make()
    train = opt.apply_gradients(list(zip(gs, vs)))
    states = [{"var": v.copy(), **{k: np.full(v.shape, x, dtype=dtype) for k, x in slots.items()}} for v in init]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for t, grads in enumerate(grads_per_step, 1):
            sess.run(train, dict(zip(gs, grads)))
            for state, g in zip(states, grads):
                step_fn(state, g, t)
        for v, state in zip(vs, states):
            np.testing.assert_allclose(sess.run(v), state["var"], rtol=1e-5 if dtype == np.float32 else 1e-12)
            for slot in slots:
                np.testing.assert_allclose(sess.run(opt.get_slot(v, slot)), state[slot],
                                           rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-12)


def test_float16_variables_update_through_float32():
    v = tf.Variable(np.array([1.0, -2.0, 3.0], np.float16))
    train = tf.train.MomentumOptimizer(np.float16(0.5), np.float16(0.5)).apply_gradients(
        [(tf.constant(np.array([1, 1, 1], np.float16)), v)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        sess.run(train)
        np.testing.assert_allclose(sess.run(v), [1 - 0.5 - 0.75, -2 - 1.25, 3 - 1.25])


def test_hyperparameters_may_be_tensors_or_callables():
    v = tf.Variable([1.0, 2.0])
    lr = tf.placeholder(tf.float32, [])
    train = tf.train.GradientDescentOptimizer(lr).minimize(tf.reduce_sum(v))
    train2 = tf.train.MomentumOptimizer(lambda: 0.5, lambda: 0.0).minimize(tf.reduce_sum(v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {lr: 0.25})
        np.testing.assert_allclose(sess.run(v), [0.75, 1.75])
        sess.run(train2)
        np.testing.assert_allclose(sess.run(v), [0.25, 1.25])


def test_float64_variable_with_a_python_learning_rate_uses_a_cast():
    v = tf.Variable(np.array([1.0], np.float64))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(v * v))
    casts = [op for op in tf.get_default_graph().get_operations() if op.type == "Cast"]
    assert [op.name for op in casts] == ["GradientDescent/update_Variable/Cast"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(v), [1 - 2 * np.float64(np.float32(0.1))])


# -- slots and names ---------------------------------------------------------------------------------
def test_slots_are_global_not_trainable_and_colocated():
    with tf.device("/cpu:0"):
        w = tf.get_variable("w", [4], initializer=tf.ones_initializer())
    opt = tf.train.AdamOptimizer()
    opt.minimize(tf.reduce_sum(w * w))
    for slot_name, var_name in (("m", "w/Adam"), ("v", "w/Adam_1")):
        slot = opt.get_slot(w, slot_name)
        assert slot.op.name == var_name
        assert slot in tf.global_variables() and slot not in tf.trainable_variables()
        assert slot.op.colocation_groups() == [b"loc:@w"]
        assert slot.device == w.device
        assert slot.shape.as_list() == [4] and slot.dtype == tf.float32_ref if hasattr(tf, "float32_ref") else True
    beta1 = [v for v in opt.variables() if v.op.name == "beta1_power"][0]
    assert beta1.op.colocation_groups() == [b"loc:@w"] and not beta1.trainable
    assert opt.get_slot(w, "nope") is None
    assert opt.get_slot_names() == ["m", "v"]


def test_slots_inside_the_callers_variable_scope_and_second_optimizer():
    with tf.variable_scope("layer"):
        w = tf.get_variable("w", [2])
    loss = tf.reduce_sum(w)
    with tf.variable_scope("train"):
        opt = tf.train.MomentumOptimizer(0.1, 0.9)
        opt.minimize(loss)
    assert opt.get_slot(w, "momentum").op.name == "train/layer/w/Momentum"
    opt2 = tf.train.MomentumOptimizer(0.1, 0.9)
    opt2.minimize(loss)
    assert opt2.get_slot(w, "momentum").op.name == "layer/w/Momentum"
    opt3 = tf.train.MomentumOptimizer(0.1, 0.9)
    opt3.minimize(loss)
    assert opt3.get_slot(w, "momentum").op.name == "layer/w/Momentum_1"


def test_variables_are_those_of_the_default_graph():
    opt = tf.train.AdamOptimizer()
    g1 = tf.Graph()
    with g1.as_default():
        opt.minimize(tf.reduce_sum(tf.Variable([1.0], name="a")))
        assert [v.op.name for v in opt.variables()] == ["a/Adam", "a/Adam_1", "beta1_power", "beta2_power"]
    with tf.Graph().as_default():
        assert opt.variables() == []
        opt.minimize(tf.reduce_sum(tf.Variable([1.0], name="b")))
        assert [v.op.name for v in opt.variables()] == ["b/Adam", "b/Adam_1", "beta1_power", "beta2_power"]


def test_saver_saves_slots_under_tensorflows_keys():
    w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
    tf.train.AdamOptimizer().minimize(tf.reduce_sum(w), global_step=tf.train.get_or_create_global_step())
    saver = tf.train.Saver()
    assert sorted(saver._var_list) == ["beta1_power", "beta2_power", "global_step", "w", "w/Adam", "w/Adam_1"]


# -- apply_gradients and minimize ------------------------------------------------------------------------
def test_none_gradients_are_skipped_and_train_op_collected():
    a = tf.Variable([1.0], name="a")
    b = tf.Variable([1.0], name="b")
    opt = tf.train.GradientDescentOptimizer(1.0)
    grads = opt.compute_gradients(tf.reduce_sum(a * 3.0))
    assert [(g is None, v) for g, v in grads] == [(False, a), (True, b)]
    train = opt.apply_gradients(grads, name="step")
    assert train.name == "step" and train.type == "NoOp"
    assert tf.get_collection(tf.GraphKeys.TRAIN_OP) == [train]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        assert sess.run([a, b]) == [[-2.0], [1.0]]


def test_minimize_with_var_list_updates_only_those():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b")
    train = tf.train.GradientDescentOptimizer(0.5).minimize(a * b, var_list=[b])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        assert sess.run([a, b]) == [1.0, 0.5]


def test_errors_in_tensorflows_words():
    a = tf.Variable([1.0], name="a")
    c = tf.constant([2.0])
    opt = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        opt.minimize(tf.reduce_sum(c), var_list=[a])
    with pytest.raises(ValueError, match="No variables provided"):
        opt.apply_gradients([])
    with pytest.raises(ValueError, match="Invalid type"):
        opt.minimize(tf.cast(tf.reduce_sum(a), tf.int32))
    with pytest.raises(TypeError, match="unsupported type"):
        opt.compute_gradients(tf.reduce_sum(a), var_list=[c])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to optimize"):
            opt.minimize(tf.constant(1.0))
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="Must specify the optimizer name"):
        tf.train.GradientDescentOptimizer(0.1, name="")


def test_uninitialized_slot_fails_with_its_name():
    w = tf.Variable([1.0], name="w")
    train = tf.train.AdamOptimizer().minimize(tf.reduce_sum(w))
    with tf.Session() as sess:
        sess.run([v.initializer for v in tf.global_variables() if v.op.name != "w/Adam_1"])
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value w/Adam_1"):
            sess.run(train)


def test_constraint_is_applied_after_the_update():
    w = tf.get_variable("w", initializer=tf.constant([1.0, -1.0]), constraint=lambda v: tf.maximum(v, 0.0))
    train = tf.train.GradientDescentOptimizer(1.0).minimize(tf.reduce_sum(w * 2.0))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_array_equal(sess.run(w), [0.0, 0.0])


# -- the global step -----------------------------------------------------------------------------------
def test_global_step_creation_and_lookup():
    assert tf.train.get_global_step() is None
    step = tf.train.get_or_create_global_step()
    assert step.op.name == "global_step" and step.dtype.base_dtype == tf.int64 and step.shape.ndims == 0
    assert tf.get_collection(tf.GraphKeys.GLOBAL_STEP) == [step]
    assert step in tf.global_variables() and step not in tf.trainable_variables()
    assert tf.train.get_global_step() is step and tf.train.get_or_create_global_step() is step
    with pytest.raises(ValueError, match='"global_step" already exists'):
        tf.train.create_global_step()
    with tf.Graph().as_default() as g:
        tf.Variable(0.5, name="global_step")
        with pytest.raises(TypeError, match="does not have integer type"):
            tf.train.get_global_step(g)
    with tf.Graph().as_default():
        with tf.name_scope("scope"):
            assert tf.train.create_global_step().op.name == "global_step"


def test_apply_gradients_increments_the_global_step_after_the_updates():
    v = tf.Variable([1.0])
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(v), global_step=step)
    assert train.type == "AssignAdd" and train.name == "Adam"
    update = tf.get_default_graph().get_operation_by_name("Adam/update")
    assert update in train.inputs[1].op.control_inputs or update in train.control_inputs
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        assert sess.run(step) == 3
        assert tf.train.global_step(sess, step) == 3


def test_threads_running_one_train_op_lose_no_step():
    w = tf.get_variable("w", [256], initializer=tf.ones_initializer())
    step = tf.train.get_or_create_global_step()
    train = tf.train.MomentumOptimizer(1e-3, 0.5).minimize(tf.reduce_sum(w * w), global_step=step)
    threads, steps = 4, 50
    with tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=4)) as sess:
        sess.run(tf.global_variables_initializer())
        barrier = threading.Barrier(threads)
        errors = []

        def work():
            try:
                barrier.wait()
                for _ in range(steps):
                    sess.run(train)
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)

        workers = [threading.Thread(target=work) for _ in range(threads)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        assert not errors
        assert sess.run(step) == threads * steps
        assert np.all(np.isfinite(sess.run(w)))


# -- end to end ------------------------------------------------------------------------------------------
def test_mlp_with_softmax_cross_entropy_learns():
    rng = np.random.default_rng(0)
    centers = rng.normal(scale=3.0, size=(4, 8)).astype(np.float32)
    labels = rng.integers(0, 4, size=512)
    data = (centers[labels] + rng.normal(size=(512, 8))).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 8])
    y = tf.placeholder(tf.int64, [None])
    tf.set_random_seed(1)
    with tf.variable_scope("hidden"):
        h = tf.nn.relu(tf.matmul(x, tf.get_variable("w", [8, 32])) + tf.get_variable("b", [32],
                                                                                   initializer=tf.zeros_initializer()))
    with tf.variable_scope("out"):
        logits = tf.nn.bias_add(tf.matmul(h, tf.get_variable("w", [32, 4])), tf.get_variable("b", [4]))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss, {x: data, y: labels})
        for i in range(150):
            batch = slice((i * 64) % 512, (i * 64) % 512 + 64)
            sess.run(train, {x: data[batch], y: labels[batch]})
        last = sess.run(loss, {x: data, y: labels})
        assert sess.run(step) == 150
    assert first > 0.5 and last < 0.1


def test_linear_regression_with_gradient_descent_converges():
    rng = np.random.default_rng(3)
    xs = rng.normal(size=(200, 3))
    ys = xs @ np.array([[2.0], [-1.0], [0.5]]) + 0.3
    x = tf.placeholder(tf.float64, [None, 3])
    y = tf.placeholder(tf.float64, [None, 1])
    w = tf.Variable(np.zeros((3, 1)))
    b = tf.Variable(np.zeros(1))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(300):
            sess.run(train, {x: xs, y: ys})
        assert sess.run(loss, {x: xs, y: ys}) < 1e-8
        np.testing.assert_allclose(sess.run(w).ravel(), [2.0, -1.0, 0.5], atol=1e-4)
