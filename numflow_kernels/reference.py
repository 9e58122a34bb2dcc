"""NumPy kernels for every op: the living spec that the other kernels are tested against.

Each is registered under the device type ``"reference"``; the CPU device runs them for op types
without a Numba kernel of their own. A kernel returns a fresh array, one of its inputs unchanged, or
a view of one (Reshape, ExpandDims, Squeeze); it never writes into an input. The nn ops' kernels are
in ``reference_nn.py``.
"""

import math

import numpy as np

from numflow_kernels import variant_ops
from numflow_kernels.errors import dims_text
from numflow_kernels.float_errors import quiet_call
from numflow_kernels.registry import REFERENCE, list_results, register


def kernel(op_type, **flags):
    return register(op_type, REFERENCE, **flags)


@kernel("Const")
def const(ctx):
    return ctx.attrs["value"]


@kernel("Placeholder")
def placeholder(ctx):
    dtype, shape = ctx.attrs["dtype"], ctx.attrs["shape"]
    shape_text = f" and shape {dims_text(shape)}" if shape else ""  # TensorFlow names no unknown or scalar shape
    raise ValueError(f"You must feed a value for placeholder tensor '{ctx.op_name}' with dtype {_tf_name(dtype)}"
                     f"{shape_text}")


def _tf_name(dtype):
    return {"float32": "float", "float64": "double", "object": "string"}.get(dtype.name, dtype.name)


@kernel("PlaceholderWithDefault")
@kernel("Identity")
def identity(ctx, x):
    return x


@kernel("NoOp")
@kernel("ControlTrigger")
def no_op(ctx):
    return ()


@kernel("Shape")
def shape(ctx, x):
    return np.array(x.shape if x.__class__ is np.ndarray else np.shape(x), dtype=ctx.attrs["out_type"])


def _elementwise(op_type, fn):
    ufunc = fn.fn if isinstance(fn, _Quiet) else fn
    if _RETURNS_ARRAYS and isinstance(ufunc, np.ufunc):
        kernel = _ufunc_kernel(ufunc, quiet=fn is not ufunc)
    elif op_type == "AddV2":
        # Strings stay object arrays: numpy would turn a 0-d result into a fixed-width bytes array.
        def kernel(ctx, *xs):
            return np.asarray(fn(*xs), dtype=object if xs[0].dtype == object else None)
    else:
        def kernel(ctx, *xs):
            return np.asarray(fn(*xs))
    register(op_type, REFERENCE)(kernel)


def _returns_arrays():
    """Whether ufuncs take ``out=...``, returning a 0-d array where they would return a scalar (numpy 2.3)."""
    try:
        return isinstance(np.negative(np.int8(1), out=...), np.ndarray)
    except TypeError:
        return False


_RETURNS_ARRAYS = _returns_arrays()


def _ufunc_kernel(ufunc, quiet):
    """The kernel of an op that is one ufunc: one call, the cheapest there is (a while loop's condition
    and counter are two such per iteration). ``quiet``: with floating-point warnings off."""
    if ufunc.nin == 2:
        def kernel(ctx, x, y):
            return ufunc(x, y, out=...)

        def quiet_kernel(ctx, x, y):
            if x.dtype.kind in "iub":
                return ufunc(x, y, out=...)
            return quiet_call(ufunc, x, y, out=...)
    else:
        def kernel(ctx, x):
            return ufunc(x, out=...)

        def quiet_kernel(ctx, x):
            if x.dtype.kind in "iub":
                return ufunc(x, out=...)
            return quiet_call(ufunc, x, out=...)

    chosen = quiet_kernel if quiet else kernel
    chosen.quiet_ufunc = ufunc  # what a run with float errors quiet may call in its place
    return chosen


def _is_int(x):
    return np.asarray(x).dtype.kind in "iu"


def _check_int_divisor(x, y):
    if _is_int(x) and not np.asarray(y).all():
        raise ValueError("Integer division by zero")


def _floordiv(x, y):
    _check_int_divisor(x, y)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.floor_divide(x, y)


def _floormod(x, y):
    _check_int_divisor(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.mod(x, y)


def _realdiv(x, y):
    if _is_int(x):
        # Integer RealDiv truncates toward zero, as C division does.
        _check_int_divisor(x, y)
        q = np.floor_divide(x, y)
        return q + ((np.mod(x, y) != 0) & ((x < 0) != (y < 0))).astype(q.dtype)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.true_divide(x, y).astype(np.result_type(x, y), copy=False)


def _div_no_nan(x, y):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(y == 0, np.zeros((), np.result_type(x, y)), np.true_divide(x, y)).astype(
            np.result_type(x, y), copy=False)


def _pow(x, y):
    if _is_int(x) and np.any(np.asarray(y) < 0):
        raise ValueError("Integers to negative integer powers are not allowed")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.power(x, y)


def _squared_difference(x, y):
    difference = np.subtract(x, y)
    if difference.dtype.kind == "c":  # |x - y|^2, as Eigen's squared difference of complex numbers
        return difference * np.conj(difference)
    return np.square(difference)


def _sigmoid(x):
    """``1 / (1 + exp(-x))`` over one fresh array: 5.7 us for an LSTM gate's 32 x 128 float32 slice, where
    a new array per operation took 8.7 us (the same operations, the same bits)."""
    out = np.exp(np.negative(x))
    out += 1
    return np.divide(1, out, out=out)


class _Quiet:
    """``fn`` with numpy's floating-point warnings off (integer arrays raise none: they skip the costly
    ``errstate``, which a loop's counter would otherwise pay on every iteration)."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *xs):
        if xs[0].dtype.kind in "iub":
            return self.fn(*xs)
        return quiet_call(self.fn, *xs)


_quiet = _Quiet


for _op_type, _fn in {
    "AddV2": _quiet(np.add), "Sub": _quiet(np.subtract), "Mul": _quiet(np.multiply), "RealDiv": _realdiv,
    "DivNoNan": _div_no_nan, "FloorDiv": _floordiv, "FloorMod": _floormod, "Pow": _pow, "Maximum": np.maximum,
    "Minimum": np.minimum,
    "SquaredDifference": _quiet(_squared_difference),
    "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater, "GreaterEqual": np.greater_equal,
    "Equal": np.equal, "NotEqual": np.not_equal, "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or,
    "Neg": np.negative, "Abs": np.abs, "Square": _quiet(np.square), "Sqrt": _quiet(np.sqrt),
    "Rsqrt": _quiet(lambda x: (1 / np.sqrt(x)).astype(x.dtype, copy=False)), "Exp": _quiet(np.exp),
    "Log": _quiet(np.log), "Log1p": _quiet(np.log1p), "Sign": np.sign, "Floor": np.floor, "Ceil": np.ceil,
    "Round": np.rint, "Reciprocal": _quiet(lambda x: (1 / x).astype(x.dtype, copy=False)), "Tanh": np.tanh,
    "Sigmoid": _quiet(_sigmoid), "Sin": _quiet(np.sin),
    "Cos": _quiet(np.cos), "LogicalNot": np.logical_not,
}.items():
    _elementwise(_op_type, _fn)


@kernel("Cast")
def cast(ctx, x):
    dst = ctx.attrs["DstT"]
    x = np.asarray(x)
    if x.dtype.kind == "c" and np.dtype(dst).kind != "c":
        x = x.real  # a complex value cast to a real type keeps its real part, as TensorFlow's
    with np.errstate(invalid="ignore", over="ignore"):
        return x.astype(dst)


def matmul_operands(ctx, a, b):
    """MatMul's inputs transposed as its attrs say, after TensorFlow's check of their sizes."""
    if ctx.attrs["transpose_a"]:
        a = a.T
    if ctx.attrs["transpose_b"]:
        b = b.T
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"Matrix size-incompatible: In[0]: {list(a.shape)}, In[1]: {list(b.shape)}")
    return a, b


@kernel("MatMul", calls_blas=True)
@kernel("SparseMatMul", calls_blas=True)  # a MatMul with hints that the operands hold many zeros
def matmul(ctx, a, b):
    a, b = matmul_operands(ctx, a, b)
    with np.errstate(invalid="ignore", over="ignore"):  # 0 * inf and overflows: NaN and inf, as in TF
        return np.matmul(a, b)


def reduction_axes(ctx, x, axes=None):
    """A reduction's axes of ``x`` (None: all), from its attr or its run-time input ``axes``, after
    TensorFlow's checks."""
    axis = ctx.attrs["axis"]
    if axes is not None:  # axes computed at run time: a second input
        axis = tuple(int(a) for a in np.ravel(axes))
        bad = [a for a in axis if not -max(x.ndim, 1) <= a < max(x.ndim, 1)]
        if bad:
            raise ValueError(f"Invalid reduction dimension ({bad[0]} for input with {x.ndim} dimension(s)")
        axis = tuple(a % max(x.ndim, 1) for a in axis)
    if axis is not None:
        seen = set()
        for a in axis:
            if a % max(x.ndim, 1) in seen:
                raise ValueError(f"Invalid reduction arguments: Axes contains duplicate dimension: {a % x.ndim}")
            seen.add(a % max(x.ndim, 1))
    return axis


def _reduction(op_type, fn):
    @kernel(op_type)
    def reduce(ctx, x, axes=None):
        axis = reduction_axes(ctx, x, axes)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = fn(x, axis=axis, keepdims=ctx.attrs["keep_dims"])
        return np.asarray(out, dtype=x.dtype)


def _mean(x, axis, keepdims):
    count = x.size if axis is None else math.prod(x.shape[a] for a in axis)
    if x.dtype.kind in "iu":
        # Summed in 64 bits, divided truncating toward zero, as TensorFlow's integer means are.
        wide = np.int64 if x.dtype.kind == "i" else np.uint64
        total = x.sum(axis=axis, keepdims=keepdims, dtype=wide)
        if count == 0:
            return np.zeros_like(total)
        q = total // count
        return q + ((total % count != 0) & (total < 0)).astype(q.dtype)
    # Floats are summed in their own dtype, as TensorFlow does (a float16 mean can overflow).
    return x.sum(axis=axis, keepdims=keepdims, dtype=x.dtype) / x.dtype.type(count)


def _extreme(fn, pick):
    def run(x, axis, keepdims):
        if x.size == 0:
            if np.issubdtype(x.dtype, np.floating):
                initial = pick(-np.inf, np.inf)
            else:
                initial = pick(np.iinfo(x.dtype).min, np.iinfo(x.dtype).max)
            return fn(x, axis=axis, keepdims=keepdims, initial=initial)
        return fn(x, axis=axis, keepdims=keepdims)

    return run


for _op_type, _fn in {"Sum": lambda x, axis, keepdims: x.sum(axis=axis, keepdims=keepdims, dtype=x.dtype),
                      "Mean": _mean, "Max": _extreme(np.max, lambda lo, hi: lo),
                      "Min": _extreme(np.min, lambda lo, hi: hi),
                      "Prod": lambda x, axis, keepdims: x.prod(axis=axis, keepdims=keepdims, dtype=x.dtype),
                      "All": np.all, "Any": np.any,
                      "EuclideanNorm": lambda x, axis, keepdims: np.sqrt(np.sum(np.square(x), axis=axis,
                                                                                keepdims=keepdims))}.items():
    _reduction(_op_type, _fn)


def _arg(op_type, fn):
    @kernel(op_type)
    def arg(ctx, x, axis):
        a = int(axis)
        if not -x.ndim <= a < max(x.ndim, 1):
            raise ValueError(f"Expected dimension in the range [{-x.ndim}, {x.ndim}), but got {a}")
        if x.shape[a] == 0:
            raise ValueError(f"Reduction axis {a} is empty in shape {list(x.shape)}")
        if x.dtype.kind == "f":
            x = _skip_nan(x, op_type)
        return fn(x, axis=a).astype(ctx.attrs["output_type"])


def _skip_nan(x, op_type):
    """``x`` with NaN (and values past the finite range) replaced by the lowest finite value for ArgMax,
    the highest for ArgMin. TensorFlow's reducers start from index 0 holding that value and take an
    element only when it compares strictly better, so NaN never wins and a row of NaN gives 0."""
    info = np.finfo(x.dtype)
    if op_type == "ArgMax":
        return np.where(np.isnan(x) | (x < info.min), info.min, x)
    return np.where(np.isnan(x) | (x > info.max), info.max, x)


_arg("ArgMax", np.argmax)
_arg("ArgMin", np.argmin)


@kernel("AddN")
def add_n(ctx, *inputs):
    if isinstance(inputs[0], variant_ops.TensorList):  # the gradients of a loop's TensorLists
        return variant_ops.add_lists(inputs)
    first = np.asarray(inputs[0])
    out = np.empty_like(first)
    if len(inputs) == 1:
        out[...] = first
        return out
    quiet_call(np.add, first, inputs[1], out=out)  # then each next one added in, in their order
    for x in inputs[2:]:
        quiet_call(np.add, out, x, out=out)
    return out


@kernel("BatchMatMulV2", calls_blas=True)
def batch_matmul(ctx, a, b):
    if ctx.attrs["adj_x"]:
        a = np.swapaxes(np.conj(a) if a.dtype.kind == "c" else a, -1, -2)
    if ctx.attrs["adj_y"]:
        b = np.swapaxes(np.conj(b) if b.dtype.kind == "c" else b, -1, -2)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"Matrix size-incompatible: In[0]: {list(a.shape)}, In[1]: {list(b.shape)}")
    try:
        return np.matmul(a, b)
    except ValueError:
        raise ValueError(f"In[0] and In[1] must have compatible batch dimensions: {list(a.shape)} vs. "
                         f"{list(b.shape)}") from None


@kernel("Range")
def range_(ctx, start, limit, delta):
    start, limit, delta = start[()], limit[()], delta[()]
    if delta == 0:
        raise ValueError("Requires delta != 0")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        relation, sign = ("<=", ">") if delta > 0 else (">=", "<")
        raise ValueError(f"Requires start {relation} limit when delta {sign} 0: {start}/{limit}")
    if np.issubdtype(start.dtype, np.integer):
        n = (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
    else:
        n = int(np.ceil(np.abs((limit - start) / delta)))
    # start + i * delta in the output dtype, as TensorFlow computes each element (not a running sum).
    return (start + np.arange(n, dtype=start.dtype) * delta).astype(start.dtype, copy=False)


# -- array ops ----------------------------------------------------------------------------------
def _invalid(message):
    return ValueError(message)


@kernel("StopGradient")
@kernel("PreventGradient")
def stop_gradient(ctx, x):
    return x


@kernel("ZerosLike")
def zeros_like(ctx, x):
    if x.__class__ is np.ndarray:  # np.zeros_like's wrapper costs five times the zeros of a small array
        return np.zeros(x.shape, x.dtype)
    if isinstance(x, variant_ops.VARIANTS):  # a gradient's zeros for an optional or a TensorList
        return variant_ops.zeros_like(x)
    return np.zeros_like(x)


@kernel("Rank")
def rank(ctx, x):
    return np.array(np.ndim(x), dtype=np.int32)


@kernel("Fill")
def fill(ctx, dims, value):
    for d in dims.tolist():
        if d < 0:
            raise _invalid(f"Dimension {d} must be >= 0")
    return np.full(dims.tolist(), value, dtype=np.asarray(value).dtype)


@kernel("Reshape")
def reshape(ctx, x, shape):
    dims = shape.tolist()
    unknown = [i for i, d in enumerate(dims) if d == -1]
    if len(unknown) > 1:
        raise _invalid(f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}")
    for i, d in enumerate(dims):
        if d < -1:
            raise _invalid(f"Size {i} must be non-negative, not {d}")
    known = math.prod(d for d in dims if d != -1)
    if unknown and known == 0 and x.size == 0:
        # An empty input: the -1 dimension takes the input's non-zero sizes, as TensorFlow does.
        nonzero_in = math.prod(d for d in x.shape if d)
        nonzero_out = math.prod(d for d in dims if d not in (0, -1))
        dims[unknown[0]] = nonzero_in // nonzero_out if nonzero_in % nonzero_out == 0 else 0
    elif unknown:
        if known == 0 or x.size % known:
            raise _invalid(
                f"Input to reshape is a tensor with {x.size} values, but the requested shape requires "
                f"a multiple of {known}"
            )
        dims[unknown[0]] = x.size // known
    elif known != x.size:
        raise _invalid(
            f"Input to reshape is a tensor with {x.size} values, but the requested shape has {known}"
        )
    return x.reshape(dims)


@kernel("Transpose")
def transpose(ctx, x, perm):
    perm = perm.tolist()
    if len(perm) != x.ndim:
        raise _invalid(f"transpose expects a vector of size {x.ndim}. But input(1) is a vector of size {len(perm)}")
    axes = [p + x.ndim if p < 0 else p for p in perm]
    for d in range(x.ndim):
        if d not in axes:
            raise _invalid(f"{d} is missing from {{{','.join(str(p) for p in perm)}}}.")
    return np.transpose(x, axes).copy()


@kernel("InvertPermutation")
def invert_permutation(ctx, x):
    if x.ndim != 1:
        raise _invalid(f"invert_permutation expects a 1D vector. (node {ctx.op_name})")
    inverse = np.full(x.shape, -1, x.dtype)
    for i, d in enumerate(x.tolist()):
        if not 0 <= d < x.size:
            raise _invalid(f"{d} is not between 0 and {x.size}")
        if inverse[d] != -1:
            raise _invalid(f"{d} is duplicated in the input.")
        inverse[d] = i
    return inverse


@kernel("ExpandDims")
def expand_dims(ctx, x, dim):
    d = int(dim.reshape(-1)[0])
    if not -x.ndim - 1 <= d <= x.ndim:
        raise _invalid(f"Tried to expand dim index {d} for tensor with {x.ndim} dimensions.")
    d %= x.ndim + 1
    return x.reshape(x.shape[:d] + (1,) + x.shape[d:])


@kernel("Squeeze")
def squeeze(ctx, x):
    axes = ctx.attrs["squeeze_dims"]
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise _invalid(f"Tried to squeeze dim index {a} for tensor with {x.ndim} dimensions.")
        if x.shape[a] != 1:
            raise _invalid(f"Can not squeeze dim[{a % x.ndim}], expected a dimension of 1, got {x.shape[a]}")
    return np.squeeze(x, axis=tuple(axes)) if axes else np.squeeze(x)


@kernel("ConcatV2")
def concat(ctx, *inputs):
    values, axis = inputs[:-1], int(inputs[-1])
    try:
        return np.concatenate(values, axis=axis)
    except (ValueError, IndexError, TypeError):
        _check_concat(values, axis)  # numpy refuses what TensorFlow does: TensorFlow's message
        raise


def _check_concat(values, axis):
    first = np.shape(values[0])
    rank = len(first)
    if not -rank <= axis < rank:
        raise _invalid(
            f"ConcatOp : Expected concatenating dimensions in the range [{-rank}, {rank}), but got {axis}"
        )
    axis %= rank
    for i, v in enumerate(values[1:], 1):
        shape = np.shape(v)
        if len(shape) != rank:
            raise _invalid(
                f"ConcatOp : Ranks of all input tensors should match: shape[0] = {dims_text(first)} vs. "
                f"shape[{i}] = {dims_text(shape)}"
            )
        for d in range(rank):
            if d != axis and shape[d] != first[d]:
                raise _invalid(
                    f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = {dims_text(first)} vs. "
                    f"shape[{i}] = {dims_text(shape)}"
                )


@kernel("Pack")
def pack(ctx, *values):
    first = np.shape(values[0])
    for i, v in enumerate(values[1:], 1):
        if np.shape(v) != first:
            raise _invalid(
                f"Shapes of all inputs must match: values[0].shape = {dims_text(first)} != "
                f"values[{i}].shape = {dims_text(np.shape(v))}"
            )
    return np.stack(values, axis=ctx.attrs["axis"])


@kernel("Unpack")
def unpack(ctx, x):
    num, axis = ctx.attrs["num"], ctx.attrs["axis"] % max(x.ndim, 1)
    if x.shape[axis] != num:
        raise _invalid(f"Input shape axis {axis} must equal {num}, got shape {dims_text(x.shape)}")
    parts = tuple(np.take(x, i, axis=axis) for i in range(num))
    return list_results(parts)


@kernel("StridedSlice")
def strided_slice(ctx, x, begin, end, strides):
    return np.array(x[cached_strided_slice_key(x, begin, end, strides, ctx.attrs)])


_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
_slice_keys = {}  # (shape, begin, end, strides, masks) -> index: a loop body slices alike every iteration
_MAX_SLICE_KEYS = 256


def cached_strided_slice_key(x, begin, end, strides, a):
    """``strided_slice_key``, computed once per shape, bounds and masks."""
    try:
        cache_key = (x.shape, begin.tobytes(), end.tobytes(), strides.tobytes(), begin.dtype.char,
                     *(a[m] for m in _MASKS))
    except AttributeError:  # bounds given as lists
        return strided_slice_key(x, begin, end, strides, a)
    key = _slice_keys.get(cache_key)
    if key is None:
        key = strided_slice_key(x, begin, end, strides, a)
        if len(_slice_keys) >= _MAX_SLICE_KEYS:
            _slice_keys.clear()
        _slice_keys[cache_key] = key
    return key


def strided_slice_key(x, begin, end, strides, a):
    """The numpy index ``StridedSlice`` with these inputs and masks (attrs ``a``) applies to ``x``,
    after TensorFlow's checks."""
    count = len(begin)
    kinds = []
    for i in range(count):
        bit = 1 << i
        kinds.append("..." if a["ellipsis_mask"] & bit else "new" if a["new_axis_mask"] & bit
                     else "index" if a["shrink_axis_mask"] & bit else "slice")
    real = [k in ("index", "slice") for k in kinds]
    if kinds.count("...") > 1:
        raise _invalid("Multiple ellipses in slice spec not allowed")
    if sum(real) > x.ndim:
        raise _invalid("Attempting to slice scalar input." if x.ndim == 0 else
                       f"Index out of range using input dim {x.ndim}; input has only {x.ndim} dims")
    split = kinds.index("...") if "..." in kinds else count
    key = []
    for i, kind in enumerate(kinds):
        if kind == "...":
            key.append(Ellipsis)
        elif kind == "new":
            key.append(None)
        elif strides[i] == 0:
            raise _invalid(f"strides[{i}] must be non-zero")
        elif kind == "index":
            dim = sum(real[:i]) if i < split else x.ndim - sum(real[i:])
            b, size = int(begin[i]), x.shape[dim]
            if not -size <= b < size:
                raise _invalid(f"slice index {b + size if b < 0 else b} of dimension {dim} out of bounds.")
            key.append(b)
        else:
            b = None if a["begin_mask"] >> i & 1 else int(begin[i])
            e = None if a["end_mask"] >> i & 1 else int(end[i])
            key.append(slice(b, e, int(strides[i])))
    return tuple(key)



def _first_bad(bad, values):
    """``"[i,j] = v"`` for the first element of ``values`` that ``bad`` marks (``" = v"`` for a scalar)."""
    where = tuple(int(i) for i in np.argwhere(bad)[0])
    return f"{dims_text(where) if where else ''} = {values[where]}"


@kernel("Tile")
def tile(ctx, x, multiples):
    times = multiples.tolist()
    if multiples.ndim != 1 or len(times) != x.ndim:
        raise _invalid(f"Expected multiples argument to be a vector of length {x.ndim} but got length "
                       f"{multiples.size}")
    for i, m in enumerate(times):
        if m < 0:
            raise _invalid(f"Expected multiples[{i}] >= 0, but got {m}")
    grown = [i for i, m in enumerate(times) if m != 1]
    if len(grown) == 1 and x.shape[grown[0]] == 1:  # a mask's column spread over units: np.tile's result, faster
        return np.repeat(x, times[grown[0]], axis=grown[0])
    return np.tile(x, times)


@kernel("Slice")
def slice_(ctx, x, begin, size):
    if begin.ndim != 1 or size.ndim != 1 or begin.size != x.ndim or size.size != x.ndim:
        raise _invalid(f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, but got shapes "
                       f"{dims_text(begin.shape)} and {dims_text(size.shape)} instead.")
    key = []
    for i, (b, s, n) in enumerate(zip(begin.tolist(), size.tolist(), x.shape)):
        if s == -1:
            s = n - b
        if n == 0:
            if b != 0 or s != 0:
                raise _invalid(f"Expected begin[{i}] == 0 (got {b}) and size[{i}] == 0 (got {s}) when "
                               f"input.dim_size({i}) == 0")
        elif not 0 <= b <= n:
            raise _invalid(f"Expected begin[{i}] in [0, {n}], but got {b}")
        elif not 0 <= s <= n - b:
            raise _invalid(f"Expected size[{i}] in [0, {n - b}], but got {s}")
        key.append(slice(b, b + s))
    return np.array(x[tuple(key)])


def _paddings(shape, paddings, mirror=False):
    """``paddings`` of an input of ``shape`` as ``[(before, after), ...]``, after TensorFlow's checks, which
    word Pad's and MirrorPad's messages slightly differently."""
    sep, word = (", ", "paddings") if mirror else (" ", "Paddings")
    if paddings.ndim != 2 or paddings.shape[1] != 2:
        raise _invalid(f"paddings must be a matrix with 2 columns: {dims_text(paddings.shape)}")
    if paddings.shape[0] != len(shape):
        raise _invalid(f"The first dimension of paddings must be the rank of inputs{dims_text(paddings.shape)}{sep}"
                       f"{dims_text(shape)}")
    pairs = [tuple(p) for p in paddings.tolist()]
    for before, after in pairs:
        if before < 0 or after < 0:
            raise _invalid(f"{word} must be non-negative: {before} {after}")
    return pairs


@kernel("Pad")
def pad(ctx, x, paddings):
    return np.pad(x, _paddings(x.shape, paddings))


@kernel("PadV2")
def pad_v2(ctx, x, paddings, constant_values):
    if constant_values.ndim != 0:
        raise _invalid(f"constant_values must be a scalar. Found: {dims_text(constant_values.shape)}")
    return np.pad(x, _paddings(x.shape, paddings), constant_values=constant_values[()])


def _mirror_paddings(shape, paddings, mode):
    pairs = _paddings(shape, paddings, mirror=True)
    for (before, after), n in zip(pairs, shape):
        if mode == "SYMMETRIC" and (before > n or after > n):
            raise _invalid(f"paddings must be no greater than the dimension size: {before}, {after} greater than {n}")
        if mode == "REFLECT" and (before >= n or after >= n):
            raise _invalid(f"paddings must be less than the dimension size: {before}, {after} not less than {n}")
    return pairs


@kernel("MirrorPad")
def mirror_pad(ctx, x, paddings):
    mode = ctx.attrs["mode"]
    return np.pad(x, _mirror_paddings(x.shape, paddings, mode), mode=mode.lower())


@kernel("MirrorPadGrad")
def mirror_pad_grad(ctx, grad, paddings):
    """The gradient of MirrorPad: each padded element's gradient added to the element it mirrors."""
    mode = ctx.attrs["mode"]
    pairs = _paddings(grad.shape, paddings, mirror=True)
    shape = [n - before - after for n, (before, after) in zip(grad.shape, pairs)]
    _mirror_paddings(shape, paddings, mode)
    edge = 1 if mode == "REFLECT" else 0
    out = grad
    for axis, ((before, after), n) in enumerate(zip(pairs, shape)):
        moved = np.moveaxis(out, axis, 0)
        core = np.array(moved[before:before + n])
        core[edge:edge + before] += moved[:before][::-1]
        core[n - edge - after:n - edge] += moved[before + n:][::-1]
        out = np.moveaxis(core, 0, axis)
    return np.ascontiguousarray(out)


@kernel("GatherV2")
def gather(ctx, params, indices, axis):
    if params.ndim == 0:
        raise _invalid("params must be at least 1 dimensional")
    a = int(axis)
    if not -params.ndim <= a < params.ndim:
        raise _invalid(f"Shape must be at least rank {a + 1 if a >= 0 else -a} but is rank {params.ndim}")
    a %= params.ndim
    size = params.shape[a]
    bad = (indices < 0) | (indices >= size)
    if bad.any():
        raise _invalid(f"indices{_first_bad(bad, indices)} is not in [0, {size})")
    b = ctx.attrs.get("batch_dims", 0)
    b = b + indices.ndim if b < 0 else b
    if b == 0:
        return np.take(params, indices, axis=a)
    if params.shape[:b] != indices.shape[:b]:
        raise _invalid(f"params.shape[:{b}] {dims_text(params.shape[:b])} and indices.shape[:{b}] "
                       f"{dims_text(indices.shape[:b])} must be equal (batch_dims = {b})")
    return _batch_take(params, indices, a, b)


def _batch_take(params, indices, axis, batch_dims):
    """``np.take`` along ``axis`` of each batch element (the first ``batch_dims`` dimensions) at its indices."""
    batch = int(np.prod(params.shape[:batch_dims]))
    moved = np.moveaxis(params.reshape(batch, *params.shape[batch_dims:]), 1 + axis - batch_dims, 1)
    flat = indices.reshape(batch, *indices.shape[batch_dims:])
    picked = moved[np.arange(batch).reshape(batch, *[1] * (flat.ndim - 1)), flat]  # [B, I..., mid..., rest...]
    n_index, n_mid = flat.ndim - 1, axis - batch_dims
    order = [0, *range(1 + n_index, 1 + n_index + n_mid), *range(1, 1 + n_index), *range(1 + n_index + n_mid,
                                                                                     picked.ndim)]
    shape = params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]
    return np.ascontiguousarray(picked.transpose(order)).reshape(shape)


@kernel("Where")
def where(ctx, x):
    if x.ndim == 0:
        raise _invalid("WhereOp : Unhandled input dimensions: 0")
    return np.argwhere(x).astype(np.int64)


def _same_size(then, else_):
    if then.shape != else_.shape:
        raise _invalid(f"'then' and 'else' must have the same size.  but received: {dims_text(then.shape)} vs. "
                       f"{dims_text(else_.shape)}")


@kernel("Select")
def select(ctx, condition, then, else_):
    if condition.ndim == 0:
        _same_size(then, else_)
        return then if condition else else_
    if condition.ndim == 1 and then.ndim != 1:
        if then.ndim == 0:
            raise _invalid("'then' must be at least a vector, but saw shape: []")
        if then.shape[0] != condition.size:
            raise _invalid(f"Number of batches of 'then' must match size of 'cond', but saw: {then.shape[0]} vs. "
                           f"{condition.size}")
        _same_size(then, else_)
        return np.where(condition.reshape((-1,) + (1,) * (then.ndim - 1)), then, else_)
    for i, value in ((1, then), (2, else_)):
        if value.shape != condition.shape:
            raise _invalid(f"Inputs to operation {ctx.op_name} of type Select must have the same size and shape.  "
                           f"Input 0: {dims_text(condition.shape)} != input {i}: {dims_text(value.shape)}")
    return np.where(condition, then, else_)


@kernel("SelectV2")
def select_v2(ctx, condition, then, else_):
    try:
        return np.where(condition, then, else_)
    except ValueError:  # shapes numpy cannot broadcast: it checks them as TensorFlow does
        raise _invalid(f"condition {dims_text(condition.shape)}, then {dims_text(then.shape)}, and else "
                       f"{dims_text(else_.shape)} must be broadcastable") from None


@kernel("OneHot")
def one_hot(ctx, indices, depth, on_value, off_value):
    d = int(depth)
    if d < 0:
        raise _invalid(f"depth must be non-negative, got: {d}")
    axis = ctx.attrs["axis"]
    if not -1 <= axis <= indices.ndim:
        raise _invalid(f"Expected axis to be -1 or between [0, {indices.ndim + 1}). But received: {axis}")
    out = np.where(indices[..., None] == np.arange(d), on_value, off_value).astype(on_value.dtype, copy=False)
    return out if axis == -1 else np.ascontiguousarray(np.moveaxis(out, -1, axis))


def _split_axis(x, axis):
    a = int(axis)
    if not -x.ndim <= a < x.ndim:
        raise _invalid(f"-input rank(-{x.ndim}) <= split_dim < input rank ({x.ndim}), but got {a}")
    return a % x.ndim


@kernel("Split")
def split(ctx, axis, x):
    num = ctx.attrs["num_split"]
    if num == 1:
        return x
    a = _split_axis(x, axis)
    if x.shape[a] % num:
        raise _invalid(f"Number of ways to split should evenly divide the split dimension, but got split_dim {a} "
                       f"(size = {x.shape[a]}) and num_split {num}")
    size = x.shape[a] // num
    before = (slice(None),) * a  # views, as np.split makes, without its several microseconds of Python
    return tuple(x[(*before, slice(i * size, (i + 1) * size))] for i in range(num))


@kernel("SplitV")
def split_v(ctx, x, size_splits, axis):
    num = ctx.attrs["num_split"]
    if size_splits.ndim != 1 or size_splits.size != num:
        raise _invalid(f"size of the split_tensor must be 1-D and have the same elements as outputs got "
                       f"{size_splits.ndim} -D and {size_splits.size} elements")
    a = _split_axis(x, axis)
    if num == 1:
        return x
    sizes = size_splits.tolist()
    if sizes.count(-1) > 1:
        raise _invalid("There can only be one -1 in the input.")
    determined = sum(s for s in sizes if s != -1)
    n = x.shape[a]
    if determined > n or (-1 not in sizes and determined != n):
        raise _invalid("Determined shape must either match input shape along split_dim exactly if fully specified, "
                       "or be less than the size of the input along split_dim if not fully specified.  Got: "
                       f"{determined}")
    if -1 in sizes:
        sizes[sizes.index(-1)] = n - determined
    for i, s in enumerate(sizes):
        if s < 0:
            raise _invalid(f"Split size at index {i} must be >= 0. Got: {s}")
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=a))


# The nn ops' kernels (softmax, losses, convolutions, pooling) live beside this module.
from numflow_kernels import (  # noqa: E402, F401  (registration by import)
    control_flow,
    lookup_tables,
    reference_activation,
    reference_array_more,
    reference_arrays,
    reference_complex,
    reference_conv,
    reference_counting,
    reference_crop_sampling,
    reference_decode,
    reference_draw,
    reference_fft,
    reference_files,
    reference_fractional_pool,
    reference_image,
    reference_image_codecs,
    reference_linalg,
    reference_linalg_more,
    reference_logging,
    reference_math,
    reference_morphology,
    reference_nms,
    reference_nn,
    reference_norm,
    reference_partition,
    reference_patches,
    reference_pool,
    reference_sampling,
    reference_script,
    reference_sets,
    reference_sparse,
    reference_sparse_cross,
    reference_sparse_math,
    reference_sparse_struct,
    reference_special,
    reference_stateless,
    reference_strings,
    reference_topk,
    stack,
    tensor_array,
)
