"""If, Case and While in a GraphDef: TensorFlow 2's functional ops, their branches, condition and body
FunctionDefs of the GraphDef's library (``numflow.framework.function_export``).

A cond becomes ``If`` (``StatelessIf`` when no op of its branches has state), with ``then_branch``
and ``else_branch``; a ``switch_case``, ``Case`` with ``branches``. A cond whose branch changes a
captured variable through its reference has no function form: ``cond_frames_export`` writes it as
TensorFlow 1's Switch and Merge frames. Each branch function takes every
tensor the cond captured and returns the branch's results, then the intermediates the gradient reads
(``exports``) as TensorFlow's ``cond_v2`` returns them: wrapped in an optional, holding the value in
the branch that computes it and none in the others. The gradient's branch unwraps it
(``OptionalGetValue``), and so does a ``BranchValue`` outside, failing as TensorFlow fails when the
branch did not run.

A while loop becomes ``While`` (``StatelessWhile``) whose loop variables are numflow's, then the
iteration counter, the accumulators, ``maximum_iterations`` and the captured tensors, as
``while_v2`` orders them but for numflow's output order (the values, the count, the accumulated
values: the consumers' inputs keep their indices). The condition stops at ``maximum_iterations``;
each accumulator is a TensorList the body pushes its tensor's value onto
(``EmptyTensorList``, ``TensorListPushBack``), and a gradient loop reads the iteration it undoes
with ``TensorListGetItem``; a gradient summed after its loop reads all of them with
``TensorListConcatV2``. TensorFlow runs these as it runs its own control flow v2.

>>> import numflow as tf
>>> with tf.Graph().as_default() as g:
...     p = tf.placeholder(tf.bool, [])
...     y = tf.cond(p, lambda: tf.constant(2.0), lambda: tf.constant(3.0))
...     graph_def = g.as_graph_def()
>>> [n.op for n in graph_def.node], [f.signature.name for f in graph_def.library.function]
(['Placeholder', 'StatelessIf', 'Identity'], ['cond_true', 'cond_false'])
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.function_export import tensor_key
from numflow.framework.graph_export import tensor_name
from numflow.framework.shapes import TensorShape
from numflow.ops import cond_frames_export

_SCALAR = TensorShape([])
_CONDITIONALS = ("If", "Case")


def prepare(library, graph):
    """Record in ``library.layers`` the tensors of ``graph`` that travel wrapped in optionals: a cond's
    exports (a layer over the intermediate's own), and what unwraps or stores them."""
    exported, accumulated, readers = {}, {}, []
    for data in graph.nx_graph._node.values():
        op = data["op"]
        if op._type in _CONDITIONALS:
            for (_, tensor), out in op._attrs["exports"].items():
                exported[tensor_key(out)] = (tensor, out)
        elif op._type == "While":
            for tensor, out in op._attrs["loop"].accumulators.items():
                accumulated[tensor_key(out)] = tensor
        elif op._type in ("BranchValue", "AccumulatorRead", "AccumulatorConcat"):
            readers.append(op._outputs[0])
    layers = {}

    def layers_of(tensor):
        key = tensor_key(tensor)
        found = layers.get(key)
        if found is None:
            op = tensor._op
            if key in exported:
                inner = exported[key][0]
                wrapped = layers_of(inner)  # an optional in TensorFlow's graph: a variant scalar
                found = [(tf_dtype(inner, wrapped), _SCALAR if wrapped else inner.shape), *wrapped]
            elif op._type == "BranchValue":
                found = layers_of(op._inputs[0])[1:]
            elif op._type in ("AccumulatorRead", "AccumulatorConcat"):
                found = layers_of(accumulated[tensor_key(op._inputs[0])])
            else:
                found = []
            layers[key] = found
        return found

    for tensor in [out for _, out in exported.values()] + readers:
        layers_of(tensor)
    library.layers.update((key, found) for key, found in layers.items() if found)


def tf_dtype(tensor, layers):
    """The dtype ``tensor`` has in TensorFlow's graph: a variant while wrapped in optionals."""
    return dtypes.variant if layers else tensor.dtype.base_dtype


def _dtype(library, tensor):
    return tf_dtype(tensor, library.layers.get(tensor_key(tensor)))


def _shape(library, tensor):
    """The static shape ``tensor`` has in TensorFlow's graph: a scalar while wrapped in optionals."""
    return _SCALAR if library.layers.get(tensor_key(tensor)) else tensor.shape


def _take_captures(function, library, captures):
    for t in captures:
        function.arg(t.op.name, _dtype(library, t), tensor=t, shape=_shape(library, t))


def _body_ops(context):
    """The ops of a context that become nodes of its function (a loop's variables are its arguments)."""
    return [op for op in context.ops if op._type != "LoopVar"]


def _functional_node(writer, op, op_type, inputs, attrs, outputs):
    writer.node(op_type, op.name, inputs, attrs, outputs, op.device, [c.name for c in op.control_inputs],
                op._colocation)


def _export_conditional(writer, op):
    from numflow.framework.op_mapping import EXPORTS

    if cond_frames_export.writes_a_reference(op):
        return cond_frames_export.export(writer, op, EXPORTS)
    library = writer.functions
    attrs = op._attrs
    captures = op._inputs[1:]
    exports = list(attrs["exports"].items())
    names, stateful = [], False
    for index, branch in enumerate(attrs["branches"]):
        role = ("true", "false")[index] if op.type == "If" else f"branch{index}"
        function = library.function(f"{attrs['cond_name']}_{role}", op.graph)
        _take_captures(function, library, captures)
        function.write_ops(branch.context.ops, EXPORTS)
        for t in branch.outputs:
            function.ret("output", function.ref(t), t.dtype)
        for owner, t in (key for key, _ in exports):
            if owner == index:
                (ref,) = function.node("OptionalFromValue", f"{attrs['cond_name']}/optional",
                                       [(function.ref(t, raw=True), _dtype(library, t))],
                                       outputs=[(dtypes.variant, _SCALAR)])
            else:
                (ref,) = function.node("OptionalNone", f"{attrs['cond_name']}/optional_none",
                                       outputs=[(dtypes.variant, _SCALAR)])
            function.ret("intermediate", ref, dtypes.variant)
        stateful = stateful or function.stateful
        names.append(function.finish())
    outputs = [(_dtype(library, t), _shape(library, t)) for t in op._outputs]
    func_attrs = {"then_branch": names[0], "else_branch": names[1]} if op.type == "If" else {"branches": names}
    _functional_node(writer, op, op.type if stateful else f"Stateless{op.type}",
                     [(tensor_name(t), _dtype(library, t)) for t in op._inputs],
                     {**func_attrs, "output_shapes": [s for _, s in outputs]}, outputs)


def _export_while(writer, op):
    from numflow.framework.op_mapping import EXPORTS

    library = writer.functions
    loop = op._attrs["loop"]
    n, int32 = loop.num_vars, dtypes.int32
    variables, captures = op._inputs[:n], op._inputs[n:n + loop.num_captures]
    limit = op._inputs[-1] if loop.has_limit else None
    accumulated = list(loop.accumulators)
    invariants = [shape for _, shape in op._attrs["output_specs"]]
    counter = _counter_start(writer, op)
    lists = [_empty_list(writer, f"{op.name}/accumulator", t, _dtype(library, t)) for t in accumulated]
    inputs = [(tensor_name(t), _dtype(library, t)) for t in variables] + [(counter, int32)] + \
        [(name, dtypes.variant) for name in lists] + ([(tensor_name(limit), int32)] if limit is not None else []) + \
        [(tensor_name(t), _dtype(library, t)) for t in captures]
    shapes = [*invariants, _SCALAR, *[_SCALAR] * len(lists)] + ([_SCALAR] if limit is not None else []) + \
        [_shape(library, t) for t in captures]

    def start(part, context, loop_vars):
        function = library.function(f"{loop.name}_{part}", op.graph)
        refs = [function.arg(v.op.name, v.dtype, tensor=v, shape=s) for v, s in zip(loop_vars, invariants)]
        refs.append(function.arg("loop_counter", int32, shape=_SCALAR))
        refs += [function.arg("accumulator", dtypes.variant, shape=_SCALAR) for _ in lists]
        if limit is not None:
            refs.append(function.arg("maximum_iterations", int32, tensor=limit, shape=_SCALAR))
        _take_captures(function, library, captures)
        refs += [function.ref(t, raw=True) for t in captures]
        function.write_ops(_body_ops(context), EXPORTS)
        return function, refs

    cond, refs = start("cond", loop.cond_context, loop.cond_args)
    pred = cond.ref(loop.cond_output)
    if limit is not None:
        bound = refs[n + 1 + len(lists)]
        (below,) = cond.node("Less", f"{loop.name}/below_maximum", [(refs[n], int32), (bound, int32)],
                             outputs=[(dtypes.bool, _SCALAR)])
        (pred,) = cond.node("LogicalAnd", f"{loop.name}/go_on", [(below, dtypes.bool), (pred, dtypes.bool)],
                            outputs=[(dtypes.bool, _SCALAR)])
    cond.ret("cond", pred, dtypes.bool)
    body, refs = start("body", loop.body_context, loop.body_args)
    for t in loop.body_outputs:
        body.ret("output", body.ref(t), t.dtype)
    (one,) = body.node("Const", f"{loop.name}/one", attrs={"dtype": int32, "value": np.int32(1)},
                       outputs=[(int32, _SCALAR)])
    (count,) = body.node("AddV2", f"{loop.name}/next_count", [(refs[n], int32), (one, int32)],
                         outputs=[(int32, _SCALAR)])
    body.ret("loop_counter", count, int32)
    for t, ref in zip(accumulated, refs[n + 1:n + 1 + len(lists)]):
        element = _dtype(library, t)
        (pushed,) = body.node("TensorListPushBack", f"{loop.name}/accumulate",
                              [(ref, dtypes.variant), (body.ref(t, raw=True), element)],
                              {"element_dtype": element}, [(dtypes.variant, _SCALAR)])
        body.ret("accumulator", pushed, dtypes.variant)
    for ref, (_, dtype) in zip(refs[n + 1 + len(lists):], inputs[n + 1 + len(lists):]):
        body.ret("passed", ref, dtype)
    stateful = cond.stateful or body.stateful
    func_attrs = {"cond": cond.finish(), "body": body.finish(), "output_shapes": shapes}
    _functional_node(writer, op, "While" if stateful else "StatelessWhile", inputs, func_attrs,
                     list(zip([d for _, d in inputs], shapes)))


def _counter_start(writer, op):
    """The Const 0 the iteration counter starts from: the one a graph read from a file already has
    beside the loop, else a new one."""
    from numflow.framework.op_mapping import const_node

    name = f"{op.name}/loop_counter"
    found = op.graph.nx_graph._node.get(name)
    if found is not None:
        const = found["op"]
        if const.type == "Const" and const._attrs["dtype"] == dtypes.int32 and const._attrs["value"].shape == () \
                and const._attrs["value"] == 0 and const._control_flow_context is op._control_flow_context:
            return name
    return const_node(writer, name, 0, dtypes.int32)


def _element_shape(writer, base, tensor, element_dtype):
    """A Const of the element shape of a list holding ``tensor``'s values, as far as it is known."""
    from numflow.framework.op_mapping import const_node

    shape = tensor.shape
    if element_dtype is dtypes.variant or shape.ndims is None:
        value = np.int32(-1)
    else:
        value = np.array([-1 if d is None else d for d in shape.as_list()], np.int32)
    return const_node(writer, f"{base}/element_shape", value, dtypes.int32)


def _empty_list(writer, base, tensor, element_dtype):
    """An ``EmptyTensorList`` node for ``tensor``'s values (of ``element_dtype``); returns its name."""
    from numflow.framework.op_mapping import const_node

    int32 = dtypes.int32
    shape = _element_shape(writer, base, tensor, element_dtype)
    most = const_node(writer, f"{base}/max_num_elements", -1, int32)
    name = writer.unique(base)
    writer.node("EmptyTensorList", name, [(shape, int32), (most, int32)], {"element_dtype": element_dtype},
                [(dtypes.variant, _SCALAR)])
    return name


def _export_branch_value(writer, op):
    library = writer.functions
    out = op._outputs[0]
    dtype, shape = _dtype(library, out), _shape(library, out)
    writer.node("OptionalGetValue", op.name, [(tensor_name(op._inputs[0]), dtypes.variant)],
                {"output_types": [dtype], "output_shapes": [shape]}, [(dtype, shape)], op.device,
                [c.name for c in op.control_inputs])


def _export_accumulator_read(writer, op):
    library = writer.functions
    out = op._outputs[0]
    dtype = _dtype(library, out)
    accumulated, index = op._inputs
    shape = _element_shape(writer, op.name, out, dtype)
    writer.node("TensorListGetItem", op.name, [(tensor_name(accumulated), dtypes.variant),
                                               (tensor_name(index), dtypes.int32), (shape, dtypes.int32)],
                {"element_dtype": dtype}, [(dtype, _shape(library, out))], op.device,
                [c.name for c in op.control_inputs])


def _export_accumulator_concat(writer, op):
    from numflow.framework.op_mapping import const_node

    library = writer.functions
    out = op._outputs[0]
    dtype = _dtype(library, out)
    (accumulated,) = op._inputs
    shape = _element_shape(writer, op.name, out, dtype)
    leading = const_node(writer, f"{op.name}/leading_dims", np.zeros(0, np.int64), dtypes.int64)
    writer.node("TensorListConcatV2", op.name, [(tensor_name(accumulated), dtypes.variant), (shape, dtypes.int32),
                                                (leading, dtypes.int64)],
                {"element_dtype": dtype, "shape_type": dtypes.int32},
                [(dtype, _shape(library, out)), (dtypes.int64, TensorShape([None]))], op.device,
                [c.name for c in op.control_inputs])


EXPORTS = {
    "If": _export_conditional,
    "Case": _export_conditional,
    "While": _export_while,
    "BranchValue": _export_branch_value,
    "AccumulatorRead": _export_accumulator_read,
    "AccumulatorConcat": _export_accumulator_concat,
}
