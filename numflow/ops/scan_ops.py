"""Running sums, products and log-sum-exps along an axis (ops ``Cumsum``, ``Cumprod``,
``CumulativeLogsumexp``), the gradient of ``reduce_prod``
that TensorFlow builds from them, and the reductions TensorFlow builds from other ops: ``reduce_logsumexp``
and ``count_nonzero``.

A scan adds (or multiplies) each line in order from its first element, on any thread count, as
TensorFlow's CPU kernel does: the same inputs give the same bits.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import broadcast_to, gradient, reduced_grad
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.elementwise_ops import is_finite
from numflow.ops.loss_ops import div_no_nan
from numflow.ops.math_ops import FLOATS, NUMBERS
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype
from numflow.ops.selection_ops import where_v2


def _scan_infer(op):
    """Dtypes only: as in TensorFlow, a bad axis fails when the op runs, even when known earlier."""
    x, axis = op.inputs
    check_dtype(x, NUMBERS, "x")
    check_dtype(axis, INDEX_TYPES, "axis")
    return [(x.dtype, x.shape)]


declare("Cumsum")(_scan_infer)
declare("Cumprod")(_scan_infer)


@declare("CumulativeLogsumexp")
def _cumulative_logsumexp_infer(op):
    check_dtype(op.inputs[0], FLOATS, "x")
    return _scan_infer(op)


def _make_scan(op_type, public_name, what):
    def fn(x, axis=0, exclusive=False, reverse=False, name=None):
        with get_default_graph().name_scope(name or op_type) as scope:
            x = convert_to_tensor(x, name="x")
            axis = convert_to_tensor(axis, name="axis", preferred_dtype=dtypes.int32)
            attrs = {"exclusive": bool(exclusive), "reverse": bool(reverse)}
            return _out(op_type, [x, axis], attrs, name=scope)[0]

    fn.__name__ = public_name
    fn.__doc__ = f"""The running {what} of ``x`` along ``axis`` (op ``{op_type}``).

    ``exclusive`` leaves each element out of its own result (the first becomes the identity);
    ``reverse`` runs from the end of the axis. An axis outside the input's rank fails at run time
    (InvalidArgumentError), as in TensorFlow.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.{public_name}([1, 2, 3], exclusive=True, reverse=True)).tolist()
    {"[5, 3, 0]" if op_type == "Cumsum" else "[6, 3, 1]"}
    """
    return fn


cumsum = _make_scan("Cumsum", "cumsum", "sum")
cumprod = _make_scan("Cumprod", "cumprod", "product")
cumulative_logsumexp = _make_scan("CumulativeLogsumexp", "cumulative_logsumexp", "log-sum-exp")
cumulative_logsumexp.__doc__ = """The running ``log(sum(exp(x)))`` of floats ``x`` along ``axis``, without overflow
(op ``CumulativeLogsumexp``); ``exclusive`` and ``reverse`` as for :func:`cumsum` (the identity is ``-inf``)."""


@gradient("Cumsum")
def _cumsum_grad(op, grad):
    return [cumsum(grad, op.inputs[1], exclusive=op._attrs["exclusive"], reverse=not op._attrs["reverse"]), None]


@gradient("Cumprod")
def _cumprod_grad(op, grad):
    """TensorFlow's: ``cumsum(cumprod(x) * grad, reverse=not reverse) / x``, 0 where ``x`` is 0."""
    x, axis = op.inputs
    exclusive, reverse = op._attrs["exclusive"], op._attrs["reverse"]
    prod = cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = cumsum(math_ops.multiply(prod, grad), axis, exclusive=exclusive, reverse=not reverse)
    return [div_no_nan(out, x), None]


@gradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
    """TensorFlow's: the positive and negative parts of ``grad`` through log space, each a reversed scan."""
    x, axis = op.inputs
    result = op.outputs[0]
    exclusive, reverse = op._attrs["exclusive"], op._attrs["reverse"]
    lowest = grad.dtype.base_dtype.min
    log_grad_positive = where_v2(math_ops.greater(grad, 0), math_ops.log(grad), lowest)
    log_grad_negative = where_v2(math_ops.less(grad, 0), math_ops.log(-grad), lowest)
    output_pos = math_ops.exp(cumulative_logsumexp(log_grad_positive - result, axis=axis, reverse=not reverse,
                                                   exclusive=exclusive) + x)
    output_neg = math_ops.exp(cumulative_logsumexp(log_grad_negative - result, axis=axis, reverse=not reverse,
                                                   exclusive=exclusive) + x)
    return [output_pos - output_neg, None]


@gradient("Prod")
def _prod_grad(op, grad):
    """TensorFlow's: each element's gradient is the product of the other factors of its product, taken
    from exclusive running products from both ends (so a zero factor needs no division)."""
    x = op.inputs[0]
    spread = broadcast_to(reduced_grad(grad, op), x)
    axes, rank = op._attrs["axis"], x.shape.ndims
    if axes is not None and rank is not None:
        axes = sorted({a % rank for a in axes}) if rank else []
        if len(axes) == rank:
            axes = None
    if axes is None:
        flat = array_ops.reshape(x, [-1])
        others = array_ops.reshape(_product_of_others(flat, 0), array_ops.shape(x))
    elif len(axes) == 1:
        others = _product_of_others(x, axes[0])
    elif rank is None:
        raise ValueError(f"The gradient of {op.name} (Prod) over several axes needs its input's rank; it is unknown.")
    elif not axes:
        others = array_ops.ones_like(x)
    else:  # the reduced axes first, flattened into one, the others after them
        perm = axes + [a for a in range(rank) if a not in axes]
        permuted = array_ops.transpose(x, perm)
        lines = array_ops.reshape(permuted, array_ops.stack([-1, math_ops.reduce_prod(
            array_ops.gather(array_ops.shape(x), perm[len(axes):]))]))
        others = array_ops.transpose(array_ops.reshape(_product_of_others(lines, 0), array_ops.shape(permuted)),
                                     [perm.index(a) for a in range(rank)])
    return [math_ops.multiply(spread, others)] + [None] * (len(op.inputs) - 1)


def _product_of_others(x, axis):
    return math_ops.multiply(cumprod(x, axis, exclusive=True), cumprod(x, axis, exclusive=True, reverse=True))


def _reduction_args(axis, reduction_indices, keepdims, keep_dims):
    if axis is not None and reduction_indices is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_indices'.")
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'.")
    return (axis if axis is not None else reduction_indices), bool(keepdims if keepdims is not None else keep_dims)


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """``log(sum(exp(input_tensor)))`` over ``axis``, computed without overflow as TensorFlow does.

    The maximum over ``axis`` (0 where it is not finite, and held constant for gradients) is taken
    out before ``exp`` and added back after ``log``.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     round(float(sess.run(tf.reduce_logsumexp([1000.0, 1000.0]))), 4)
    1000.6932
    """
    axis, keepdims = _reduction_args(axis, reduction_indices, keepdims, keep_dims)
    with get_default_graph().name_scope(name or "ReduceLogSumExp") as scope:
        x = convert_to_tensor(input_tensor)
        raw_max = math_ops.reduce_max(x, axis=axis, keepdims=True)
        my_max = array_ops.stop_gradient(array_ops.where_v2(is_finite(raw_max), raw_max,
                                                            array_ops.zeros_like(raw_max)))
        result = math_ops.log(math_ops.reduce_sum(math_ops.exp(math_ops.subtract(x, my_max)), axis=axis,
                                                  keepdims=keepdims))
        if not keepdims:
            my_max = array_ops.reshape(my_max, array_ops.shape(result))
        return math_ops.add(result, my_max, name=scope)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None, reduction_indices=None,
                  keep_dims=None, input=None):  # noqa: A002 - TensorFlow's argument name
    """The number of elements of ``input_tensor`` that are not zero (not ``""`` for strings), over ``axis``.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.count_nonzero([[0, 1, 2], [0, 0, 3]], axis=1)).tolist()
    [2, 1]
    """
    if input_tensor is not None and input is not None:
        raise ValueError("Cannot specify both 'input_tensor' and 'input'.")
    axis, keepdims = _reduction_args(axis, reduction_indices, keepdims, keep_dims)
    with get_default_graph().name_scope(name or "count_nonzero"):
        x = convert_to_tensor(input_tensor if input is None else input, name="input")
        zero = array_ops.zeros([], dtype=x.dtype.base_dtype)
        nonzero = math_ops.cast(math_ops.not_equal(x, zero), dtypes.int64)
        return math_ops.cast(math_ops.reduce_sum(nonzero, axis=axis, keepdims=keepdims), dtype)
