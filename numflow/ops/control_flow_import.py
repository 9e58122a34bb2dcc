"""TensorFlow 2's functional control flow read from a GraphDef: ``If``, ``Case`` and ``While`` (and their
``Stateless`` forms) built as numflow's conds and loops, their functions' nodes as the ops of the
branches, condition and body (``numflow.framework.function_import``).

An ``If`` becomes numflow's ``If`` over two branch contexts, a ``Case`` its ``Case``, each branch the
nodes of its function on the op's inputs. A ``While`` becomes numflow's ``While``: a loop variable the
body passes on unchanged (a captured tensor, as ``while_v2`` passes them) is read from outside instead,
every other one is a loop variable of numflow's loop, shaped by the op's ``output_shapes``. The ops
then run, and differentiate, as the ones ``tf.cond`` and ``tf.while_loop`` build: only the taken
branch runs, and an iteration does no graph work.
"""

from numflow.framework import dtypes
from numflow.framework.function_import import instantiate, source_node
from numflow.framework.graph_import import BUILDERS
from numflow.framework.shapes import TensorShape
from numflow.ops import control_flow_util as cfu
from numflow.ops.cond import conditional_op
from numflow.ops.while_loop import Loop, build_contexts, loop_op

_OWN_NAMES = {"If": "If", "Case": "indexed_case", "While": "While"}


def _construct_name(name, op_type):
    """The name scope of the cond or loop whose op is ``name``: its scope where numflow named the op
    (``cond/If``), else the op's own name (TensorFlow's ``cond``)."""
    scope, _, last = name.rpartition("/")
    return scope if scope and last.split("_")[0] == _OWN_NAMES[op_type] else name


def _build_conditional(importer, node, inputs, controls, attrs, name, graph):
    op_type = "If" if node.op.endswith("If") else "Case"
    functions = [attrs["then_branch"], attrs["else_branch"]] if op_type == "If" else list(attrs["branches"])
    if not functions:
        raise ValueError("a Case needs at least one branch")
    selector, args = inputs[0], inputs[1:]
    cond_name = _construct_name(name, op_type)
    contexts, flats = [], []
    for index, function in enumerate(functions):
        context = cfu.BranchContext(graph, cond_name, index)
        with context:
            results = instantiate(importer, function, args, name, graph)
            flats.append(cfu.resolve_inputs(graph, results, cond_name))
        contexts.append(context)
    _check_outputs(node, functions, flats, attrs["Tout"])
    op = conditional_op(graph, op_type, selector, contexts, flats, cond_name, f"{name}/", controls)
    return op, op._outputs


def _check_outputs(node, functions, flats, types):
    for function, flat in zip(functions, flats):
        got = [t.dtype.base_dtype for t in flat]
        if got != list(types):
            raise ValueError(f"function '{function}' returns {[d.name for d in got]}, not the "
                             f"{[d.name for d in types]} of the node's Tout")


def _build_while(importer, node, inputs, controls, attrs, name, graph):
    library = importer.library
    cond_fn, body_fn = attrs["cond"], attrs["body"]
    cond, body = library.functions[cond_fn], library.functions[body_fn]
    signature = body.signature
    if not len(signature.output_arg) == len(signature.input_arg) == len(cond.signature.input_arg) == len(inputs):
        raise ValueError(f"its condition '{cond_fn}' and body '{body_fn}' take {len(cond.signature.input_arg)} and "
                         f"{len(signature.input_arg)} values and the body returns {len(signature.output_arg)} for "
                         f"its {len(inputs)} loop variables")
    passed = [body.ret[out.name] == arg.name for arg, out in zip(signature.input_arg, signature.output_arg)]
    counter, limit, pred = _iteration_count(cond, body, inputs, passed)
    positions = [i for i, p in enumerate(passed) if not p and i != counter]
    shapes = list(attrs.get("output_shapes") or [])
    invariants = [shapes[i] if i < len(shapes) else TensorShape(None) for i in positions]
    scope = _construct_name(name, "While")

    def args_with(variables):
        args = list(inputs)
        for i, v in zip(positions, variables):
            args[i] = v
        if counter is not None:
            args[counter] = None  # nothing built reads it: numflow's While counts the iterations
        return args

    def cond_result(*variables):
        (result,) = instantiate(importer, cond_fn, args_with(variables), name, graph, results=[pred])
        if result.dtype.base_dtype != dtypes.bool:  # TensorFlow takes any scalar: true when non-zero
            from numflow.ops.math_ops import not_equal

            result = not_equal(result, 0)
        return result

    def body_results(*variables):
        refs = [body.ret[signature.output_arg[i].name] for i in positions]
        return instantiate(importer, body_fn, args_with(variables), name, graph, results=refs)

    loop = Loop(scope, 0, True)
    with graph.name_scope(f"{scope}/"):
        initial, invariants, *_ = build_contexts(graph, loop, cond_result, body_results,
                                                 [inputs[i] for i in positions], invariants, trusted_invariants=True)
    op = loop_op(graph, loop, initial, invariants, None if limit is None else inputs[limit], f"{name}/", controls)
    outputs = list(inputs)
    for i, t in zip(positions, op._outputs):
        outputs[i] = t
    if counter is not None:
        outputs[counter] = op._outputs[len(positions)]
    return op, outputs


def _iteration_count(cond, body, inputs, passed):
    """``(counter, limit, condition)``: the loop variable counting the iterations as ``while_v2`` and
    numflow write it (from a constant 0, plus one per iteration, read nowhere else), the loop
    variable bounding it in the condition (``LogicalAnd(Less(counter, limit), condition)``), and the
    ref of the condition without that bound. None for what the loop lacks."""
    pred = cond.ret[cond.signature.output_arg[0].name] if cond.signature.output_arg else None
    nodes = {n.name: n for n in body.node_def}
    for i, (arg, out) in enumerate(zip(body.signature.input_arg, body.signature.output_arg)):
        if passed[i] or arg.type != dtypes.int32.as_datatype_enum or not _is_constant(inputs[i], 0):
            continue
        step = nodes.get(source_node(body.ret[out.name]))
        if step is None or step.op not in ("AddV2", "Add") or arg.name not in step.input or _uses(body, arg.name) != 1:
            continue
        others = [ref for ref in step.input if ref != arg.name]
        if len(others) != 1 or not _is_one(nodes.get(source_node(others[0]))):
            continue
        name = cond.signature.input_arg[i].name
        uses = _uses(cond, name)
        if uses == 0:
            return i, None, pred
        bound = _bound(cond, name, pred, passed) if uses == 1 else None
        if bound is not None:
            return (i, *bound)
    return None, None, pred


def _bound(cond, counter, pred, passed):
    """``(limit position, condition ref)`` when ``pred`` is ``LogicalAnd(Less(counter, limit), condition)``."""
    nodes = {n.name: n for n in cond.node_def}
    both = nodes.get(source_node(pred))
    if both is None or both.op != "LogicalAnd" or len(both.input) != 2:
        return None
    less = nodes.get(source_node(both.input[0]))
    args = [a.name for a in cond.signature.input_arg]
    if less is None or less.op != "Less" or list(less.input[:1]) != [counter] or less.input[1] not in args:
        return None
    limit = args.index(less.input[1])
    return (limit, both.input[1]) if passed[limit] else None


def _uses(fdef, arg):
    return sum(ref == arg for node in fdef.node_def for ref in node.input) + sum(r == arg for r in fdef.ret.values())


def _is_constant(tensor, value):
    from numflow.framework.graph import constant_value

    known = constant_value(tensor)
    return known is not None and known.shape == () and known == value


def _is_one(node):
    from numflow.framework.attr_values import tensor_from_proto

    if node is None or node.op != "Const" or "value" not in node.attr:
        return False
    value = tensor_from_proto(node.attr["value"].tensor)
    return value.shape == () and value == 1


BUILDERS.update(dict.fromkeys(("If", "StatelessIf", "Case", "StatelessCase"), _build_conditional))
BUILDERS.update(dict.fromkeys(("While", "StatelessWhile"), _build_while))
