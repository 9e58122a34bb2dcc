"""The pooling layers of ``tf.layers`` (MaxPooling1D/2D/3D, AveragePooling1D/2D/3D) and their functional forms,
built as TensorFlow 1.x builds them: ``max_pooling2d/MaxPool``; a 1-D pool as a 2-D one of width 1
(``ExpandDims``, ``MaxPool``, ``Squeeze``); a 3-D pool of ``channels_first`` data between two transposes."""

from numflow.framework.shapes import TensorShape
from numflow.layers import utils
from numflow.layers.base import Layer, apply_functional
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops, pool_ops


class _Pooling(Layer):
    """Max or average pooling over ``rank`` spatial dimensions, with windows of ``pool_size`` moved by
    ``strides``; the base of the pooling layers."""

    rank = None
    pool_function = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        if strides is None:
            raise ValueError("Argument `strides` must not be None.")
        super().__init__(name=name, **kwargs)
        with utils.naming_layer(self):
            self.pool_size = utils.normalize_tuple(pool_size, self.rank, "pool_size")
            self.strides = utils.normalize_tuple(strides, self.rank, "strides", allow_zero=True)
            self.padding = utils.normalize_padding(padding)
            self.data_format = utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        first = self.data_format == "channels_first"
        spatial = dims[2:] if first else dims[1:-1]
        lengths = [utils.conv_output_length(length, self.pool_size[i], self.padding, self.strides[i])
                   for i, length in enumerate(spatial)]
        return TensorShape([dims[0], dims[1], *lengths] if first else [dims[0], *lengths, dims[-1]])

    def _pool2d(self, inputs):
        """The 2-D pool of ``inputs``; ``channels_first`` data goes to channels-last and back, as TensorFlow's
        Keras backend does on a CPU."""
        first = self.data_format == "channels_first"
        x = array_ops.transpose(inputs, (0, 2, 3, 1)) if first else inputs
        pool_size, strides = self._window()
        outputs = type(self).pool_function(x, (1, *pool_size, 1), (1, *strides, 1), padding=self.padding.upper(),
                                           data_format="NHWC")
        return array_ops.transpose(outputs, (0, 3, 1, 2)) if first else outputs

    def _window(self):
        return self.pool_size, self.strides


class _Pooling1D(_Pooling):
    rank = 1

    def _window(self):
        return self.pool_size + (1,), self.strides + (1,)

    def call(self, inputs):
        axis = 2 if self.data_format == "channels_last" else 3
        return array_ops.squeeze(self._pool2d(array_ops.expand_dims(inputs, axis)), axis)


class _Pooling2D(_Pooling):
    rank = 2

    def call(self, inputs):
        if self.data_format == "channels_last":
            window, strides = (1, *self.pool_size, 1), (1, *self.strides, 1)
        else:
            window, strides = (1, 1, *self.pool_size), (1, 1, *self.strides)
        return type(self).pool_function(inputs, window, strides, padding=self.padding.upper(),
                                        data_format=utils.convert_data_format(self.data_format, 4))


class _Pooling3D(_Pooling):
    rank = 3

    def call(self, inputs):
        first = self.data_format == "channels_first"
        if first:
            inputs = array_ops.transpose(inputs, (0, 2, 3, 4, 1))
        outputs = type(self).pool_function(inputs, (1, *self.pool_size, 1), (1, *self.strides, 1),
                                           padding=self.padding.upper())
        return array_ops.transpose(outputs, (0, 4, 1, 2, 3)) if first else outputs


class MaxPooling1D(_Pooling1D):
    """Max pooling of ``[batch, steps, channels]`` inputs (``channels_last``)."""

    pool_function = staticmethod(pool_ops.max_pool)


class AveragePooling1D(_Pooling1D):
    """Average pooling of ``[batch, steps, channels]`` inputs (``channels_last``)."""

    pool_function = staticmethod(pool_ops.avg_pool)


class MaxPooling2D(_Pooling2D):
    """Max pooling of ``[batch, height, width, channels]`` inputs (``channels_last``)."""

    pool_function = staticmethod(pool_ops.max_pool)


class AveragePooling2D(_Pooling2D):
    """Average pooling of ``[batch, height, width, channels]`` inputs (``channels_last``)."""

    pool_function = staticmethod(pool_ops.avg_pool)


class MaxPooling3D(_Pooling3D):
    """Max pooling of ``[batch, depth, height, width, channels]`` inputs (``channels_last``)."""

    pool_function = staticmethod(pool_ops.max_pool3d)


class AveragePooling3D(_Pooling3D):
    """Average pooling of ``[batch, depth, height, width, channels]`` inputs (``channels_last``)."""

    pool_function = staticmethod(pool_ops.avg_pool3d)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """:class:`MaxPooling1D` applied to ``inputs``."""
    return apply_functional(MaxPooling1D, locals(), scoped=False)


def average_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """:class:`AveragePooling1D` applied to ``inputs``."""
    return apply_functional(AveragePooling1D, locals(), scoped=False)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """:class:`MaxPooling2D` applied to ``inputs``: the largest value of each ``pool_size`` window.

    Parameters
    ----------
    inputs : Tensor
        ``[batch, height, width, channels]`` (``channels_last``) or ``[batch, channels, height, width]``.
    pool_size, strides : int or tuple of 2 ints
    padding : ``"valid"`` or ``"same"`` (either case)

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     y = tf.layers.max_pooling2d(tf.zeros([2, 8, 8, 3]), 2, 2)
    ...     y.name, y.shape.as_list()
    ('max_pooling2d/MaxPool:0', [2, 4, 4, 3])
    """
    return apply_functional(MaxPooling2D, locals(), scoped=False)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """:class:`AveragePooling2D` applied to ``inputs``."""
    return apply_functional(AveragePooling2D, locals(), scoped=False)


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """:class:`MaxPooling3D` applied to ``inputs``."""
    return apply_functional(MaxPooling3D, locals(), scoped=False)


def average_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """:class:`AveragePooling3D` applied to ``inputs``."""
    return apply_functional(AveragePooling3D, locals(), scoped=False)
