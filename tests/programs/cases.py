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
        "len": _error_text(lambda: len(y)),
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



def _error_text(run):
    try:
        run()
    except Exception as exc:  # noqa: BLE001 - the error is the result
        return f"{type(exc).__name__}: {exc}"
    return "no error"


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


def case_composite_functions(tf):
    """Functions TensorFlow writes over other ops: clipping by norm, scalar_mul, accumulate_n, sort and
    argsort, confusion_matrix, broadcast_to, random_crop, uniform_unit_scaling_initializer, their names."""
    tf.set_random_seed(8)
    x = tf.constant([[3.0, 4.0], [0.3, 0.4]])
    zeros = tf.zeros([2])
    weights = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    sparse_grad = tf.gradients(tf.reduce_sum(tf.gather(weights, [1, 1]) * 3.0), weights)[0]
    clipped = {"all": tf.clip_by_norm(x, 1.0), "rows": tf.clip_by_norm(x, 1.0, axes=[1]),
               "zeros": tf.clip_by_norm(zeros, 1.0), "average": tf.clip_by_average_norm(x, 0.5),
               "slices": tf.clip_by_norm(sparse_grad, 1.0).values}
    grads = {"all": tf.gradients(tf.reduce_sum(clipped["all"] * [[1.0, 2.0]]), x)[0],
             "zeros": tf.gradients(tf.reduce_sum(clipped["zeros"]), zeros)[0]}
    ints, floats = tf.constant([[3, 1, 2], [0, 5, 0]]), tf.constant([[3.0, 1.0], [0.0, 5.0]])
    sorted_ = {"ints": tf.sort(ints), "floats_desc": tf.sort(floats, direction="DESCENDING"),
               "axis0": tf.sort(floats, axis=0), "uint8": tf.sort(tf.constant([3, 1, 2], tf.uint8)),
               "argsort": tf.argsort(ints), "argsort_axis0_desc": tf.argsort(ints, axis=0, direction="DESCENDING")}
    matrices = {"counts": tf.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1]),
                "weighted": tf.confusion_matrix([0, 1], [1, 1], num_classes=3, weights=[0.5, 2.0], dtype=tf.float32),
                "squeezed": tf.math.confusion_matrix([[0], [1]], [0, 1])}
    spread = tf.broadcast_to(tf.constant([1.0, 2.0]), [3, 2])
    values = tf.reshape(tf.range(24.0), [2, 3, 4])
    others = {"scalar_mul": tf.scalar_mul(2.0, x), "accumulate_n": tf.accumulate_n([x, x * 2.0]),
              "broadcast_to": spread, "broadcast_grad": tf.gradients(tf.reduce_sum(spread * [[1.0, 3.0]]), spread)[0],
              "crop": tf.random_crop(values, [2, 2, 2], seed=5), "crop_graph_seed": tf.random_crop(values, [1, 2, 3]),
              "unit_scaling": tf.get_variable("u", [3, 2], initializer=tf.uniform_unit_scaling_initializer(1.5))}
    names = [t.name for t in (clipped["all"], clipped["average"], sorted_["ints"], sorted_["argsort"],
                              matrices["counts"], spread, others["crop"], others["accumulate_n"])]
    names += [tf.initialize_variables([weights]).name, tf.initialize_local_variables().name,
              tf.initialize_all_tables().name, tf.tables_initializer().name]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        results = sess.run({"clipped": clipped, "grads": grads, "sorted": sorted_, "matrices": matrices,
                            "others": others})
    results["names"] = names
    results["static"] = [str(tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3]))),
                         tf.get_static_value(tf.shape(values)), str(tf.get_static_value(tf.placeholder(tf.float32)))]
    results["nest"] = [tf.nest.flatten({"b": [1, 2], "a": 3}), tf.nest.map_structure(lambda v: v * 2, [1, (2,)])]
    results["logger"] = [tf.get_logger().name, tf.version.GRAPH_DEF_VERSION]
    return results


def case_transcendental_functions(tf):
    """tan, the inverse and hyperbolic trigonometric functions, atan2, expm1, erf, erfc, lgamma, digamma and
    rint, in float32 and float64, with their gradients; lgamma and digamma at their poles."""
    values = {
        "any": np.array([-2.5, -1.0, -0.3, 0.0, 0.2, 0.7, 1.0, 1.5, 3.0, 7.25, 30.0], np.float32),
        "unit": np.array([-0.99, -0.5, 0.0, 0.3, 0.9], np.float32), "above_one": np.array([1.0, 1.5, 3.0, 50.0]),
    }
    domains = {"tan": "any", "asin": "unit", "acos": "unit", "atan": "any", "sinh": "any", "cosh": "any",
               "asinh": "any", "acosh": "above_one", "atanh": "unit", "expm1": "any", "erf": "any", "erfc": "any",
               "lgamma": "any", "digamma": "any", "rint": "any"}
    x = {name: tf.constant(values[domain]) for name, domain in domains.items()}
    outputs = {name: getattr(tf, name)(x[name]) for name in domains}
    outputs["math_float64"] = [getattr(tf.math, name)(values["unit"].astype(np.float64)) for name in ("erf", "tan")]
    grads = {name: tf.gradients(tf.reduce_sum(outputs[name]), x[name])[0] for name in domains
             if name not in ("digamma", "rint")}
    y, x2 = tf.constant([1.0, -1.0]), tf.constant([[2.0], [0.5]])
    outputs["atan2"] = tf.atan2(y, x2)
    grads["atan2"] = tf.gradients(tf.reduce_sum(outputs["atan2"]), [y, x2])
    outputs["poles"] = [tf.lgamma([0.0, -1.0, -2.0, 1.0]), tf.digamma([0.0, -1.0, -2.0, 1.0])]
    with tf.Session() as sess:
        results = sess.run({"outputs": outputs, "grads": grads})
    results["names"] = [outputs[n].name for n in ("tan", "asinh", "erf", "lgamma", "rint", "atan2")]
    return results


def case_embedding_lookup_max_norm(tf):
    """embedding_lookup's ``max_norm``: each looked-up row clipped to that L2 norm, for 1-D and 2-D ids,
    over partitions, with its gradient, and in embedding_lookup_sparse."""
    params = tf.constant([[3.0, 4.0], [0.3, 0.4], [1.0, 0.0]])
    parts = [tf.constant([[3.0, 4.0], [1.0, 0.0]]), tf.constant([[0.3, 0.4]])]
    rows = tf.nn.embedding_lookup(params, [0, 1, 0], max_norm=1.0)
    sparse_ids = tf.SparseTensor(indices=[[0, 0], [0, 1], [2, 0]], values=[0, 2, 1], dense_shape=[3, 2])
    with tf.Session() as sess:
        return sess.run({
            "rows": rows, "ids_2d": tf.nn.embedding_lookup(params, [[0, 1], [2, 1]], max_norm=0.45),
            "partitioned": tf.nn.embedding_lookup(parts, [0, 1, 2], max_norm=1.0),
            "grad": tf.gradients(tf.reduce_sum(rows * [[1.0, 2.0]]), params)[0],
            "sparse": tf.nn.embedding_lookup_sparse(params, sparse_ids, None, combiner="sum", max_norm=0.5),
        })


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
