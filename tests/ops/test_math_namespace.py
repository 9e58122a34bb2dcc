"""tf.math: the names TensorFlow's ``tf.compat.v1.math`` has, as the same functions numflow exports
elsewhere, with TensorFlow's op names and numpy's values."""

import numpy as np

import numflow as tf

# The public names of tf.compat.v1.math in TensorFlow 2.21.
TF_MATH = set("""
abs accumulate_n acos acosh add add_n angle approx_max_k approx_min_k argmax argmin asin asinh atan atan2 atanh
bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil confusion_matrix conj cos cosh count_nonzero cumprod
cumsum cumulative_logsumexp digamma divide divide_no_nan equal erf erfc erfcinv erfinv exp expm1 floor floordiv
floormod greater greater_equal igamma igammac imag in_top_k invert_permutation is_finite is_inf is_nan
is_non_decreasing is_strictly_increasing l2_normalize lbeta less less_equal lgamma log log1p log_sigmoid log_softmax
logical_and logical_not logical_or logical_xor maximum minimum mod multiply multiply_no_nan ndtri negative nextafter
not_equal polygamma polyval pow real reciprocal reciprocal_no_nan reduce_all reduce_any reduce_euclidean_norm
reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_std reduce_sum reduce_variance rint round rsqrt
scalar_mul segment_max segment_mean segment_min segment_prod segment_sum sigmoid sign sin sinh sobol_sample softmax
softplus softsign special sqrt square squared_difference subtract tan tanh top_k truediv unsorted_segment_max
unsorted_segment_mean unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n unsorted_segment_sum xdivy
xlog1py xlogy zero_fraction zeta
""".split())


# Names TensorFlow 1 has in tf.math alone, by the module that defines them.
MATH_ONLY = {"reduce_std": "math_composites", "reduce_variance": "math_composites", "divide_no_nan": "math_ops",
             "cumulative_logsumexp": "scan_ops", "reduce_euclidean_norm": "math_ops",
             **dict.fromkeys(["xlogy", "xdivy", "xlog1py", "multiply_no_nan", "reciprocal_no_nan", "erfinv", "ndtri",
                              "bessel_i0e", "bessel_i1e", "polyval", "bessel_i0", "bessel_i1", "erfcinv",
                              "nextafter"], "special_math_ops")}
MATH_ALIASES = {"divide_no_nan": "div_no_nan"}


def _elsewhere(name):
    if name in MATH_ONLY:
        import importlib

        module = importlib.import_module(f"numflow.ops.{MATH_ONLY[name]}")
        return getattr(module, MATH_ALIASES.get(name, name))
    return getattr(tf, name, None) or getattr(tf.nn, name, None)


def test_every_name_is_tensorflows_and_the_function_numflow_exports_elsewhere():
    assert set(tf.math.__all__) <= TF_MATH
    for name in tf.math.__all__:
        assert getattr(tf.math, name) is _elsewhere(name), name


def test_every_tensorflow_math_function_numflow_has_is_in_tf_math():
    missing = [name for name in sorted(TF_MATH) if _elsewhere(name) and not hasattr(tf.math, name)]
    assert missing == []
    for name in ("reduce_sum", "reduce_mean", "add", "multiply", "log", "exp", "sqrt", "square", "maximum", "minimum",
                 "equal", "greater", "argmax", "sigmoid", "tanh", "abs", "pow", "floordiv", "truediv"):
        assert hasattr(tf.math, name), name


def test_op_names_and_values():
    x_np = np.array([[1.0, -4.0], [9.0, 2.0]], np.float32)
    y_np = np.array([[2.0, 3.0], [-2.0, 5.0]], np.float32)
    x, y = tf.constant(x_np, name="x"), tf.constant(y_np, name="y")
    m = tf.math
    cases = [
        (m.reduce_sum(x, axis=1), "Sum:0", x_np.sum(1)),
        (m.reduce_mean(x), "Mean:0", x_np.mean()),
        (m.add(x, y), "Add:0", x_np + y_np),
        (m.multiply(x, y), "Mul:0", x_np * y_np),
        (m.log(m.abs(x)), "Log:0", np.log(np.abs(x_np))),
        (m.sqrt(m.square(x)), "Sqrt:0", np.abs(x_np)),
        (m.maximum(x, y), "Maximum:0", np.maximum(x_np, y_np)),
        (m.greater(x, y), "Greater:0", x_np > y_np),
        (m.argmax(x, axis=1), "ArgMax:0", np.argmax(x_np, 1)),
        (m.pow(x, 2.0), "Pow:0", x_np ** 2),
        (m.floordiv(x, y), "floordiv:0", x_np // y_np),
        (m.divide(x, y), "truediv:0", x_np / y_np),
        (m.mod(x, y), "FloorMod:0", np.mod(x_np, y_np)),
        (m.softmax(x), "Softmax:0", np.exp(x_np) / np.exp(x_np).sum(1, keepdims=True)),
        (m.l2_normalize(x, 1), "l2_normalize:0", x_np / np.linalg.norm(x_np, axis=1, keepdims=True)),
        (m.add_n([x, y, x]), "AddN:0", 2 * x_np + y_np),
    ]
    # The names were checked against TensorFlow 2.21.
    assert [t.name for t, _, _ in cases] == [name for _, name, _ in cases]
    with tf.Session() as sess:
        got = sess.run([t for t, _, _ in cases])
    for (t, _, want), value in zip(cases, got):
        np.testing.assert_allclose(value, want, rtol=1e-6, err_msg=t.name)


def test_reduce_std_and_variance_as_numpy():
    x_np = np.array([[1.0, -4.0, 2.5], [9.0, 2.0, 0.5]], np.float32)
    with tf.Graph().as_default():
        std, var = tf.math.reduce_std(x_np, axis=1, keepdims=True), tf.math.reduce_variance(x_np)
        assert (std.name, std.shape.as_list(), var.name) == ("reduce_std/Sqrt:0", [2, 1], "reduce_variance/Mean_1:0")
        with tf.Session() as sess:
            got_std, got_var = sess.run([std, var])
    np.testing.assert_allclose(got_std, x_np.std(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(got_var, x_np.var(), rtol=1e-6)
