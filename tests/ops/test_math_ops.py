"""Math ops beyond their values: TensorFlow's dtype rules, op names, range and reductions' edge cases.
Each expectation was checked against TensorFlow 2.21's ``tf.compat.v1`` in graph mode."""

import warnings

import numpy as np
import pytest

import numflow as tf


def _run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


@pytest.mark.parametrize("dtype, want", [
    (tf.int8, tf.float32), (tf.uint8, tf.float32), (tf.int16, tf.float32), (tf.uint16, tf.float32),
    (tf.int32, tf.float64), (tf.uint32, tf.float64), (tf.int64, tf.float64), (tf.uint64, tf.float64),
    (tf.float16, tf.float16), (tf.float32, tf.float32), (tf.float64, tf.float64),
])
def test_truediv_result_dtypes(dtype, want):
    out = tf.ones([2], dtype) / tf.ones([2], dtype)
    assert out.dtype == want and out.op.type == "RealDiv" and out.op.name == "truediv"
    assert _run(out).dtype == want.as_numpy_dtype


def test_python_numbers_take_the_tensor_dtype():
    assert (tf.constant(1.0, tf.float64) + 1).dtype == tf.float64
    assert (2 * tf.constant(3, tf.int64)).dtype == tf.int64
    assert (tf.constant([1.0]) + np.float64(2.0)).dtype == tf.float32
    assert _run(tf.constant(7) / 2) == 3.5
    assert _run(7 // tf.constant(2)) == 3
    assert tf.pow(2, 3).dtype == tf.int32 and _run(tf.pow(2, 3)) == 8


def test_integer_and_float_division_and_modulo_of_negatives():
    a, b = tf.constant([7, -7, 7, -7]), tf.constant([2, 2, -2, -2])
    np.testing.assert_array_equal(_run(a // b), [3, -4, -4, 3])
    np.testing.assert_array_equal(_run(a % b), [1, 1, -1, -1])
    np.testing.assert_array_equal(_run(tf.realdiv(a, b)), [3, -3, -3, 3])
    np.testing.assert_array_equal(_run(tf.div(a, b)), [3, -4, -4, 3])
    x = tf.constant([7.5, -7.5, 7.5])
    np.testing.assert_array_equal(_run(x // 2.0), [3, -4, 3])
    np.testing.assert_array_equal(_run(x % tf.constant([2.0, 2.0, -2.0])), [1.5, 0.5, -0.5])


def test_float_division_by_zero_gives_infinities_and_nans_quietly(recwarn):
    np.testing.assert_array_equal(_run(tf.constant([7.0, -1.0, 0.0]) // 0.0), [np.inf, -np.inf, np.nan])
    assert np.isnan(_run(tf.constant([7.0]) % 0.0)).all()
    np.testing.assert_array_equal(_run(tf.constant([1.0, -1.0]) / 0.0), [np.inf, -np.inf])
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_infinities_and_overflows_give_nans_and_infinities_quietly(dtype):
    """inf - inf, inf + -inf, 0 * inf and results past the largest float, without numpy's RuntimeWarnings."""
    big = np.finfo(dtype.as_numpy_dtype).max
    inf, nan = np.inf, np.nan
    a, b = tf.placeholder(dtype, [5]), tf.placeholder(dtype, [5])
    cases = {
        "add": (a + b, [nan, inf, inf, inf, -big]),
        "sub": (a - b, [inf, nan, -inf, 0, -big]),
        "mul": (a * b, [-inf, inf, nan, inf, -big * 0.5]),
        "squared_difference": (tf.squared_difference(a, b), [inf, nan, inf, 0, inf]),
        "add_n": (tf.add_n([a, b]), [nan, inf, inf, inf, -big]),
        "bias_add": (tf.nn.bias_add(tf.reshape(a, [5, 1]), b[:1]), [[nan], [nan], [-inf], [-inf], [-inf]]),
        "truediv": (a / b, [nan, nan, 0, 1, -inf]),
        "floordiv": (a // b, [nan, nan, 0, 1, -inf]),
        "matmul": (tf.matmul(tf.reshape(a[1:3], [1, 2]), tf.reshape(b[1:3], [2, 1])), [[nan]]),  # inf + 0 * inf
        "matmul_overflow": (tf.matmul(tf.reshape(a[3:4], [1, 1]), tf.ones([1, 1], dtype) * 2), [[inf]]),
    }
    feed = {a: np.array([inf, inf, 0, big, -big], dtype.as_numpy_dtype),
            b: np.array([-inf, inf, inf, big, 0.5], dtype.as_numpy_dtype)}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = _run({name: t for name, (t, _) in cases.items()}, feed)
    for name, (_, want) in cases.items():
        np.testing.assert_array_equal(got[name], np.array(want, dtype.as_numpy_dtype), err_msg=name)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_square_overflow_and_sin_cos_of_infinities_are_quiet(dtype):
    big = np.finfo(dtype.as_numpy_dtype).max
    a = tf.placeholder(dtype, [3])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = _run([tf.square(a), tf.sin(a), tf.cos(a)], {a: np.array([big, np.inf, -np.inf], dtype.as_numpy_dtype)})
    np.testing.assert_array_equal(got[0], [np.inf, np.inf, np.inf])
    assert np.isnan(got[1][1:]).all() and np.isnan(got[2][1:]).all()


def test_comparisons_give_bool():
    for out in (tf.constant([1, 2]) < 2, tf.equal(tf.constant([1.0]), 1.0), tf.not_equal("a", "b"),
                tf.constant([1], tf.uint8) >= 1, tf.logical_not(True)):
        assert out.dtype == tf.bool
    np.testing.assert_array_equal(_run(tf.equal(tf.constant(["a", "b"]), "b")), [False, True])


def test_strings_add_but_do_not_subtract():
    assert _run(tf.constant("a") + tf.constant("b")) == b"ab"
    assert isinstance(_run(tf.constant("a") + "b"), bytes)


def test_op_names_follow_tensorflow():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    outs = [x + 1, 1 - x, x * 2, x / 2, x // 2, x % 2, x ** 2, -x, abs(x), x < 1, tf.maximum(x, 0.0),
            tf.floormod(x, 2.0), tf.square(x), tf.cast(x, tf.int32), tf.matmul(x, tf.ones([4, 2])), tf.reduce_sum(x),
            tf.argmax(x, 1), tf.add_n([x, x]), tf.range(3), tf.div(x, 2.0)]
    names = [(o.op.name, o.op.type) for o in outs]
    assert names == [
        ("add", "AddV2"), ("sub", "Sub"), ("mul", "Mul"), ("truediv", "RealDiv"), ("floordiv", "FloorDiv"),
        ("mod", "FloorMod"), ("pow", "Pow"), ("Neg", "Neg"), ("Abs", "Abs"), ("Less", "Less"),
        ("Maximum", "Maximum"), ("FloorMod", "FloorMod"), ("Square", "Square"), ("Cast", "Cast"),
        ("MatMul", "MatMul"), ("Sum", "Sum"), ("ArgMax", "ArgMax"), ("AddN", "AddN"), ("range", "Range"),
        ("div", "RealDiv"),
    ]
    assert [t.op.name for t in outs[0].op.inputs] == ["x", "add/y"]
    assert [t.op.name for t in outs[1].op.inputs] == ["sub/x", "x"]
    assert [t.op.name for t in outs[18].op.inputs] == ["range/start", "range/limit", "range/delta"]


def test_round_of_integers_is_the_input_and_floats_round_half_to_even():
    i = tf.constant([1, 2])
    assert tf.round(i) is i
    np.testing.assert_array_equal(_run(tf.round([0.5, 1.5, 2.5, -0.5])), [0, 2, 2, -0.0])


@pytest.mark.parametrize("args, kwargs, dtype, want", [
    ((5,), {}, tf.int32, [0, 1, 2, 3, 4]),
    ((5, 0, -2), {}, tf.int32, [5, 3, 1]),
    ((0, 3, 1.0), {}, tf.float32, [0, 1, 2]),
    ((5,), {"dtype": tf.float64}, tf.float64, [0, 1, 2, 3, 4]),
    ((2, 2), {}, tf.int32, []),
    ((0.0, 1.0, 0.3), {}, tf.float32, np.array([0, 0.3, 0.6, 0.90000004], np.float32)),
])
def test_range_from_python_values(args, kwargs, dtype, want):
    out = tf.range(*args, **kwargs)
    assert out.dtype == dtype and out.shape.as_list() == [len(want)]
    np.testing.assert_array_equal(_run(out), want)


def test_range_of_tensors():
    n = tf.placeholder(tf.int32, [])
    out = tf.range(n)
    assert out.shape.as_list() == [None] and out.dtype == tf.int32
    np.testing.assert_array_equal(_run(out, {n: 3}), [0, 1, 2])
    assert tf.range(tf.constant(5, tf.int64)).dtype == tf.int64
    assert tf.range(tf.constant(5)).shape.as_list() == [5]
    floats = tf.range(tf.constant(1.0), 0.0, -0.25)
    np.testing.assert_array_equal(_run(floats), [1, 0.75, 0.5, 0.25])


def test_float32_range_values_are_start_plus_index_times_delta():
    # Not accumulated: TensorFlow 2.21 gives 0.7 and 7.0, not 0.70000005 and 6.9999957.
    values = _run(tf.range(0.0, 10.0, 0.1))
    assert values[7] == np.float32(0.7) and values[70] == np.float32(7.0) and len(values) == 100


@pytest.mark.parametrize("build, want, dtype", [
    (lambda: tf.reduce_mean(tf.constant([1, 2])), 1, np.int32),
    (lambda: tf.reduce_mean(tf.constant([-1, -2])), -1, np.int32),
    (lambda: tf.reduce_mean(tf.constant([100, 100], tf.int8)), 100, np.int8),
    (lambda: tf.reduce_sum(tf.constant([100, 100], tf.int8)), -56, np.int8),
    (lambda: tf.reduce_mean(tf.constant([60000.0, 60000.0], tf.float16)), np.inf, np.float16),
    (lambda: tf.reduce_mean(tf.zeros([0])), np.nan, np.float32),
    (lambda: tf.reduce_max(tf.zeros([0])), -np.inf, np.float32),
    (lambda: tf.reduce_max(tf.zeros([0], tf.int32)), np.iinfo(np.int32).min, np.int32),
    (lambda: tf.reduce_min(tf.zeros([0], tf.int32)), np.iinfo(np.int32).max, np.int32),
    (lambda: tf.reduce_sum(tf.constant(3.0), axis=[]), 3.0, np.float32),
])
def test_reduction_edge_cases(build, want, dtype):
    got = _run(build())
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape, kwargs, want", [
    ([None, 3], {"axis": 1}, [None]),
    ([None, 3], {"axis": -1, "keepdims": True}, [None, 1]),
    ([None, 3], {"keepdims": True}, [1, 1]),
    ([None, 3, 4], {"axis": [0, -1]}, [3]),
    (None, {"axis": 1}, None),
    (None, {"axis": 1, "keepdims": True}, None),
])
def test_reduction_static_shapes(shape, kwargs, want):
    out = tf.reduce_sum(tf.placeholder(tf.float32, shape), **kwargs)
    assert (out.shape.as_list() if out.shape.ndims is not None else None) == want


def test_reduction_axis_may_be_a_constant_tensor():
    out = tf.reduce_sum(tf.ones([2, 3]), axis=tf.constant(1))
    assert out.shape.as_list() == [2]
    np.testing.assert_array_equal(_run(out), [3, 3])


def test_matmul_batches_and_flags():
    a = tf.placeholder(tf.float32, [None, 2, 3])
    assert tf.matmul(a, tf.ones([3, 5])).shape.as_list() == [None, 2, 5]
    assert tf.matmul(a, a, adjoint_b=True).op.type == "BatchMatMulV2"
    assert tf.matmul(tf.placeholder(tf.float32), tf.ones([3, 5])).shape.ndims is None
    with pytest.raises(ValueError, match="Only one of transpose_a and adjoint_a can be True."):
        tf.matmul(a, a, transpose_a=True, adjoint_a=True)


def test_argmax_defaults_and_bool_input():
    out = tf.argmax([[1, 3], [4, 2]])
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(_run(out), [1, 0])
    assert _run(tf.argmax([True, False])) == 0
    assert tf.argmin(tf.ones([2, 3]), axis=1, output_type=tf.int32).dtype == tf.int32


def test_add_n():
    x = tf.constant(1.0)
    assert tf.add_n([x]) is x
    assert tf.add_n([x], name="one").op.name == "one"
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 0 and 1"):
        tf.add_n([x, tf.constant([1.0, 2.0])])
    # TF 2.21's errors and messages.
    with pytest.raises(ValueError, match=r"^Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                                         r"the same dtype and shape\.$"):
        tf.add_n([])
    with pytest.raises(TypeError, match="'NoneType' object is not iterable"):
        tf.add_n(None)
    assert tf.add_n(t for t in (x, x)).op.type == "AddN"


def test_ref_tensors_of_variables_mix_with_their_base_dtype():
    v = tf.Variable([1.0, -2.0])
    outs = [v + 1, 1 - v, v * v, v / 2, tf.maximum(v, 0.0), tf.reduce_sum(v), tf.abs(v), v < 0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(outs)
    np.testing.assert_array_equal(got[0], [2, -1])
    np.testing.assert_array_equal(got[3], [0.5, -1])
    assert got[5] == -1 and outs[0].dtype == tf.float32


def test_div_no_nan_gives_zero_where_the_divisor_is_zero():
    out = tf.div_no_nan([1.0, 2.0, -3.0, 0.0], [0.0, 4.0, 0.0, 0.0])
    assert out.op.type == "DivNoNan" and out.op.name == "div_no_nan"
    np.testing.assert_array_equal(_run(out), [0.0, 0.5, 0.0, 0.0])
    ints = tf.div_no_nan(tf.constant([3, 4]), [2, 0])
    assert ints.dtype == tf.float64
    np.testing.assert_array_equal(_run(ints), [1.5, 0.0])
    x, y = tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])
    gx, gy = tf.gradients(tf.div_no_nan(x, y), [x, y])
    np.testing.assert_array_equal(_run([gx, gy]), [[0.0, 0.25], [0.0, -0.125]])


def test_cast_names_its_ops_as_tensorflow_does():
    # The names TensorFlow 2.21's compat.v1 gives the same program.
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [2])
        v = tf.Variable(1.0)
        results = [tf.cast(3, tf.int32), tf.cast(2.5, tf.int32), tf.cast(x, tf.int32), tf.cast(x, tf.float32),
                   tf.cast(x, tf.int64, name="named"), tf.cast(v, tf.float32)]
        assert [t.name for t in results] == ["Cast/x:0", "Cast_1:0", "Cast_2:0", "Placeholder:0", "named:0",
                                             "Variable/read:0"]
        assert "Cast_1/x" in {op.name for op in graph.get_operations()}
