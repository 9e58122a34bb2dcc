"""Assertions and numeric checks, as TensorFlow 1's ``check_ops``, ``control_flow_assert`` and ``numerics``
build them: ``Assert`` (op ``Assert``), the ``assert_*`` family, ``check_numerics`` (op ``CheckNumerics``),
``verify_tensor_all_finite`` and the monotonicity tests.

An assertion is an op to run (``sess.run`` it, or make others depend on it with
``tf.control_dependencies``); when it runs and its condition is False it raises InvalidArgumentError
with TensorFlow's message: ``assertion failed: [data 0] [data 1] ...``, each tensor summarized to its
first ``summarize`` (default 3) elements. When the inputs are constants, the comparisons fail at
once, while the graph is built (InvalidArgumentError, TensorFlow's static check); a rank or dtype
known to be wrong fails at once too (ValueError, TypeError).
"""

import numpy as np

from numflow.framework import dtypes, errors
from numflow.framework.graph import Tensor, constant_value, get_default_graph
from numflow.framework.registry import declare
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient, not_differentiable
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.control_flow_ops import no_op
from numflow.ops.math_ops import FLOATS
from numflow.ops.op_util import _out, check_dtype, check_input_dtype

NUMERIC_TYPES = frozenset(FLOATS + math_ops.SIGNED + math_ops.UNSIGNED)


# -- Assert and check_numerics ----------------------------------------------------------------------------
@declare("Assert", stateful=True)
def _assert_infer(op):
    condition = op.inputs[0]
    check_input_dtype(condition, dtypes.bool, "Assert", "condition")
    return []


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's public name
    """An op that fails with InvalidArgumentError, printing ``data``, when the scalar bool ``condition`` is False.

    ``data`` is a list of tensors or Python values (strings, numbers); each is printed with its first
    ``summarize`` elements (3 by default). As in TensorFlow 1.x, data other than strings and int32 is
    only formatted when the condition fails: the assertion then runs inside
    ``tf.cond(condition, no_op, assert)`` (``<name>/AssertGuard``), and the op returned is that cond's.

    >>> import numflow as tf
    >>> check = tf.Assert(tf.placeholder_with_default(False, []), ["x is", [1, 2]])
    >>> with tf.Session() as sess:
    ...     try:
    ...         sess.run(check)
    ...     except tf.errors.InvalidArgumentError as e:
    ...         print(e.message.splitlines()[0])
    assertion failed: [x is] [1 2]
    """
    graph = get_default_graph()
    with graph.name_scope(name or "Assert"):
        condition = convert_to_tensor(condition, name="Condition")
        tensors = [convert_to_tensor(d) for d in data]
        attrs = {"summarize": 3 if summarize is None else int(summarize)}
        if all(t.dtype.base_dtype in (dtypes.string, dtypes.int32) for t in tensors):
            # TensorFlow hands the op the data as given: values are converted a second time, as its inputs.
            with graph.name_scope("Assert") as scope:
                inputs = [d if is_tensor(d) else convert_to_tensor(d, name=f"data_{i}") for i, d in enumerate(data)]
                return graph.create_op("Assert", [condition, *inputs], attrs, name=scope)
        from numflow.ops.cond import cond

        def failing_branch():
            return graph.create_op("Assert", [condition, *tensors], attrs, name="Assert")

        return cond(condition, no_op, failing_branch, name="AssertGuard").op


def assert_at_most_n_true(predicates, n, message):
    """An assertion that at most ``n`` of the bool scalars ``predicates`` are true (``tf.case``'s check)."""
    from numflow.ops.array_ops import stack
    from numflow.ops.constant_op import constant

    stacked = stack(predicates, name="preds_c")
    count = math_ops.reduce_sum(math_ops.cast(stacked, dtypes.int32), name="num_true_conds")
    condition = math_ops.less_equal(count, constant(n, name="n_true_conds"))
    names = ", ".join(getattr(p, "name", "?") for p in predicates)
    return Assert(condition, [f"{message}: more than {n} conditions ({names}) evaluated as True:", stacked],
                  summarize=len(predicates))


@declare("CheckNumerics")
def _check_numerics_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "tensor")
    return [(x.dtype, x.shape)]


def check_numerics(tensor, message, name=None):
    """``tensor``, checked when it runs: InvalidArgumentError ``"<message> : Tensor had NaN values"`` (or
    Inf, or Inf and NaN) if any element is not finite (op ``CheckNumerics``)."""
    with get_default_graph().name_scope(name or "CheckNumerics") as scope:
        x = convert_to_tensor(tensor, name="tensor")
        return _out("CheckNumerics", [x], {"message": str(message)}, name=scope)[0]


@gradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    return [check_numerics(grad, "Not a number (NaN) or infinity (Inf) values detected in gradient. "
                                 f"{op._attrs['message']}")]


not_differentiable("Assert")


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """``t``, available only after a ``check_numerics`` of it passed (TensorFlow 1's name; also
    ``tf.debugging.assert_all_finite``)."""
    t = t if x is None else x
    msg = msg if message is None else message
    graph = get_default_graph()
    with graph.name_scope(name or "VerifyFinite"):
        t = convert_to_tensor(t, name="x")
        with graph.colocate_with(t.op):
            verified = check_numerics(t, message=msg)
            with graph.name_scope("control_dependency") as scope, graph.control_dependencies([verified.op]):
                return array_ops.identity(t, name=scope)


# -- comparisons ----------------------------------------------------------------------------------------
def _message_prefix(message):
    return f"{message}.  " if message else ""


def _static_string(item):
    """How TensorFlow's build-time check prints one data item: a constant's numpy value, or the item."""
    if isinstance(item, Tensor):
        value = constant_value(item)
        return str(item) if value is None else str(value)
    return str(item)


def _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name):
    with get_default_graph().name_scope(name or opname):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y")
        if data is None:
            data = [f"Condition x {sym} y did not hold element-wise:", f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
        if message is not None:
            data = [message] + list(data)
        condition = math_ops.reduce_all(op_func(x, y))
        x_static, y_static = constant_value(x), constant_value(y)
        if x_static is not None and y_static is not None and not np.all(static_func(x_static, y_static)):
            raise errors.InvalidArgumentError(None, None, "\n".join(_static_string(d) for d in data))
        return Assert(condition, data, summarize=summarize)


def _make_binary_assert(sym, opname, op_func, static_func):
    def fn(x, y, data=None, summarize=None, message=None, name=None):
        return _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name)

    fn.__name__ = opname
    fn.__doc__ = f"""An op asserting ``x {sym} y`` for every (broadcast) pair of elements; an InvalidArgumentError
    printing ``data`` (by default the condition and the first ``summarize`` elements of ``x`` and ``y``,
    after ``message``) when it runs and the condition is False, or at once when both are constants."""
    return fn


assert_none_equal = _make_binary_assert("!=", "assert_none_equal", math_ops.not_equal, np.not_equal)
assert_less = _make_binary_assert("<", "assert_less", math_ops.less, np.less)
assert_less_equal = _make_binary_assert("<=", "assert_less_equal", math_ops.less_equal, np.less_equal)
assert_greater = _make_binary_assert(">", "assert_greater", math_ops.greater, np.greater)
assert_greater_equal = _make_binary_assert(">=", "assert_greater_equal", math_ops.greater_equal, np.greater_equal)
_assert_equal = _make_binary_assert("==", "assert_equal", math_ops.equal, np.equal)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    """An op asserting ``x == y`` elementwise (see :func:`assert_less`); a ``NoOp`` when ``x`` is ``y``."""
    with get_default_graph().name_scope(name or "assert_equal"):  # opened and left empty, as in TensorFlow
        if x is y:
            return no_op()
    return _assert_equal(x, y, data, summarize, message)


def _make_sign_assert(sym, opname, against_zero):
    def fn(x, data=None, summarize=None, message=None, name=None):
        message = _message_prefix(message)
        with get_default_graph().name_scope(name or opname):
            x = convert_to_tensor(x, name="x")
            if data is None:
                condition, value = f"Condition x {sym} 0 did not hold element-wise:", f"x ({x.name}) = "
                # TensorFlow's assert_non_positive runs the two strings together.
                texts = [condition + value] if opname == "assert_non_positive" else [condition, value]
                data = [message, *texts, x]
            zero = convert_to_tensor(0, dtype=x.dtype.base_dtype)
            return against_zero(x, zero, data, summarize)

    fn.__name__ = opname
    fn.__doc__ = f"An op asserting ``x {sym} 0`` for every element of ``x`` (see :func:`assert_less`)."
    return fn


assert_negative = _make_sign_assert("<", "assert_negative", lambda x, z, d, s: assert_less(x, z, d, s))
assert_positive = _make_sign_assert(">", "assert_positive", lambda x, z, d, s: assert_less(z, x, d, s))
assert_non_negative = _make_sign_assert(">=", "assert_non_negative", lambda x, z, d, s: assert_less_equal(z, x, d, s))
assert_non_positive = _make_sign_assert("<=", "assert_non_positive", lambda x, z, d, s: assert_less_equal(x, z, d, s))


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """An op asserting ``|x - y| < atol + rtol * |y|`` elementwise (tolerances default to 10 epsilons of
    the dtype)."""
    message = _message_prefix(message)
    with get_default_graph().name_scope(name or "assert_near"):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        dtype = x.dtype.base_dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = convert_to_tensor(10 * eps if rtol is None else rtol, name="rtol", dtype=dtype)
        atol = convert_to_tensor(10 * eps if atol is None else atol, name="atol", dtype=dtype)
        if data is None:
            data = [message, f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}", f"x ({x.name}) = ", x,
                    f"y ({y.name}) = ", y]
        tol = atol + rtol * math_ops.abs(y)
        diff = math_ops.abs(x - y)
        return Assert(math_ops.reduce_all(math_ops.less(diff, tol)), data, summarize=summarize)


# -- ranks, dtypes, shapes --------------------------------------------------------------------------------
def _rank_assert(x, ranks, kind, static_condition, dynamic_condition, data, summarize, message):
    """An Assert on the rank of ``x``, or a NoOp (or ValueError) when the ranks are known now."""
    message = _message_prefix(message)
    x = convert_to_tensor(x, name="x")
    ranks = [convert_to_tensor(r, name="rank") for r in ranks]
    for r in ranks:
        if r.dtype.base_dtype != dtypes.int32:
            raise TypeError(f"{r.name} must be of type tf.int32; got tf.{r.dtype.base_dtype.name}")
    if data is None:
        data = [message, f"Tensor {x.name} must have rank{kind}", *ranks, "Received shape: ", array_ops.shape(x)]
    static = [constant_value(r) for r in ranks]
    if all(s is not None for s in static):
        if any(np.ndim(s) != 0 for s in static):
            raise ValueError("Rank must be a scalar.")
        if x.shape.ndims is not None:
            wanted = tuple(int(s) for s in static)
            if not static_condition(x.shape.ndims, wanted):
                given = wanted[0] if len(wanted) == 1 and kind != " in" else wanted
                raise ValueError(f"{message}Tensor {x.name} must have rank{kind} {given}.  Received rank "
                                 f"{x.shape.ndims}, shape {x.shape}")
            return no_op(name="static_checks_determined_all_ok")
    return Assert(dynamic_condition(array_ops.rank(x), ranks), data, summarize=summarize)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    """An op asserting that ``x`` has rank ``rank``: a ValueError now when the rank is known, else at run time."""
    with get_default_graph().name_scope(name or "assert_rank"):
        return _rank_assert(x, [rank], "", lambda r, g: r == g[0],
                            lambda r, g: math_ops.equal(r, g[0]), data, summarize, message)


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    """An op asserting that ``x`` has rank ``rank`` or more (see :func:`assert_rank`)."""
    with get_default_graph().name_scope(name or "assert_rank_at_least"):
        return _rank_assert(x, [rank], " at least", lambda r, g: r >= g[0],
                            lambda r, g: math_ops.greater_equal(r, g[0]), data, summarize, message)


def _rank_in(actual, given):
    result = math_ops.equal(given[0], actual)
    for g in given[1:]:
        result = math_ops.logical_or(result, math_ops.equal(g, actual))
    return result


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """An op asserting that the rank of ``x`` is one of ``ranks`` (see :func:`assert_rank`)."""
    with get_default_graph().name_scope(name or "assert_rank_in"):
        return _rank_assert(x, list(ranks), " in", lambda r, g: r in g, _rank_in, data, summarize, message)


def _dtype_text(dtype):
    return f"tf.{dtypes.as_dtype(dtype).name}"


def assert_type(tensor, tf_type, message=None, name=None):
    """A ``NoOp`` when ``tensor`` has dtype ``tf_type``; TypeError (now) otherwise."""
    tf_type = dtypes.as_dtype(tf_type)
    with get_default_graph().name_scope(name or "assert_type"):
        tensor = convert_to_tensor(tensor, name="tensor")
        if tensor.dtype.base_dtype != tf_type:
            raise TypeError(f"{_message_prefix(message)}{tensor.name} must be of type {_dtype_text(tf_type)}; got "
                            f"{_dtype_text(tensor.dtype.base_dtype)}")
        return no_op(name="statically_determined_correct_type")


def assert_integer(x, message=None, name=None):
    """A ``NoOp`` when ``x`` has an integer dtype; TypeError (now) otherwise."""
    with get_default_graph().name_scope(name or "assert_integer"):
        x = convert_to_tensor(x, name="x")
        if not x.dtype.base_dtype.is_integer:
            raise TypeError(f'{_message_prefix(message)}Expected "x" to be integer type.  Found: {x.name} of dtype '
                            f"<dtype: '{x.dtype.base_dtype.name}'>")
        return no_op(name="statically_determined_was_integer")


def assert_scalar(tensor, name=None, message=None):
    """``tensor`` itself when its static shape is a scalar's; ValueError (now) otherwise."""
    with get_default_graph().name_scope(name or "assert_scalar") as scope:
        tensor = convert_to_tensor(tensor, name=scope)
        if tensor.shape.ndims != 0:
            raise ValueError(f"{_message_prefix(message)}Expected scalar shape for {tensor.name}, saw shape: "
                             f"{tensor.shape}.")
        return tensor


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of ``tensors`` (and ``dtype``), float32 when none is given; ValueError when they
    differ or are not floats."""
    expected = dtypes.as_dtype(dtype) if dtype is not None else None
    first = None
    for t in tensors or []:
        if t is None:
            continue
        kind = t.dtype.base_dtype
        if expected is None:
            expected, first = kind, t
        elif kind != expected:
            origin = f" as {first.name}" if first is not None else ""
            raise ValueError(f"{t.name}, type=<dtype: '{kind.name}'>, must be of the same type (<dtype: "
                             f"'{expected.name}'>){origin}.")
    if expected is None:
        return dtypes.float32
    if not expected.is_floating:
        raise ValueError(f"Expected floating point type, got <dtype: '{expected.name}'>.")
    return expected


def assert_proper_iterable(values):
    """TypeError unless ``values`` is an iterable other than a tensor, array, string or bytes."""
    if isinstance(values, Tensor | np.ndarray | str | bytes):
        raise TypeError(f"Expected argument \"values\" to be a \"proper\" iterable.  Found: {type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f"Expected argument \"values\" to be iterable.  Found: {type(values)}")


def is_numeric_tensor(tensor):
    """Whether ``tensor`` is a Tensor of a numeric dtype."""
    return isinstance(tensor, Tensor) and tensor.dtype.base_dtype in NUMERIC_TYPES


def _monotonic(x, compare, name, default_name):
    with get_default_graph().name_scope(name or default_name):
        x = array_ops.reshape(convert_to_tensor(x, name="x"), [-1])
        if not is_numeric_tensor(x):
            raise TypeError(f"Expected x to be numeric, instead found: <dtype: '{x.dtype.base_dtype.name}'>")
        return math_ops.reduce_all(compare(x[1:], x[:-1]))


def is_non_decreasing(x, name=None):
    """Whether every element of ``x`` (flattened) is at least the one before it; True for fewer than two."""
    return _monotonic(x, math_ops.greater_equal, name, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """Whether every element of ``x`` (flattened) is greater than the one before it; True for fewer than two."""
    return _monotonic(x, math_ops.greater, name, "is_strictly_increasing")
