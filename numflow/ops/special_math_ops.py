"""The safe and special functions of ``tf.math`` beyond ``transcendental_ops``: ``xlogy``, ``xdivy`` and
``xlog1py`` (0 where ``x`` is 0), ``multiply_no_nan`` and ``reciprocal_no_nan``, ``erfinv``, ``ndtri``,
``erfcinv``, ``bessel_i0e`` and ``bessel_i1e`` (exponentially scaled), ``bessel_i0`` and ``bessel_i1``,
``nextafter``, Hurwitz's ``zeta`` and ``polygamma``, ``lbeta``, ``polyval``, the regularized incomplete
gamma and beta functions ``igamma``, ``igammac`` and ``betainc``, with TensorFlow's gradients
(``math_grad.py``). Kernels: ``numflow_kernels/reference_special.py``.
"""

import math

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import math_ops
from numflow.ops.array_grad import gradient, not_differentiable, sum_to
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.math_ops import FLOATS, _binary_infer, _binary_op, _unary_infer
from numflow.ops.op_util import _out, check_dtype, check_same_dtype
from numflow.ops.transcendental_ops import lgamma

for _op_type in ("Xlogy", "Xdivy", "Xlog1py", "MulNoNan", "Igamma", "Igammac", "IgammaGradA", "NextAfter", "Zeta",
                 "Polygamma"):
    declare(_op_type)(_binary_infer(None, FLOATS))
for _op_type in ("Erfinv", "Ndtri", "BesselI0e", "BesselI1e", "BesselI0", "BesselI1"):
    declare(_op_type)(_unary_infer(FLOATS))


def xlogy(x, y, name=None):
    """``x * log(y)``, and 0 where ``x`` is 0 (op ``Xlogy``).

    >>> import numflow as tf
    >>> tf.Session().run(tf.math.xlogy([0.0, 2.0], [0.0, 1.0])).tolist()
    [0.0, 0.0]
    """
    return _binary_op("Xlogy", x, y, name or "Xlogy")


@declare("Betainc")
def _betainc_infer(op):
    a, b, x = op.inputs
    for t, arg in ((a, "a"), (b, "b"), (x, "x")):
        check_dtype(t, (dtypes.float32, dtypes.float64), arg)
        check_same_dtype(a, t, "Betainc", "a", arg)
    shape = TensorShape([])
    for t in (a, b, x):
        if t.shape.ndims != 0:
            shape = shape.merge_with(t.shape) if shape.ndims != 0 else t.shape
    return [(a.dtype, shape)]


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function ``P(a, x)`` (op ``Igamma``)."""
    return _binary_op("Igamma", a, x, name or "Igamma")


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)`` (op ``Igammac``)."""
    return _binary_op("Igammac", a, x, name or "Igammac")


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function ``I_x(a, b)``; ``a``, ``b`` and ``x`` of one shape or scalars
    (op ``Betainc``)."""
    with get_default_graph().name_scope(name or "Betainc") as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b", dtype=a.dtype.base_dtype)
        x = convert_to_tensor(x, name="x", dtype=a.dtype.base_dtype)
        return _out("Betainc", [a, b, x], name=scope)[0]


def _scoped_binary(op_type, default_name, x, y, name):
    with get_default_graph().name_scope(name or default_name):
        return _binary_op(op_type, x, y, op_type)


def xdivy(x, y, name=None):
    """``x / y``, and 0 where ``x`` is 0 (op ``Xdivy``)."""
    return _scoped_binary("Xdivy", "xdivy", x, y, name)


def xlog1py(x, y, name=None):
    """``x * log1p(y)``, and 0 where ``x`` is 0 (op ``Xlog1py``)."""
    return _scoped_binary("Xlog1py", "xlog1py", x, y, name)


def multiply_no_nan(x, y, name=None):
    """``x * y``, and 0 where ``y`` is 0 even if ``x`` is NaN or infinite (op ``MulNoNan``)."""
    with get_default_graph().name_scope(name or "multiply_no_nan") as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return _out("MulNoNan", [x, y], name=scope)[0]


def reciprocal_no_nan(x, name=None):
    """``1 / x``, and 0 where ``x`` is 0 (op ``DivNoNan``)."""
    with get_default_graph().name_scope(name or "reciprocal_no_nan") as scope:
        x = convert_to_tensor(x, name="x")
        one = constant(1, dtype=x.dtype.base_dtype, name="one")
        return _out("DivNoNan", [one, x], name=scope)[0]


def _scoped_unary(op_type, default_name):
    def fn(x, name=None):
        with get_default_graph().name_scope(name or default_name):
            with get_default_graph().name_scope(op_type) as scope:
                return _out(op_type, [convert_to_tensor(x, name="x")], name=scope)[0]

    fn.__name__ = default_name
    fn.__doc__ = f"Elementwise ``{default_name}`` (op ``{op_type}``)."
    return fn


erfinv = _scoped_unary("Erfinv", "erfinv")
ndtri = _scoped_unary("Ndtri", "ndtri")
bessel_i0e = _scoped_unary("BesselI0e", "bessel_i0e")
bessel_i1e = _scoped_unary("BesselI1e", "bessel_i1e")
bessel_i0 = _scoped_unary("BesselI0", "bessel_i0")
bessel_i1 = _scoped_unary("BesselI1", "bessel_i1")


def erfcinv(x, name=None):
    """The inverse of ``erfc``: ``-ndtri(x / 2) / sqrt(2)``, built as TensorFlow builds it."""
    with get_default_graph().name_scope(name or "erfcinv"):
        x = convert_to_tensor(x, name="start")
        return -ndtri(0.5 * x) * np.sqrt(0.5)


def nextafter(x1, x2, name=None):
    """The next representable number after ``x1`` towards ``x2`` (op ``NextAfter``)."""
    return _binary_op("NextAfter", x1, x2, name or "NextAfter")


def zeta(x, q, name=None):
    """Hurwitz's zeta function ``sum((k + q) ** -x for k >= 0)`` (op ``Zeta``)."""
    return _binary_op("Zeta", x, q, name or "Zeta")


def polygamma(a, x, name=None):
    """The ``a``-th derivative of digamma at ``x``, ``a`` a non-negative integer (op ``Polygamma``)."""
    return _binary_op("Polygamma", a, x, name or "Polygamma")


def polyval(coeffs, x, name=None):
    """The polynomial ``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` at ``x``, by Horner's rule.

    >>> import numflow as tf
    >>> float(tf.Session().run(tf.math.polyval([1.0, 0.0, -2.0], 3.0)))
    7.0
    """
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    with get_default_graph().name_scope(name or "polyval"):
        x = convert_to_tensor(x, name="x")
        if not coeffs:
            from numflow.ops.array_ops import zeros_like

            return zeros_like(x, name=name)
        coeffs = [convert_to_tensor(c, name=f"coeff_{i}") for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def lbeta(x, name=None):
    """The log of the multivariate beta function over the last axis of ``x``:
    ``sum(lgamma(x)) - lgamma(sum(x))``.

    >>> import numflow as tf
    >>> round(float(tf.Session().run(tf.math.lbeta([1.0, 1.0]))), 6)
    0.0
    """
    with get_default_graph().name_scope(name or "lbeta"):
        x = convert_to_tensor(x, name="x")
        log_prod_gamma_x = math_ops.reduce_sum(lgamma(x), axis=[-1])
        log_gamma_sum_x = lgamma(math_ops.reduce_sum(x, axis=[-1]))
        return log_prod_gamma_x - log_gamma_sum_x


# -- gradients: TensorFlow's (math_grad.py) -------------------------------------------------------------
def _not_zero(x):
    return math_ops.cast(math_ops.not_equal(x, math_ops.cast(0.0, dtype=x.dtype)), dtype=x.dtype)


def _x_times_grad(partial_x, partial_y):
    def grad_fn(op, grad):
        x, y = op.inputs
        with get_default_graph().control_dependencies([grad]):
            return [sum_to(partial_x(x, y) * grad, x, y), sum_to(partial_y(x, y) * grad, y, x)]

    return grad_fn


gradient("Xlogy")(_x_times_grad(lambda x, y: xlogy(_not_zero(x), y), lambda x, y: xdivy(x, y)))
gradient("Xlog1py")(_x_times_grad(lambda x, y: xlog1py(_not_zero(x), y), lambda x, y: xdivy(x, y + 1.0)))
gradient("Xdivy")(_x_times_grad(lambda x, y: xdivy(_not_zero(x), y),
                                lambda x, y: xdivy(math_ops.negative(x), y ** 2)))


def _igamma_partials(op):
    a, x = op.inputs
    partial_a = _out("IgammaGradA", [a, x], name="IgammaGradA")[0]
    partial_x = math_ops.exp(-x + (a - 1) * math_ops.log(x) - lgamma(a))
    return a, x, partial_a, partial_x


@gradient("Igamma")
def _igamma_grad(op, grad):
    with get_default_graph().control_dependencies([grad]):
        a, x, partial_a, partial_x = _igamma_partials(op)
        return [sum_to(partial_a * grad, a, x), sum_to(partial_x * grad, x, a)]


@gradient("Igammac")
def _igammac_grad(op, grad):
    with get_default_graph().control_dependencies([grad]):
        a, x, partial_a, partial_x = _igamma_partials(op)
        return [-sum_to(partial_a * grad, a, x), -sum_to(partial_x * grad, x, a)]


@gradient("Betainc")
def _betainc_grad(op, grad):
    """The gradient with respect to ``x`` only, as TensorFlow gives it."""
    a, b, x = op.inputs
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    partial_x = math_ops.exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log_beta)
    return [None, None, sum_to(partial_x * grad, x, a)]


not_differentiable("IgammaGradA", "NextAfter")


@gradient("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    return [sum_to(multiply_no_nan(grad, y), x, y), sum_to(multiply_no_nan(x, grad), y, x)]


@gradient("Erfinv")
def _erfinv_grad(op, grad):
    root_pi_over_two = constant(np.sqrt(np.pi) / 2, dtype=grad.dtype)
    return [grad * root_pi_over_two * math_ops.exp(math_ops.square(op.outputs[0]))]


@gradient("Ndtri")
def _ndtri_grad(op, grad):
    root_two_pi = constant(math.sqrt(2 * math.pi), dtype=grad.dtype)
    return [grad * root_two_pi * math_ops.exp(math_ops.square(op.outputs[0]) / 2.0)]


@gradient("BesselI0e")
def _bessel_i0e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (bessel_i1e(x) - math_ops.sign(x) * y)]


@gradient("BesselI0")
def _bessel_i0_grad(op, grad):
    return [grad * bessel_i1(op.inputs[0])]


@gradient("BesselI1")
def _bessel_i1_grad(op, grad):
    """TensorFlow's: ``i0(x) - y / x``, and 0.5 where ``x`` is 0."""
    from numflow.ops.selection_ops import where_v2

    x, y = op.inputs[0], op.outputs[0]
    dy_dx = where_v2(math_ops.equal(x, 0.0), math_ops.cast(0.5, x.dtype), bessel_i0(x) - math_ops.div(y, x))
    return [grad * dy_dx]


@gradient("Zeta")
def _zeta_grad(op, grad):
    """With respect to ``q`` only, as TensorFlow: ``-x * zeta(x + 1, q)``."""
    x, q = op.inputs
    return [None, sum_to(grad * -x * zeta(x + 1, q), q, x)]


@gradient("Polygamma")
def _polygamma_grad(op, grad):
    """With respect to ``x`` only, as TensorFlow: ``polygamma(a + 1, x)``."""
    a, x = op.inputs
    return [None, sum_to(grad * polygamma(a + 1, x), x, a)]


@gradient("BesselI1e")
def _bessel_i1e_grad(op, grad):
    """TensorFlow's: ``i0e(x) - y * (sign(x) + 1 / x)``, and 0.5 where ``|x|`` is below epsilon."""
    from numflow.ops.array_ops import zeros_like
    from numflow.ops.selection_ops import where_v2

    x, y = op.inputs[0], op.outputs[0]
    eps = np.finfo(x.dtype.base_dtype.as_numpy_dtype).eps
    zeros = zeros_like(x)
    x_is_not_tiny = math_ops.abs(x) > eps
    safe_x = where_v2(x_is_not_tiny, x, eps + zeros)
    dy_dx = bessel_i0e(safe_x) - y * (math_ops.sign(safe_x) + math_ops.reciprocal(safe_x))
    return [grad * where_v2(x_is_not_tiny, dy_dx, 0.5 + zeros)]
