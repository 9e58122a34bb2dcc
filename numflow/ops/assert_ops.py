"""``tf.Assert``: an op that fails the run, printing its data, when its condition is false."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.registry import declare


@declare("Assert", stateful=True)
def _assert_infer(op):
    if op.inputs[0].dtype.base_dtype != dtypes.bool:
        raise TypeError(f"Input 'condition' of 'Assert' Op has type {op.inputs[0].dtype.base_dtype.name} that does not "
                        "match expected type of bool.")
    return []


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's public name
    """An op failing with InvalidArgumentError ("assertion failed: [data]...") when ``condition`` is false.

    As in TensorFlow 1.x, data other than strings and int32 is only formatted when the condition fails:
    the assertion then runs inside ``tf.cond(condition, no_op, assert)`` (``<name>/AssertGuard``), and
    the op returned is that cond's.
    """
    from numflow.ops.cond import cond
    from numflow.ops.control_flow_ops import no_op

    graph = get_default_graph()
    with graph.name_scope(name or "Assert"):
        xs = [convert_to_tensor(x) for x in data]
        attrs = {"summarize": 3 if summarize is None else int(summarize)}
        if all(x.dtype.base_dtype in (dtypes.string, dtypes.int32) for x in xs):
            return graph.create_op("Assert", [convert_to_tensor(condition), *xs], attrs, name="Assert")
        condition = convert_to_tensor(condition, name="Condition")

        def true_assert():
            return graph.create_op("Assert", [condition, *xs], attrs, name="Assert")

        return cond(condition, no_op, true_assert, name="AssertGuard").op


def assert_at_most_n_true(predicates, n, message):
    """An assertion that at most ``n`` of the bool scalars ``predicates`` are true (TF's case helper)."""
    from numflow.ops.array_ops import stack
    from numflow.ops.constant_op import constant
    from numflow.ops.math_ops import cast, less_equal, reduce_sum

    stacked = stack(predicates, name="preds_c")
    count = reduce_sum(cast(stacked, dtypes.int32), name="num_true_conds")
    condition = less_equal(count, constant(n, name="n_true_conds"))
    names = ", ".join(getattr(p, "name", "?") for p in predicates)
    return Assert(condition, [f"{message}: more than {n} conditions ({names}) evaluated as True:", stacked],
                  summarize=len(predicates))
