"""Keras' reshaping layers: ZeroPadding1D/2D/3D, Cropping1D/2D/3D, UpSampling1D/2D/3D, RepeatVector and Permute,
computed by the backend functions Keras' own call (``temporal_padding``, ``resize_images``...)."""

from numflow.framework.shapes import TensorShape
from numflow.keras import backend
from numflow.keras.engine.base_layer import Layer
from numflow.layers.input_spec import InputSpec
from numflow.layers.utils import normalize_data_format, normalize_tuple
from numflow.ops import array_ops

_ORDINALS = ("1st", "2nd", "3rd")


def _data_format(value):
    return normalize_data_format(value or backend.image_data_format())


def _spatial_axes(rank, data_format):
    """The axes of the ``rank`` spatial dimensions of a ``rank + 2``-D tensor."""
    first = 2 if data_format == "channels_first" else 1
    return list(range(first, first + rank))


def _pairs(value, rank, name):
    """``value`` (an int, ``rank`` ints, or ``rank`` pairs) as ``rank`` (before, after) pairs, as Keras reads a
    padding or a cropping."""
    if isinstance(value, int):
        return ((value, value),) * rank
    if not hasattr(value, "__len__"):
        raise ValueError(f"`{name}` should be either an int, a tuple of {rank} ints, or a tuple of {rank} tuples of "
                         f"2 ints. Received: {value}.")
    if len(value) != rank:
        raise ValueError(f"`{name}` should have {'two' if rank == 2 else rank} elements. Received: {value}.")
    return tuple(normalize_tuple(v, 2, f"{_ORDINALS[i]} entry of {name}", allow_zero=True)
                 for i, v in enumerate(value))


class _Spatial(Layer):
    """A layer over the ``rank`` spatial axes of its inputs, each given a (before, after) pair of ``amounts``."""

    rank = 1
    sign = 1

    def _resize(self, dims, amounts):
        for axis, (before, after) in zip(_spatial_axes(self.rank, self.data_format), amounts):
            dims[axis] = None if dims[axis] is None else dims[axis] + self.sign * (before + after)
        return TensorShape(dims)


class _ZeroPadding(_Spatial):
    _config_keys = ("padding", "data_format")

    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = "channels_last" if self.rank == 1 else _data_format(data_format)
        self.padding = (normalize_tuple(padding, 2, "padding", allow_zero=True) if self.rank == 1
                        else _pairs(padding, self.rank, "padding"))
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        if self.rank == 1:
            return backend.temporal_padding(inputs, padding=self.padding)
        pad = backend.spatial_2d_padding if self.rank == 2 else backend.spatial_3d_padding
        return pad(inputs, padding=self.padding, data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        padding = (self.padding,) if self.rank == 1 else self.padding
        return self._resize(TensorShape(input_shape).as_list(), padding)


class ZeroPadding1D(_ZeroPadding):
    """Zeros before and after the steps: ``padding`` an int or a (before, after) pair."""

    _config_keys = ("padding",)

    def __init__(self, padding=1, **kwargs):
        super().__init__(padding, **kwargs)


class ZeroPadding2D(_ZeroPadding):
    """Zeros around the rows and columns: ``padding`` an int, (rows, columns), or ((top, bottom), (left, right))."""

    rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Zeros around the three spatial axes: ``padding`` an int, 3 ints, or 3 (before, after) pairs."""

    rank = 3

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class _Cropping(_Spatial):
    sign = -1

    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = "channels_last" if self.rank == 1 else _data_format(data_format)
        self.cropping = (normalize_tuple(cropping, 2, "cropping", allow_zero=True) if self.rank == 1
                         else _pairs(cropping, self.rank, "cropping"))
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _amounts(self):
        return (self.cropping,) if self.rank == 1 else self.cropping

    def call(self, inputs):
        axes = _spatial_axes(self.rank, self.data_format)
        dims = inputs.shape.as_list()
        if any(dims[axis] is not None and sum(pair) >= dims[axis] for axis, pair in zip(axes, self._amounts())):
            what = "cropping parameter of Cropping layer" if self.rank == 1 else "Argument `cropping`"
            raise ValueError(f"{what} must be greater than the input shape. Received: inputs.shape={inputs.shape}, "
                             f"and cropping={self.cropping}")
        index = [slice(None)] * len(dims)
        for axis, (start, end) in zip(axes, self._amounts()):
            index[axis] = slice(start, -end if end else None)
        return inputs[tuple(index)]

    def compute_output_shape(self, input_shape):
        return self._resize(TensorShape(input_shape).as_list(), self._amounts())


class Cropping1D(_Cropping):
    """The steps without ``cropping`` (an int or a (before, after) pair) at each end."""

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping, **kwargs)


class Cropping2D(_Cropping):
    """The rows and columns without ``cropping`` (an int, (rows, columns) or ((top, bottom), (left, right)))."""

    rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """The three spatial axes without ``cropping`` (an int, 3 ints or 3 (before, after) pairs)."""

    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class _UpSampling(Layer):
    rank = 1
    _config_keys = ("size", "data_format")

    def __init__(self, size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = "channels_last" if self.rank == 1 else _data_format(data_format)
        self.size = (int(size),) if self.rank == 1 else normalize_tuple(size, self.rank, "size")
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        for axis, factor in zip(_spatial_axes(self.rank, self.data_format), self.size):
            dims[axis] = None if dims[axis] is None else dims[axis] * factor
        return TensorShape(dims)


class UpSampling1D(_UpSampling):
    """Each step repeated ``size`` times."""

    _config_keys = ("size",)

    def __init__(self, size=2, **kwargs):
        super().__init__(size, **kwargs)

    def call(self, inputs):
        return backend.repeat_elements(inputs, self.size[0], axis=1)


class UpSampling2D(_UpSampling):
    """The rows and columns scaled by ``size`` (``tf.image.resize`` by ``interpolation``, nearest by default)."""

    rank = 2

    _config_keys = ("size", "data_format", "interpolation")

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size, data_format, **kwargs)
        supported = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
        if interpolation not in supported:
            raise NotImplementedError(f"Value not recognized for `interpolation`: {interpolation}. Supported values "
                                      f"are: dict_keys({list(supported)})")
        self.interpolation = interpolation

    def call(self, inputs):
        return backend.resize_images(inputs, self.size[0], self.size[1], self.data_format,
                                     interpolation=self.interpolation)


class UpSampling3D(_UpSampling):
    """Each element of the three spatial axes repeated ``size`` times."""

    rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format, **kwargs)

    def call(self, inputs):
        return backend.resize_volumes(inputs, *self.size, self.data_format)


class RepeatVector(Layer):
    """``[batch, features]`` to ``[batch, n, features]``."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return backend.repeat(inputs, self.n)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        return TensorShape([dims[0], self.n, dims[1]])


class Permute(Layer):
    """The axes after the batch permuted by ``dims`` (numbered from 1)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return array_ops.transpose(inputs, perm=(0, *self.dims))

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        return TensorShape([dims[0], *(dims[d] for d in self.dims)])


class Identity(Layer):
    """Its inputs (each tensor of a nested structure through an ``Identity`` op)."""

    def call(self, inputs):
        from numflow.framework import nest

        return nest.map_structure(array_ops.identity, inputs)

    def compute_output_shape(self, input_shape):
        return input_shape
