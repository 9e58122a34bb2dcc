"""Kernels of the ops around control flow: values leaving a cond branch, and the values a while loop
accumulated for its gradient.

(The functional ops themselves, If, Case and While, run sub-plans of the graph: their kernels are the
runtime's, in ``numflow/runtime/subplan.py``.)
"""

from numflow_kernels import variant_ops  # noqa: F401  (TensorLists and optionals, registered by import)
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
