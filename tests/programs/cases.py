"""Small TensorFlow 1.x snippets, written once for both engines: each ``case_*`` takes the ``tf`` module
(numflow, or TensorFlow's compat.v1 when the goldens are made) and returns what the snippet gives, as a
dict of names to arrays, numbers and text. ``data/cases.json`` holds TensorFlow's results."""

import numpy as np


def case_printed_forms(tf):
    """What ``print`` shows of tensors, shapes, dimensions, dtypes and ops."""
    x = tf.placeholder(tf.float32)
    y = tf.placeholder(tf.float32, [None, 3], name="y")
    v = tf.Variable(tf.zeros([2]), name="v")
    assign = str(v.initializer)  # before the group: an op made a control input gains an attr in TensorFlow 2
    group = tf.group(v.initializer, name="init_all")
    return {
        "unknown_shape": str(x), "unknown_shape_sum": str(x + 1), "partial_shape": str(y),
        "scalar": str(tf.constant(3)), "variable": repr(v), "dtype": str(tf.float32), "dtype_repr": repr(tf.int32),
        "variable_dtype": str(v.dtype), "shape": str(y.shape), "shape_repr": repr(y.shape),
        "unknown_shape_repr": repr(x.shape), "dimension": str(y.shape[1]), "dimension_repr": repr(y.shape[1]),
        "dimension_value": y.get_shape()[1].value, "dimensions": [d.value for d in tf.zeros([2, 3]).shape],
        "dimension_arithmetic": str(y.shape[1] * 2), "node_def_noop": str(group), "node_def_assign": assign,
    }


def case_reduction_gradients_of_unknown_rank(tf):
    """Gradients through reductions of a tensor whose rank is unknown when the graph is built."""
    x = tf.placeholder(tf.float32)
    value = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    losses = {
        "sum_all": tf.reduce_sum(x * x), "sum_axis1": tf.reduce_sum(tf.reduce_sum(x * x, axis=1) ** 2),
        "mean_neg_axis": tf.reduce_sum(tf.reduce_mean(x * x, axis=-1) ** 2),
        "mean_axes_keepdims": tf.reduce_sum(tf.reduce_mean(x, axis=[0, 2], keepdims=True) ** 2),
        "max_axis0": tf.reduce_sum(tf.reduce_max(x * x, axis=0) ** 2), "min_all": tf.reduce_min(x * x + 1),
        "prod_axis2": tf.reduce_sum(tf.reduce_prod(x + 1, axis=2) ** 2), "prod_all": tf.reduce_prod(x + 1),
    }
    names = sorted(losses)
    with tf.Session() as sess:
        grads = sess.run([tf.gradients(losses[n], x)[0] for n in names], {x: value})
    return dict(zip(names, grads))


def case_reduce_prod_gradients(tf):
    """Gradients of products over one axis, several axes and all, with a zero among the factors."""
    value = np.array([[[1.5, -2.0, 0.5], [2.0, 0.0, 3.0]], [[-1.0, 0.5, 2.5], [1.0, 4.0, -0.5]]], np.float32)
    x = tf.constant(value)
    y = tf.placeholder(tf.float32, [None, 3])
    losses = {
        "axis0": tf.reduce_sum(tf.reduce_prod(x, 0) ** 2), "axis_neg1": tf.reduce_sum(tf.reduce_prod(x, -1) ** 2),
        "axes_0_2": tf.reduce_sum(tf.reduce_prod(x, [0, 2]) ** 2), "axes_2_0_keep": tf.reduce_sum(
            tf.reduce_prod(x, [2, 0], keepdims=True) * [[[1.0], [2.0]]]),
        "all": tf.reduce_prod(x), "partial_shape": tf.reduce_sum(tf.reduce_prod(y, 1)),
    }
    names = sorted(losses)
    with tf.Session() as sess:
        grads = sess.run([tf.gradients(losses[n], [x, y])[0 if n != "partial_shape" else 1] for n in names],
                         {y: value[0]})
    return dict(zip(names, grads))


def case_var_list_as_dict_views(tf):
    """``minimize(var_list=weights.values())``: the optimizer takes a dict's views as TensorFlow's nest does."""
    weights = {"w": tf.Variable([1.0, -2.0]), "b": tf.Variable(0.5)}
    loss = tf.reduce_sum(weights["w"] ** 2) + weights["b"] ** 2
    only_w = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list={"w": weights["w"]}.values())
    both = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=weights.values())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(only_w)
        after_w = sess.run([weights["w"], weights["b"]])
        sess.run(both)
        after_both = sess.run([weights["w"], weights["b"]])
    return {"after_w": after_w, "after_both": after_both}



def _error_class(run):
    try:
        run()
    except Exception as exc:  # noqa: BLE001 - the class is the result
        return type(exc).__name__
    return "no error"


def case_py_func(tf):
    """``tf.py_func`` and ``tf.numpy_function``: values in and out, several outputs, strings and scalars,
    no gradient, and the error classes of a function that fails or returns the wrong dtype or count."""
    def scale_and_sum(x, y):
        return x * 2, (x * y).sum(keepdims=True).astype(np.float32)

    def fail(cls):
        def raise_it(x):
            raise cls("bad input")
        return raise_it

    x = tf.placeholder(tf.float32, [None])
    doubled, summed = tf.py_func(scale_and_sum, [x, np.float32(3.0)], [tf.float32, tf.float32])
    single = tf.numpy_function(lambda v: v + 1, [x], tf.float32, name="plus_one")
    text = tf.py_func(lambda s, n: s + b"!" * int(n), [tf.constant("hi"), tf.constant(2)], tf.string)
    scalar_kind = tf.py_func(lambda v: type(v).__name__ + str(v.dtype), [tf.constant(1.5)], tf.string)
    no_outputs = tf.py_func(lambda v: None, [x], [])
    stateless = tf.py_func(lambda: np.int64(7), [], tf.int64, stateful=False)
    feed = {x: [1.0, -2.0]}
    with tf.Session() as sess:
        values = sess.run([doubled, summed, single, text, scalar_kind, stateless], feed)
        sess.run(no_outputs, feed)
        errors = {name: _error_class(lambda t=t: sess.run(t, feed)) for name, t in {
            "value_error": tf.py_func(fail(ValueError), [x], tf.float32),
            "key_error": tf.py_func(fail(KeyError), [x], tf.float32),
            "stop_iteration": tf.py_func(fail(StopIteration), [x], tf.float32),
            "wrong_dtype": tf.py_func(lambda v: v.astype(np.float64), [x], tf.float32),
            "list_for_one": tf.py_func(lambda v: [v, v], [x], tf.float32),
            "one_for_two": tf.py_func(lambda v: v, [x], [tf.float32, tf.float32]),
        }.items()}
    return {"values": values, "printed": [str(doubled), str(single), no_outputs.type, stateless.op.type],
            "shape": str(single.shape), "gradient": str(tf.gradients(tf.reduce_sum(single), x)), "errors": errors}


def case_named_results(tf):
    """Ops whose results TensorFlow returns as namedtuples named after the op, fetched and printed."""
    true_classes = tf.constant([[1]], tf.int64)
    results = {"top_k": tf.nn.top_k([[1.0, 3.0, 2.0]], 2), "unique": tf.unique([4, 1, 4]),
               "sampler": tf.nn.log_uniform_candidate_sampler(true_classes, 1, 2, True, 5, seed=1),
               "uniform_sampler": tf.nn.uniform_candidate_sampler(true_classes, 1, 2, True, 5, seed=1),
               "hits": tf.nn.compute_accidental_hits(true_classes, tf.constant([1, 2], tf.int64), 1)}
    with tf.Session() as sess:
        fetched = sess.run(results)
    return {"types": {k: [type(v).__name__, list(v._fields)] for k, v in results.items()},
            "printed": repr(fetched["top_k"]), "unique_idx": fetched["unique"].idx}


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
