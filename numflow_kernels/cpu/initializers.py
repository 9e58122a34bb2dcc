"""CPU kernel of the orthogonal initializer: a Philox normal matrix factored by numpy's QR."""

import numpy as np

from numflow_kernels import buffer_ops
from numflow_kernels.registry import register


@register("Orthogonal")
def orthogonal(ctx):
    from numflow_kernels.cpu import init

    a = ctx.attrs
    shape = a["shape"].as_list()
    rows, cols = int(np.prod(shape[:-1])), shape[-1]
    flat = (max(rows, cols), min(rows, cols))
    # TensorFlow draws the normal matrix in the variable's dtype (so float32 variables get the same
    # draws as tf.random_normal), then factors it; the QR here runs in float64 and is rounded once.
    normal = np.empty(flat, dtype=a["dtype"].as_numpy_dtype)
    stream = buffer_ops.random_stream(ctx)
    init.random_normal(normal.reshape(-1), stream.seed, stream.seed2, counter=stream.reserve(normal.size))
    q, r = np.linalg.qr(normal.astype(np.float64))
    q *= np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return (a["gain"] * q).reshape(shape).astype(a["dtype"].as_numpy_dtype)
