"""The graphs behind ``data/tf_control_flow_golden.npz`` and ``.json``, written once for both engines:
each case takes the ``tf`` module (TensorFlow's compat.v1 when the golden files are made, numflow in
the tests) and the inputs, and returns ``(fetches, runs)``: a dict of named tensors, and a dict of
named feed dicts to run them with (each run's results are one row of the golden file).
"""

import numpy as np


def inputs():
    rng = np.random.RandomState(11)
    return {
        "x": rng.uniform(-1.0, 1.0, 3).astype(np.float32),
        "m": rng.uniform(-0.5, 0.5, (3, 3)).astype(np.float32),
    }


def _grad(tf, ys, x):
    """The gradient of a weighted sum of ``ys`` (so every element counts differently) with respect to ``x``."""
    total = tf.add_n([tf.reduce_sum(y * (1.0 + 0.25 * k)) for k, y in enumerate(ys)])
    return tf.gradients(total, x)[0]


def cond_basic(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: x * x * 2.0, lambda: tf.sin(x) - 1.0)
    return {"y": y, "dx": _grad(tf, [y], x)}, {"true": {x: a["x"], p: True}, "false": {x: a["x"], p: False}}


def cond_structures(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    first, rest = tf.cond(p, lambda: (x, {"a": x * 2.0, "b": [x + 1.0, 7]}),
                          lambda: (-x, {"a": x * 3.0, "b": [x - 1.0, 8]}))
    single = tf.cond(p, lambda: [x], lambda: [x * 0.5])
    dx = _grad(tf, [first, rest["a"], rest["b"][0], single], x)
    return ({"first": first, "a": rest["a"], "b0": rest["b"][0], "b1": rest["b"][1], "single": single, "dx": dx},
            {"true": {x: a["x"], p: True}, "false": {x: a["x"], p: False}})


def cond_nested(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    q = tf.placeholder(tf.bool, [], name="q")
    y = tf.exp(x)

    def outer_true():
        return tf.cond(q, lambda: y * tf.tanh(y), lambda: y * x)

    y2 = tf.cond(p, outer_true, lambda: tf.square(x))
    runs = {f"{pv}{qv}": {x: a["x"], p: pv, q: qv} for pv in (True, False) for qv in (True, False)}
    return {"y": y2, "dx": _grad(tf, [y2], x)}, runs


def case_chain(tf, a):
    k = tf.placeholder(tf.int32, [], name="k")
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.case([(tf.equal(k, 1), lambda: x * 10.0), (tf.equal(k, 2), lambda: x * 20.0)],
                default=lambda: -x)
    z = tf.switch_case(k, [lambda: x * x, lambda: tf.exp(x)], default=lambda: x + 9.0)
    return {"y": y, "z": z, "dx": _grad(tf, [y, z], x)}, {f"k{v}": {k: v, x: a["x"]} for v in (0, 1, 2, 5)}


def while_basic(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    i, acc = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc * x + tf.cast(i, tf.float32)),
                           [tf.constant(0), tf.ones([3])])
    return {"i": i, "acc": acc, "dx": _grad(tf, [acc], x)}, {"n0": {x: a["x"], n: 0}, "n4": {x: a["x"], n: 4}}


def while_maximum_iterations(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.while_loop(lambda v: tf.reduce_sum(v) < 100.0, lambda v: v * tf.sin(v) + 1.0, [x], maximum_iterations=3)
    return {"y": y, "dx": _grad(tf, [y], x)}, {"run": {x: a["x"]}}


def while_nested(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")

    def body(i, v):
        _, inner = tf.while_loop(lambda j, w: j < i + 1, lambda j, w: (j + 1, tf.sin(w) + x), [0, v])
        return i + 1, inner * 0.5

    _, y = tf.while_loop(lambda i, v: i < 3, body, [0, x])
    return {"y": y, "dx": _grad(tf, [y], x)}, {"run": {x: a["x"]}}


def while_with_cond(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")

    def body(i, v):
        return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: v * x, lambda: tf.tanh(v) + 1.0)

    _, y = tf.while_loop(lambda i, v: i < 5, body, [0, x])
    p = tf.placeholder(tf.bool, [], name="p")
    z = tf.cond(p, lambda: tf.while_loop(lambda v: tf.reduce_max(v) < 4.0, lambda v: v * 1.5 + 0.25, [x]),
                lambda: x)
    return {"y": y, "z": z, "dx": _grad(tf, [y, z], x)}, {"true": {x: a["x"], p: True}, "false": {x: a["x"], p: False}}


def while_matrix_power(tf, a):
    m = tf.placeholder(tf.float32, [3, 3], name="m")
    x = tf.placeholder(tf.float32, [3], name="x")
    _, v = tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, tf.tanh(tf.matmul(m, v))),
                         [0, tf.reshape(x, [3, 1])])
    return {"v": v, "dm": _grad(tf, [v], m), "dx": _grad(tf, [v], x)}, {"run": {m: a["m"], x: a["x"]}}


def while_captured_variable(tf, a):
    """A variable read inside the body (its gradient summed over iterations) and gathered rows of an
    embedding (IndexedSlices gradients inside the loop)."""
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(a["m"], name="w")
    table = tf.Variable(a["m"] * 2.0, name="table")

    def body(i, v):
        row = tf.gather(table, i % 3)
        return i + 1, tf.tanh(tf.reshape(tf.matmul(tf.reshape(v, [1, 3]), w), [3]) + row)

    _, y = tf.while_loop(lambda i, v: i < 4, body, [0, x])
    dw, dtable, dx = tf.gradients(tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0])), [w, table, x])
    return {"y": y, "dw": dw, "dtable": tf.convert_to_tensor(dtable), "dx": dx}, {"run": {x: a["x"]}}


def tensor_array_ops(tf, a):
    x = tf.placeholder(tf.float32, [3], name="x")
    m = tf.placeholder(tf.float32, [3, 3], name="m")
    ta = tf.TensorArray(tf.float32, size=3)
    written = ta.write(0, x * 2.0).write(1, tf.sin(x)).write(2, x)
    stacked = written.stack()
    scattered = tf.TensorArray(tf.float32, size=4, clear_after_read=False).scatter([3, 0, 1], m)
    gathered = scattered.gather([1, 0, 3])
    unread = scattered.read(2)
    grown = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(2, x).write(0, x * x)
    pieces = tf.TensorArray(tf.float32, size=3, infer_shape=False, clear_after_read=False)
    pieces = pieces.split(tf.reshape(m, [9]), [2, 3, 4])
    joined = pieces.concat()
    loss = tf.reduce_sum(stacked * m) + tf.reduce_sum(gathered * gathered) + tf.reduce_sum(joined * tf.range(9.0))
    dx, dm = tf.gradients(loss, [x, m])
    return ({"stacked": stacked, "gathered": gathered, "unread": unread, "grown": grown.stack(),
             "size": grown.size(), "joined": joined, "piece": pieces.read(1), "dx": dx, "dm": dm},
            {"run": {x: a["x"], m: a["m"]}})


def tensor_array_loop(tf, a):
    """dynamic_rnn's pattern: inputs unstacked into one TensorArray, outputs written into another."""
    m = tf.placeholder(tf.float32, [3, 3], name="m")
    inputs = tf.TensorArray(tf.float32, size=3).unstack(m)
    outputs = tf.TensorArray(tf.float32, size=3)

    def body(i, state, out):
        state = tf.tanh(state * 0.5 + inputs.read(i))
        return i + 1, state, out.write(i, state * 2.0)

    _, state, outputs = tf.while_loop(lambda i, *_: i < 3, body, [0, tf.zeros([3]), outputs])
    y = outputs.stack()
    dm = tf.gradients(tf.reduce_sum(y * m) + tf.reduce_sum(state), m)[0]
    return {"y": y, "state": state, "dm": dm}, {"run": {m: a["m"]}}


def functional(tf, a):
    m = tf.placeholder(tf.float32, [3, 3], name="m")
    mapped = tf.map_fn(lambda r: r * tf.reduce_sum(r), m)
    pair = tf.map_fn(lambda r: (r[0], tf.cast(r[1] > 0, tf.int32)), m, dtype=(tf.float32, tf.int32))
    scanned = tf.scan(lambda acc, r: acc * 0.5 + tf.sin(r), m)
    backwards = tf.scan(lambda acc, r: acc * r, m, initializer=tf.ones([3]), reverse=True)
    left = tf.foldl(lambda acc, r: acc * 0.5 + r, m)
    right = tf.foldr(lambda acc, r: acc * r + 1.0, m, initializer=tf.zeros([3]))
    loss = tf.add_n([tf.reduce_sum(t * (k + 1.0)) for k, t in enumerate((mapped, scanned, backwards, left, right))])
    return ({"mapped": mapped, "first": pair[0], "positive": pair[1], "scanned": scanned, "backwards": backwards,
             "left": left, "right": right, "dm": tf.gradients(loss, m)[0]}, {"run": {m: a["m"]}})


CASES = {f.__name__: f for f in (cond_basic, cond_structures, cond_nested, case_chain, while_basic,
                                 while_maximum_iterations, while_nested, while_with_cond, while_matrix_power,
                                 while_captured_variable, tensor_array_ops, tensor_array_loop, functional)}


def batch_norm_cnn(tf, a):
    """A conv net whose batch norm switches on ``is_training`` with tf.cond (batch statistics and moving
    averages updated in the training branch, the moving averages in the other), built from plain tf.nn
    ops; trained four steps, evaluated in both modes. Returns the losses, in a dict."""
    rng = np.random.RandomState(3)
    images = rng.uniform(-1.0, 1.0, (6, 5, 5, 2)).astype(np.float32)
    labels = np.array([0, 1, 2, 1, 0, 2], np.int32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 5, 5, 2], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
        is_training = tf.placeholder_with_default(False, [], name="is_training")
        kernel = tf.Variable(rng.uniform(-0.5, 0.5, (3, 3, 2, 4)).astype(np.float32), name="kernel")
        h = tf.nn.conv2d(x, kernel, strides=[1, 1, 1, 1], padding="SAME")
        moving_mean = tf.Variable(tf.zeros([4]), trainable=False, name="moving_mean")
        moving_var = tf.Variable(tf.ones([4]), trainable=False, name="moving_variance")

        def batch_statistics():
            mean = tf.reduce_mean(h, axis=[0, 1, 2])
            var = tf.reduce_mean(tf.square(h - mean), axis=[0, 1, 2])
            updates = [tf.assign(moving_mean, moving_mean * 0.9 + mean * 0.1),
                       tf.assign(moving_var, moving_var * 0.9 + var * 0.1)]
            with tf.control_dependencies(updates):
                return tf.identity(mean), tf.identity(var)

        mean, var = tf.cond(is_training, batch_statistics, lambda: (moving_mean.read_value(), moving_var.read_value()))
        normed = tf.nn.relu((h - mean) * tf.rsqrt(var + 1e-3))
        dense = tf.Variable(rng.uniform(-0.3, 0.3, (100, 3)).astype(np.float32), name="dense")
        logits = tf.matmul(tf.reshape(normed, [-1, 100]), dense)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        feed = {x: images, y: labels}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run([train, loss], {**feed, is_training: True})[1] for _ in range(4)]
            evaluated = [sess.run(loss, feed), sess.run(loss, {**feed, is_training: True})]
            averages = sess.run([moving_mean, moving_var])
    return {"train_losses": np.array(losses), "eval_losses": np.array(evaluated), "moving_mean": averages[0],
            "moving_variance": averages[1]}


def run_case(tf, name, a):
    """``({"<run>/<fetch>": value}, {"<fetch>": tensor name})`` of case ``name`` run in ``tf``."""
    values, names = {}, {}
    with tf.Graph().as_default():
        fetches, runs = CASES[name](tf, a)
        names = {k: t.name for k, t in fetches.items()}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for run, feed in runs.items():
                for k, v in sess.run(fetches, feed).items():
                    values[f"{run}/{k}"] = np.asarray(v)
    return values, names
