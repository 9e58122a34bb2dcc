"""CPU kernels of the initializer ops: fills and Philox random streams, written in one pass."""

import os
import threading

import numpy as np

from numflow_kernels import philox
from numflow_kernels.registry import register


@register("FillValue")
def fill_value(ctx):
    a = ctx.attrs
    np_dtype = a["dtype"].as_numpy_dtype
    if np_dtype is np.object_:  # strings: TensorFlow's zero is b""
        value = a["value"]
        value = value.encode() if isinstance(value, str) else value if isinstance(value, bytes) else b""
        return np.full(a["shape"].as_list(), value, dtype=object)
    out = np.empty(a["shape"].as_list(), dtype=np_dtype)
    from numflow_kernels.cpu import init

    init.fill(out.reshape(-1), a["value"])
    return out


class RandomStream:
    """Where one random op's stream stands in one container: its seeds and the next Philox counter."""

    __slots__ = ("seed", "seed2", "counter", "lock")

    def __init__(self, seed, seed2):
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") >> 1 for _ in range(2))
        self.seed, self.seed2 = seed, seed2
        self.counter = 0
        self.lock = threading.Lock()

    def reserve(self, num_values):
        """The Philox counter this run starts at; the next run starts past ``num_values`` values, as in TF."""
        with self.lock:
            start = self.counter
            self.counter += philox.RESERVED_PER_OUTPUT * num_values
        return start


def _stream(ctx):
    attrs = ctx.attrs
    return ctx.resources.get_or_create(("random", ctx.op_name),
                                       lambda: RandomStream(attrs["seed"], attrs["seed2"]))


def _output(ctx, shape_input):
    a = ctx.attrs
    shape = a["shape"].as_list() if a["shape"] is not None else [int(d) for d in shape_input[0]]
    return np.empty(shape, dtype=a["dtype"].as_numpy_dtype)


def _random_kernel(op_type, fn_name, params):
    @register(op_type)
    def kernel(ctx, *shape_input):
        from numflow_kernels.cpu import init

        out = _output(ctx, shape_input)
        if op_type == "RandomUniformInt" and ctx.attrs["minval"] >= ctx.attrs["maxval"]:
            raise ValueError(f"Need minval < maxval, got {ctx.attrs['minval']} >= {ctx.attrs['maxval']}")
        stream = _stream(ctx)
        start = stream.reserve(out.size)
        getattr(init, fn_name)(out.reshape(-1), stream.seed, stream.seed2, *(ctx.attrs[p] for p in params),
                               counter=start)
        return out

    return kernel


_random_kernel("RandomStandardNormal", "random_normal", ("mean", "stddev"))
_random_kernel("TruncatedNormal", "truncated_normal", ("mean", "stddev"))
_random_kernel("RandomUniform", "random_uniform", ("minval", "maxval"))
_random_kernel("RandomUniformInt", "random_uniform_int", ("minval", "maxval"))


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
    stream = _stream(ctx)
    init.random_normal(normal.reshape(-1), stream.seed, stream.seed2, counter=stream.reserve(normal.size))
    q, r = np.linalg.qr(normal.astype(np.float64))
    q *= np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return (a["gain"] * q).reshape(shape).astype(a["dtype"].as_numpy_dtype)
