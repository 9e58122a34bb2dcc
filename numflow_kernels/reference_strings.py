"""Kernels of the string-mapping ops: ``StringToNumber``, ``StringToHashBucketFast``/``Strong``,
``StringLower``/``Upper``/``Strip``, ``StaticRegexReplace``/``RegexReplace``, ``StaticRegexFullMatch``/
``RegexFullMatch``, ``Substr`` and ``ReduceJoin``.

Spec: TensorFlow's ``string_to_number_op.cc`` (``safe_strto*``: whole strings, ASCII whitespace around,
``0x`` hex for floats only), ``string_to_hash_bucket_op.cc``, ``regex_replace_op.cc`` (RE2, UTF-8 text),
``substr_op.cc`` and ``reduce_join_op.cc``. RE2 patterns run on Python's ``re`` over the UTF-8 text with ASCII classes;
the constructs whose meaning differs are refused by name rather than run with another meaning.
"""

import functools
import re

import numpy as np

from numflow_kernels.reference_math import kernel
from numflow_kernels.string_hash import fingerprint64, hash64, siphash24

_WHITESPACE = b" \t\n\v\f\r"
_INT_RANGES = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1), "uint32": (0, 2**32 - 1),
               "uint64": (0, 2**64 - 1)}
_INTEGER = re.compile(rb"[+-]?[0-9]+")
_FLOAT = re.compile(rb"[+-]?(?:0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
                    re.IGNORECASE)


def _elements(x):
    return np.asarray(x, dtype=object).reshape(-1)


def _map_strings(x, fn, dtype=object):
    return np.array([fn(bytes(s)) for s in _elements(x)], dtype=dtype).reshape(np.shape(x))


def _parse_number(text, dtype):
    body = text.strip(_WHITESPACE)
    if dtype.kind == "f":
        if not _FLOAT.fullmatch(body):
            return None
        sign, digits = (-1, body[1:]) if body[:1] == b"-" else (1, body.lstrip(b"+"))
        return sign * int(digits, 16) if digits[:2].lower() == b"0x" else float(body)
    if not _INTEGER.fullmatch(body):
        return None
    value = int(body)
    low, high = _INT_RANGES[dtype.name]
    return value if low <= value <= high else None


@kernel("StringToNumber")
def string_to_number(ctx, x):
    dtype = np.dtype(ctx.attrs["out_type"])

    def parse(text):
        value = _parse_number(text, dtype)
        if value is None:
            raise ValueError(f"StringToNumberOp could not correctly convert string: {text.decode('latin-1')}")
        return value

    with np.errstate(over="ignore"):
        return _map_strings(x, parse).astype(dtype)


@kernel("StringToHashBucketFast")
def string_to_hash_bucket_fast(ctx, x):
    buckets = ctx.attrs["num_buckets"]
    return _map_strings(x, lambda s: fingerprint64(s) % buckets, np.int64)


@kernel("StringToHashBucket")
def string_to_hash_bucket(ctx, x):
    buckets = ctx.attrs["num_buckets"]
    return _map_strings(x, lambda s: hash64(s) % buckets, np.int64)


@kernel("StringToHashBucketStrong")
def string_to_hash_bucket_strong(ctx, x):
    key = ctx.attrs["key"]
    if len(key) != 2:
        raise ValueError("Key must have 2 elements")
    key0, key1 = (k & (2**64 - 1) for k in key)
    buckets = ctx.attrs["num_buckets"]
    return _map_strings(x, lambda s: siphash24(key0, key1, s) % buckets, np.int64)


def _case_map(ctx, method):
    encoding = ctx.attrs["encoding"]
    if encoding not in ("", "utf-8"):
        raise ValueError(f"only utf-8 or '' (no encoding) is supported, received {encoding}")
    return _utf8_case(method) if encoding else getattr(bytes, method)


def _utf8_case(method):
    return lambda s: getattr(s.decode("utf-8", errors="surrogateescape"), method)().encode(
        "utf-8", errors="surrogateescape")


@kernel("StringLower")
def string_lower(ctx, x):
    return _map_strings(x, _case_map(ctx, "lower"))


@kernel("StringUpper")
def string_upper(ctx, x):
    return _map_strings(x, _case_map(ctx, "upper"))


@kernel("StringStrip")
def string_strip(ctx, x):
    return _map_strings(x, lambda s: s.strip(_WHITESPACE))


# -- RE2 patterns on Python's re -----------------------------------------------------------------------------
_REFUSED = [
    (re.compile(r"\(\?<?[=!]"), "lookaround assertions"),
    (re.compile(r"\\[1-9]"), "backreferences"),
    (re.compile(r"\(\?P="), "named backreferences"),
    (re.compile(r"\\[pPQECZ]"), "\\p, \\P, \\Q...\\E, \\C and \\Z"),
    (re.compile(r"\(\?[>|]|[*+?}][+]"), "atomic groups and possessive repeats"),
]
_SCAN = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]|\$|[^\\\[$]+|.", re.DOTALL)


@functools.lru_cache(maxsize=64)
def compile_re2(pattern):
    """``pattern`` (RE2 syntax, text) as a compiled Python ``re`` of the same meaning over UTF-8 text.

    Unescaped ``$`` outside classes becomes ``\\Z`` unless the pattern turns multi-line mode on, since
    RE2's ``$`` never matches before a final newline; RE2's ``\\z`` is Python's ``\\Z``. Raises ValueError
    for a construct that RE2 rejects or reads differently, and for a pattern that does not parse."""
    for finder, what in _REFUSED:
        if finder.search(re.sub(r"\\\\", "", pattern)):
            raise ValueError(f"Invalid pattern: {pattern}, error: {what} have no RE2 meaning that numflow runs")
    ends = {"\\z", "$"} if not re.search(r"\(\?[a-zA-Z]*m", pattern) else {"\\z"}
    pattern = "".join(r"\Z" if piece in ends else piece for piece in _SCAN.findall(pattern))
    try:
        return re.compile(pattern, re.ASCII)
    except re.error as e:
        raise ValueError(f"Invalid pattern: {pattern}, error: {e}") from None


def _text(raw):
    return bytes(raw).decode("utf-8", errors="surrogateescape")


def _bytes(text):
    return text.encode("utf-8", errors="surrogateescape")


def _scalar_text(value):
    return _text(np.asarray(value, dtype=object).item())


def _expand_rewrite(rewrite):
    """RE2's ``\\0``-``\\9`` and ``\\\\`` in ``rewrite`` as a function of a match."""
    pieces = re.split(r"(\\.)", rewrite)
    for piece in pieces:
        if piece.startswith("\\") and piece[1:] not in "0123456789\\":
            raise ValueError(f"Invalid rewrite pattern: {rewrite}")
    return lambda m: "".join(m.group(int(p[1])) or "" if p[1:].isdigit() else p[1:] if p.startswith("\\") else p
                             for p in pieces)


def _regex_replace(x, pattern, rewrite, replace_global):
    compiled = compile_re2(pattern)
    expand = _expand_rewrite(rewrite)
    count = 0 if replace_global else 1
    return _map_strings(x, lambda s: _bytes(compiled.sub(expand, _text(s), count=count)))


@kernel("StaticRegexReplace")
def static_regex_replace(ctx, x):
    return _regex_replace(x, ctx.attrs["pattern"], ctx.attrs["rewrite"], ctx.attrs["replace_global"])


@kernel("RegexReplace")
def regex_replace(ctx, x, pattern, rewrite):
    return _regex_replace(x, _scalar_text(pattern), _scalar_text(rewrite), ctx.attrs["replace_global"])


def _full_match(x, pattern):
    compiled = compile_re2(pattern)
    return _map_strings(x, lambda s: compiled.fullmatch(_text(s)) is not None, bool)


@kernel("StaticRegexFullMatch")
def static_regex_full_match(ctx, x):
    return _full_match(x, ctx.attrs["pattern"])


@kernel("RegexFullMatch")
def regex_full_match(ctx, x, pattern):
    return _full_match(x, _scalar_text(pattern))


@kernel("Substr")
def substr(ctx, x, pos, length):
    if np.ndim(pos) == 0:
        pos, length = np.full(np.shape(x), pos), np.full(np.shape(x), length)
    try:
        strings, pos, length = np.broadcast_arrays(np.asarray(x, dtype=object), pos, length)
    except ValueError:
        raise ValueError(f"Incompatible shapes: [{','.join(map(str, np.shape(x)))}] vs. "
                         f"[{','.join(map(str, np.shape(pos)))}]") from None
    out = []
    for i, (text, start, size) in enumerate(zip(strings.reshape(-1), pos.reshape(-1), length.reshape(-1))):
        text, start, size = bytes(text), int(start), int(size)
        if not -len(text) <= start <= len(text):
            raise IndexError(f"pos {start} out of range for string b'{text.decode('latin-1')}' at index {i}")
        start = start % len(text) if start < 0 else start
        out.append(text[start:] if size < 0 else text[start:start + size])  # C++'s size_t: a negative len is all
    return np.array(out, dtype=object).reshape(strings.shape)


@kernel("ReduceJoin")
def reduce_join(ctx, x, *reduction_indices):
    x = np.asarray(x, dtype=object)
    axis = ctx.attrs["axis"]
    axis = np.ravel(reduction_indices[0]).tolist() if axis is None else axis
    for a in axis:
        if not -x.ndim <= a < max(x.ndim, 1):
            raise ValueError(f"Invalid reduction dimension {a} for input with {x.ndim} dimensions.")
    axes = sorted({a % x.ndim for a in axis}) if x.ndim else []
    kept = [a for a in range(x.ndim) if a not in axes]
    kept_dims = [x.shape[a] for a in kept]
    rows = np.transpose(x, kept + axes).reshape(int(np.prod(kept_dims)), int(np.prod([x.shape[a] for a in axes])))
    sep = ctx.attrs["separator"].encode()
    joined = np.array([sep.join(bytes(s) for s in row) for row in rows], dtype=object)
    shape = [1 if a in axes else d for a, d in enumerate(x.shape)] if ctx.attrs["keep_dims"] else kept_dims
    return joined.reshape(shape)
