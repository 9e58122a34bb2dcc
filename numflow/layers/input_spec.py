"""``tf.layers.InputSpec``: what a layer accepts (a dtype, a rank, sizes of given axes), and the check of a
layer's inputs against it, with TensorFlow's messages naming the layer and the input."""

from numflow.framework import dtypes, nest
from numflow.framework.shapes import TensorShape


class InputSpec:
    """What a layer accepts: a dtype, a rank (``ndim``, ``min_ndim``, ``max_ndim``), a shape, and sizes
    of given axes (``axes={-1: 4}``). A layer checks its inputs against its ``input_spec`` on every call."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        shape = TensorShape(shape)
        if shape.ndims is None:
            self.ndim, self.shape = ndim, None
        else:
            self.shape = tuple(shape.as_list())
            self.ndim = len(self.shape)
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.optional = optional
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError(f"Axis {max_axis} is greater than the maximum allowed value: {max_dim}")

    def __repr__(self):
        spec = [f"dtype={self.dtype}" if self.dtype else "", f"shape={self.shape}" if self.shape else "",
                f"ndim={self.ndim}" if self.ndim else "", f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                f"min_ndim={self.min_ndim}" if self.min_ndim else "", f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(x for x in spec if x)})"


def _display(shape):
    return str(tuple(shape.as_list()))


def assert_input_compatibility(input_spec, inputs, layer_name):
    """TensorFlow's ValueError (naming the layer and the input) unless ``inputs`` fit ``input_spec``."""
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    inputs = nest.flatten(inputs)
    for x, spec in zip(inputs, specs):
        if spec is not None and not (x is None and spec.optional) and not hasattr(x, "shape"):
            raise TypeError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) as input for layer "
                            f"'{layer_name}'.")
    if len(inputs) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received {len(inputs)} input '
                         f"tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None or (x is None and spec.optional):
            continue
        _check_input(index, x, spec, layer_name)


def _check_input(index, x, spec, layer_name):
    shape = TensorShape(x.shape)
    if shape.ndims is None:
        return
    where = f'Input {index} of layer "{layer_name}" is incompatible with the layer'
    ndim = shape.ndims
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise ValueError(f"{where}: expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: "
                         f"{tuple(shape.as_list())}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(f"{where}: expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(f"{where}: expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full shape received: "
                         f"{tuple(shape.as_list())}")
    if spec.dtype is not None and x.dtype.name != spec.dtype:
        raise ValueError(f"{where}: expected dtype={spec.dtype}, found dtype=<dtype: '{x.dtype.base_dtype.name}'>")
    dims = shape.as_list()
    for axis, value in spec.axes.items():
        if value is not None and dims[int(axis)] not in (value, None):
            raise ValueError(f"{where}: expected axis {axis} of input shape to have value {value}, but received "
                             f"input with shape {_display(shape)}")
    if spec.shape is not None:
        spec_shape = spec.shape
        if spec.allow_last_axis_squeeze:
            dims = dims[:-1] if dims and dims[-1] == 1 else dims
            spec_shape = spec_shape[:-1] if spec_shape and spec_shape[-1] == 1 else spec_shape
        for spec_dim, dim in zip(spec_shape, dims):
            if spec_dim is not None and dim is not None and spec_dim != dim:
                raise ValueError(f"{where}: expected shape={spec.shape}, found shape={_display(shape)}")
