"""``tf.math``: numflow's math functions under the names ``tf.compat.v1.math`` gives them; re-exports only."""

from numflow.ops.array_more_ops import invert_permutation
from numflow.ops.check_ops import is_non_decreasing, is_strictly_increasing
from numflow.ops.complex_ops import angle, conj, imag, real
from numflow.ops.counting_ops import bincount
from numflow.ops.elementwise_ops import is_finite, is_inf, is_nan
from numflow.ops.math_composites import accumulate_n, confusion_matrix, reduce_std, reduce_variance, scalar_mul
from numflow.ops.math_ops import (
    abs,
    add,
    add_n,
    argmax,
    argmin,
    ceil,
    cos,
    divide,
    equal,
    exp,
    floor,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    log,
    log1p,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    pow,
    reciprocal,
    reduce_all,
    reduce_any,
    reduce_euclidean_norm,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    round,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    squared_difference,
    subtract,
    tanh,
    truediv,
    unsorted_segment_sum,
)
from numflow.ops.math_ops import div_no_nan as divide_no_nan
from numflow.ops.nn_activation_ops import log_sigmoid, softplus, softsign
from numflow.ops.nn_impl import l2_normalize, zero_fraction
from numflow.ops.nn_ops import log_softmax, softmax
from numflow.ops.scan_ops import count_nonzero, cumprod, cumsum, cumulative_logsumexp, reduce_logsumexp
from numflow.ops.segment_ops import (
    segment_max,
    segment_mean,
    segment_min,
    segment_prod,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_prod,
    unsorted_segment_sqrt_n,
)
from numflow.ops.special_math_ops import (
    bessel_i0e,
    bessel_i1e,
    betainc,
    erfinv,
    igamma,
    igammac,
    lbeta,
    multiply_no_nan,
    ndtri,
    polyval,
    reciprocal_no_nan,
    xdivy,
    xlog1py,
    xlogy,
)
from numflow.ops.top_k_ops import in_top_k, top_k
from numflow.ops.transcendental_ops import (
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    cosh,
    digamma,
    erf,
    erfc,
    expm1,
    lgamma,
    rint,
    sinh,
    tan,
)

__all__ = [
    "abs", "accumulate_n", "acos", "acosh", "add", "add_n", "angle", "argmax", "argmin", "asin", "asinh", "atan",
    "atan2", "atanh", "bessel_i0e", "bessel_i1e", "betainc", "bincount", "ceil", "confusion_matrix", "conj", "cos",
    "cosh", "count_nonzero", "cumprod", "cumsum", "cumulative_logsumexp", "digamma", "divide", "divide_no_nan",
    "equal", "erf", "erfc", "erfinv", "exp", "expm1", "floor", "floordiv", "floormod", "greater", "greater_equal",
    "igamma", "igammac", "imag", "in_top_k", "invert_permutation", "is_finite", "is_inf", "is_nan",
    "is_non_decreasing", "is_strictly_increasing", "l2_normalize", "lbeta", "less", "less_equal", "lgamma", "log",
    "log1p", "log_sigmoid", "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum",
    "minimum", "mod", "multiply", "multiply_no_nan", "ndtri", "negative", "not_equal", "polyval", "pow", "real",
    "reciprocal", "reciprocal_no_nan", "reduce_all", "reduce_any", "reduce_euclidean_norm", "reduce_logsumexp",
    "reduce_max", "reduce_mean", "reduce_min", "reduce_prod", "reduce_std", "reduce_sum", "reduce_variance", "rint",
    "round", "rsqrt", "scalar_mul", "segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum",
    "sigmoid", "sign", "sin", "sinh", "softmax", "softplus", "softsign", "sqrt", "square", "squared_difference",
    "subtract", "tan", "tanh", "top_k", "truediv", "unsorted_segment_max", "unsorted_segment_mean",
    "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n", "unsorted_segment_sum", "xdivy",
    "xlog1py", "xlogy", "zero_fraction"
]
