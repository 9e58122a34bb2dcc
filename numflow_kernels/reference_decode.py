"""Kernels of ``DecodeRaw``, ``DecodeCSV``, ``StringSplit``, ``StringSplitV2`` and
``ShardedFilename``.

Spec: TensorFlow's ``decode_raw_op.cc``, ``decode_csv_op.cc`` and ``string_split_op.cc``: CSV fields
follow RFC 4180 when ``use_quote_delim`` (a quoted field may hold the delimiter, ``""`` is a quote),
an empty field or ``na_value`` takes the column's default, and numbers parse as C's ``strto*`` whole
fields; ``StringSplit`` splits at any one of the delimiter's characters (every character when the
delimiter is empty), ``StringSplitV2`` at the whole separator, or at runs of whitespace without one.
"""


import numpy as np

from numflow_kernels.reference_math import kernel

_CSV_NAMES = {"int32": "int32", "int64": "int64", "float32": "float", "float64": "double"}
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


@kernel("DecodeRaw")
def decode_raw(ctx, data):
    out_type = np.dtype(ctx.attrs["out_type"])
    dtype = out_type.newbyteorder("<" if ctx.attrs["little_endian"] else ">")
    flat = np.asarray(data, dtype=object).reshape(-1)
    size = len(flat[0]) if flat.size else 0
    for i, item in enumerate(flat):
        if len(item) != size:
            raise ValueError(f"DecodeRaw requires input strings to all be the same size, but element {i} has size "
                             f"{size} != {len(item)}")
    if size % dtype.itemsize:
        raise ValueError(f"Input to DecodeRaw has length {size} that is not a multiple of {dtype.itemsize}, the "
                         f"size of {_TF_NAMES.get(out_type.name, out_type.name)}")
    width = size // dtype.itemsize
    out = np.frombuffer(b"".join(flat), dtype=dtype) if flat.size else np.zeros(0, dtype)
    return out.astype(dtype.newbyteorder("=")).reshape([*np.shape(data), width])


def _csv_fields(line, delim, quoted, index):
    """The fields of one CSV record."""
    fields, i, n = [], 0, len(line)
    while True:
        if quoted and i < n and line[i:i + 1] == b'"':
            field, i = bytearray(), i + 1
            while True:
                if i >= n:
                    raise ValueError("Quoted field has to end with quote followed by delim or end")
                if line[i:i + 1] == b'"':
                    if line[i + 1:i + 2] == b'"':
                        field += b'"'
                        i += 2
                        continue
                    i += 1
                    break
                field += line[i:i + 1]
                i += 1
            if i < n and line[i:i + 1] != delim:
                raise ValueError("Quoted field has to end with quote followed by delim or end")
            fields.append(bytes(field))
        else:
            end = line.find(delim, i)
            end = n if end < 0 else end
            field = line[i:end]
            if quoted and b'"' in field:
                raise ValueError(f"Unquoted fields cannot have quotes/CRLFs inside in record {index}")
            fields.append(field)
            i = end
        if i >= n:
            return fields
        i += 1  # past the delimiter
        if i == n:
            fields.append(b"")
            return fields


def _csv_value(text, dtype, column, index):
    name = _CSV_NAMES.get(dtype.name)
    if name is None:
        return text
    try:
        if b"_" in text:  # Python reads 1_000; C's strto* does not
            raise ValueError(text)
        value = float(text) if dtype.kind == "f" else int(text, 10)
    except ValueError:
        raise ValueError(f"Field {column} in record {index} is not a valid {name}: {text.decode('latin-1')}") from None
    if dtype.kind == "i" and not np.iinfo(dtype).min <= value <= np.iinfo(dtype).max:
        raise ValueError(f"Field {column} in record {index} is not a valid {name}: {text.decode('latin-1')}")
    return value


@kernel("DecodeCSV")
def decode_csv(ctx, records, *defaults):
    a = ctx.attrs
    flat = np.asarray(records, dtype=object).reshape(-1)
    columns = a["select_cols"] or list(range(len(defaults)))
    out = _csv_columns_fast(flat, a, columns, defaults)
    if out is None:  # quotes, a missing field or a bad number: record by record, for TensorFlow's message
        out = _csv_columns(flat, a, columns, defaults)
    out = [o.reshape(np.shape(records)) for o in out]
    return tuple(out) if len(out) > 1 else out[0]


def _csv_columns(flat, a, columns, defaults):
    delim, na_value = a["field_delim"].encode(), a["na_value"].encode()
    types = [np.dtype(t) for t in a["OUT_TYPE"]]
    out = [np.empty(flat.size, dtype=t) for t in types]
    for index, line in enumerate(flat):
        fields = _csv_fields(bytes(line), delim, a["use_quote_delim"], index)
        if not a["select_cols"] and len(fields) != len(defaults):
            raise ValueError(f"Expect {len(defaults)} fields but have {len(fields)} in record {index}")
        if a["select_cols"] and len(fields) <= columns[-1]:
            raise ValueError(f"Expect {columns[-1] + 1} fields but have {len(fields)} in record {index}")
        for j, column in enumerate(columns):
            text = fields[column]
            if text == b"" or text == na_value:
                default = np.asarray(defaults[j]).reshape(-1)
                if default.size == 0:
                    raise ValueError(f"Field {j} is required but missing in record {index}!")
                out[j][index] = default[0]
            else:
                out[j][index] = _csv_value(text, types[j], j, index)
    return out


def _csv_columns_fast(flat, a, columns, defaults):
    """The columns of records without quotes, every field present or defaulted and every number
    valid, converted a column at a time by numpy; None for anything else."""
    delim, na_value = a["field_delim"].encode(), a["na_value"].encode()
    rows = [bytes(line).split(delim) for line in flat]
    width = len(defaults) if not a["select_cols"] else None
    if any((b'"' in line and a["use_quote_delim"]) or b"\r" in line or b"\n" in line for line in flat):
        return None
    if any(len(r) != width if width is not None else len(r) <= columns[-1] for r in rows):
        return None
    out = []
    for j, column in enumerate(columns):
        dtype = np.dtype(a["OUT_TYPE"][j])
        texts = [r[column] for r in rows]
        missing = np.array([t == b"" or t == na_value for t in texts], dtype=bool)
        default = np.asarray(defaults[j]).reshape(-1)
        if missing.any() and default.size == 0:
            return None
        if dtype.kind == "O":
            values = np.array(texts + [b""], dtype=object)[:-1]
        else:
            present = np.array([t for t, m in zip(texts, missing) if not m] or [b"0"], dtype=bytes)
            if any(b"_" in t for t in present.tolist()):
                return None
            try:
                parsed = present.astype(np.float64 if dtype.kind == "f" else np.int64)
            except (ValueError, OverflowError):
                return None
            if dtype.kind == "i" and parsed.size and (parsed.min() < np.iinfo(dtype).min
                                                      or parsed.max() > np.iinfo(dtype).max):
                return None
            values = np.empty(len(texts), dtype=dtype)
            values[~missing] = parsed[:int((~missing).sum())].astype(dtype)
        if missing.any():
            values[missing] = default[0]
        out.append(values)
    return out


def _sparse_of_tokens(rows):
    indices = [[i, j] for i, tokens in enumerate(rows) for j in range(len(tokens))]
    values = np.array([t for tokens in rows for t in tokens], dtype=object)
    shape = np.array([len(rows), max((len(t) for t in rows), default=0)], dtype=np.int64)
    return np.array(indices, dtype=np.int64).reshape(-1, 2), values, shape


def _check_vector(source):
    if np.ndim(source) != 1:
        raise ValueError(f"input must be a vector, got shape: [{','.join(map(str, np.shape(source)))}]")


@kernel("StringSplit")
def string_split(ctx, source, delimiter):
    _check_vector(source)
    chars = set(bytes(np.asarray(delimiter, dtype=object).item()))
    rows = []
    for text in np.asarray(source, dtype=object):
        text = bytes(text)
        if not chars:
            tokens = [text[k:k + 1] for k in range(len(text))]
        else:
            tokens, start = [], 0
            for k, byte in enumerate(text):
                if byte in chars:
                    tokens.append(text[start:k])
                    start = k + 1
            tokens.append(text[start:])
        rows.append([t for t in tokens if t] if ctx.attrs["skip_empty"] else tokens)
    return _sparse_of_tokens(rows)


@kernel("StringSplitV2")
def string_split_v2(ctx, source, sep):
    sep = bytes(np.asarray(sep, dtype=object).item())
    maxsplit = ctx.attrs["maxsplit"]
    flat = np.asarray(source, dtype=object).reshape(-1)
    rows = [bytes(t).split(sep or None, maxsplit) for t in flat]
    return _sparse_of_tokens(rows)


@kernel("ShardedFilename")
def sharded_filename(ctx, basename, shard, num_shards):
    name = bytes(np.asarray(basename, dtype=object).item())
    return np.array(name + b"-%05d-of-%05d" % (int(shard), int(num_shards)), dtype=object)
