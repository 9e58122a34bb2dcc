"""Property tests: random shapes, dtypes and values through the core ops, against numpy.

Each op runs twice: from constants (the static shapes known when the graph is built) and from
placeholders of unknown shape fed at run time. A valid input must give numpy's result with the shape
inferred at build time; an invalid one must raise TensorFlow's class: ValueError (or TypeError) when
the graph is built, InvalidArgumentError when only the run can tell. Nothing may crash otherwise.
Example counts stay small so the file runs in seconds.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numflow as tf

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)
FLOATS = [np.float32, np.float64]
INTS = [np.int32, np.int64]


def _elements(dtype):
    if np.dtype(dtype).kind == "f":
        return st.floats(-1e6, 1e6, width=np.dtype(dtype).itemsize * 8, allow_subnormal=False)
    return st.integers(-1000, 1000)


def arrays(dtype, shape):
    return hnp.arrays(dtype, shape, elements=_elements(dtype))


@st.composite
def array_of(draw, dtypes=FLOATS + INTS, min_dims=0, max_dims=3, min_side=0, max_side=4):
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side))
    return draw(arrays(dtype, shape))


def _both_ways(build, *arrays_in):
    """``build(*tensors)`` on constants and on fed placeholders of unknown shape: the two results.

    Each result is ``("value", array, static shape)`` or ``("error", exception class)``; build-time
    errors of the placeholder way count as its result too.
    """
    results = []
    for fed in (False, True):
        with tf.Graph().as_default():
            try:
                if fed:
                    holders = [tf.placeholder(tf.as_dtype(a.dtype), shape=None) for a in arrays_in]
                    out = build(*holders)
                    feed = dict(zip(holders, arrays_in))
                else:
                    out = build(*[tf.constant(a) for a in arrays_in])
                    feed = None
                static = out.shape
                with tf.Session() as sess:
                    value = np.asarray(sess.run(out, feed))
                results.append(("value", value, static))
            except (ValueError, TypeError, tf.errors.InvalidArgumentError) as e:
                results.append(("error", type(e)))
    return results


def _expect_value(results, expected, exact=True, rtol=1e-6):
    expected = np.asarray(expected)
    for kind, *rest in results:
        assert kind == "value", f"raised {rest[0].__name__} for a valid input"
        value, static = rest
        assert value.shape == expected.shape
        assert static.is_compatible_with(expected.shape), f"static shape {static} for a result of {expected.shape}"
        if exact:
            np.testing.assert_array_equal(value, expected)
        else:
            np.testing.assert_allclose(value, expected, rtol=rtol, atol=rtol)


def _expect_error(results):
    """Both ways raised: ValueError or TypeError when the graph was built, InvalidArgumentError at run time
    (TensorFlow leaves some checks of constant inputs to the run too)."""
    for result in results:
        assert result[0] == "error", f"no error: gave {result[1]!r}"


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
          "minimum": np.minimum, "squared_difference": lambda a, b: np.square(a - b)}


@SETTINGS
@given(st.sampled_from(sorted(BINARY)), st.sampled_from(FLOATS + INTS),
       hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4), st.data())
def test_elementwise_binary_ops_broadcast_as_numpy(name, dtype, shapes, data):
    a = data.draw(arrays(dtype, shapes.input_shapes[0]))
    b = data.draw(arrays(dtype, shapes.input_shapes[1]))
    with np.errstate(all="ignore"):
        expected = BINARY[name](a, b).astype(dtype)
    _expect_value(_both_ways(getattr(tf, name), a, b), expected)


@SETTINGS
@given(st.sampled_from(sorted(BINARY)), hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
       hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
def test_shapes_that_do_not_broadcast_raise(name, shape_a, shape_b):
    try:
        np.broadcast_shapes(shape_a, shape_b)
        assume(False)
    except ValueError:
        pass
    a, b = np.ones(shape_a, np.float32), np.ones(shape_b, np.float32)
    _expect_error(_both_ways(getattr(tf, name), a, b))


UNARY = {"abs": (np.abs, FLOATS + INTS), "negative": (np.negative, FLOATS + INTS),
         "square": (np.square, FLOATS + INTS), "sign": (np.sign, FLOATS + INTS),
         "sqrt": (np.sqrt, FLOATS), "exp": (np.exp, FLOATS), "log": (np.log, FLOATS)}


@SETTINGS
@given(st.sampled_from(sorted(UNARY)), st.data())
def test_elementwise_unary_ops_are_numpys(name, data):
    fn, dtypes = UNARY[name]
    x = data.draw(array_of(dtypes))
    with np.errstate(all="ignore"):
        expected = fn(x).astype(x.dtype)
    exact = name not in ("exp", "log", "sqrt")
    _expect_value(_both_ways(getattr(tf, name), x), expected, exact=exact, rtol=1e-6)


def _axes(draw, rank):
    """None, one axis (maybe negative), or a list of distinct axes of a rank-``rank`` array."""
    if rank == 0:
        return draw(st.sampled_from([None, []]))
    choice = draw(st.sampled_from(["none", "one", "list"]))
    if choice == "none":
        return None
    axes = draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True))
    axes = [a - rank if draw(st.booleans()) else a for a in axes]
    return axes[0] if choice == "one" else axes


def _mean(x, axis, keepdims):
    count = x.size if axis is None else int(np.prod([x.shape[a] for a in np.atleast_1d(axis)]))
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64 if x.dtype.kind == "i" else x.dtype)
    if x.dtype.kind == "i":  # TensorFlow divides integers truncating toward zero
        with np.errstate(all="ignore"):
            return (np.sign(total) * (np.abs(total) // max(count, 1))).astype(x.dtype)
    with np.errstate(all="ignore"):
        return (total / x.dtype.type(count)).astype(x.dtype)


REDUCTIONS = {
    "reduce_sum": lambda x, axis, keepdims: np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    "reduce_prod": lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    "reduce_max": lambda x, axis, keepdims: np.max(x, axis=axis, keepdims=keepdims),
    "reduce_min": lambda x, axis, keepdims: np.min(x, axis=axis, keepdims=keepdims),
    "reduce_mean": _mean,
}


@SETTINGS
@given(st.sampled_from(sorted(REDUCTIONS)), st.booleans(), st.data())
def test_reductions_over_any_axes_are_numpys(name, keepdims, data):
    x = data.draw(array_of(min_side=1))
    axis = _axes(data.draw, x.ndim)
    if isinstance(axis, list) and not axis:
        expected = x
    else:
        with np.errstate(all="ignore"):
            expected = REDUCTIONS[name](x, tuple(axis) if isinstance(axis, list) else axis, keepdims)
    exact = x.dtype.kind == "i" or name in ("reduce_max", "reduce_min")
    _expect_value(_both_ways(lambda t: getattr(tf, name)(t, axis=axis, keepdims=keepdims), x),
                  np.asarray(expected, x.dtype), exact=exact, rtol=1e-5)


@SETTINGS
@given(st.sampled_from(sorted(REDUCTIONS)), st.data())
def test_a_reduction_axis_outside_the_rank_raises(name, data):
    x = data.draw(array_of(min_dims=1, min_side=1))
    axis = data.draw(st.one_of(st.integers(x.ndim, 2**40), st.integers(-(2**40), -x.ndim - 1)))
    _expect_error(_both_ways(lambda t: getattr(tf, name)(t, axis=axis), x))


@st.composite
def reshapes(draw):
    """An array and a new shape with the same number of elements, one dimension maybe -1."""
    x = draw(array_of(min_side=1))
    factors = [f for d in x.shape for f in _factors(d)]
    factors = draw(st.permutations(factors))
    new, i = [], 0
    while i < len(factors):
        take = draw(st.integers(1, len(factors) - i))
        new.append(int(np.prod(factors[i:i + take])))
        i += take
    new += [1] * draw(st.integers(0, 1))
    if new and draw(st.booleans()):
        new[draw(st.integers(0, len(new) - 1))] = -1
    return x, new


def _factors(n):
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


@SETTINGS
@given(reshapes())
def test_reshape_is_numpys(case):
    x, shape = case
    _expect_value(_both_ways(lambda t: tf.reshape(t, shape), x), x.reshape(shape))


@SETTINGS
@given(array_of(min_dims=1, min_side=1), st.lists(st.integers(1, 5), min_size=1, max_size=3))
def test_reshape_to_another_size_raises(x, shape):
    assume(int(np.prod(shape)) != x.size)
    _expect_error(_both_ways(lambda t: tf.reshape(t, shape), x))


@SETTINGS
@given(st.data())
def test_transpose_is_numpys(data):
    x = data.draw(array_of())
    perm = data.draw(st.permutations(range(x.ndim)))
    _expect_value(_both_ways(lambda t: tf.transpose(t, perm), x), np.transpose(x, perm))


@SETTINGS
@given(st.data())
def test_transpose_by_any_list_is_numpys_or_raises(data):
    """A negative entry counts from the end, as in TF; anything but a permutation of the axes raises."""
    x = data.draw(array_of(min_dims=1))
    rank = x.ndim
    perm = data.draw(st.lists(st.integers(-rank - 2, rank + 2), min_size=rank, max_size=rank))
    results = _both_ways(lambda t: tf.transpose(t, perm), x)
    if all(-rank <= p < rank for p in perm) and sorted(p % rank for p in perm) == list(range(rank)):
        _expect_value(results, np.transpose(x, [p % rank for p in perm]))
    else:
        _expect_error(results)


@SETTINGS
@given(st.data())
def test_concat_is_numpys(data):
    dtype = data.draw(st.sampled_from(FLOATS + INTS))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=3))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    parts = []
    for _ in range(data.draw(st.integers(2, 3))):
        part_shape = list(shape)
        part_shape[axis] = data.draw(st.integers(0, 3))
        parts.append(data.draw(arrays(dtype, tuple(part_shape))))
    _expect_value(_both_ways(lambda *ts: tf.concat(list(ts), axis), *parts), np.concatenate(parts, axis))


@SETTINGS
@given(st.data())
def test_concat_of_other_shapes_raises(data):
    a = data.draw(array_of(dtypes=[np.float32], min_dims=2, min_side=1))
    b = np.ones(a.shape[:-1] + (a.shape[-1] + 1,), np.float32)
    _expect_error(_both_ways(lambda s, t: tf.concat([s, t], 0), a, b))


_INDEX = st.one_of(st.none(), st.integers(-6, 6))


@SETTINGS
@given(array_of(min_dims=1, max_dims=2), st.lists(st.tuples(_INDEX, _INDEX, st.sampled_from([None, 1, 2, -1, -2])),
                                                    min_size=1, max_size=2))
def test_python_slicing_is_numpys(x, parts):
    key = tuple(slice(*p) for p in parts[:x.ndim])
    _expect_value(_both_ways(lambda t: t[key], x), x[key])


@SETTINGS
@given(array_of(min_dims=1, max_dims=2, min_side=1), st.integers(-8, 8))
def test_an_integer_index_is_numpys_or_out_of_bounds(x, i):
    if -x.shape[0] <= i < x.shape[0]:
        _expect_value(_both_ways(lambda t: t[i], x), x[i])
    else:
        _expect_error(_both_ways(lambda t: t[i], x))


@SETTINGS
@given(st.data())
def test_slice_is_numpys(data):
    x = data.draw(array_of(min_dims=1))
    begin = [data.draw(st.integers(0, d)) for d in x.shape]
    size = [data.draw(st.integers(-1, d - b)) for d, b in zip(x.shape, begin)]
    key = tuple(slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))
    _expect_value(_both_ways(lambda t: tf.slice(t, begin, size), x), x[key])


@SETTINGS
@given(st.data())
def test_gather_is_numpys_and_refuses_indices_out_of_range(data):
    x = data.draw(array_of(min_dims=1, min_side=1))
    axis = data.draw(st.integers(0, x.ndim - 1))
    indices = np.array(data.draw(st.lists(st.integers(-2, x.shape[axis] + 1), max_size=4)), np.int32)
    results = _both_ways(lambda t: tf.gather(t, indices, axis=axis), x)
    if ((indices >= 0) & (indices < x.shape[axis])).all():
        _expect_value(results, np.take(x, indices, axis=axis))
    else:
        assert [r[:2] for r in results] == [("error", tf.errors.InvalidArgumentError)] * 2


@SETTINGS
@given(st.sampled_from(FLOATS), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.booleans(),
       st.booleans(), st.data())
def test_matmul_is_the_product(dtype, m, k, n, transpose_a, transpose_b, data):
    a = data.draw(arrays(dtype, (k, m) if transpose_a else (m, k)))
    b = data.draw(arrays(dtype, (n, k) if transpose_b else (k, n)))
    exact = (a.T if transpose_a else a).astype(np.float64) @ (b.T if transpose_b else b).astype(np.float64)
    scale = max(1.0, float(np.abs(a).max(initial=0) * np.abs(b).max(initial=0) * max(k, 1)))
    for kind, *rest in _both_ways(lambda s, t: tf.matmul(s, t, transpose_a=transpose_a, transpose_b=transpose_b),
                                  a, b):
        assert kind == "value"
        value, static = rest
        assert value.dtype == dtype and value.shape == (m, n) and static.is_compatible_with((m, n))
        np.testing.assert_allclose(value, exact, rtol=0, atol=scale * (1e-6 if dtype == np.float32 else 1e-14))


@SETTINGS
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4))
def test_matmul_of_mismatched_inner_sizes_raises(m, k, n):
    _expect_error(_both_ways(tf.matmul, np.ones((m, k), np.float32), np.ones((k + 1, n), np.float32)))


@SETTINGS
@given(st.sampled_from(FLOATS + INTS + [np.bool_]), st.sampled_from(FLOATS + INTS + [np.bool_]), st.data())
def test_cast_is_numpys(source, target, data):
    if np.dtype(source) == np.bool_:
        x = data.draw(hnp.arrays(np.bool_, hnp.array_shapes(min_dims=0, max_dims=2, max_side=4)))
    else:
        x = data.draw(array_of(dtypes=[source], max_dims=2))
    expected = x.astype(target)
    _expect_value(_both_ways(lambda t: tf.cast(t, tf.as_dtype(target)), x), expected)
