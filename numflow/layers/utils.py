"""What the layers share: initializers and activations given by name, and the argument checks and output
lengths of the convolutions and pools, with TensorFlow's messages."""

import contextlib

from numflow.ops import init_ops


def _keras_uniform(seed=None):
    return init_ops.RandomUniform(-0.05, 0.05, seed)


def _keras_normal(seed=None):
    return init_ops.RandomNormal(0.0, 0.05, seed)


def _keras_truncated_normal(seed=None):
    return init_ops.TruncatedNormal(0.0, 0.05, seed)


# The names Keras's initializers.get knows in TensorFlow 1.x mode, and what each stands for.
_INITIALIZERS = {
    "constant": init_ops.Constant, "glorot_normal": init_ops.GlorotNormal, "glorot_uniform": init_ops.GlorotUniform,
    "identity": init_ops.Identity, "ones": init_ops.Ones, "one": init_ops.Ones, "orthogonal": init_ops.Orthogonal,
    "variance_scaling": init_ops.VarianceScaling, "zeros": init_ops.Zeros, "zero": init_ops.Zeros,
    "he_normal": init_ops.he_normal, "he_uniform": init_ops.he_uniform, "lecun_normal": init_ops.lecun_normal,
    "lecun_uniform": init_ops.lecun_uniform, "random_uniform": _keras_uniform, "uniform": _keras_uniform,
    "random_normal": _keras_normal, "normal": _keras_normal, "truncated_normal": _keras_truncated_normal,
}


def get_initializer(identifier):
    """An initializer instance for ``identifier``: a name (``"he_normal"``), a class, or an instance."""
    if identifier is None or not isinstance(identifier, str | type):
        return identifier
    if isinstance(identifier, type):
        return identifier()
    make = _INITIALIZERS.get(identifier) or _INITIALIZERS.get(_snake(identifier))
    if make is None:
        raise unknown_object_error("initializer", identifier)
    return make()


def unknown_object_error(kind, name):
    """Keras' ValueError for a name it does not know (``kind``: "initializer", "loss function"...)."""
    return ValueError(f"Unknown {kind}: '{name}'. Please ensure you are using a `keras.utils.custom_object_scope` "
                      "and that this object is included in the scope. See "
                      "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for "
                      "details.")


def _snake(name):
    from numflow.layers.base import to_snake_case

    return to_snake_case(name)


def set_kernel_and_bias(layer, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                        bias_regularizer, kernel_constraint, bias_constraint):
    """Keep a kernel-and-bias layer's options on it (names resolved): what Dense and the convolutions share."""
    layer.activation = get_activation(activation)
    layer.use_bias = use_bias
    layer.kernel_initializer = get_initializer(kernel_initializer)
    layer.bias_initializer = get_initializer(bias_initializer)
    layer.kernel_regularizer = kernel_regularizer
    layer.bias_regularizer = bias_regularizer
    layer.kernel_constraint = kernel_constraint
    layer.bias_constraint = bias_constraint


def get_activation(identifier):
    """The activation function ``identifier`` names (``"relu"``), or ``identifier`` itself (a callable or None)."""
    if identifier is None or callable(identifier):
        return identifier
    from numflow import nn
    from numflow.ops import math_ops

    functions = {"relu": nn.relu, "relu6": nn.relu6, "elu": nn.elu, "selu": nn.selu, "softplus": nn.softplus,
                 "softsign": nn.softsign, "softmax": nn.softmax, "sigmoid": math_ops.sigmoid, "tanh": math_ops.tanh,
                 "linear": lambda x: x}
    if identifier not in functions:
        raise unknown_object_error("activation function", identifier)
    return functions[identifier]


@contextlib.contextmanager
def naming_layer(layer):
    """Add the layer's name to the ValueError of a bad argument (TensorFlow's message names only the argument)."""
    try:
        yield
    except ValueError as e:
        raise ValueError(f'{e} (layer "{layer.name}")') from None


def normalize_tuple(value, n, name, allow_zero=False):
    """``value`` (an int or ``n`` ints) as a tuple of ``n`` ints; TensorFlow's ValueError otherwise."""
    message = f"The `{name}` argument must be a tuple of {n} integers. Received: {value}"
    if isinstance(value, int):
        values = (value,) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(message) from None
        if len(values) != n:
            raise ValueError(message)
        for v in values:
            try:
                int(v)
            except (ValueError, TypeError):
                raise ValueError(f"{message}including element {v} of type {type(v)}") from None
    bad = {v for v in values if (v < 0 if allow_zero else v <= 0)}
    if bad:
        raise ValueError(f"{message} including {bad} that does not satisfy the requirement "
                         f"`{'>= 0' if allow_zero else '> 0'}`.")
    return values


def normalize_padding(value):
    if isinstance(value, list | tuple):
        return value
    padding = str(value).lower()
    if padding not in ("valid", "same", "causal"):
        raise ValueError('The `padding` argument must be a list/tuple or one of "valid", "same" (or "causal", only '
                         f"for `Conv1D). Received: {padding}")
    return padding


def normalize_data_format(value):
    data_format = "channels_last" if value is None else str(value).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError('The `data_format` argument must be one of "channels_first", "channels_last". Received: '
                         f"{value}")
    return data_format


def convert_data_format(data_format, ndim):
    """``channels_last``/``channels_first`` as the ops' format for rank ``ndim`` (``NHWC``, ``NCDHW``...)."""
    formats = {3: ("NWC", "NCW"), 4: ("NHWC", "NCHW"), 5: ("NDHWC", "NCDHW")}
    if ndim not in formats:
        raise ValueError(f"Input rank not supported: {ndim}. Expected values are [3, 4, 5]")
    return formats[ndim][data_format == "channels_first"]


def conv_output_length(input_length, filter_size, padding, stride, dilation=1):
    """The output length of a convolution or pool along one dimension (None if unknown)."""
    if input_length is None:
        return None
    dilated = filter_size + (filter_size - 1) * (dilation - 1)
    length = input_length if padding in ("same", "causal") else input_length - dilated + 1
    return (length + stride - 1) // stride


def deconv_output_length(input_length, filter_size, padding, output_padding=None, stride=0, dilation=1):
    """The output length of a transposed convolution along one dimension (None if unknown)."""
    if input_length is None:
        return None
    filter_size = filter_size + (filter_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return input_length * stride + max(filter_size - stride, 0)
        return input_length * stride
    pad = filter_size // 2 if padding == "same" else 0
    return (input_length - 1) * stride + filter_size - 2 * pad + output_padding
