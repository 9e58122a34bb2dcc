"""``tf.while_loop``: repeat a body while a condition holds, as TensorFlow 1.x builds it.

The condition and the body are called once each, inside a
:class:`~numflow.ops.control_flow_util.LoopContext`, on ``LoopVar`` ops standing for the loop
variables of one iteration (named as TensorFlow names them: ``while/Merge`` in the condition,
``while/Identity`` in the body). One functional ``While`` op then stands for the loop in the
enclosing graph. Its inputs are the loop variables' initial values, every tensor the condition or
the body captured from outside, and ``maximum_iterations`` when given; its outputs are the final
values (each through an Identity named ``while/Exit``, ``while/Exit_1``...), the number of
iterations run, and the accumulated values the loop's gradient reads (``control_flow_util``). The
runtime runs the condition and the body as sub-plans built once (``numflow.runtime.subplan``): an
iteration costs their steps and no graph work, and runs the same ops in the same order every time,
whatever ``parallel_iterations`` says.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     i, total = tf.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t + i), [0, 0])
...     with tf.Session() as sess:
...         i.name, [int(v) for v in sess.run([i, total])]
('while/Exit:0', [4, 6])
"""

from numflow.framework import dtypes, nest
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops import control_flow_util as cfu
from numflow.ops.constant_op import convert_to_tensor


class Loop:
    """What the runtime and the gradient need of one while loop.

    ``cond_args``/``body_args``: the LoopVar tensors the condition and body were built on;
    ``cond_output``: the condition's bool tensor; ``body_outputs``: the next values of the loop
    variables; ``accumulators``: body tensor -> the While output holding its value at every iteration
    (added when a gradient needs it).
    """

    __slots__ = ("name", "cond_context", "body_context", "cond_args", "cond_output", "body_args", "body_outputs",
                 "num_vars", "num_captures", "has_limit", "back_prop", "accumulators")

    def __init__(self, name, num_vars, back_prop):
        self.name = name
        self.num_vars = num_vars
        self.back_prop = back_prop
        self.accumulators = {}


@declare("While", stateful=True, functional=True)
def _while_infer(op):
    return [*op._attrs["output_specs"], (dtypes.int32, TensorShape([]))]


@declare("LoopVar")
@declare("AccumulatorRead")
def _loop_var_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


@declare("AccumulatorConcat")
def _accumulator_concat_infer(op):
    return [(op._attrs["dtype"], TensorShape([None]).concatenate(op._attrs["shape"][1:]))]


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """Run ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is true, and return the last values.

    Parameters
    ----------
    cond : callable
        Takes the loop variables, returns a bool scalar tensor.
    body : callable
        Takes the loop variables, returns their next values: the same structure (a list and a tuple
        count as the same), dtypes, and shapes compatible with the shape invariants.
    loop_vars : list or tuple
        Tensors, Python values, IndexedSlices, TensorArrays, or nested structures of them (a single
        tensor is taken as a one-element list).
    shape_invariants : structure of TensorShapes, optional
        Per loop variable, the shapes it may take across iterations (default: its initial shape).
    parallel_iterations, swap_memory : accepted, as in TensorFlow
        Iterations run one after another, in the same order in every run; values stay in memory.
    back_prop : bool
        False: no gradient flows through the loop.
    maximum_iterations : int or int scalar tensor, optional
        Stop after this many iterations even while ``cond`` holds.
    return_same_structure : bool
        Return the structure of ``loop_vars`` even when it has one element.

    Returns
    -------
    The final loop variables, in the structure ``body`` returns (a single tensor when there is one,
    unless ``return_same_structure``).

    Raises
    ------
    TypeError
        An uncallable ``cond`` or ``body``, a non-boolean condition, a body changing a variable's
        dtype, or ``parallel_iterations`` < 1.
    ValueError
        No ``loop_vars``; a body returning another structure; a variable whose shape changes beyond
        its shape invariant (or an invariant its initial value does not fit). Messages name the loop
        and the variable.
    """
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    graph = get_default_graph()
    with graph.name_scope(name or "while") as scope:
        if loop_vars is None or (isinstance(loop_vars, list | tuple) and not loop_vars):
            raise ValueError("'loop_vars' must be provided.")
        packed = not isinstance(loop_vars, list | tuple)
        original = (loop_vars,) if packed else loop_vars
        loop = Loop(scope[:-1], 0, back_prop)
        limit = None
        if maximum_iterations is not None:
            limit = convert_to_tensor(maximum_iterations, name="maximum_iterations")
            if limit.shape.ndims != 0:
                raise ValueError(f"maximum_iterations must be a scalar, saw shape: {limit.shape}")
        results, returned_one = build_loop(graph, loop, cond, body, original, shape_invariants, limit)
    if maximum_iterations is not None:  # as TensorFlow's, which loops over (counter, body's result)
        return results[0] if returned_one else results
    if return_same_structure:
        return results
    leaves = nest.flatten(results)
    # As TensorFlow's: one loop tensor comes back alone (an IndexedSlices, of two or three, in its list).
    return leaves[0] if len(leaves) == 1 and len(cfu.leaf_tensors(leaves[0])) == 1 else results


def build_loop(graph, loop, cond, body, loop_vars, shape_invariants, limit, grad_of=None, index_fn=None):
    """Build the condition, the body and the ``While`` op of ``loop``; return the exit values in the
    structure ``body`` returns (as a one-element list when it returned one value), and whether it did.

    ``grad_of``: the forward While op a gradient loop undoes, with ``index_fn(body_args)`` giving
    the iteration to read its accumulated values at (see ``LoopContext``).
    """
    initial, invariants, result, body_leaves, counts, returned_one = build_contexts(
        graph, loop, cond, body, loop_vars, shape_invariants, grad_of, index_fn)
    op = loop_op(graph, loop, initial, invariants, limit, "While")
    if limit is not None:  # TensorFlow counts the iterations in a loop variable of its own, exited first
        graph.create_op("Identity", [op.outputs[loop.num_vars]], name="Exit")
    exits = [graph.create_op("Identity", [t], name="Exit").outputs[0] for t in op.outputs[:loop.num_vars]]
    return nest.pack_sequence_as(result, cfu.structure_from_tensors(body_leaves, counts, exits)), returned_one


def build_contexts(graph, loop, cond, body, loop_vars, shape_invariants, grad_of=None, index_fn=None,
                   trusted_invariants=False):
    """Build the condition and the body of ``loop`` (see :func:`build_loop`); returns the initial loop
    tensors, their shape invariants, the body's result, its leaves and their tensor counts, and
    whether the body returned one value.

    ``trusted_invariants``: the invariants (one per tensor of plain ``loop_vars``) come from a graph
    file, whose writer checked that the loop keeps them; neither the initial tensors nor the body's
    results are checked against them (their static shapes, which numflow infers, may be less specific).
    """
    where = f"tf.while_loop '{loop.name}'"
    leaves = nest.flatten(loop_vars)
    initial, counts = cfu.structure_tensors(leaves)
    if trusted_invariants:
        invariants = [as_shape(s) for s in shape_invariants]
    else:
        invariants = _invariants(leaves, counts, initial, shape_invariants, loop_vars, where)
    loop.num_vars = len(initial)

    loop.cond_context = cfu.LoopContext(graph, loop.name, "cond")
    with loop.cond_context:
        loop.cond_args = _loop_vars(graph, initial, invariants, "Merge")
        packed = nest.pack_sequence_as(loop_vars, cfu.structure_from_tensors(leaves, counts, loop.cond_args))
        condition = convert_to_tensor(cond(*packed))
        if condition.dtype.base_dtype != dtypes.bool:
            raise TypeError(f"Input 'input' of 'LoopCond' Op has type {condition.dtype.base_dtype.name} that does not "
                            f"match expected type of bool. ({where}: cond returned {condition.name})")
        if condition.shape.ndims not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {condition.shape.ndims} for the condition of {where} "
                             f"({condition.name} has shape {condition.shape}).")
        (loop.cond_output,) = cfu.resolve_inputs(graph, [condition], loop.name)

    loop.body_context = cfu.LoopContext(graph, loop.name, "body", grad_of)
    with loop.body_context:
        loop.body_args = _loop_vars(graph, initial, invariants, "Identity")
        if index_fn is not None:
            loop.body_context.index = index_fn(loop.body_args)
        packed = nest.pack_sequence_as(loop_vars, cfu.structure_from_tensors(leaves, counts, loop.body_args))
        result = body(*packed)
        returned_one = not nest.is_nested(result)
        if returned_one:
            result = [result]
        try:
            nest.assert_same_structure(list(packed), list(result))
        except (TypeError, ValueError) as e:
            raise type(e)(f"{e}\n({where}: body must return the structure of loop_vars.)") from None
        body_leaves = nest.flatten(result)
        outputs, body_counts = cfu.structure_tensors(body_leaves)
        if body_counts != counts:
            raise ValueError(f"{where}: body returned IndexedSlices or TensorArrays where loop_vars has other kinds "
                             "of values (or the other way around).")
        loop.body_outputs = cfu.resolve_inputs(graph, outputs, loop.name)
    _check_body_outputs(initial, invariants, loop.body_outputs, where, check_shapes=not trusted_invariants)
    return initial, invariants, result, body_leaves, counts, returned_one


def loop_op(graph, loop, initial, invariants, limit, name, control_inputs=()):
    """The ``While`` op named ``name`` (as ``create_op`` takes it) of ``loop``, its contexts built."""
    contexts = (loop.cond_context, loop.body_context)
    captures = list(dict.fromkeys(t for c in contexts for t in c.captures))
    controls = list(dict.fromkeys([*control_inputs, *(o for c in contexts for o in c.control_captures)]))
    loop.num_captures = len(captures)
    loop.has_limit = limit is not None
    attrs = {"loop": loop, "output_specs": [(t.dtype.base_dtype, s) for t, s in zip(initial, invariants)]}
    inputs = [*initial, *captures] + ([limit] if limit is not None else [])
    op = graph.create_op("While", inputs, attrs, name=name, control_inputs=controls)
    for c in contexts:
        c.op = op
    return op


def _loop_vars(graph, initial, invariants, name):
    return [graph.create_op("LoopVar", [], {"dtype": t.dtype.base_dtype, "shape": shape, "index": i},
                            name=name).outputs[0]
            for i, (t, shape) in enumerate(zip(initial, invariants))]


def _invariants(leaves, counts, initial, shape_invariants, loop_vars, where):
    """The shape each loop tensor keeps across iterations: its initial shape, or the invariant given."""
    if shape_invariants is None:
        return [t.shape for t in initial]
    given = shape_invariants if isinstance(loop_vars, list | tuple) and isinstance(shape_invariants, list | tuple) \
        else [shape_invariants]
    try:
        nest.assert_same_structure(list(loop_vars), list(given), check_types=False)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{e}\n({where}: shape_invariants must have the structure of loop_vars.)") from None
    shapes, start = [], 0
    for leaf, n, invariant in zip(leaves, counts, nest.flatten(list(given))):
        tensors = initial[start:start + n]
        start += n
        invariant = as_shape(invariant)
        if n == 1 and not hasattr(leaf, "_control_flow_components"):
            _check_fits(tensors[0], tensors[0].shape, invariant)
            shapes.append(invariant)
        elif n == 1:  # a TensorArray: its flow is a scalar whatever the elements' shape
            shapes.append(tensors[0].shape)
        else:  # an IndexedSlices: the invariant is its values'
            _check_fits(leaf.values, leaf.values.shape, invariant)
            first = TensorShape(invariant.dim_values[:1] if invariant.ndims is not None else [None])
            shapes += [invariant, first] + ([TensorShape([invariant.ndims])] if n == 3 else [])
    return shapes


def _check_fits(tensor, shape, invariant):
    if not _fits(shape, invariant):
        raise ValueError(
            f"The shape invariant specified for {tensor.name} is not compatible with the initial shape of the loop "
            f"variable. It enters the loop with shape {shape}, but the specified shape invariant is {invariant}.")


def _fits(shape, invariant):
    """Whether ``shape`` is at least as specific as ``invariant`` (TF's ``_ShapeLessThanOrEqual``)."""
    if invariant.ndims is None:
        return True
    if shape.ndims != invariant.ndims:
        return False
    return all(b is None or a == b for a, b in zip(shape.dim_values, invariant.dim_values))


def _check_body_outputs(initial, invariants, outputs, where, check_shapes=True):
    for i, (t, invariant, out) in enumerate(zip(initial, invariants, outputs)):
        if out.dtype.base_dtype != t.dtype.base_dtype:
            raise TypeError(f"Loop var {t.name} enters the loop with type <dtype: '{t.dtype.base_dtype.name}'> but "
                            f"has type <dtype: '{out.dtype.base_dtype.name}'> after 1 iteration. ({where}, loop "
                            f"variable {i})")
        if check_shapes and not _fits(out.shape, invariant):
            raise ValueError(
                f"Input tensor '{t.name}' enters the loop with shape {t.shape}, but has shape {out.shape} after one "
                "iteration. To allow the shape to vary across iterations, use the `shape_invariants` argument of "
                f"tf.while_loop to specify a less-specific shape. ({where}, loop variable {i})")
