"""Control-flow contexts: the cond branch or while-loop part an op is built in, and how a tensor
crosses from one context into another.

``tf.cond`` and ``tf.while_loop`` build their branches, loop condition and loop body as ordinary ops
of the one graph (so they keep TensorFlow's names, ``cond/mul``, ``while/add``), each op tagged with
the context it was built in (``Operation._control_flow_context``). One functional op then stands for
the whole construct in the enclosing context: ``If`` (or ``Case``) and ``While``; the runtime runs each
context as a sub-plan of its own (``numflow.runtime.subplan``).

Every input of a new op passes through :func:`resolve_inputs`, which sees the tensor from the
consumer's context:

- a tensor of an enclosing context is a *capture*: recorded on the consumer's context, and so made an
  input of the functional op when it is built (which, built itself in the enclosing context,
  captures it there in turn when that context is nested);
- a tensor inside a cond branch is *exported*: the ``If`` op gains an output that carries it (empty
  when the other branch runs), the way TensorFlow 2's cond exposes intermediates to its gradient;
- a tensor inside a while loop's body can only be used by the gradient of that loop: the ``While``
  op *accumulates* its value of every iteration into an extra output, and the gradient loop reads
  the value of the matching iteration back (as TensorFlow 2's accumulators). Used anywhere else it
  is TensorFlow's error: "Cannot use 'while/mul' as input to 'add' because 'while/mul' is in a
  while loop."
"""

from numflow.framework import dtypes
from numflow.framework.graph import Tensor
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.shapes import TensorShape


class ControlFlowContext:
    """Where ops are being built: one branch of a cond, or the condition or body of a while loop.

    ``outer``: the enclosing context (None: the graph itself). ``ops``: the ops built here, in order.
    ``captures``: tensors of enclosing contexts used here (dict as an ordered set); ``control_captures``:
    ops of enclosing contexts that ops here have as control inputs.
    """

    def __init__(self, graph, name):
        self.graph = graph
        self.outer = graph._control_flow_context
        self.name = name
        self.ops = []
        self.captures = {}
        self.control_captures = {}
        self._saved = []

    def __enter__(self):
        graph = self.graph
        self._saved.append(graph._control_flow_context)
        graph._control_flow_context = self
        graph._resolve_inputs = resolve_inputs
        return self

    def __exit__(self, *exc):
        self.graph._control_flow_context = self._saved.pop()
        return False

    def add_op(self, op):
        """Record ``op``, just built here (called by ``Graph.create_op``)."""
        self.ops.append(op)
        for c in op._control_inputs:
            if not encloses(c._control_flow_context, self):
                self.control_captures[c] = None

    def in_while_loop(self):
        return any(isinstance(c, LoopContext) for c in chain(self))


class BranchContext(ControlFlowContext):
    """Branch ``index`` of a cond or case (for ``tf.cond``: 0 is ``true_fn``, 1 ``false_fn``).

    ``op``: the ``If``/``Case`` op, once built. ``grad_of``: for a branch of a gradient's cond, the
    forward ``If`` op whose same branch it differentiates (its intermediates reach it unchecked).
    """

    def __init__(self, graph, name, index, grad_of=None):
        super().__init__(graph, name)
        self.index = index
        self.op = None
        self.grad_of = grad_of
        self.fetchable = False  # its tensors may be fetched (TensorFlow 1's frames allow it)


class LoopContext(ControlFlowContext):
    """The condition (``part="cond"``) or the body (``part="body"``) of a while loop.

    ``op``: the ``While`` op, once built. For the body of a gradient loop, ``grad_of`` is the
    forward ``While`` op and ``index`` the iteration of it that the current iteration undoes (a
    tensor of this body); ``reads`` caches the accumulated values read back here.
    """

    def __init__(self, graph, name, part, grad_of=None):
        super().__init__(graph, name)
        self.part = part
        self.op = None
        self.grad_of = grad_of
        self.index = None
        self.reads = {}


def chain(context):
    """``context`` and the contexts enclosing it, innermost first."""
    while context is not None:
        yield context
        context = context.outer


def encloses(outer, inner):
    """Whether ops of context ``outer`` are visible from ``inner`` (``outer`` is ``inner`` or encloses it;
    None, the graph itself, encloses every context)."""
    if outer is None:
        return True
    return any(c is outer for c in chain(inner))


def resolve_inputs(graph, inputs, consumer):
    """``inputs`` of a new op (named ``consumer``) as the current context sees them (see the module
    docstring).

    May build ops (the reads of accumulated values) and add outputs to functional ops (exports).
    """
    context = graph._control_flow_context
    resolved = None
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor) or t._op._graph is not graph or t._op._control_flow_context is context:
            continue
        r = _resolve(graph, t, context, consumer)
        if r is not t:
            if resolved is None:
                resolved = list(inputs)
            resolved[i] = r
    return inputs if resolved is None else resolved


def _resolve(graph, t, context, consumer):
    source = t._op._control_flow_context
    if encloses(source, context):
        if context is not None and source is not context:
            context.captures.setdefault(t)
        return t
    if isinstance(source, BranchContext) and source.op is not None:
        return _resolve(graph, _export(source, t, _differentiates(context, source)), context, consumer)
    if isinstance(source, LoopContext) and source.part == "body" and source.op is not None:
        grad_loop = next((c for c in chain(context) if isinstance(c, LoopContext) and c.grad_of is source.op), None)
        if grad_loop is not None:
            return _resolve(graph, _read_accumulated(graph, grad_loop, t), context, consumer)
    where = "a while loop" if source.in_while_loop() else "a conditional branch that is still being built"
    raise ValueError(
        f"Cannot use '{t.op.name}' as input to '{consumer}' because '{t.op.name}' is in {where}. "
        "Return it from the loop body or branch function (or the loop's result) to use it outside."
    )


def fetchable_value(t):
    """For a tensor ``t`` of a branch whose tensors may be fetched (a cond read from TensorFlow 1's
    frames, nested only in such branches), the tensor outside the cond that carries its value and
    fails, as TensorFlow's dead tensors do, when the branch did not run; else None."""
    contexts = list(chain(t.op._control_flow_context))
    if not contexts or not all(isinstance(c, BranchContext) and c.fetchable and c.op is not None for c in contexts):
        return None
    graph = t.graph
    with _building_in(graph, None):
        return _resolve(graph, t, None, f"the fetch of {t.name}")


def _differentiates(context, branch):
    """Whether ``context`` is inside the gradient of ``branch`` (same op, same branch index)."""
    return any(isinstance(c, BranchContext) and c.grad_of is branch.op and c.index == branch.index
               for c in chain(context))


def _export(branch, t, unchecked):
    """``t`` (an op output of ``branch``) as an output of the branch's ``If`` op.

    An export for the gradient of the same branch is the output itself; any other use goes through
    a ``BranchValue`` op, which fails (as TensorFlow's dead tensors do) when the other branch ran.
    """
    op = branch.op
    exports = op._attrs["exports"]
    key = (branch.index, t)
    out = exports.get(key)
    if out is None:
        out = _add_output(op, t.dtype, t.shape)
        exports[key] = out
    if unchecked:
        return out
    checked = op._attrs["checked_exports"]
    if key not in checked:
        graph = op.graph
        with _building_in(graph, branch.outer), graph.name_scope(branch.name + "/"):
            checked[key] = graph.create_op("BranchValue", [out], {"tensor": t.name}, name="Export").outputs[0]
    return checked[key]


def _read_accumulated(graph, grad_loop, t):
    """The value ``t`` (in the body of ``grad_loop.grad_of``) had in the iteration ``grad_loop`` undoes."""
    read = grad_loop.reads.get(t)
    if read is None:
        accumulator = accumulator_of(grad_loop.grad_of, t)
        with _building_in(graph, grad_loop), graph.name_scope(None), graph.name_scope(grad_loop.name + "/"):
            read = graph.create_op("AccumulatorRead", [accumulator, grad_loop.index],
                                   {"dtype": t.dtype.base_dtype, "shape": t.shape},
                                   name=f"{t.op.name.rsplit('/', 1)[-1]}_acc").outputs[0]
        grad_loop.reads[t] = read
    return read


def accumulator_of(loop_op, t):
    """The output of ``loop_op`` (a While op) holding ``t``'s value at every iteration, added on first use."""
    accumulators = loop_op._attrs["loop"].accumulators
    out = accumulators.get(t)
    if out is None:
        out = accumulators[t] = _add_output(loop_op, dtypes.variant, TensorShape([]))
    return out


def _add_output(op, dtype, shape):
    out = Tensor(op, len(op._outputs), dtype, shape)
    op._outputs.append(out)
    op.graph._bump_version()
    return out


class _building_in:  # noqa: N801 - a context manager used like a function
    """Build ops in ``context`` with no control dependencies, whatever is being built around."""
    def __init__(self, graph, context):
        self._graph = graph
        self._context = context

    def __enter__(self):
        graph = self._graph
        self._saved = graph._control_flow_context, graph._control_stack
        graph._control_flow_context, graph._control_stack = self._context, []

    def __exit__(self, *exc):
        self._graph._control_flow_context, self._graph._control_stack = self._saved
        return False



# -- the leaves of a cond's or loop's structure, as the tensors they travel as --------------------------
def leaf_tensors(leaf):
    """The tensors one leaf of a branch's results or of a loop's variables travels as: itself for a
    tensor (a Python value becomes a constant), an IndexedSlices' parts, a TensorArray's flow."""
    from numflow.ops.constant_op import convert_to_tensor

    if isinstance(leaf, IndexedSlices):
        parts = [leaf.values, leaf.indices]
        return parts if leaf.dense_shape is None else parts + [convert_to_tensor(leaf.dense_shape)]
    components = getattr(leaf, "_control_flow_components", None)
    if components is not None:
        return components()
    return [convert_to_tensor(leaf)]


def leaf_from_tensors(template, tensors):
    """A leaf like ``template`` made of ``tensors`` (as :func:`leaf_tensors` split it)."""
    if isinstance(template, IndexedSlices):
        return IndexedSlices(*tensors)
    rebuild = getattr(template, "_control_flow_rebuild", None)
    if rebuild is not None:
        return rebuild(tensors)
    return tensors[0]


def structure_tensors(leaves):
    """``(flat tensors, counts)``: the tensors of each leaf, concatenated, and how many each gave."""
    flat, counts = [], []
    for leaf in leaves:
        tensors = leaf_tensors(leaf)
        flat.extend(tensors)
        counts.append(len(tensors))
    return flat, counts


def structure_from_tensors(templates, counts, tensors):
    """The leaves like ``templates`` rebuilt from ``tensors`` (see :func:`structure_tensors`)."""
    leaves, start = [], 0
    for template, n in zip(templates, counts):
        leaves.append(leaf_from_tensors(template, tensors[start:start + n]))
        start += n
    return leaves


def most_specific_compatible_shape(a, b):
    """The most specific shape that both ``a`` and ``b`` fit (unknown where they differ)."""
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.dim_values, b.dim_values)])
