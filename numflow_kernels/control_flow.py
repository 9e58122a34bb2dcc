"""Kernels of the ops around control flow: assertions, values leaving a cond branch, and the values a
while loop accumulated for its gradient.

(The functional ops themselves, If, Case and While, run sub-plans of the graph: their kernels are the
runtime's, in ``numflow/runtime/subplan.py``.)
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register


@register("Assert", REFERENCE)
def assert_(ctx, condition, *data):
    """Fail with TensorFlow's message, each datum summarized to ``summarize`` elements, when false."""
    if np.ndim(condition) != 0:
        raise ValueError(f"In[0] expects a scalar, but got shape {list(np.shape(condition))}")
    if not condition:
        limit = ctx.attrs["summarize"]
        raise ValueError("assertion failed: " + " ".join(f"[{summarize(np.asarray(d), limit)}]" for d in data))
    return ()


def summarize(array, limit):
    """``array``'s first ``limit`` elements as TensorFlow's ``Tensor::SummarizeValue`` prints them:
    ``1 2.5 3...``, nested rows as ``[1 2][3...]...``."""
    flat = array.reshape(-1)
    if array.ndim == 0:
        return _element(flat[0])
    if array.ndim == 1:
        text = " ".join(_element(v) for v in flat[:limit])
        return text + ("..." if flat.size > limit else "")
    out = []
    index = [0]

    def one_dim(dim):
        if index[0] >= limit:
            return
        count = array.shape[dim]
        if dim == array.ndim - 1:
            for i in range(count):
                if index[0] >= limit:
                    out.append("...")
                    return
                if i > 0:
                    out.append(" ")
                out.append(_element(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(count):
            opened = index[0] < limit
            if opened:
                out.append("[")
            one_dim(dim + 1)
            if index[0] < limit or opened:
                out.append("]")

    one_dim(0)
    return "".join(out) + ("..." if flat.size > limit else "")


def _element(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, str):
        return v
    if isinstance(v, np.bool_ | bool):
        return str(int(v))
    if isinstance(v, np.floating):
        short = f"{float(v):.6g}"
        return short if type(v)(short) == v else f"{float(v):.{9 if v.dtype == np.float32 else 17}g}"
    return str(v)


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
