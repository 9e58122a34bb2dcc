"""Gradients of the functional control-flow ops, as TensorFlow 2 builds them for its If and While.

- ``If``/``Case``: a cond of the gradients, on the same selector. Its branch ``b`` differentiates the
  forward branch ``b`` with respect to the tensors the cond captured, and returns zeros for one that
  only the other branches reach. The forward branch's intermediates it needs become outputs of the
  forward op (``control_flow_util``'s exports), empty when another branch ran; only branch ``b`` of
  the gradient reads branch ``b``'s.
- ``While``: a while loop of the gradients, running as many iterations as the forward loop did, last
  first. Its loop variables are the iterations left, the gradients of the forward loop variables,
  and one sum per captured tensor; an iteration differentiates the body once. The forward body's
  tensors it needs are *accumulated*: the forward ``While`` keeps each one's value of every
  iteration in an extra output, and the gradient loop reads the value of the iteration it undoes.
  Nothing is rebuilt per run: both loops are built once, like any other ops.
- A captured weight's gradient that is one product per iteration, ``x_t^T @ dz_t`` (a MatMul's), or
  one bias sum ``BiasAddGrad(dz_t)``, is not summed in the loop: the loop keeps ``x_t`` and
  ``dz_t`` of every iteration and one product (one sum) over their rows stacked gives the total
  after it. An LSTM's kernel gradient over 50 steps of batch 32 is then one product of 1,600 rows,
  which runs near the cores' peak, in place of 50 products of 32 rows and 50 additions. The total
  is the same sum, rounded in another order.

A loop built with ``back_prop=False`` passes no gradient.
"""

from numflow.framework.graph import Tensor
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import register_gradient
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, check_ops  # noqa: F401  (Assert is declared there)
from numflow.ops import control_flow_util as cfu
from numflow.ops.array_grad import not_differentiable
from numflow.ops.cond import make_conditional
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.gradients import _backprops, backpropagate
from numflow.ops.while_loop import Loop, build_loop


def _dense(g):
    return convert_to_tensor(g) if isinstance(g, IndexedSlices) else g


def _conditional_grad(op, *grads):
    attrs = op._attrs
    captures = op._inputs[1:]
    wanted = [(y_index, g) for y_index, g in enumerate(grads[:attrs["num_outputs"]])
              if g is not None and _backprops(op._outputs[y_index])]
    targets = [i for i, t in enumerate(captures) if _backprops(t)]
    if not wanted or not targets:
        return [None] * len(op._inputs)
    graph = op.graph
    xs = [captures[i] for i in targets]
    contexts, per_branch = [], []
    with graph.name_scope("cond_grad") as scope:
        for index, branch in enumerate(attrs["branches"]):
            context = cfu.BranchContext(graph, scope[:-1], index, grad_of=op)
            with context:
                ys = [branch.outputs[y_index] for y_index, _ in wanted]
                per_branch.append(backpropagate(ys, xs, [g for _, g in wanted], within=branch.context))
            contexts.append(context)
        reached = [k for k in range(len(xs)) if any(grads_b[k] is not None for grads_b in per_branch)]
        flats = []
        for context, grads_b in zip(contexts, per_branch):
            with context:
                flat = [_dense(grads_b[k]) if grads_b[k] is not None else array_ops.zeros_like(xs[k])
                        for k in reached]
                flats.append(cfu.resolve_inputs(graph, flat, scope[:-1]))
        outputs = make_conditional(graph, op.type, op._inputs[0], contexts, flats, scope, "Merge") if reached else []
    input_grads = [None] * len(op._inputs)
    for k, g in zip(reached, outputs):
        input_grads[1 + targets[k]] = g
    return input_grads


_conditional_grad.takes_missing_grads = True
register_gradient("If")(_conditional_grad)
register_gradient("Case")(_conditional_grad)


@register_gradient("While")
def _while_grad(op, *grads):
    loop = op._attrs["loop"]
    n = loop.num_vars
    captures = op._inputs[n:n + loop.num_captures]
    variables = [i for i in range(n) if _backprops(loop.body_args[i])]
    if not loop.back_prop or all(grads[i] is None for i in variables):
        return [None] * len(op._inputs)
    targets = [j for j, t in enumerate(captures) if _backprops(t)]
    graph = op.graph
    initial = [op._outputs[n]]
    invariants = [TensorShape([])]
    for i in variables:
        g = _dense(grads[i]) if grads[i] is not None else array_ops.zeros_like(op._outputs[i])
        initial.append(g)
        invariants.append(_relaxed(g.shape, loop.body_args[i].shape))
    for j in targets:
        initial.append(array_ops.zeros_like(captures[j]))
        invariants.append(captures[j].shape)

    stacked = {}  # position in targets -> (op type, attrs, per-iteration inputs) of a gradient summed after the loop

    def body(left, *state):
        dys, sums = state[:len(variables)], state[len(variables):]
        ys = [loop.body_outputs[i] for i in variables]
        xs = [loop.body_args[i] for i in variables] + [captures[j] for j in targets]
        found = backpropagate(ys, xs, list(dys), within=loop.body_context)
        next_dys = [_dense(g) if g is not None else array_ops.zeros_like(dy)
                    for g, dy in zip(found[:len(variables)], dys)]
        next_sums = []
        for k, (g, total) in enumerate(zip(found[len(variables):], sums)):
            summand = _stackable(g, graph._control_flow_context)
            if summand is not None:
                stacked[k] = summand
            next_sums.append(total + _dense(g) if g is not None and summand is None else total)
        return [left - 1, *next_dys, *next_sums]

    with graph.name_scope("while") as scope:
        grad_loop = Loop(scope[:-1], len(initial), True)
        results, _ = build_loop(graph, grad_loop, lambda left, *state: left > 0, body, initial, invariants, None,
                                grad_of=op, index_fn=lambda args: args[0] - 1)
        sums = list(results[1 + len(variables):])
        concatenated = {}
        for k, (op_type, attrs, inputs) in stacked.items():
            sums[k] = _sum_of_stacked(graph, grad_loop.body_context.op, op_type, attrs, inputs, concatenated)
    input_grads = [None] * len(op._inputs)
    for i, g in zip(variables, results[1:1 + len(variables)]):
        input_grads[i] = g
    for j, g in zip(targets, sums):
        input_grads[n + j] = g
    return input_grads


_while_grad.takes_missing_grads = True


def _stackable(g, body):
    """``(op type, attrs, inputs)`` of ``g``, an iteration's gradient of a captured tensor, when its
    sum over the iterations is the same op over its inputs stacked along their rows: ``g`` is made in
    ``body`` by a float MatMul ``x^T @ dz`` or a BiasAddGrad of ``dz`` (NHWC), whose inputs are made
    in ``body`` too and have known sizes past their rows; else None."""
    if not isinstance(g, Tensor) or g.op._control_flow_context is not body:
        return None
    op = g.op
    attrs = op._attrs
    if op.type == "MatMul":
        if not attrs["transpose_a"] or attrs["transpose_b"]:
            return None
    elif op.type != "BiasAddGrad" or attrs.get("data_format", "NHWC") != "NHWC":
        return None
    for t in op._inputs:
        if (t.op._control_flow_context is not body or not t.dtype.base_dtype.is_floating or t.shape.ndims is None
                or t.shape.ndims < 2 or None in t.shape.dim_values[1:] or op.type == "MatMul" and t.shape.ndims != 2):
            return None
    return op.type, dict(attrs), list(op._inputs)


def _sum_of_stacked(graph, grad_while, op_type, attrs, inputs, concatenated):
    """``op_type`` over the values ``inputs`` took in every iteration of ``grad_while``, stacked along
    their rows: the sum of its per-iteration results. ``concatenated``: tensor -> its stacked values,
    shared by the sums that read one tensor (a kernel's and a bias's gradient read the same)."""
    stacked = []
    for t in inputs:
        if t not in concatenated:
            concatenated[t] = graph.create_op("AccumulatorConcat", [cfu.accumulator_of(grad_while, t)],
                                              {"dtype": t.dtype.base_dtype, "shape": t.shape},
                                              name=f"{t.op.name.rsplit('/', 1)[-1]}_stacked").outputs[0]
        stacked.append(concatenated[t])
    return graph.create_op(op_type, stacked, attrs, name=op_type).outputs[0]


def _relaxed(shape, invariant):
    """The forward loop variable's invariant, or a less specific shape the incoming gradient fits."""
    if invariant.ndims is None or shape.ndims == invariant.ndims and all(
            b is None or a == b for a, b in zip(shape.dim_values, invariant.dim_values)):
        return invariant
    return cfu.most_specific_compatible_shape(shape, invariant)


not_differentiable("AccumulatorRead", "AccumulatorConcat", "BranchValue", "Assert", "LoopVar")
