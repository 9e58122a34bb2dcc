"""NumPy kernel of SparseCross: the crosses of sparse and dense features, row by row.

Spec: TensorFlow's ``sparse_cross_op.cc``. The columns are the sparse inputs, then the dense ones; a
row's crosses are the Cartesian product of its features in each column (the last column changing
fastest), written at ``[row, 0..k)``. Hashed, a cross is ``FingerprintCat64`` chained from
``hash_key`` over its features' hashes (a string's ``Fingerprint64``, an integer's own 64 bits), then
taken modulo ``num_buckets`` (modulo the int64 maximum when that is 0); not hashed, the features'
text joined by ``_X_``.
"""

import itertools

import numpy as np

from numflow_kernels.registry import REFERENCE, register
from numflow_kernels.string_hash import fingerprint64

_MASK = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
_INT64_MAX = (1 << 63) - 1


def _shift_mix(value):
    return value ^ (value >> 47)


def fingerprint_cat64(fp1, fp2):
    """TensorFlow's ``FingerprintCat64`` of two unsigned 64-bit fingerprints."""
    result = fp1 ^ _MUL
    result ^= (_shift_mix((fp2 * _MUL) & _MASK) * _MUL) & _MASK
    result = (result * _MUL) & _MASK
    result = (_shift_mix(result) * _MUL) & _MASK
    return _shift_mix(result)


def _feature_hash(value):
    return fingerprint64(bytes(value)) if isinstance(value, bytes | bytearray) else int(value) & _MASK


def _text(value):
    return bytes(value) if isinstance(value, bytes | bytearray) else str(int(value)).encode()


def _rows(batch, indices, values):
    """Each row's features of one sparse input, in the order of its entries."""
    rows = [[] for _ in range(batch)]
    for (row, *_), value in zip(np.asarray(indices).reshape(len(values), -1).tolist(), values.tolist()):
        if not 0 <= row < batch:
            raise ValueError(f"Invalid index: row {row} of a batch of {batch}")
        rows[row].append(value)
    return rows


@register("SparseCross", REFERENCE)
def sparse_cross(ctx, *inputs):
    count = ctx.attrs["N"]
    indices, values, shapes, dense = inputs[:count], inputs[count:2 * count], inputs[2 * count:3 * count], \
        inputs[3 * count:]
    batches = [int(s[0]) for s in shapes] + [d.shape[0] for d in dense]
    if any(b != batches[0] for b in batches):
        raise ValueError(f"Expected batch size {batches[0]} got {next(b for b in batches if b != batches[0])}")
    batch = batches[0] if batches else 0
    columns = [_rows(batch, i, v) for i, v in zip(indices, values)] + [d.reshape(batch, -1).tolist() for d in dense]
    hashed, buckets, key = ctx.attrs["hashed_output"], ctx.attrs["num_buckets"], ctx.attrs["hash_key"] & _MASK
    out_indices, out_values, width = [], [], 0
    for row in range(batch):
        crosses = list(itertools.product(*(column[row] for column in columns)))
        width = max(width, len(crosses))
        for k, cross in enumerate(crosses):
            out_indices.append((row, k))
            if hashed:
                value = key
                for feature in cross:
                    value = fingerprint_cat64(value, _feature_hash(feature))
                out_values.append(value % (buckets if buckets > 0 else _INT64_MAX))
            else:
                out_values.append(b"_X_".join(_text(f) for f in cross))
    out_indices = np.array(out_indices, dtype=np.int64).reshape(-1, 2)
    out_values = np.array(out_values, dtype=np.int64 if hashed else object)
    return out_indices, out_values, np.array([batch, width], dtype=np.int64)
