"""``tf.cond``, ``tf.case`` and ``tf.switch_case``: run one of several branches, as TensorFlow 1.x builds them.

Each branch function is called once, inside a :class:`~numflow.ops.control_flow_util.BranchContext`,
so its ops carry TensorFlow's names (``cond/mul``, ``cond/sub``). One functional op then stands for
the cond in the enclosing graph: ``If`` (``Case`` for ``switch_case``), whose inputs are the
predicate and every tensor the branches captured from outside, and whose outputs are the branch
results (later also the intermediates its gradient needs, see ``control_flow_util``). Its results
reach the user through ``Identity`` ops named as TensorFlow names its merges: ``cond/Merge:0``,
``cond/Merge_1:0``. At run time only the chosen branch runs (``numflow.runtime.subplan``): an
``assign_add`` in the other branch does not happen, and a reshape or assertion there that would fail
does not.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     p = tf.placeholder(tf.bool, [])
...     y = tf.cond(p, lambda: tf.constant(2.0) * 3.0, lambda: tf.constant(-1.0))
...     with tf.Session() as sess:
...         y.name, float(sess.run(y, {p: True})), float(sess.run(y, {p: False}))
('cond/Merge:0', 6.0, -1.0)
"""

import functools

from numflow.framework import dtypes, nest
from numflow.framework.graph import Operation, get_default_graph
from numflow.framework.registry import declare
from numflow.ops import control_flow_util as cfu
from numflow.ops.constant_op import convert_to_tensor


class Branch:
    """One branch as the runtime needs it: its context (its ops) and the tensors it returns."""

    __slots__ = ("context", "outputs")

    def __init__(self, context, outputs):
        self.context = context
        self.outputs = outputs


def _conditional_infer(op):
    return list(op._attrs["output_specs"])


declare("If", stateful=True, functional=True)(_conditional_infer)
declare("Case", stateful=True, functional=True)(_conditional_infer)


@declare("BranchValue")
def _branch_value_infer(op):
    x = op.inputs[0]
    return [(x.dtype, x.shape)]


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """``true_fn()`` if ``pred`` is true when the graph runs, else ``false_fn()``; only that one runs.

    Parameters
    ----------
    pred : scalar bool Tensor
        Which branch to run (a Python bool is refused, as in TensorFlow).
    true_fn, false_fn : callables
        Each returns the same structure (nested lists, tuples, dicts of tensors, IndexedSlices,
        TensorArrays or Python values) with the same dtypes; an Operation stands for a bool tensor
        that runs it. ``fn1`` and ``fn2`` are TensorFlow's deprecated names for them.
    strict : bool
        Keep a one-element list or tuple as it is, instead of returning its element.
    name : str, optional
        The name scope of the cond's ops (default ``cond``).

    Returns
    -------
    The structure the branches return, its tensors shaped as the most specific shape both fit.

    Raises
    ------
    TypeError
        A missing or uncallable branch, a Python-bool or non-boolean ``pred``, or branches whose
        structures differ in sequence types.
    ValueError
        A branch returning None, branches of different structures or dtypes, or a ``pred`` of rank > 0.
        The message names the cond.
    """
    true_fn = _deprecated_alias(true_fn, fn1, "true_fn", "fn1")
    false_fn = _deprecated_alias(false_fn, fn2, "false_fn", "fn2")
    for fn, arg in ((true_fn, "true_fn"), (false_fn, "false_fn")):
        if fn is None:
            raise TypeError(f"cond(): '{arg}' argument required")
        if not callable(fn):
            raise TypeError(f"'{arg}' must be callable.")
    if isinstance(pred, bool):
        raise TypeError("'pred' must not be a Python bool.")
    graph = get_default_graph()
    with graph.name_scope(name or "cond") as scope:
        pred = convert_to_tensor(pred)
        where = f"tf.cond '{scope[:-1]}'"
        if pred.dtype.base_dtype != dtypes.bool:
            raise TypeError(f"Input 'pred' of 'Switch' Op has type {pred.dtype.base_dtype.name} that does not match "
                            f"expected type of bool. (pred {pred.name} of {where})")
        _check_scalar(pred, "pred", where)
        results = build_branches(graph, "If", pred, [true_fn, false_fn], ["true_fn", "false_fn"], scope, "Merge")
    return results if strict else _unpack_if_singleton(results)


def _deprecated_alias(value, alias, name, alias_name):
    if alias is None:
        return value
    if value is not None:
        raise TypeError(f"cond(): {name} and {alias_name} may not be set simultaneously.")
    return alias


def _check_scalar(tensor, what, where):
    if tensor.shape.ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {tensor.shape.ndims} for '{what}' of {where} "
                         f"({tensor.name} has shape {tensor.shape}).")


def _unpack_if_singleton(results):
    if isinstance(results, list | tuple) and len(results) == 1:
        return results[0]
    return results


def build_branches(graph, op_type, selector, fns, fn_names, scope, output_name):
    """Build one branch per function of ``fns`` and the ``op_type`` op choosing among them by ``selector``.

    Returns the branches' result structure, each tensor the output of an Identity named
    ``output_name`` (``Merge``) in ``scope``.
    """
    where = f"{'tf.cond' if op_type == 'If' else 'tf.switch_case'} '{scope[:-1]}'"
    structures, flats, contexts = [], [], []
    for index, (fn, fn_name) in enumerate(zip(fns, fn_names)):
        context = cfu.BranchContext(graph, scope[:-1], index)
        with context:
            raw = fn()
            if raw is None:
                raise ValueError(f"'{fn_name}' must have a return value. ({where})")
            leaves = [_as_branch_result(leaf, selector) for leaf in nest.flatten(raw)]
            flat, counts = cfu.structure_tensors(leaves)
            flat = cfu.resolve_inputs(graph, flat, scope[:-1])
        structures.append((raw, leaves, counts))
        flats.append(flat)
        contexts.append(context)
    _check_branches(structures, flats, fn_names, where)
    outputs = make_conditional(graph, op_type, selector, contexts, flats, scope, output_name)
    raw, leaves, counts = structures[0]
    return nest.pack_sequence_as(raw, cfu.structure_from_tensors(leaves, counts, outputs))


def make_conditional(graph, op_type, selector, contexts, flats, scope, output_name):
    """The ``op_type`` op (If, Case) choosing by ``selector`` among the branches built in ``contexts``,
    which returned the tensors ``flats`` (of one dtype per position); returns its results, through
    Identities named ``output_name``."""
    op = conditional_op(graph, op_type, selector, contexts, flats, scope[:-1],
                        "If" if op_type == "If" else "indexed_case")
    prefix = "" if op_type == "If" else "indexed_case/"
    return [graph.create_op("Identity", [t], name=prefix + output_name).outputs[0] for t in op.outputs]


def conditional_op(graph, op_type, selector, contexts, flats, cond_name, name, control_inputs=()):
    """The ``op_type`` op (If, Case) named ``name`` (as ``create_op`` takes it) of the cond ``cond_name``,
    choosing by ``selector`` among the branches built in ``contexts``, which returned ``flats``."""
    specs = []
    for i, t in enumerate(flats[0]):
        shape = t.shape
        for other in flats[1:]:
            shape = cfu.most_specific_compatible_shape(shape, other[i].shape)
        specs.append((t.dtype.base_dtype, shape))
    captures = list(dict.fromkeys(t for c in contexts for t in c.captures))
    controls = list(dict.fromkeys([*control_inputs, *(o for c in contexts for o in c.control_captures)]))
    branches = tuple(Branch(c, flat) for c, flat in zip(contexts, flats))
    attrs = {"branches": branches, "output_specs": specs, "num_outputs": len(specs), "exports": {},
             "checked_exports": {}, "cond_name": cond_name}
    op = graph.create_op(op_type, [selector, *captures], attrs, name=name, control_inputs=controls)
    for c in contexts:
        c.op = op
    return op


def _as_branch_result(leaf, selector):
    """A branch result as a value the op can return: an Operation becomes the selector, run after it."""
    if isinstance(leaf, Operation):
        from numflow.ops.array_ops import identity

        with leaf.graph.control_dependencies([leaf]):
            return identity(selector)
    return leaf


def _check_branches(structures, flats, fn_names, where):
    """TensorFlow's errors for branches whose structures or dtypes differ, naming the cond."""
    first_raw, _, first_counts = structures[0]
    for (raw, _, counts), flat, fn_name in zip(structures[1:], flats[1:], fn_names[1:]):
        try:
            nest.assert_same_structure(first_raw, raw)
            if counts != first_counts:
                raise ValueError("The two structures don't have the same nested structure: their leaves are of "
                                 "different kinds (a Tensor, an IndexedSlices, a TensorArray).")
        except (TypeError, ValueError) as e:
            raise type(e)(f"{e}\n({where}: '{fn_names[0]}' and '{fn_name}' must return the same structure.)") from None
        for i, (a, b) in enumerate(zip(flats[0], flat)):
            if a.dtype.base_dtype != b.dtype.base_dtype:
                raise ValueError(
                    f"Outputs of '{fn_names[0]}' and '{fn_name}' must have the same type(s). Received "
                    f"{a.dtype.base_dtype.name} from '{fn_names[0]}' and {b.dtype.base_dtype.name} from '{fn_name}'. "
                    f"({where}, output {i}: {a.name} and {b.name})")


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first function whose predicate is true (``default()`` when none is), as
    TensorFlow 1.x builds it: a chain of conds, the last pair's function the default when none is
    given (with an assertion that its predicate holds), and with ``exclusive`` an assertion that at
    most one predicate holds.

    Raises
    ------
    TypeError
        ``pred_fn_pairs`` not a list, tuple or dict of (bool Tensor, callable) pairs.
    """
    from numflow.ops import check_ops

    predicates, actions = _case_pairs(pred_fn_pairs, exclusive, name)
    graph = get_default_graph()
    with graph.name_scope(name or "case"):
        if default is None:
            default, predicates, actions = _default_action(predicates, actions)
        fn = default
        for predicate, action in reversed(list(zip(predicates, actions))):
            fn = functools.partial(cond, predicate, true_fn=action, false_fn=fn, strict=strict)
        if not exclusive:
            return fn()
        with graph.control_dependencies([check_ops.assert_at_most_n_true(predicates, 1,
                                                                            "Input error: exclusive=True")]):
            return fn()


def _case_pairs(pred_fn_pairs, exclusive, name):
    if not isinstance(pred_fn_pairs, list | tuple | dict):
        raise TypeError(f"'pred_fn_pairs' must be a list, tuple, or dict. Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, dict):
        # TensorFlow orders a plain dict's pairs by the predicates' names.
        pred_fn_pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if not hasattr(pred, "dtype") or not hasattr(pred, "op"):
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if pred.dtype.base_dtype != dtypes.bool:
            raise TypeError(f"pred must be Tensor of type bool: {pred.name}")
        if not callable(fn):
            raise TypeError(f"fn for pred {pred.name} must be callable.")
    if not pred_fn_pairs:
        raise ValueError(f"'pred_fn_pairs' of tf.case '{name}' must not be empty.")
    predicates, actions = zip(*pred_fn_pairs)
    return list(predicates), list(actions)


def _default_action(predicates, actions):
    """TensorFlow's default when none is given: the last action, asserting its predicate holds and
    no other does."""
    from numflow.ops import check_ops
    from numflow.ops.array_ops import stack

    k = len(predicates) - 1
    predicate, action = predicates[k], actions[k]

    def default_action():
        others = (f"Implementation error: selected default action #{k} was called, but some of other predicates "
                  "are True: ")
        graph = get_default_graph()
        checks = [check_ops.assert_at_most_n_true(predicates[:k], 0, others),
                  check_ops.Assert(predicate, ["Input error: None of conditions evaluated as True:",
                                                stack(predicates, name="preds_c")])]
        with graph.control_dependencies(checks):
            return action()

    return default_action, predicates[:k], actions[:k]


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """``branch_fns[branch_index]()``, or ``default()`` (the last branch when None) for an index out
    of range, as one ``Case`` op: only the chosen branch runs.

    ``branch_fns`` is a list of callables, or of ``(index, callable)`` pairs or a dict whose keys
    form the range 0..n-1.
    """
    fns = _canonical_branches(branch_fns)
    if default is not None:
        if not callable(default):
            raise TypeError("default must be callable.")
        fns.append(default)
    graph = get_default_graph()
    with graph.name_scope(name or "switch_case") as scope:
        index = convert_to_tensor(branch_index, name="branch_index")
        if index.dtype.base_dtype != dtypes.int32:
            raise TypeError(f"branch_index must be an int32 Tensor, got {index.dtype.base_dtype.name}: {index.name} "
                            f"(tf.switch_case '{scope[:-1]}')")
        _check_scalar(index, "branch_index", f"tf.switch_case '{scope[:-1]}'")
        names = [f"branch_fns[{i}]" for i in range(len(fns))]
        if default is not None:
            names[-1] = "default"
        return build_branches(graph, "Case", index, fns, names, scope, "Identity")


def _canonical_branches(branch_fns):
    if not isinstance(branch_fns, list | tuple | dict):
        raise TypeError("branch_fns must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = list(branch_fns.items())
    if all(callable(fn) for fn in branch_fns):
        return list(branch_fns)
    for pair in branch_fns:
        if not isinstance(pair, tuple) or len(pair) != 2 or not callable(pair[1]):
            raise TypeError("branch_fns must be a list of callables or of (int, callable) pairs")
    keys = sorted(k for k, _ in branch_fns)
    if keys != list(range(len(keys))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(keys)}) but found "
                         f"{{{','.join(str(k) for k in keys)}}}")
    return [fn for _, fn in sorted(branch_fns, key=lambda pair: pair[0])]
