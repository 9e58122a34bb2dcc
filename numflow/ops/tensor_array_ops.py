"""``tf.TensorArray``: a list of tensors that ops write and read by index, as TensorFlow 1.x builds it.

A TensorArray is a handle (``TensorArrayV3:0``, the array made in each run) and a flow
(``TensorArrayV3:1``, a float32 scalar). Every op that changes the array takes the flow and returns
a new one, and each such call returns a new ``TensorArray`` object over the same handle with the new
flow: the flows order the ops, and carry the array through ``tf.while_loop`` and ``tf.cond`` as a
loop variable or a branch result. Gradients are TensorFlow's (``tensor_array_grad.py``): the
gradient of a read is a write into the array's gradient array (one per gradient source,
``TensorArrayGradV3``), the gradient of a write is a read of it; stack and unstack (gather and
scatter), concat and split mirror each other the same way.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ta = tf.TensorArray(tf.float32, size=3)
...     ta = ta.write(0, 1.0).write(1, 2.0).write(2, 3.0)
...     with tf.Session() as sess:
...         sess.run(ta.stack()).tolist()
[1.0, 2.0, 3.0]
"""

from numflow.framework import dtypes, errors
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import static_value

_SCALAR = TensorShape([])


@declare("TensorArrayV3", stateful=True)
def _create_infer(op):
    return [(dtypes.resource, TensorShape([2])), (dtypes.float32, _SCALAR)]


@declare("TensorArrayGradV3", stateful=True)
def _grad_infer(op):
    return [(dtypes.resource, TensorShape([2])), (dtypes.float32, _SCALAR)]


@declare("TensorArrayReadV3", stateful=True)
def _read_infer(op):
    return [(op._attrs["dtype"], op._attrs["element_shape"])]


@declare("TensorArrayGatherV3", stateful=True)
def _gather_infer(op):
    shape = op._attrs["element_shape"]
    return [(op._attrs["dtype"], TensorShape([None]).concatenate(shape))]


@declare("TensorArrayConcatV3", stateful=True)
def _concat_infer(op):
    rest = op._attrs["element_shape_except0_shape"]
    return [(op._attrs["dtype"], TensorShape([None]).concatenate(rest)), (dtypes.int64, TensorShape([None]))]


@declare("TensorArrayWriteV3", stateful=True)
@declare("TensorArraySplitV3", stateful=True)
def _flow_infer(op):
    return [(dtypes.float32, _SCALAR)]


@declare("TensorArrayScatterV3", stateful=True)
def _scatter_infer(op):
    indices, value = op.inputs[1].shape, op.inputs[2].shape
    if indices.ndims and value.ndims:
        rows, values = indices.dim_values[0], value.dim_values[0]
        if None not in (rows, values) and rows != values:
            raise ValueError(f"Dimensions must be equal, but are {values} and {rows}")
    return [(dtypes.float32, _SCALAR)]


@declare("TensorArraySizeV3")
def _size_infer(op):
    return [(dtypes.int32, _SCALAR)]


@declare("TensorArrayCloseV3", stateful=True)
def _close_infer(op):
    return []


def _dims(shape):
    return None if shape.ndims is None else tuple(shape.dim_values)


class TensorArray:
    """A list of tensors of one dtype, written and read by index inside a graph (TensorFlow's
    ``tf.TensorArray`` of 1.x graphs; see the module docstring).

    Parameters
    ----------
    dtype : DType
        The elements' dtype.
    size : int or int32 scalar Tensor, optional
        The number of elements (required unless ``handle`` is given).
    dynamic_size : bool
        Let writes past the end grow the array.
    clear_after_read : bool
        Free an element when it is read (default True): reading it twice is an error.
    tensor_array_name, handle, flow : optional
        A name for the array; or the handle and flow of an existing one.
    infer_shape : bool
        Require every element to have one shape, learnt from the first write when ``element_shape``
        is not given.
    element_shape : TensorShape, optional
        The elements' shape.
    colocate_with_first_write_call : bool
        Accepted, as in TensorFlow (numflow places the array's ops like any others).
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        if handle is not None and tensor_array_name:
            raise ValueError("Cannot provide both `handle` and `tensor_array_name` arguments at the same time.")
        if handle is not None and not isinstance(handle, Tensor):
            raise TypeError(f"Expected `handle` to be a Tensor, but got `{handle}` of type `{type(handle)}` instead.")
        if handle is None and size is None:
            raise ValueError("Argument `size` must be provided if handle is not provided.")
        for given, arg in ((size, "size"), (element_shape, "element_shape"), (dynamic_size, "dynamic_size"),
                           (clear_after_read, "clear_after_read")):
            if handle is not None and given is not None:
                raise ValueError(f"Argument `{arg}` should be None if `handle` is not None.")
        self._dtype = dtypes.as_dtype(dtype).base_dtype
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        self._element_shape = [as_shape(element_shape)]  # shared by the arrays of later flows, as TF's
        self._size = size
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArray") as scope:
            if handle is not None:
                if flow is None:
                    raise ValueError("flow must not be None if handle is not None.")
                self._handle, self._flow = handle, flow
                return
            size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
            attrs = {"dtype": self._dtype, "element_shape": self._element_shape[0],
                     "element_shape_dims": _dims(self._element_shape[0]), "identical_element_shapes": infer_shape,
                     "dynamic_size": self._dynamic_size,
                     "clear_after_read": True if clear_after_read is None else bool(clear_after_read),
                     "tensor_array_name": tensor_array_name or ""}
            with graph.device(None), graph.colocate_with(None, ignore_existing=True):
                op = graph.create_op("TensorArrayV3", [size], attrs, name=scope)
            self._handle, self._flow = op.outputs

    dtype = property(lambda self: self._dtype)
    handle = property(lambda self: self._handle)
    flow = property(lambda self: self._flow, doc="The float32 scalar that orders the array's ops.")
    dynamic_size = property(lambda self: self._dynamic_size)
    element_shape = property(lambda self: self._element_shape[0], doc="The elements' static shape, as far as known.")

    def _with_flow(self, flow):
        """A TensorArray over the same handle at ``flow`` (TensorFlow's ``build_ta_with_new_flow``)."""
        ta = TensorArray(self._dtype, handle=self._handle, flow=flow, infer_shape=self._infer_shape)
        ta._dynamic_size, ta._size, ta._element_shape = self._dynamic_size, self._size, self._element_shape
        return ta

    # how a TensorArray travels through tf.while_loop and tf.cond (control_flow_util.leaf_tensors)
    def _control_flow_components(self):
        return [self._flow]

    def _control_flow_rebuild(self, tensors):
        return self._with_flow(tensors[0])

    def _check_element_shape(self, shape):
        if not shape.is_compatible_with(self.element_shape):
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected {self.element_shape} ")
        if self._infer_shape:
            self._element_shape[0] = self.element_shape.merge_with(shape)

    def _check_dtype(self, value):
        if value.dtype.base_dtype != self._dtype:
            raise errors.InvalidArgumentError(
                None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                            f"{value.dtype.base_dtype.name} ")

    def _op(self, op_type, inputs, attrs=None, name=None):
        return get_default_graph().create_op(op_type, [self._handle, *inputs], attrs, name=name or op_type).outputs

    def identity(self):
        """The same array at a new flow: a place for control dependencies."""
        return self._with_flow(array_ops.identity(self._flow))

    def grad(self, source, flow=None, name=None):
        """The gradient array of this one for gradient ``source`` (made in the run on first use)."""
        graph = get_default_graph()
        flow = self._flow if flow is None else flow
        with graph.name_scope(name or "TensorArrayGrad"):
            with graph.colocate_with(self._handle):
                g_handle, _ = self._op("TensorArrayGradV3", [flow], {"source": source}, name="TensorArrayGradV3")
            with graph.control_dependencies([g_handle]):
                flow = array_ops.identity(flow, name="gradient_flow")
            g = TensorArray(self._dtype, handle=g_handle, flow=flow, infer_shape=self._infer_shape)
            g._element_shape = self._element_shape
            return g

    def read(self, index, name=None):
        """Element ``index`` (an int32 scalar)."""
        index = convert_to_tensor(index, dtype=dtypes.int32)
        (value,) = self._op("TensorArrayReadV3", [index, self._flow],
                            {"dtype": self._dtype, "element_shape": self.element_shape}, name=name)
        return value

    def write(self, index, value, name=None):
        """The array with element ``index`` set to ``value`` (each element is written once)."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayWrite"):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_dtype(value)
            self._check_element_shape(value.shape)
            index = convert_to_tensor(index, dtype=dtypes.int32)
            (flow,) = self._op("TensorArrayWriteV3", [index, value, self._flow], {"dtype": self._dtype})
            return self._with_flow(flow)

    def gather(self, indices, name=None):
        """The elements at ``indices``, stacked along a new first axis."""
        indices = convert_to_tensor(indices, dtype=dtypes.int32)
        (value,) = self._op("TensorArrayGatherV3", [indices, self._flow],
                            {"dtype": self._dtype, "element_shape": self.element_shape}, name=name)
        return value

    def stack(self, name=None):
        """Every element, stacked along a new first axis (TensorFlow's gather of ``range(size)``)."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayStack"):
            value = self.gather(math_ops.range(0, self.size()), name=name)
            size = static_value(convert_to_tensor(self._size)) if self._size is not None else None
            if self.element_shape.ndims is not None and not self._dynamic_size and size is not None:
                value.set_shape([int(size)] + self.element_shape.dim_values)
            return value

    def scatter(self, indices, value, name=None):
        """The array with the rows of ``value`` written at ``indices``."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayScatter"):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_dtype(value)
            self._check_element_shape(value.shape[1:])
            indices = convert_to_tensor(indices, dtype=dtypes.int32)
            (flow,) = self._op("TensorArrayScatterV3", [indices, value, self._flow], {"dtype": self._dtype})
            return self._with_flow(flow)

    def unstack(self, value, name=None):
        """The array with ``value``'s rows as its elements 0, 1, ..."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayUnstack"):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            return self.scatter(math_ops.range(0, array_ops.shape(value)[0]), value, name=name)

    def concat(self, name=None):
        """Every element concatenated along its first axis."""
        rest = self.element_shape[1:] if self.element_shape.ndims is not None else TensorShape(None)
        value, _ = self._op("TensorArrayConcatV3", [self._flow],
                            {"dtype": self._dtype, "element_shape_except0": _dims(rest),
                             "element_shape_except0_shape": rest}, name=name)
        return value

    def split(self, value, lengths, name=None):
        """The array with ``value`` cut along its first axis into pieces of ``lengths`` rows."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArraySplit"):
            value = convert_to_tensor(value, dtype=self._dtype, name="value")
            lengths = math_ops.cast(lengths, dtypes.int64)
            known = static_value(lengths)
            if value.shape.ndims is not None and known is not None and known.size and known.max() == known.min():
                self._check_element_shape(TensorShape([int(known[0])]).concatenate(value.shape[1:]))
            (flow,) = self._op("TensorArraySplitV3", [value, lengths, self._flow], {"dtype": self._dtype})
            return self._with_flow(flow)

    def size(self, name=None):
        """The number of elements (an int32 scalar)."""
        (value,) = self._op("TensorArraySizeV3", [self._flow], name=name)
        return value

    def close(self, name=None):
        """An op that closes the array: later ops on it fail."""
        return get_default_graph().create_op("TensorArrayCloseV3", [self._handle], name=name or "TensorArrayCloseV3")


# -- gradients (TensorFlow's tensor_array_grad.py) -------------------------------------------------------
not_differentiable("TensorArrayV3", "TensorArrayGradV3", "TensorArraySizeV3", "TensorArrayCloseV3")


def _grad_source(tensor):
    """The gradient source a gradient tensor belongs to: its name up to the last ``gradients`` scope."""
    tokens = tensor.name.split("/")
    positions = [i for i, token in enumerate(tokens) if token.startswith("gradients")]
    if not positions:
        raise ValueError(f"Expected op/tensor name to start with gradients (excluding scope), got: {tensor.name}")
    return "/".join(tokens[:positions[-1] + 1])


def _gradient_array(op, grad, flow):
    forward = TensorArray(op._attrs["dtype"], handle=op._inputs[0], flow=flow)
    return forward.grad(_grad_source(grad), flow=flow)


def _barrier(op, flow):
    """``flow`` once ``op`` (a write) has run: the gradient reads what the write wrote only after it."""
    graph = get_default_graph()
    flow_out = array_ops.identity(op._outputs[0], name="flow_out")
    with graph.control_dependencies([flow_out]):
        return array_ops.identity(flow, name="write_barrier")


@register_gradient("TensorArrayReadV3")
def _read_grad(op, grad):
    g = _gradient_array(op, grad, op._inputs[2])
    return [None, None, g.write(op._inputs[1], grad).flow]


@register_gradient("TensorArrayWriteV3")
def _write_grad(op, flow):
    flow = _barrier(op, flow)
    g = _gradient_array(op, flow, flow)
    return [None, None, g.read(op._inputs[1]), flow]


@register_gradient("TensorArrayGatherV3")
def _gather_grad(op, grad):
    g = _gradient_array(op, grad, op._inputs[2])
    return [None, None, g.scatter(op._inputs[1], grad).flow]


@register_gradient("TensorArrayScatterV3")
def _scatter_grad(op, flow):
    flow = _barrier(op, flow)
    g = _gradient_array(op, flow, flow)
    return [None, None, g.gather(op._inputs[1]), flow]


@register_gradient("TensorArrayConcatV3")
def _concat_grad(op, grad, unused_lengths_grad):
    g = _gradient_array(op, grad, op._inputs[1])
    return [None, g.split(grad, lengths=op._outputs[1]).flow]


@register_gradient("TensorArraySplitV3")
def _split_grad(op, flow):
    flow = _barrier(op, flow)
    g = _gradient_array(op, flow, flow)
    return [None, g.concat(), None, flow]
