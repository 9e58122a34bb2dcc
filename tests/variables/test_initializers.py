"""Initializer and random-op values: bit for bit against TensorFlow's, and their documented rules.

The TensorFlow values are goldens written by ``tests/golden/variables/make_tf_goldens.py`` from the
scenarios in ``tests/golden/variables/scenarios.py``, which this file runs again under numflow.
"""

import math
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

GOLDEN_DIR = pathlib.Path(__file__).parent.parent / "golden" / "variables"
HOW_TO_REGENERATE = "Regenerate with: /opt/tfenv/bin/python tests/golden/variables/make_tf_goldens.py"


def _load_scenarios():
    return load_script(GOLDEN_DIR / "scenarios.py")


scenarios = _load_scenarios()


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN_DIR / "initializers.npz") as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("scenario", scenarios.ALL, ids=lambda fn: fn.__name__)
def test_values_match_tensorflow(scenario, golden):
    got = {f"{scenario.__name__}/{k}": np.asarray(v) for k, v in scenario(tf).items()}
    want_keys = {k.removesuffix("#sha256") for k in golden if k.startswith(scenario.__name__ + "/")}
    assert set(got) == want_keys, HOW_TO_REGENERATE
    for key, value in got.items():
        want = golden[key]
        if f"{key}#sha256" in golden:
            if scenarios.digest(value) != str(golden[f"{key}#sha256"]):
                np.testing.assert_array_equal(value.reshape(-1)[: want.size], want, err_msg=key)
                pytest.fail(f"{key}: same first values as TensorFlow, other bytes differ. {HOW_TO_REGENERATE}")
            continue
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if "orth" in key:
            # QR by LAPACK here, by Eigen in TensorFlow: the same matrix to within rounding.
            np.testing.assert_allclose(value, want, rtol=0, atol=4 * np.finfo(value.dtype).eps, err_msg=key)
        else:
            np.testing.assert_array_equal(value, want, err_msg=f"{key}. {HOW_TO_REGENERATE}")


def _run(value):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(value)


def test_graph_seed_draws_do_not_depend_on_other_ops():
    """Under a graph seed, TF 1.x (<= 1.15) used the graph's last op id as a seedless op's seed, so
    values depended on how many ops came before; numflow builds fewer ops than TF for the same code
    (one fused RandomUniform where TF adds shape/min/max/sub/mul/add), so ids would differ. TF 2.x's
    compat.v1, the reference here, counts seedless random ops instead; numflow does the same, and
    matches it whatever else the graph holds."""
    tf.set_random_seed(7)
    a = tf.random_normal([6])
    b = tf.random_normal([6])
    first = _run([a, b])
    tf.reset_default_graph()
    tf.set_random_seed(7)
    for _ in range(10):
        tf.constant(1.0) + 1.0
    a = tf.random_normal([6])
    tf.Variable(3.0)
    b = tf.random_normal([6])
    np.testing.assert_array_equal(_run([a, b]), first)


def test_op_seeds_count_only_seedless_random_ops_made_under_a_graph_seed():
    tf.set_random_seed(5)
    assert tf.get_seed(None) == (5, 0)
    assert tf.get_seed(3) == (5, 3)  # an op seed takes no number
    assert tf.get_seed(None) == (5, 1)
    tf.set_random_seed(0)
    assert tf.get_seed(None) == (0, 2)
    assert tf.get_seed(0) == (0, 2**31 - 1)  # (0, 0) would mean "nondeterministic"
    tf.reset_default_graph()
    assert tf.get_seed(None) == (None, None)
    assert tf.get_seed(2**31 + 3) == (87654321, 4)


def test_without_seeds_each_session_draws_anew():
    x = tf.random_normal([8])
    with tf.Session() as sess:
        a = sess.run(x)
    with tf.Session() as sess:
        b = sess.run(x)
    assert not np.array_equal(a, b)


def test_a_random_op_continues_its_stream_in_one_session_and_restarts_in_another():
    x = tf.random_uniform([5], seed=3)
    with tf.Session() as sess:
        first, second = sess.run(x), sess.run(x)
    with tf.Session() as sess:
        again = sess.run(x)
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(first, again)


def test_orthogonal_factors_the_normal_matrix_tf_draws_in_the_variable_dtype():
    q, normal = _run([tf.orthogonal_initializer(seed=3)([6, 4]), tf.random_normal([6, 4], seed=3)])
    want, r = np.linalg.qr(normal.astype(np.float64))
    want *= np.sign(np.diag(r))
    np.testing.assert_allclose(q, want, rtol=0, atol=1e-6)


def test_orthogonal_is_orthogonal_for_each_shape():
    for shape in ([4, 4], [3, 6], [6, 3], [2, 3, 4]):
        tf.reset_default_graph()
        q = _run(tf.get_variable("q", shape, initializer=tf.orthogonal_initializer(gain=1.0, seed=1)))
        flat = q.reshape(-1, shape[-1])
        small = flat.T @ flat if flat.shape[0] >= flat.shape[1] else flat @ flat.T
        np.testing.assert_allclose(small, np.eye(len(small)), atol=1e-5)


def test_zeros_for_every_default_initialized_dtype():
    variables = [tf.get_variable(name, [2], dtype=dt) for name, dt in
                 [("i32", tf.int32), ("i64", tf.int64), ("u8", tf.uint8), ("b", tf.bool), ("s", tf.string)]]
    values = _run(variables)
    assert [v.tolist() for v in values] == [[0, 0], [0, 0], [0, 0], [False, False], [b"", b""]]
    assert [v.dtype for v in values[:4]] == [np.int32, np.int64, np.uint8, np.bool_]


def test_constant_initializer_pads_a_short_list_with_its_last_value():
    values = _run(tf.get_variable("c", [2, 3], initializer=tf.constant_initializer([1, 2])))
    np.testing.assert_array_equal(values, [[1, 2, 2], [2, 2, 2]])


def test_constant_initializer_rejects_too_many_values_and_values_of_another_type():
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2, but got 3."):
        tf.get_variable("a", [2], initializer=tf.constant_initializer([1, 2, 3]))
    with pytest.raises(TypeError, match="Expected int32"):
        tf.get_variable("b", [2], dtype=tf.int32, initializer=tf.constant_initializer(3.5))
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(2,\), got \(1,\)."):
        tf.get_variable("c", [2], initializer=tf.constant_initializer([1.0], verify_shape=True))


def test_random_uniform_names_its_output_after_the_last_op_tf_would_add():
    assert tf.random_uniform([2], seed=1).name == "random_uniform/RandomUniform:0"
    assert tf.random_uniform([2], 0, 3.0, seed=1).name == "random_uniform_1/Mul:0"
    assert tf.random_uniform([2], 0.0, 1.0, seed=1).name == "random_uniform_2:0"
    assert tf.random_uniform([2], 0, 10, dtype=tf.int32, seed=1).name == "random_uniform_3:0"
    assert tf.random_normal([2], seed=1).name == "random_normal:0"


def test_random_ops_reject_dtypes_as_tf_does():
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: float16, bfloat16"):
        tf.random_normal([2], 0, 1, dtype=tf.int32)
    with pytest.raises(TypeError, match="Expected int32"):
        tf.truncated_normal([2], dtype=tf.int32)  # mean 0.0 does not convert to int32
    with pytest.raises(ValueError, match=r"Argument `dtype` got invalid value <dtype: 'bool'>"):
        tf.random_uniform([2], dtype=tf.bool)
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype tf.int32"):
        tf.random_uniform([2], dtype=tf.int32)


def test_random_uniform_int_checks_its_bounds_when_it_runs():
    x = tf.random_uniform([2], 5, 1, dtype=tf.int32)
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 5 >= 1"):
        sess.run(x)


def test_initializer_argument_errors_use_tf_messages():
    with pytest.raises(ValueError, match=r"Argument `scale` must be a positive float. Received: -1.0"):
        tf.variance_scaling_initializer(scale=-1.0)
    with pytest.raises(ValueError, match=r"Argument `mode` should be one of \('fan_in', 'fan_out', 'fan_avg'\)"):
        tf.variance_scaling_initializer(mode="x")
    with pytest.raises(ValueError, match="Argument `distribution` should be one of"):
        tf.variance_scaling_initializer(distribution="y")
    for init in (tf.orthogonal_initializer(), tf.initializers.identity()):
        with pytest.raises(ValueError, match=r"must be at least two-dimensional. Received shape=\[3\]"):
            tf.get_variable(f"v{id(init)}", [3], initializer=init)


def test_initializer_configs_round_trip():
    for init in scenarios.initializers(tf).values():
        config = init.get_config()
        assert type(init).from_config(config).get_config() == config
    assert tf.random_uniform_initializer().get_config() == {
        "minval": 0.0, "maxval": None, "seed": None, "dtype": "float32"}


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_truncated_normal_stays_within_two_stddevs(dtype):
    values = _run(tf.truncated_normal([20000], mean=1.0, stddev=0.5, dtype=dtype, seed=1))
    assert values.dtype == dtype.as_numpy_dtype
    assert np.all(np.abs(values - 1.0) <= 1.0)
    assert abs(values.std() - 0.5 * 0.8796) < 0.01


def test_glorot_uniform_is_bounded_by_its_limit():
    values = _run(tf.get_variable("w", [30, 50], initializer=tf.glorot_uniform_initializer(seed=1)))
    limit = math.sqrt(6.0 / (30 + 50))
    assert np.all(np.abs(values) < limit) and np.abs(values).max() > 0.95 * limit


def test_variance_scaling_truncated_normal_has_the_requested_variance():
    init = tf.variance_scaling_initializer(scale=2.0, mode="fan_in", seed=2)
    values = _run(tf.get_variable("w", [400, 300], initializer=init))
    assert abs(values.var() - 2.0 / 400) / (2.0 / 400) < 0.05


def test_initializer_classes_can_be_passed_uninstantiated():
    a = tf.get_variable("a", [2], initializer=tf.zeros_initializer)
    b = tf.get_variable("b", [2], dtype=tf.int32, initializer=tf.ones_initializer)
    np.testing.assert_array_equal(_run(a), [0.0, 0.0])
    np.testing.assert_array_equal(_run(b), [1, 1])


def test_calling_an_initializer_builds_its_value():
    x = tf.glorot_uniform_initializer(seed=1)([3, 4])
    y = tf.zeros_initializer()([2], dtype=tf.int32)
    assert (x.name, x.dtype, y.name, y.dtype) == ("random_uniform:0", tf.float32, "zeros:0", tf.int32)
    assert _run(y).tolist() == [0, 0]


# -- small arrays without Numba ------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_numpy_uniform_draws_are_the_numba_kernels_bits(dtype):
    from numflow_kernels.cpu import init
    from numflow_kernels.cpu.init_numpy import _uniform_numpy

    for n, seed, seed2, counter, bounds in [(1, 1, 2, 0, (0.0, 1.0)), (7, 87654321, 5, 256 * 4, (-1.0, 3.0)),
                                            (4095, -5, 2**64 - 1, 2**64 - 3, (-0.37, 0.37)),
                                            (1001, 2**63 + 7, 2**32 + 5, 0, (2.0, 2.5))]:
        want, got = np.empty(n, dtype), np.empty(n, dtype)
        init.random_uniform(want, seed, seed2, *bounds, counter=counter)
        _uniform_numpy(got, seed, seed2, *bounds, counter)
        assert got.tobytes() == want.tobytes(), (n, seed, seed2, counter, bounds)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_numpy_integer_draws_and_fills_are_the_numba_kernels_values(dtype):
    from numflow_kernels import buffer_ops, philox
    from numflow_kernels.cpu import init
    from numflow_kernels.cpu.init_numpy import HostInit, _uniform_int_numpy

    cases = [(1, 0, 0, (0, 10)), (9, 7, 2**64 - 1, (-5, 5)), (2049, 2**40, 4, (-2**31, 2**31 - 1))]
    for n, seed, counter, (lo, hi) in cases:
        want, got = np.empty(n, dtype), np.empty(n, dtype)
        init.random_uniform_int(want, seed, 3, lo, hi, counter=counter)
        _uniform_int_numpy(got, seed, 3, lo, hi, counter)
        np.testing.assert_array_equal(got, want)
    for fill_dtype in (np.float16, np.float32, dtype, np.uint8, np.bool_):
        want, got = np.empty(5, fill_dtype), np.empty(5, fill_dtype)
        init.fill(want, 1.5)
        HostInit.fill(got, 1.5)
        assert got.tobytes() == want.tobytes()
    assert buffer_ops.RESERVED_PER_OUTPUT == philox.RESERVED_PER_OUTPUT


def test_small_variables_initialize_without_loading_numba():
    import subprocess
    import sys

    code = ("import sys, numflow as tf\n"
            "v = tf.get_variable('v', [1, 2, 3])\n"
            "w = tf.get_variable('w', [2], dtype=tf.int32, initializer=tf.zeros_initializer)\n"
            "u = tf.Variable(tf.random_uniform([3], 0, 10, dtype=tf.int64, seed=1))\n"
            "with tf.Session() as sess:\n"
            "    sess.run(tf.global_variables_initializer())\n"
            "    sess.run(v.assign_add(tf.ones_like(v) if hasattr(tf, 'ones_like') else [[[1.0] * 3] * 2]))\n"
            "assert 'numba' not in sys.modules, 'numba was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(pathlib.Path(__file__).parents[2]))
