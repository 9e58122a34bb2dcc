"""Op kernels written once for every device: fills, random streams, and writes into variables.

A device brings its memory (``ctx.device.alloc`` and ``copy``) and two kernel modules with the
same functions: ``init`` (``fill``, ``random_normal``...) and ``assign`` (``assign``,
``assign_add``, ``scatter_add``...), e.g. ``numflow_kernels.cpu.init`` and ``numflow_kernels.cuda.init``.
``register_for(device_type, modules)`` registers the kernels below for that device. Every write
into a variable goes through its handle (``numflow_kernels.handle``), which holds its lock and
decides whether to copy on write; a scatter checks all indices before it writes anything.
"""

import math
import os
import threading

import numpy as np

from numflow_kernels.context import compatible
from numflow_kernels.errors import dims_text
from numflow_kernels.reference_arrays import checked_scatter
from numflow_kernels.registry import register

# Philox draws TensorFlow reserves per output and op run (philox.RESERVED_PER_OUTPUT, which imports
# Numba: small fills and draws run without it).
RESERVED_PER_OUTPUT = 256


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
        return self.reserve_calls(RESERVED_PER_OUTPUT * num_values)

    def reserve_calls(self, calls):
        """The Philox counter this run starts at; the next run starts ``calls`` Philox calls later
        (TensorFlow's ``ReserveSamples128``)."""
        with self.lock:
            start = self.counter
            self.counter += calls
        return start


def random_stream(ctx):
    """The stream of the random op ``ctx`` computes, in the container of the session running it."""
    attrs = ctx.attrs
    return ctx.resources.get_or_create(("random", ctx.op_name), lambda: RandomStream(attrs["seed"], attrs["seed2"]))


def _flat(array):
    """``array`` in one dimension, as Numba takes it: a view where one will do.

    A read-only view of a writeable array (a variable's read snapshot) is flagged writeable again:
    Numba would compile every kernel a second time for read-only arrays, and kernels only read
    their inputs. (Arrays read-only at their source, such as a Const's value, stay so.)
    """
    flat = array if array.ndim == 1 else array.reshape(array.size)
    if isinstance(flat, np.ndarray) and not flat.flags.writeable and _writeable_owner(flat):
        flat = flat.view()
        flat.flags.writeable = True
    return flat


def _writeable_owner(view):
    owner = view.base
    return isinstance(owner, np.ndarray) and owner.flags.writeable


def update_buffers(ctx, buffers, names, grad, grad_name="grad"):
    """The flat buffers an optimizer's apply kernel updates, given to it by ``VariableHandle.update``
    (the variable's first, then its slots'), then ``grad``'s in the device's memory, after
    TensorFlow's checks of their shapes."""
    shape = checked_shape(buffers, names)
    grad = ctx.device.copy_in(grad)
    if tuple(grad.shape) != shape:
        raise ValueError(f"var and {grad_name} do not have the same shape{dims_text(shape)} {dims_text(grad.shape)}")
    dtype = buffers[0].dtype
    if isinstance(grad, np.ndarray) and grad.dtype != dtype:
        grad = grad.astype(dtype)
    return [_flat(buffer) for buffer in buffers] + [_flat(grad)]


def checked_shape(buffers, names):
    """The shape of the variable's buffer ``buffers[0]``, once its slots' ``buffers[1:]`` are all of
    that shape (TensorFlow's checks and messages)."""
    shape = tuple(buffers[0].shape)
    for buffer, name in zip(buffers[1:], names[1:]):
        if tuple(buffer.shape) != shape:
            raise ValueError(f"var and {name} do not have the same shape{dims_text(shape)} {dims_text(buffer.shape)}")
    return shape


def register_for(device_type, modules):
    """Register the kernels of this module for ``device_type``.

    ``modules()`` returns the device's ``(init, assign)`` kernel modules; it is called when a
    kernel first runs, so that importing the kernels touches no device library.
    """

    def kernel(op_type):
        return register(op_type, device_type)

    @kernel("FillValue")
    def fill_value(ctx):
        a = ctx.attrs
        if a["dtype"].kind == "O":  # strings: TensorFlow's zero is b""
            value = a["value"]
            value = value.encode() if isinstance(value, str) else value if isinstance(value, bytes) else b""
            return ctx.device.copy_in(np.full(a["shape"], value, dtype=object))
        out = ctx.device.alloc(a["shape"], a["dtype"])
        modules()[0].fill(_flat(out), a["value"])
        return out

    def random_kernel(op_type, fn_name, params):
        @kernel(op_type)
        def run(ctx, *shape_input):
            a = ctx.attrs
            if op_type == "RandomUniformInt" and a["minval"] >= a["maxval"]:
                raise ValueError(f"Need minval < maxval, got {a['minval']} >= {a['maxval']}")
            shape = a["shape"] if a["shape"] is not None else tuple(
                int(d) for d in ctx.device.copy_out(shape_input[0]))
            out = ctx.device.alloc(shape, a["dtype"])
            stream = random_stream(ctx)
            start = stream.reserve(out.size)
            getattr(modules()[0], fn_name)(_flat(out), stream.seed, stream.seed2, *(a[p] for p in params),
                                           counter=start)
            return out

    random_kernel("RandomStandardNormal", "random_normal", ("mean", "stddev"))
    random_kernel("TruncatedNormal", "truncated_normal", ("mean", "stddev"))
    random_kernel("RandomUniform", "random_uniform", ("minval", "maxval"))
    random_kernel("RandomUniformInt", "random_uniform_int", ("minval", "maxval"))

    @kernel("Assign")
    def assign(ctx, ref, value):
        def check(shape):
            if shape != value.shape and ctx.attrs["validate_shape"]:
                declared = ctx.input_shapes[0]
                if shape is not None or not compatible(declared, value.shape):
                    raise ValueError("Assign requires shapes of both tensors to match. "
                                     f"lhs shape= {dims_text(declared if shape is None else shape)} "
                                     f"rhs shape= {dims_text(value.shape)}")

        # A fresh buffer only this op reads (the plan says) is kept rather than copied.
        ref.assign(value, donate=ctx.donated, write=write_into, check=check)
        return ref

    def write_into(buffer, value):
        modules()[1].assign(_flat(buffer), _flat(value))

    def in_place(op_type, fn_name):
        def step(buffer, value):
            if buffer.shape != value.shape:
                raise ValueError(f"Parameters and update must be the same size: {dims_text(buffer.shape)} "
                                 f"vs {dims_text(value.shape)}")
            getattr(modules()[1], fn_name)(_flat(buffer), _flat(value))

        @kernel(op_type)
        def run(ctx, ref, value):
            ref.update(step, value)
            return ref

    in_place("AssignAdd", "assign_add")
    in_place("AssignSub", "assign_sub")

    def scatter(op_type, fn_name):
        def step(buffer, ctx, indices, updates):
            shape = tuple(buffer.shape)
            rows = shape[0] if shape else 0
            expected = tuple(indices.shape) + shape[1:]
            if updates.ndim == 0:  # a scalar goes to every row named, as in TF
                updates = ctx.device.copy_in(np.broadcast_to(ctx.device.copy_out(updates), expected).copy())
            if tuple(updates.shape) != expected:
                raise ValueError("Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = "
                                 f"[], got updates.shape {dims_text(updates.shape)}, indices.shape "
                                 f"{dims_text(indices.shape)}, params.shape {dims_text(shape)}")
            flat_indices = _flat(indices)
            width = math.prod(shape) // max(rows, 1)
            bad = getattr(modules()[1], fn_name)(buffer.reshape(rows, width), flat_indices,
                                                 _flat(updates).reshape(len(flat_indices), width))
            if bad >= 0:  # nothing was written
                host_indices = ctx.device.copy_out(indices)
                where = ",".join(str(int(i)) for i in np.unravel_index(bad, host_indices.shape))
                raise ValueError(f"indices[{where}] = {int(host_indices.reshape(-1)[bad])} is not in [0, {rows})")

        @kernel(op_type)
        def run(ctx, ref, indices, updates):
            ref.update(step, ctx, indices, updates)
            return ref

    scatter("ScatterUpdate", "scatter_update")
    scatter("ScatterAdd", "scatter_add")
    scatter("ScatterSub", "scatter_sub")
    scatter("ScatterMul", "scatter_mul")
    scatter("ScatterDiv", "scatter_div")
    scatter("ScatterMax", "scatter_max")
    scatter("ScatterMin", "scatter_min")

    def scatter_nd(op_type, fn_name):
        def step(buffer, ctx, indices, updates):
            rows, values, count = checked_scatter(ctx.device.copy_out(indices), ctx.device.copy_out(updates),
                                                  tuple(buffer.shape), "ref")
            getattr(modules()[1], fn_name)(buffer.reshape(count, values.shape[1]), ctx.device.copy_in(rows),
                                           ctx.device.copy_in(values))

        @kernel(op_type)
        def run(ctx, ref, indices, updates):
            ref.update(step, ctx, indices, updates)
            return ref

    scatter_nd("ScatterNdUpdate", "scatter_update")
    scatter_nd("ScatterNdAdd", "scatter_add")
    scatter_nd("ScatterNdSub", "scatter_sub")
