"""Kernels of the checks, printing and string ops: ``Assert``, ``CheckNumerics``, ``Print``, ``StringFormat``,
``PrintV2``, ``AsString``, ``StringJoin`` and ``StringLength``; and ``Timestamp``.

Tensors print as TensorFlow's ``Tensor::SummarizeValue`` prints them (``tensor.cc``): floats in the
shortest of C's ``%.6g``/``%.9g`` (``%.15g``/``%.17g`` for doubles) that reads back to the same value,
bools as 1/0, strings C-escaped (and quoted in ``tf.print``'s format). ``Assert`` and ``tf.Print`` use
the first ``summarize`` elements in order, nested dimensions in brackets (``[[1 2][3...]...]``);
``tf.print`` shows ``summarize`` elements at each end of every dimension, as numpy does.
"""

import itertools
import logging
import sys
import threading
import time

import numpy as np

from numflow_kernels.reference_math import dims_text, kernel


def _float_text(value, dtype):
    short, long = (15, 17) if dtype == np.float64 else (6, 9)
    value = float(value)
    if not np.isfinite(value):
        return "nan" if np.isnan(value) else ("inf" if value > 0 else "-inf")
    text = f"{value:.{short}g}"
    as_stored = np.float64(text) if dtype == np.float64 else np.float32(text)
    return text if as_stored == np.asarray(value, dtype if dtype == np.float64 else np.float32) else f"{value:.{long}g}"


def c_escape(raw):
    """``raw`` (bytes or str) with C's escapes, as TensorFlow's ``absl::CEscape`` writes them."""
    data = raw.encode() if isinstance(raw, str) else bytes(raw)
    special = {10: "\\n", 13: "\\r", 9: "\\t", 34: '\\"', 39: "\\'", 92: "\\\\"}
    return "".join(special.get(b) or (chr(b) if 32 <= b < 127 else f"\\{b:03o}") for b in data)


def _element(value, dtype, v2):
    if dtype.kind == "f":
        return _float_text(value, dtype)
    if dtype.kind == "b":
        return "1" if value else "0"
    if dtype.kind == "O":
        text = c_escape(value)
        return f'"{text}"' if v2 else text
    return str(int(value))


def summarize(array, limit, v2=False):
    """``array`` as TensorFlow's ``SummarizeValue(limit, print_v2)`` writes it (all elements when limit < 0)."""
    array = np.asarray(array)
    flat = array.reshape(-1)
    limit = flat.size if limit < 0 else limit
    if array.ndim == 0:
        return _element(flat[0], array.dtype, v2) if limit else ""
    if v2:
        return _dims_v2(array, limit)
    out = []
    _dims_v1(array.shape, 0, min(limit, flat.size), flat, [0], out)
    return "".join(out) + ("..." if flat.size > limit else "")


def _dims_v1(shape, dim, limit, flat, index, out):
    """TensorFlow's ``PrintOneDim``: the first ``limit`` elements, each dimension in brackets."""
    if index[0] >= limit:
        return
    if dim == len(shape) - 1:
        for i in range(shape[dim]):
            if index[0] >= limit:
                if dim != 0:
                    out.append("...")
                return
            if i > 0:
                out.append(" ")
            out.append(_element(flat[index[0]], flat.dtype, False))
            index[0] += 1
        return
    for _ in range(shape[dim]):
        opened = index[0] < limit
        if opened:
            out.append("[")
        _dims_v1(shape, dim + 1, limit, flat, index, out)
        if index[0] < limit or opened:
            out.append("]")


def _dims_v2(array, edge):
    """TensorFlow's ``PrintOneDimV2``: ``edge`` entries at each end of every dimension, numpy's spacing."""
    ndim = array.ndim

    def spacing(dim):
        return " " if dim == ndim - 1 else "\n" * (ndim - dim - 1) + " " * (dim + 1)

    def dim_text(sub, dim):
        if dim == ndim:
            return _element(sub, array.dtype, True)
        count = sub.shape[0]
        head = [dim_text(sub[i], dim + 1) for i in range(min(edge, count))]
        tail = [dim_text(sub[i], dim + 1) for i in range(max(edge, count - edge), count)]
        middle = ["..."] if count > 2 * edge else []
        return "[" + spacing(dim).join(head + middle + tail) + "]"

    return dim_text(array, 0)


# -- checks ------------------------------------------------------------------------------------------------
@kernel("Assert")
def assert_(ctx, condition, *data):
    if condition.ndim != 0:
        raise ValueError(f"In[0] should be a scalar: {dims_text(condition.shape)}")
    if not condition.reshape(()):
        texts = " ".join(f"[{summarize(d, ctx.attrs['summarize'])}]" for d in data)
        raise ValueError(f"assertion failed: {texts}")
    return ()


@kernel("CheckNumerics")
def check_numerics(ctx, x):
    nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
    if nan or inf:
        found = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise ValueError(f"{ctx.attrs['message']} : Tensor had {found} values")
    return x


# -- printing ----------------------------------------------------------------------------------------------
class _Count:
    """How many times one Print op has printed in one session."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counter = itertools.count()


def _write(stream, text):
    stream.write(text)
    stream.flush()


@kernel("Print")
def print_(ctx, x, *data):
    a = ctx.attrs
    if a["first_n"] >= 0:
        count = ctx.resources.get_or_create(("print", ctx.op_name), _Count)
        with count.lock:
            if next(count.counter) >= a["first_n"]:
                return x
    _write(sys.stderr, a["message"] + "".join(f"[{summarize(d, a['summarize'])}]" for d in data) + "\n")
    return x


@kernel("StringFormat")
def string_format(ctx, *tensors):
    a = ctx.attrs
    parts = a["template"].split(a["placeholder"])
    if len(parts) - 1 != len(tensors):
        raise ValueError(f"num placeholders in template and num inputs must match: {len(parts) - 1} vs. "
                         f"{len(tensors)}")
    texts = [summarize(t, a["summarize"], v2=True) for t in tensors] + [""]
    return np.array("".join(p + t for p, t in zip(parts, texts)).encode(), dtype=object)


_LOG_LEVELS = {"log(info)": logging.INFO, "log(warning)": logging.WARNING, "log(error)": logging.ERROR}


@kernel("PrintV2")
def print_v2(ctx, text):
    stream, end = ctx.attrs["output_stream"], ctx.attrs["end"]
    message = text.reshape(()).item().decode(errors="replace")
    if stream == "stderr":
        _write(sys.stderr, message + end)
    elif stream == "stdout":
        _write(sys.stdout, message + end)
    elif stream in _LOG_LEVELS:
        logging.getLogger("tensorflow").log(_LOG_LEVELS[stream], message)
    elif stream.startswith("file://"):
        with open(stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(message + end)
    else:
        raise ValueError(f"Unsupported output stream: {stream}")
    return ()


# -- strings -----------------------------------------------------------------------------------------------
@kernel("AsString")
def as_string(ctx, x):
    a = ctx.attrs
    width = f"{a['fill'] if a['fill'] == '0' else ''}{a['width']}" if a["width"] > -1 else ""
    if x.dtype.kind == "b":
        values = ["true" if v else "false" for v in x.reshape(-1)]
        values = [f"{v:>{a['width']}}" if width else v for v in values]
    elif x.dtype.kind == "f":
        spec = "e" if a["scientific"] else "g" if a["shortest"] else "f"
        precision = f".{a['precision']}" if a["precision"] > -1 else ""
        values = [f"%{width}{precision}{spec}" % float(v) for v in x.reshape(-1)]  # C's printf, nan and inf too
    else:
        values = [f"%{width}d" % int(v) for v in x.reshape(-1)]
    return np.array([v.encode() for v in values], dtype=object).reshape(x.shape)


@kernel("StringJoin")
def string_join(ctx, *inputs):
    shapes = [np.shape(t) for t in inputs if np.ndim(t)]
    for s in shapes[1:]:
        if s != shapes[0]:
            raise ValueError(f"Input shapes do not match: {dims_text(shapes[0])} vs. {dims_text(s)}")
    shape = shapes[0] if shapes else ()
    sep = ctx.attrs["separator"].encode()
    columns = [np.broadcast_to(np.asarray(t, dtype=object), shape).reshape(-1) for t in inputs]
    joined = [sep.join(parts) for parts in zip(*columns)] if columns else []
    return np.array(joined, dtype=object).reshape(shape)


@kernel("StringLength")
def string_length(ctx, x):
    utf8 = ctx.attrs["unit"] == "UTF8_CHAR"
    lengths = [len(s.decode("utf-8", errors="replace")) if utf8 else len(s) for s in np.asarray(x).reshape(-1)]
    return np.array(lengths, dtype=np.int32).reshape(np.shape(x))


@kernel("Timestamp")
def timestamp(ctx):
    return np.float64(time.time())
