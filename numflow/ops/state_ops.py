"""Variable ops: the variable itself, assignments, scatter updates and the initialized check."""

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import merge_dims


@declare("VariableV2", stateful=True, ref_output=True)
def _variable_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
    """The op holding a variable's buffer; its tensor is a reference (dtype ``float32_ref``...)."""
    attrs = {"shape": as_shape(shape), "dtype": dtypes.as_dtype(dtype).base_dtype,
             "container": container, "shared_name": shared_name}
    return get_default_graph().create_op("VariableV2", [], attrs, name=name).outputs[0]


def _update_infer(op):
    ref, value = op._inputs
    if ref.dtype.base_dtype is not value.dtype.base_dtype:
        raise TypeError(
            f"Input 'value' of '{op.type}' Op has type {value.dtype.base_dtype.name} that does not match "
            f"type {ref.dtype.base_dtype.name} of argument 'ref'."
        )
    shape = ref.shape
    if shape.dim_values == value.shape.dim_values and shape.is_fully_defined():
        return [(ref.dtype, shape)]  # the common case: an initializer or update of the variable's shape
    if op._attrs.get("validate_shape", True):
        shape = _merged(shape, value.shape)
    else:
        shape = value.shape
    return [(ref.dtype, shape)]


def _merged(a, b):
    """The merge of static shapes ``a`` and ``b``; ValueError in TensorFlow's words when they conflict."""
    if a.ndims is None or b.ndims is None:
        return a.merge_with(b)
    if a.ndims != b.ndims:
        raise ValueError(f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}")
    da, db = a.dim_values, b.dim_values
    return TensorShape([merge_dims(x, y, i, da, db) for i, (x, y) in enumerate(zip(da, db))])


# TF's "numbertype": what AssignAdd/Sub and ScatterAdd/Sub take (no bool, no string).
_NUMBER_TYPES = ("float32, float64, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, "
                 "qint16, quint16, uint16, complex128, float16, uint32, uint64")


def _check_number_type(op):
    dtype = op._inputs[0].dtype.base_dtype
    if not dtype.is_numeric:
        raise TypeError(f"Value passed to parameter 'ref' has DataType {dtype.name} not in list of allowed values: "
                        f"{_NUMBER_TYPES}")


def _arithmetic_update_infer(op):
    _check_number_type(op)
    return _update_infer(op)


declare("Assign", stateful=True, ref_inputs=(0,), ref_output=True)(_update_infer)
for _op_type in ("AssignAdd", "AssignSub"):
    declare(_op_type, stateful=True, ref_inputs=(0,), ref_output=True)(_arithmetic_update_infer)


def _ref_of(ref):
    """The reference tensor of a Variable or reference tensor ``ref``."""
    tensor = ref._ref() if hasattr(ref, "_ref") else ref
    if not tensor.dtype._is_ref_dtype:
        raise TypeError(
            f"'{getattr(ref, 'name', ref)}' is not a variable: assignments need a tf.Variable (or its reference "
            "tensor), not a value."
        )
    return tensor


def _convert_input(value, dtype, op_type, arg):
    """``value`` as the tensor input ``arg`` of ``op_type``, named ``<op>/<arg>`` as TF names it.

    A tensor keeps its dtype (a mismatch is the op's TypeError); a Python value must fit ``dtype``.
    """
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return convert_to_tensor(value)
    try:
        return convert_to_tensor(value, dtype=dtype, name=arg)
    except TypeError as e:
        raise TypeError(f"Expected {dtype.name} passed to parameter '{arg}' of op '{op_type}', got {value!r} of "
                        f"type '{type(value).__name__}' instead. Error: {e}") from None


def _update(op_type, ref, value, name, attrs):
    graph = get_default_graph()
    tensor = _ref_of(ref)
    with graph.name_scope(name or op_type) as scope:
        value = _convert_input(value, tensor.dtype.base_dtype, op_type, "value")
        with graph.colocate_with(tensor.op):
            return graph.create_op(op_type, [tensor, value], attrs, name=scope).outputs[0]


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """Write ``value`` into variable ``ref``; the result is the variable after the write."""
    attrs = {"validate_shape": True if validate_shape is None else bool(validate_shape),
             "use_locking": True if use_locking is None else bool(use_locking)}
    return _update("Assign", ref, value, name, attrs)


def assign_add(ref, value, use_locking=None, name=None):
    """Add ``value`` to variable ``ref`` in place; the result is the variable after the update."""
    return _update("AssignAdd", ref, value, name, {"use_locking": bool(use_locking)})


def assign_sub(ref, value, use_locking=None, name=None):
    """Subtract ``value`` from variable ``ref`` in place; the result is the variable after the update."""
    return _update("AssignSub", ref, value, name, {"use_locking": bool(use_locking)})


def _scatter_infer(op):
    ref, indices, updates = op.inputs
    if not indices.dtype.is_integer:
        raise TypeError(f"Value passed to parameter 'indices' has DataType {indices.dtype.name} not in list of "
                        "allowed values: int32, int64")
    if ref.dtype.base_dtype != updates.dtype.base_dtype:
        raise TypeError(
            f"Input 'updates' of '{op.type}' Op has type {updates.dtype.base_dtype.name} that does not match "
            f"type {ref.dtype.base_dtype.name} of argument 'ref'."
        )
    if ref.shape.ndims is not None and indices.shape.ndims is not None and updates.shape.ndims not in (None, 0):
        expected = indices.shape.concatenate(ref.shape[1:])  # or a scalar, written to every row named
        _merged(updates.shape, expected)
    return [(ref.dtype, ref.shape)]


def _arithmetic_scatter_infer(op):
    _check_number_type(op)
    return _scatter_infer(op)


declare("ScatterUpdate", stateful=True, ref_inputs=(0,), ref_output=True)(_scatter_infer)
for _op_type in ("ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv"):
    declare(_op_type, stateful=True, ref_inputs=(0,), ref_output=True)(_arithmetic_scatter_infer)


_MAX_MIN_TYPES = "float16, bfloat16, float32, float64, int32, int64"


def _max_min_scatter_infer(op):
    dtype = op._inputs[0].dtype.base_dtype
    if dtype.name not in _MAX_MIN_TYPES.split(", "):
        raise TypeError(f"Value passed to parameter 'ref' has DataType {dtype.name} not in list of allowed values: "
                        f"{_MAX_MIN_TYPES}")
    return _scatter_infer(op)


for _op_type in ("ScatterMax", "ScatterMin"):
    declare(_op_type, stateful=True, ref_inputs=(0,), ref_output=True)(_max_min_scatter_infer)


def _scatter(op_type, ref, indices, updates, use_locking, name):
    graph = get_default_graph()
    tensor = _ref_of(ref)
    with graph.name_scope(name or op_type) as scope:
        indices = convert_to_tensor(indices, name="indices")
        updates = _convert_input(updates, tensor.dtype.base_dtype, op_type, "updates")
        attrs = {"Tindices": indices.dtype, "use_locking": bool(use_locking)}
        with graph.colocate_with(tensor.op):
            return graph.create_op(op_type, [tensor, indices, updates], attrs, name=scope).outputs[0]


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    """``ref[indices[i], ...] = updates[i, ...]``; the result is the variable after the update."""
    return _scatter("ScatterUpdate", ref, indices, updates, use_locking, name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices[i], ...] += updates[i, ...]`` (repeated indices add up)."""
    return _scatter("ScatterAdd", ref, indices, updates, use_locking, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices[i], ...] -= updates[i, ...]`` (repeated indices add up)."""
    return _scatter("ScatterSub", ref, indices, updates, use_locking, name)


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices[i], ...] *= updates[i, ...]`` (repeated indices multiply in turn)."""
    return _scatter("ScatterMul", ref, indices, updates, use_locking, name)


def scatter_div(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices[i], ...] /= updates[i, ...]`` (integers truncate toward zero)."""
    return _scatter("ScatterDiv", ref, indices, updates, use_locking, name)


def scatter_max(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices[i], ...] = max(ref[indices[i], ...], updates[i, ...])``."""
    return _scatter("ScatterMax", ref, indices, updates, use_locking, name)


def scatter_min(ref, indices, updates, use_locking=False, name=None):
    """``ref[indices[i], ...] = min(ref[indices[i], ...], updates[i, ...])``."""
    return _scatter("ScatterMin", ref, indices, updates, use_locking, name)


@declare("IsVariableInitialized", ref_inputs=(0,))
def _is_initialized_infer(op):
    return [(dtypes.bool, TensorShape([]))]


def is_variable_initialized(ref, name=None):
    """A bool scalar: whether variable ``ref`` holds a value in the running session."""
    graph = get_default_graph()
    tensor = _ref_of(ref)
    with graph.colocate_with(tensor.op):
        return graph.create_op("IsVariableInitialized", [tensor], name=name or "IsVariableInitialized").outputs[0]
