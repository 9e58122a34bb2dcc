"""Kernels of the ops around control flow: values leaving a cond branch, and the values a while loop
accumulated for its gradient.

(The functional ops themselves, If, Case and While, run sub-plans of the graph: their kernels are the
runtime's, in ``numflow/runtime/subplan.py``.)
"""

import numpy as np

from numflow_kernels import variant_ops  # noqa: F401  (TensorLists and optionals, registered by import)
from numflow_kernels.float_errors import quiet_call
from numflow_kernels.registry import REFERENCE, register


@register("BranchValue", REFERENCE)
def branch_value(ctx, value):
    """A cond branch's tensor used outside the cond: its value, or TensorFlow's error when the branch did
    not run."""
    if value is None:
        raise ValueError(f"Retval[0] does not have value: '{ctx.attrs['tensor']}' is computed in a branch of a "
                         "cond that did not run.")
    return value


@register("AccumulatorRead", REFERENCE)
def accumulator_read(ctx, accumulated, index):
    """The value a while loop's body gave a tensor in iteration ``index`` (of the list the loop kept)."""
    return accumulated[int(index)]


@register("AccumulatorConcat", REFERENCE)
def accumulator_concat(ctx, accumulated):
    """The values a while loop's body gave a tensor, one after another along their first axis, in the
    order of the iterations."""
    if not accumulated:
        return np.zeros((0, *ctx.attrs["shape"][1:]), ctx.output_dtypes[0])
    return np.concatenate(accumulated)


def sum_into(kernel, position):
    """``kernel`` (an add's) for a running sum whose input ``position`` is the total so far, an array the
    caller owns alone (a while loop's accumulator, see ``numflow.runtime.subplan``): the sum is written
    over that array where it has the result's shape and dtype, else made by ``kernel``. The same bits
    either way: one IEEE addition per element, in either order of the operands."""

    def add_into(ctx, *inputs):
        total, value = inputs[position], inputs[1 - position]
        if (total.__class__ is np.ndarray and value.__class__ is np.ndarray and total.dtype is value.dtype
                and total.dtype.kind in "fc" and total.shape == value.shape and total.flags.writeable):
            return quiet_call(np.add, total, value, out=total)
        return kernel(ctx, *inputs)

    return add_into
