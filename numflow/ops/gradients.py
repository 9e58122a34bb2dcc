"""``tf.gradients``: reverse-mode differentiation over the graph, as TensorFlow 1.x builds it.

Algorithm (TensorFlow's ``gradients_util``):

1. *Reach.* Mark every op reachable from the ops of ``xs`` through floating-point tensors; the ops
   between ``xs`` and ``ys`` are those marked ops from which some ``y`` is reached (walking back
   from ``ys`` through data inputs). Nothing outside them gets a gradient op.
2. *Count.* For each op between, count its consumers that are between too (``pending``).
3. *Walk back.* Seed each ``y`` with ``grad_ys`` (ones by default). Take an op whose consumers have
   all been processed; sum the gradients its outputs received (``AddN`` when several consumers
   sent one, or one IndexedSlices concatenating them when all are sparse); call the op type's
   registered gradient function under the name scope ``gradients/<op name>_grad`` (an IndexedSlices
   reaches it densified, unless it is Identity's; a missing gradient as zeros, unless it is a
   control-flow op's, which knows which of its outputs matter); hand each input its gradient;
   decrement the producers' counts. An op of ``xs`` whose inputs need nothing is not differentiated
   further; nor are the ops of ``stop_gradients``.
4. *Answer.* The summed gradient of each ``x``, or None when ``x`` does not reach any ``y``
   (zeros with ``unconnected_gradients="zero"``).

A Variable in ``xs`` stands for its reference tensor (the ``VariableV2`` op's output); ops read it
through ``v/read``, an Identity, whose gradient passes through unchanged.

Gradient functions are registered next to the ops' families (``math_grad``, ``array_grad``,
``nn_grad``, ``control_flow_grad``, imported at the end of this module) with ``registry.register_gradient(op_type)``, or
``tf.RegisterGradient("OpType")`` from user code: ``fn(op, *output_grads) -> [input grads]``, one
entry per input, None for an input without a gradient. An op between ``xs`` and ``ys`` whose type
has no registered gradient raises LookupError; ``NotDifferentiable`` marks a type whose inputs get
None.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     x = tf.constant(3.0)
...     (dx,) = tf.gradients(x * x, [x])
...     with tf.Session() as sess:
...         float(sess.run(dx))
6.0
"""

import collections

from numflow.framework import dtypes
from numflow.framework import registry as _registry
from numflow.framework.graph import Operation, Tensor, get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.ops import array_ops, control_flow_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_util import encloses

__all__ = ["gradients", "NotDifferentiable", "no_gradient", "AggregationMethod"]


class AggregationMethod:
    """How the gradients a tensor receives from several consumers are summed: always one ``AddN``."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def NotDifferentiable(op_type):  # noqa: N802 - TensorFlow's public name
    """Declare that ops of ``op_type`` have no gradient: their inputs get None, without an error."""
    from numflow.ops.array_grad import not_differentiable

    _registry.get(op_type)
    not_differentiable(op_type)


no_gradient = NotDifferentiable


def _backprops(t):
    """Whether gradients flow through tensor ``t`` (floating point or complex, variables' references included)."""
    dtype = t.dtype.base_dtype
    return dtype.is_floating or dtype.is_complex


def _as_list(x):
    return list(x) if isinstance(x, list | tuple) else [x]


def _as_x(x):
    if isinstance(x, Tensor):
        return x
    if hasattr(x, "_ref"):
        return x._ref()
    return convert_to_tensor(x)


def _reached(from_ops, within=None):
    """Every op reachable from ``from_ops`` through tensors gradients flow through (only ops built in
    control-flow context ``within``, or in contexts inside it, when given)."""
    reached = set()
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            continue
        reached.add(op)
        for out in op._outputs:
            if _backprops(out):
                consumers = out.consumers()
                if within is not None:
                    consumers = [c for c in consumers if encloses(within, c._control_flow_context)]
                queue.extend(consumers)
    return reached


def _pending_counts(to_ops, from_ops, within=None):
    """``(ops between, pending count per op)``: see steps 1 and 2 of the module docstring."""
    reached = _reached(from_ops, within)
    between = set()
    between_list = []
    queue = collections.deque(to_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            between.add(op)
            between_list.append(op)
            reached.remove(op)
            queue.extend(t.op for t in op._inputs)
    pending = collections.defaultdict(int)
    for op in between_list:
        for t in op._inputs:
            if t.op in between:
                pending[t.op] += 1
    return between, pending


def _default_grad_ys(ys, grad_ys, colocate):
    graph = get_default_graph()
    out = []
    for i, (y, gy) in enumerate(zip(ys, grad_ys)):
        if gy is None:
            with _maybe_colocate(graph, y.op, colocate):
                dims = y.shape.as_list() if y.shape.is_fully_defined() else array_ops.shape(y)
                gy = array_ops.ones(dims, dtype=y.dtype.base_dtype, name=f"grad_ys_{i}")
        else:
            gy = convert_to_tensor(gy, name=f"grad_ys_{i}")
            if gy.dtype.base_dtype != y.dtype.base_dtype:
                raise TypeError(
                    f"Gradient type {gy.dtype.base_dtype.name} generated for op {y.op.name} does not match the "
                    f"type {y.dtype.base_dtype.name} of the tensor it is the gradient of.")
            if not y.shape.is_compatible_with(gy.shape):
                raise ValueError(f"Incompatible shapes between y {y.shape} and grad_ys {gy.shape} for {y.name}")
        out.append(gy)
    return out


class _maybe_colocate:  # noqa: N801 - a context manager used like a function
    def __init__(self, graph, op, colocate):
        self._cm = graph.colocate_with(op) if colocate else None

    def __enter__(self):
        if self._cm is not None:
            self._cm.__enter__()

    def __exit__(self, *exc):
        if self._cm is not None:
            return self._cm.__exit__(*exc)
        return False


def _aggregate(grads, op, colocate):
    """The gradient of each output of ``op``: the sum of what its consumers sent, or None.

    Changes ``grads[op]`` to hold the sums.
    """
    graph = op.graph
    slots = grads.get(op)
    if slots is None:
        return [None] * len(op._outputs)
    out = []
    for received in slots:
        received = [g for g in received if g is not None]
        if len(received) > 1:
            with graph.colocate_with(received[0].op, ignore_existing=True):
                out.append(_sum(received))
        else:
            out.append(received[0] if received else None)
    grads[op] = [[g] if g is not None else [] for g in out]
    return out


def _sum(received):
    """Several gradients of one tensor summed as TensorFlow sums them: ``AddN`` when any is dense (the
    IndexedSlices densified), else one IndexedSlices of the concatenated values and indices (int64
    indices for all when their dtypes differ)."""
    if any(isinstance(g, Tensor) for g in received):
        return math_ops.add_n(received)
    indices = [g.indices for g in received]
    if len({i.dtype.base_dtype for i in indices}) > 1:
        indices = [math_ops.cast(i, dtypes.int64) if i.dtype.base_dtype != dtypes.int64 else i for i in indices]
    return IndexedSlices(array_ops.concat([g.values for g in received], 0), array_ops.concat(indices, 0),
                         received[0].dense_shape)


def _gradient_function(op):
    override = op._gradient_override
    fn = _registry.named_gradient(override) if override is not None else None
    if fn is None:
        try:
            fn = _registry.get(override or op.type).gradient
        except KeyError:  # an override naming nothing registered
            fn = None
    if fn is None:
        raise LookupError(
            f"No gradient defined for operation'{op.name}' (op type: {op.type}). In general every operation must "
            "have an associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If you "
            "want to pretend this operation is a constant in your program, you may insert `tf.stop_gradient`.")
    return fn


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False, gate_gradients=False,
              aggregation_method=None, stop_gradients=None, unconnected_gradients="none"):
    """The symbolic derivatives of ``sum(ys)`` with respect to each of ``xs``.

    Parameters
    ----------
    ys : Tensor or list of Tensors
        What to differentiate (Variables stand for their value).
    xs : Tensor, Variable or list of them
        What to differentiate with respect to.
    grad_ys : list, optional
        The gradient of each ``y`` to start from (default: ones shaped as ``y``).
    name : str
        Name scope of the gradient ops, ``"gradients"``.
    colocate_gradients_with_ops : bool
        Put each gradient op in the colocation group of the op it differentiates.
    gate_gradients : bool
        Group the input gradients of each op (``tuple``), so none is used before all are computed.
    stop_gradients : list of Tensors, optional
        Treated as constants: no gradient flows back through them.
    unconnected_gradients : "none" or "zero"
        What an ``x`` that no ``y`` depends on gets.

    Returns
    -------
    list
        One Tensor (or None) per ``x``, shaped and typed as the ``x``; an ``IndexedSlices`` where every
        gradient reaching ``x`` is one (from ``tf.gather`` along axis 0), as in TensorFlow.

    Raises
    ------
    LookupError
        When an op between ``xs`` and ``ys`` has no registered gradient.
    """
    if unconnected_gradients not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: '{unconnected_gradients}'")
    ys = [convert_to_tensor(y) for y in _as_list(ys)]
    xs = [_as_x(x) for x in _as_list(xs)]
    grad_ys = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    if len(grad_ys) != len(ys):
        raise ValueError(f"Passed {len(grad_ys)} grad_ys for {len(ys)} ys")
    stop_ops = {_as_x(t).op if not isinstance(t, Operation) else t for t in _as_list(stop_gradients or [])}
    graph = ys[0].graph
    with graph.as_default(), graph.name_scope(name or "gradients"):
        grad_ys = _default_grad_ys(ys, grad_ys, colocate_gradients_with_ops)
        return backpropagate(ys, xs, grad_ys, stop_ops, gate_gradients, colocate_gradients_with_ops,
                             unconnected_gradients)


def backpropagate(ys, xs, grad_ys, stop_ops=(), gate_gradients=False, colocate=False, unconnected="none",
                  within=None):
    """Steps 1 to 4 of the module docstring, ``grad_ys`` given: the summed gradient of each of ``xs``.

    ``within``: differentiate only the ops of that control-flow context (a cond branch or loop body,
    whose gradient is being built): the ``xs`` (its loop variables and captured tensors) are then
    leaves, and the gradient ops are built in the current context.
    """
    graph = ys[0].graph
    to_ops = [y.op for y in ys]
    from_ops = [x.op for x in xs]
    between, pending = _pending_counts(to_ops, from_ops, within)
    stop_ops = set(stop_ops)
    if within is not None:
        stop_ops.update(from_ops)
    stop_ops |= {op for op in from_ops if all(pending[t.op] == 0 for t in op._inputs)}

    grads = {}
    for y, gy in zip(ys, grad_ys):
        _set_grad(grads, y, gy)
    queue = collections.deque()
    queued = set()
    for op in to_ops:
        if pending[op] == 0 and op not in queued and op in between:
            queued.add(op)
            queue.append(op)
    while queue:
        op = queue.popleft()
        with _maybe_colocate(graph, op, colocate):
            out_grads = _aggregate(grads, op, colocate)
            in_grads = _backprop_op(op, out_grads, stop_ops, gate_gradients, between)
            for i, (t, g) in enumerate(zip(op._inputs, in_grads)):
                if g is None:
                    continue
                if isinstance(g, Tensor):
                    if not t.shape.is_compatible_with(g.shape):
                        raise ValueError(
                            f"Incompatible shapes between op input and calculated input gradient. Forward "
                            f"operation: {op.name}. Input index: {i}. Original input shape: {t.shape}. "
                            f"Calculated input gradient shape: {g.shape}")
                    g.set_shape(t.shape)
                _set_grad(grads, t, g)
        for t in op._inputs:
            pending[t.op] -= 1
            if pending[t.op] == 0 and t.op in between and t.op not in queued:
                queued.add(t.op)
                queue.append(t.op)
    return [_final_grad(grads, x, unconnected) for x in xs]


def _backprop_op(op, out_grads, stop_ops, gate_gradients, between):
    """The gradients of ``op``'s inputs from its outputs' gradients (all None when there are none).

    With ``gate_gradients`` they are grouped as TensorFlow groups them, except that the gate waits only
    for the gradients of inputs in ``between`` (on the way to an x): the others, such as the gradient
    of a fed input, stay out of any run that does not fetch them.
    """
    has_grads = any(g is not None for g in out_grads)
    if not has_grads or op in stop_ops or not op._inputs:
        return [None] * len(op._inputs)
    fn = _gradient_function(op)
    if getattr(fn, "not_differentiable", False):
        return [None] * len(op._inputs)
    out_grads = list(out_grads)
    if not getattr(fn, "takes_missing_grads", False):
        for i, g in enumerate(out_grads):
            if g is None and _backprops(op._outputs[i]):
                out_grads[i] = array_ops.zeros_like(op._outputs[i])
    graph = op.graph
    with graph.name_scope(op.name + "_grad"):
        if not getattr(fn, "takes_indexed_slices", False):
            out_grads = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in out_grads]
        in_grads = fn(op, *out_grads)
        in_grads = list(in_grads) if isinstance(in_grads, list | tuple) else [in_grads]
        if len(in_grads) != len(op._inputs):
            raise ValueError(
                f"Num gradients {len(in_grads)} generated for op {op.name} ({op.type}) do not match num inputs "
                f"{len(op._inputs)}")
        in_grads = [convert_to_tensor(g) if g is not None and not isinstance(g, Tensor | IndexedSlices) else g
                    for g in in_grads]
        if gate_gradients and sum(g is not None for g in in_grads) > 1:
            with graph.device(None), graph.colocate_with(None):
                needed = [g for t, g in zip(op._inputs, in_grads) if t.op in between]
                in_grads = control_flow_ops.gated_tuple(in_grads, needed)
    return in_grads


def _set_grad(grads, t, grad):
    slots = grads.get(t.op)
    if slots is None:
        slots = grads[t.op] = [[] for _ in t.op._outputs]
    slots[t.value_index].append(grad)


def _final_grad(grads, x, unconnected):
    slots = grads.get(x.op)
    g = None
    if slots is not None:
        received = [r for r in slots[x.value_index] if r is not None]
        if len(received) > 1:
            g = _sum(received)
        elif received:
            g = received[0]
    if g is None and unconnected == "zero":
        return array_ops.zeros_like(x, dtype=x.dtype.base_dtype)
    return g


# Registration by import: each module registers the gradients of one family of ops, whose declarations
# are imported first.
from numflow.ops import nn_ops, selection_ops, slice_ops, tile_pad_split_ops  # noqa: E402, F401, I001
from numflow.ops import array_grad, control_flow_grad, conv_grad, math_grad, nn_grad  # noqa: E402, F401
