"""The null device: runs every op and computes nothing, to measure what ``Session.run`` costs around
the kernels (as tinygrad's ``ops_null``).

A session has it only when asked, ``ConfigProto(device_count={"NULL": 1})``, and ops go there only
when placed there (``with tf.device("/device:NULL:0"):``). Its memory is the host's. Its one kernel,
for every op type, returns arrays of the op's declared static shapes and dtypes (unknown dims are
0, an unknown rank is a scalar) with whatever bytes ``numpy.empty`` gives; an op whose output is a
variable's reference passes its input's handle on, and a variable is a :class:`NullVariable`,
always initialized and never changed. So a graph runs the plan, the executor and the kernel calls
it would on the CPU, with no arithmetic.
"""

import functools
import math

import numpy as np

from numflow.devices.cpu import CPUDevice
from numflow.framework import registry as op_registry
from numflow_kernels.handle import VariableHandle


class NullDevice(CPUDevice):
    """``/device:NULL:i``: host memory, kernels that do nothing."""

    device_type = "NULL"
    kernel_modules = ()
    default_count = 0

    @classmethod
    def count(cls):
        return math.inf  # as many as a session asks for

    def kernel(self, op_type):
        return _kernel(op_type)

    def calls_blas(self, op_type):
        return False


@functools.cache
def _kernel(op_type):
    if op_type == "VariableV2":
        return _variable
    return _passing_the_reference if op_registry.get(op_type).ref_output else _nothing


def _empty(shape, dtype):
    shape = () if shape is None else tuple(0 if d is None else d for d in shape)
    return np.empty(shape, dtype)


def _nothing(ctx, *inputs):
    outputs = tuple(_empty(s, d) for s, d in zip(ctx.output_shapes, ctx.output_dtypes))
    return outputs[0] if len(outputs) == 1 else outputs


def _passing_the_reference(ctx, ref, *inputs):
    return ref


def _variable(ctx):
    make = functools.partial(NullVariable, ctx.op_name, ctx.device, ctx.output_shapes[0], ctx.output_dtypes[0])
    return ctx.resources.get_or_create(("null variable", ctx.op_name), make)


class NullVariable(VariableHandle):
    """A variable of the null device: always initialized; reads give an array of its declared shape
    and dtype, updates and assignments change nothing."""

    __slots__ = ("name", "device", "_shape", "_dtype")

    def __init__(self, name, device, shape, dtype):
        self.name = name
        self.device = device
        self._shape = shape
        self._dtype = dtype

    @property
    def initialized(self):
        return True

    def read(self, copy=False):
        value = _empty(self._shape, self._dtype)
        value.flags.writeable = copy
        return value

    def update(self, fn, *args, slots=(), host=False):
        return None

    def assign(self, value, *, donate=False, write=None, check=None):
        return None


DEVICE = NullDevice
