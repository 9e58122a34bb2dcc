"""The ops numflow builds differently from TensorFlow, and how each is written to and read from a GraphDef.

Most op types map one to one (``graph_export``, ``graph_import``); these do not:

============================  ==========================================================================
numflow                       TensorFlow
============================  ==========================================================================
reductions (``Sum``...)       the axes as a second input (``<op>/reduction_indices``); numflow keeps
                              constant axes as the ``axis`` attr, and takes run-time ones as an input
random ops                    the shape as an input (``<op>/shape``), and mean/stddev (minval/maxval)
                              applied by ``Mul`` and ``AddV2`` ops: one fused op per random draw
                              becomes TF's several, named as TF names them; read back, TF's ops stay
                              apart (same values: each rounds to the dtype as TF's do)
``FillValue``                 a ``Const`` holding one value, as TF writes ``tf.zeros``
``NfSumToShape``              ``Shape``, ``BroadcastGradientArgs``, ``Sum`` and ``Reshape``, TF's gradient
                              of a broadcast
``SaveBundle``                ``SaveV2`` and an ``Identity`` of the file name that waits on it
``RestoreBundle``             ``RestoreV2``, one ``Assign`` per variable, and a ``NoOp`` grouping them
``TensorArray*V3``            the same, without numflow's own attrs (a dtype TensorFlow derives, the
                              kernel's copies of a shape), made again when read
``If``, ``Case``, ``While``   TensorFlow 2's functional ``If``/``Case``/``While`` (``Stateless*`` when no
                              op inside has state), the ops of the branches, condition and body
                              written as FunctionDefs of the library (``numflow.ops.control_flow_export``,
                              read back by ``numflow.ops.control_flow_import``)
``BranchValue``               ``OptionalGetValue`` of the optional the branch function returns
``AccumulatorRead``           ``TensorListGetItem`` of the TensorList the loop body pushes onto
``LoopVar``                   an argument of the condition or body function (no node)
``Orthogonal``,               no TensorFlow form: written under their own type, read back by numflow;
``InitializedValue``,         TensorFlow refuses them with "Op type not registered"
``ReportUninitializedVariables``
============================  ==========================================================================

``EXPORTS`` maps a numflow op type to ``fn(writer, op)`` adding its NodeDefs; ``IMPORTS`` maps a
TensorFlow op type to ``fn(inputs, attrs, constant_of) -> (inputs, attrs)`` giving the numflow op's
inputs and attrs (``constant_of(tensor)`` is the tensor's value when known at import, else None).
"""

import numpy as np

from numflow.framework import attr_values, dtypes
from numflow.framework.graph_export import tensor_name
from numflow.framework.shapes import TensorShape

REDUCTIONS = ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "EuclideanNorm", "ReduceJoin")
_NORMALS = ("RandomStandardNormal", "TruncatedNormal")


def const_node(writer, name, value, dtype, device=""):
    """Add a Const node of ``value``; returns its (unique) name."""
    value = np.asarray(value, dtype=object if dtype is dtypes.string else dtype.as_numpy_dtype)
    name = writer.unique(name)
    writer.node("Const", name, attrs={"dtype": dtype, "value": value},
                outputs=[(dtype, TensorShape(list(value.shape)))], device=device)
    return name


def _shape_tensor(writer, op, name):
    """The shape input of a random op: its own input, or a Const of its static shape."""
    if op._inputs:
        return tensor_name(op._inputs[0]), op._inputs[0].dtype
    shape = np.array(op._attrs["shape"].as_list(), np.int32)
    return const_node(writer, name, shape, dtypes.int32, op.device), dtypes.int32


# -- exports ----------------------------------------------------------------------------------
def _export_reduction(writer, op):
    attrs = {k: v for k, v in op._attrs.items() if k != "axis"}
    if len(op._inputs) == 2:
        writer.op_node(op, attrs=attrs)
        return
    x, axis = op._inputs[0], op._attrs["axis"]
    if axis is None and x.shape.ndims is None:
        int32 = dtypes.int32
        rank = writer.unique(f"{op.name}/Rank")
        writer.node("Rank", rank, [(tensor_name(x), x.dtype)], outputs=[(int32, TensorShape([]))], device=op.device)
        start = const_node(writer, f"{op.name}/range/start", 0, int32)
        delta = const_node(writer, f"{op.name}/range/delta", 1, int32)
        axes = writer.unique(f"{op.name}/range")
        writer.node("Range", axes, [(start, int32), (rank, int32), (delta, int32)],
                    outputs=[(int32, TensorShape([None]))], device=op.device)
    else:
        values = np.array(list(range(x.shape.ndims)) if axis is None else list(axis), np.int32)
        if axis is not None and len(values) == 1:
            values = values[0]  # numflow keeps axis=1 and axis=[1] alike; TF's usual axis=1 is a scalar
        axes = const_node(writer, f"{op.name}/reduction_indices", values, dtypes.int32)
    writer.op_node(op, inputs=[(tensor_name(x), x.dtype), (axes, dtypes.int32)], attrs=attrs)


def _random_attrs(op):
    return {k: op._attrs[k] for k in ("seed", "seed2")}


def _export_normal(writer, op):
    mean, stddev = op._attrs["mean"], op._attrs["stddev"]
    dtype, out = op._attrs["dtype"], op._outputs[0]
    if mean == 0.0 and stddev == 1.0:
        shape = _shape_tensor(writer, op, f"{op.name}/shape")
        writer.op_node(op, inputs=[shape], attrs={**_random_attrs(op), "dtype": dtype})
        return
    shape = _shape_tensor(writer, op, f"{op.name}/shape")
    mean_name = const_node(writer, f"{op.name}/mean", mean, dtype)
    stddev_name = const_node(writer, f"{op.name}/stddev", stddev, dtype)
    draw = writer.unique(f"{op.name}/{op.type}")
    writer.node(op.type, draw, [shape], {**_random_attrs(op), "dtype": dtype}, [(dtype, out.shape)], op.device)
    mul = writer.unique(f"{op.name}/mul")
    writer.node("Mul", mul, [(draw, dtype), (stddev_name, dtype)], outputs=[(dtype, out.shape)], device=op.device)
    writer.op_node(op, "AddV2", inputs=[(mul, dtype), (mean_name, dtype)], attrs={})


def _export_uniform(writer, op):
    lo, hi = op._attrs["minval"], op._attrs["maxval"]
    dtype, out = op._attrs["dtype"], op._outputs[0]
    shape = _shape_tensor(writer, op, f"{op.name}/shape")
    if lo == 0.0 and hi == 1.0:
        writer.op_node(op, inputs=[shape], attrs={**_random_attrs(op), "dtype": dtype})
        return
    draw = writer.unique(f"{op.name}/RandomUniform")
    writer.node("RandomUniform", draw, [shape], {**_random_attrs(op), "dtype": dtype}, [(dtype, out.shape)],
                op.device)
    hi_name = const_node(writer, f"{op.name}/max", hi, dtype)
    if lo == 0.0:
        writer.op_node(op, "Mul", inputs=[(draw, dtype), (hi_name, dtype)], attrs={})
        return
    lo_name = const_node(writer, f"{op.name}/min", lo, dtype)
    sub = writer.unique(f"{op.name}/sub")
    writer.node("Sub", sub, [(hi_name, dtype), (lo_name, dtype)], outputs=[(dtype, TensorShape([]))],
                device=op.device)
    mul = writer.unique(f"{op.name}/mul")
    writer.node("Mul", mul, [(draw, dtype), (sub, dtype)], outputs=[(dtype, out.shape)], device=op.device)
    writer.op_node(op, "AddV2", inputs=[(mul, dtype), (lo_name, dtype)], attrs={})


def _export_uniform_int(writer, op):
    if len(op._inputs) == 3:  # read from a GraphDef: TensorFlow's inputs already
        writer.op_node(op, attrs=_random_attrs(op))
        return
    dtype = op._attrs["dtype"]
    shape = _shape_tensor(writer, op, f"{op.name}/shape")
    lo = const_node(writer, f"{op.name}/min", op._attrs["minval"], dtype)
    hi = const_node(writer, f"{op.name}/max", op._attrs["maxval"], dtype)
    writer.op_node(op, inputs=[shape, (lo, dtype), (hi, dtype)], attrs=_random_attrs(op))


def _export_fill_value(writer, op):
    dtype = op._attrs["dtype"]
    value = attr_values.splat_tensor_proto(op._attrs["value"], dtype, op._attrs["shape"])
    writer.op_node(op, "Const", attrs={"dtype": dtype, "value": value})


def _export_sum_to_shape(writer, op):
    grad, target = op._inputs
    int_type = target.dtype
    shape = writer.unique(f"{op.name}/Shape")
    writer.node("Shape", shape, [(tensor_name(grad), grad.dtype)], {"out_type": int_type},
                [(int_type, TensorShape([grad.shape.ndims]))], op.device)
    args = writer.unique(f"{op.name}/BroadcastGradientArgs")
    writer.node("BroadcastGradientArgs", args, [(tensor_name(target), int_type), (shape, int_type)],
                outputs=[(int_type, TensorShape([None]))] * 2, device=op.device)
    total = writer.unique(f"{op.name}/Sum")
    writer.node("Sum", total, [(tensor_name(grad), grad.dtype), (args, int_type)], {"keep_dims": False},
                [(grad.dtype, TensorShape(None))], op.device)
    writer.op_node(op, "Reshape", inputs=[(total, grad.dtype), (tensor_name(target), int_type)], attrs={})


def _names_and_slices(writer, op, names):
    string = dtypes.string
    specs = op._attrs.get("slices") or [""] * len(names)
    keys = const_node(writer, f"{op.name}/tensor_names", np.array([n.encode() for n in names], dtype=object), string)
    slices = const_node(writer, f"{op.name}/shape_and_slices", np.array([s.encode() for s in specs], dtype=object),
                        string)
    return [(keys, string), (slices, string)]


def _export_save_bundle(writer, op):
    prefix, refs = op._inputs[0], op._inputs[1:]
    save = writer.unique(f"{op.name}/SaveV2")
    inputs = [(tensor_name(prefix), prefix.dtype), *_names_and_slices(writer, op, op._attrs["names"])]
    writer.node("SaveV2", save, inputs + [(tensor_name(r), r.dtype) for r in refs], device=op.device,
                controls=[c.name for c in op._control_inputs])
    writer.op_node(op, "Identity", inputs=[(tensor_name(prefix), prefix.dtype)], attrs={}, controls=[save])


def _export_restore_bundle(writer, op):
    prefix, refs = op._inputs[0], op._inputs[1:]
    restore = writer.unique(f"{op.name}/RestoreV2")
    bases = [r.dtype.base_dtype for r in refs]
    inputs = [(tensor_name(prefix), prefix.dtype), *_names_and_slices(writer, op, op._attrs["names"])]
    writer.node("RestoreV2", restore, inputs, {"dtypes": bases}, [(d, TensorShape(None)) for d in bases],
                op.device, [c.name for c in op._control_inputs])
    assigns = []
    for i, ref in enumerate(refs):
        assign = writer.unique(f"{op.name}/Assign" + (f"_{i}" if i else ""))
        value = restore if i == 0 else f"{restore}:{i}"
        writer.node("Assign", assign, [(tensor_name(ref), ref.dtype), (value, bases[i])],
                    {"validate_shape": True, "use_locking": True}, [(ref.dtype, ref.shape)], ref.device,
                    colocation=ref.op._colocation or (ref.op.name,))
        assigns.append(assign)
    writer.op_node(op, "NoOp", inputs=[], attrs={}, controls=assigns)


_TENSOR_ARRAY_OPS = ("TensorArrayV3", "TensorArrayReadV3", "TensorArrayWriteV3", "TensorArrayScatterV3",
                     "TensorArraySplitV3", "TensorArrayConcatV3", "TensorArrayGatherV3")


def _export_tensor_array(writer, op):
    """TensorFlow's attrs only: numflow's own (a dtype TensorFlow derives from the value, a read's
    static shape, the kernel's copies of a shape as a tuple) are made again when read."""
    from numflow.framework import op_defs

    known = {a.name for a in op_defs.get(op.type).attr}
    attrs = {k: v for k, v in op._attrs.items() if k in known and not k.startswith("element_shape_")}
    if op.type == "TensorArrayConcatV3":
        attrs["element_shape_except0"] = op._attrs["element_shape_except0_shape"]
    writer.op_node(op, attrs=attrs)


EXPORTS = {
    **dict.fromkeys(REDUCTIONS, _export_reduction),
    **dict.fromkeys(_NORMALS, _export_normal),
    "RandomUniform": _export_uniform,
    "RandomUniformInt": _export_uniform_int,
    "FillValue": _export_fill_value,
    "NfSumToShape": _export_sum_to_shape,
    "SaveBundle": _export_save_bundle,
    "RestoreBundle": _export_restore_bundle,
    **dict.fromkeys(_TENSOR_ARRAY_OPS, _export_tensor_array),
}


# -- imports ----------------------------------------------------------------------------------
# TensorFlow's inputs stay inputs (a graph read back writes the same nodes); what numflow keeps as
# attrs is filled in from them when they are constant.
def _import_reduction(inputs, attrs, constant_of):
    axes = constant_of(inputs[1])
    return inputs, {**attrs, "axis": None if axes is None else tuple(int(a) for a in np.ravel(axes))}


def _static_shape(inputs, attrs, constant_of):
    value = constant_of(inputs[0])
    return inputs, {**attrs, "shape": None if value is None else TensorShape([int(d) for d in np.ravel(value)])}


def _import_normal(inputs, attrs, constant_of):
    inputs, attrs = _static_shape(inputs, attrs, constant_of)
    return inputs, {**attrs, "mean": 0.0, "stddev": 1.0}


def _import_uniform(inputs, attrs, constant_of):
    inputs, attrs = _static_shape(inputs, attrs, constant_of)
    return inputs, {**attrs, "minval": 0.0, "maxval": 1.0}


def _import_uniform_int(inputs, attrs, constant_of):
    bounds = [constant_of(t) for t in inputs[1:]]
    if any(b is None for b in bounds):
        raise ValueError("numflow's RandomUniformInt needs minval and maxval known when the graph is built")
    inputs, attrs = _static_shape(inputs, attrs, constant_of)
    return inputs, {**attrs, "dtype": attrs["Tout"], "minval": int(np.ravel(bounds[0])[0]),
                    "maxval": int(np.ravel(bounds[1])[0])}


def _dims(shape):
    return None if shape.ndims is None else tuple(shape.dim_values)


def _import_tensor_array(inputs, attrs, constant_of):
    shape = attrs.get("element_shape", TensorShape(None))
    return inputs, {**attrs, "element_shape_dims": _dims(shape)}


def _import_tensor_array_write(inputs, attrs, constant_of):
    return inputs, {**attrs, "dtype": attrs["T"]}


def _import_tensor_array_read(inputs, attrs, constant_of):
    return inputs, {"element_shape": TensorShape(None), **attrs}


def _import_tensor_array_concat(inputs, attrs, constant_of):
    rest = attrs.get("element_shape_except0", TensorShape(None))
    return inputs, {**attrs, "element_shape_except0": _dims(rest), "element_shape_except0_shape": rest}


IMPORTS = {
    **dict.fromkeys(REDUCTIONS, _import_reduction),
    **dict.fromkeys(_NORMALS, _import_normal),
    "RandomUniform": _import_uniform,
    "RandomUniformInt": _import_uniform_int,
    "TensorArrayV3": _import_tensor_array,
    **dict.fromkeys(("TensorArrayWriteV3", "TensorArrayScatterV3", "TensorArraySplitV3"), _import_tensor_array_write),
    "TensorArrayConcatV3": _import_tensor_array_concat,
    "TensorArrayReadV3": _import_tensor_array_read,
}


def _register_control_flow():
    from numflow.ops.control_flow_export import EXPORTS as control_flow

    EXPORTS.update(control_flow)


_register_control_flow()
