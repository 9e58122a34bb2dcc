"""Keras layers with no ``tf.layers`` twin: Activation, Reshape, Lambda, Embedding, the global pools and the
merges (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate), built with Keras' ops and names."""

import codecs
import marshal
import types

import numpy as np

from numflow.framework.shapes import TensorShape
from numflow.keras import activations, backend, constraints, initializers, regularizers
from numflow.keras.engine.base_layer import Layer, config_value
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops, math_ops


class Activation(Layer):
    """``activation(inputs)``, the activation given by name or as a function."""

    supports_masking = True
    _config_keys = ("activation",)

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape


class Reshape(Layer):
    """``inputs`` reshaped to ``(batch,) + target_shape`` (one entry may be -1)."""

    _config_keys = ("target_shape",)

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        outputs = array_ops.reshape(inputs, (array_ops.shape(inputs)[0], *self.target_shape))
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        return outputs

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        rest = dims[1:]
        target = list(self.target_shape)
        if None not in rest and -1 in target:
            known = int(np.prod([d for d in target if d != -1]))
            total = int(np.prod(rest))
            if known == 0 or total % known:
                raise ValueError(f"total size of new array must be unchanged, input_shape = {rest}, output_shape = "
                                 f"{target}")
            target[target.index(-1)] = total // known
        return TensorShape([dims[0]] + [None if d == -1 else d for d in target])


class Lambda(Layer):
    """``function(inputs, **arguments)`` as a layer."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape

    def call(self, inputs, mask=None, training=None):
        del mask, training
        return self.function(inputs, **self.arguments)

    def get_config(self):
        """tf-keras' config: a Python function as its marshalled bytecode (``function_type`` "lambda"), which
        TensorFlow can load and numflow refuses to; another callable by its name ("function")."""
        config = {**super().get_config(), **_function_config(self.function, "function")}
        if callable(self._output_shape):
            config.update(_function_config(self._output_shape, "output_shape"))
        else:
            config.update({"output_shape": config_value("", self._output_shape), "output_shape_type": "raw",
                           "output_shape_module": None})
        config["arguments"] = self.arguments
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The Lambda layer of a config whose function is named among the custom objects; a ValueError for
        a function stored as bytecode, which numflow never executes."""
        config = dict(config)
        function = _named_function(config, "function", custom_objects)
        output_shape = (_named_function(config, "output_shape", custom_objects)
                        if config.get("output_shape_type") != "raw" else config.get("output_shape"))
        for key in ("function_type", "module", "output_shape_type", "output_shape_module"):
            config.pop(key, None)
        return cls(function, output_shape=output_shape, **{k: v for k, v in config.items()
                                                            if k not in ("function", "output_shape")})


def _function_config(function, key):
    """``function`` under ``key`` as tf-keras writes it in a Lambda layer's config."""
    module_key = "module" if key == "function" else f"{key}_module"
    if isinstance(function, types.FunctionType):
        closure = tuple(cell.cell_contents for cell in function.__closure__) if function.__closure__ else None
        dumped = [codecs.encode(marshal.dumps(function.__code__), "base64").decode("ascii"), function.__defaults__,
                  closure]
        return {key: dumped, f"{key}_type": "lambda", module_key: function.__module__}
    return {key: function.__name__, f"{key}_type": "function", module_key: function.__module__}


def _named_function(config, key, custom_objects):
    """The function ``config[key]`` names among the custom objects; a ValueError for bytecode."""
    from numflow.keras import serialization
    from numflow.layers import utils

    kind = config.get(f"{key}_type")
    if kind == "lambda":
        raise ValueError(f"Lambda layer '{config.get('name')}': its {key} is stored as Python bytecode, and numflow "
                         "never executes code read from a file. Rebuild the model in code and load its weights "
                         "(load_weights), or give the layer a named function passed in custom_objects.")
    found = serialization.get_registered_object(config[key], custom_objects)
    if found is None:
        raise utils.unknown_object_error("function in Lambda layer", config[key])
    return found


class Embedding(Layer):
    """Rows of an ``(input_dim, output_dim)`` ``embeddings`` matrix looked up by integer ids."""

    _config_keys = ("input_dim", "output_dim", "embeddings_initializer", "embeddings_regularizer",
                    "activity_regularizer", "embeddings_constraint", "mask_zero", "input_length")

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None,
                 **kwargs):
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError(f"Both `input_dim` and `output_dim` should be positive, Received input_dim = "
                             f"{input_dim} and output_dim = {output_dim}")
        if "input_shape" not in kwargs:  # (None,) without input_length: a Sequential's first layer has an input
            kwargs["input_shape"] = (input_length,)
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.input_length = input_length

    def build(self, input_shape):
        self.embeddings = self.add_weight(name="embeddings", shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)

    def call(self, inputs):
        from numflow.ops.embedding_ops import embedding_lookup

        if inputs.dtype.base_dtype.name not in ("int32", "int64"):
            inputs = math_ops.cast(inputs, "int32")
        return embedding_lookup(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        """Where the ids are not 0, with ``mask_zero``; else no mask."""
        return math_ops.not_equal(inputs, 0) if self.mask_zero else None

    def _maybe_build(self, inputs):
        dtype = self._dtype
        super()._maybe_build(inputs)
        self._dtype = dtype  # the weights' float type, not the ids'

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape).concatenate(self.output_dim)


def _global_pooling(name, reduce, rank, doc):
    class GlobalPooling(Layer):
        _config_keys = ("data_format", "keepdims")

        def __init__(self, data_format=None, keepdims=False, **kwargs):
            super().__init__(**kwargs)
            self.data_format = "channels_last" if data_format is None else data_format
            self.keepdims = keepdims
            self.input_spec = InputSpec(ndim=rank + 2)

        def _axes(self):
            first = 2 if self.data_format == "channels_first" else 1
            return list(range(first, first + rank))

        def call(self, inputs):
            return reduce(inputs, axis=self._axes(), keepdims=self.keepdims)

        def compute_output_shape(self, input_shape):
            dims = TensorShape(input_shape).as_list()
            axes = self._axes()
            if self.keepdims:
                return TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
            return TensorShape([d for i, d in enumerate(dims) if i not in axes])

    GlobalPooling.__name__ = GlobalPooling.__qualname__ = name
    GlobalPooling.__doc__ = doc
    return GlobalPooling


GlobalAveragePooling1D = _global_pooling("GlobalAveragePooling1D", math_ops.reduce_mean, 1, "The mean over steps.")
GlobalMaxPooling1D = _global_pooling("GlobalMaxPooling1D", math_ops.reduce_max, 1, "The maximum over steps.")
GlobalAveragePooling2D = _global_pooling("GlobalAveragePooling2D", math_ops.reduce_mean, 2,
                                         "The mean over height and width.")
GlobalMaxPooling2D = _global_pooling("GlobalMaxPooling2D", math_ops.reduce_max, 2,
                                     "The maximum over height and width.")
GlobalAveragePooling3D = _global_pooling("GlobalAveragePooling3D", math_ops.reduce_mean, 3,
                                         "The mean over depth, height and width.")
GlobalMaxPooling3D = _global_pooling("GlobalMaxPooling3D", math_ops.reduce_max, 3,
                                     "The maximum over depth, height and width.")
GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D


# -- merges ------------------------------------------------------------------------------------------------
class _Merge(Layer):
    """A layer of a list of tensors of one shape (broadcast along the batch) to one tensor."""

    def _check_inputs(self, inputs):
        if not isinstance(inputs, list | tuple) or len(inputs) < 2:
            raise ValueError(f"A merge layer should be called on a list of at least 2 inputs. Got {len(inputs)} "
                             "inputs. Full input_shape received: "
                             f"{[backend.int_shape(t) for t in (inputs if isinstance(inputs, list) else [inputs])]}")
        shape = _shape_tuple(inputs[0])[1:]
        for t in inputs[1:]:
            shape = _broadcast_shapes(shape, _shape_tuple(t)[1:])

    def __call__(self, inputs, *args, **kwargs):
        self._check_inputs(inputs)
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = self._merge(output, x)
        return output


def _shape_tuple(t):
    return tuple(TensorShape(t.shape).as_list())


def _broadcast_shapes(a, b):
    """Keras' shape of an element-wise merge of shapes ``a`` and ``b`` (without the batch)."""
    if len(a) < len(b):
        a, b = b, a
    out = list(a[: len(a) - len(b)])
    for i, j in zip(a[len(a) - len(b):], b):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1 or i == j:
            out.append(max(i, j) if 1 in (i, j) else i)
        else:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {a} and {b}")
    return tuple(out)


def _merge_layer(name, merge, doc):
    cls = type(name, (_Merge,), {"_merge": staticmethod(merge), "__doc__": doc})
    return cls


Add = _merge_layer("Add", lambda a, b: a + b, "The sum of the inputs.")
Subtract = _merge_layer("Subtract", lambda a, b: a - b, "The first input minus the second.")
Multiply = _merge_layer("Multiply", lambda a, b: a * b, "The product of the inputs.")
Maximum = _merge_layer("Maximum", math_ops.maximum, "The element-wise maximum of the inputs.")
Minimum = _merge_layer("Minimum", math_ops.minimum, "The element-wise minimum of the inputs.")


class Average(_Merge):
    """The mean of the inputs."""

    def call(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output += x
        return output / len(inputs)


class Concatenate(_Merge):
    """The inputs joined along ``axis``."""

    _config_keys = ("axis",)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _check_inputs(self, inputs):
        if not isinstance(inputs, list | tuple) or len(inputs) < 1:
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 input. Received: "
                             f"input_shape={inputs}")
        shapes = [_shape_tuple(t) for t in inputs]
        reduced = set()
        for shape in shapes:
            dims = list(shape)
            del dims[self.axis]
            reduced.add(tuple(dims))
        if len({d for d in reduced if None not in d}) > 1:
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes except for the "
                             f"concatenation axis. Received: input_shape={shapes}")

    def call(self, inputs):
        axis = self.axis
        rank = inputs[0].shape.ndims
        if axis < 0:
            axis = axis % rank if rank else 0
        return array_ops.concat(list(inputs), axis)


def _merge_function(layer_class):
    def merge(inputs, **kwargs):
        return layer_class(**kwargs)(inputs)

    merge.__name__ = layer_class.__name__.lower()
    merge.__doc__ = f"``{layer_class.__name__}(**kwargs)(inputs)``."
    return merge


add, subtract, multiply, average, maximum, minimum = (
    _merge_function(c) for c in (Add, Subtract, Multiply, Average, Maximum, Minimum))


class Dot(_Merge):
    """The dot product of two inputs over ``axes`` (one for both, or one each), per example (``batch_dot``);
    with ``normalize``, of the inputs L2-normalized along those axes (their cosine similarity)."""

    _config_keys = ("axes", "normalize")

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, list | tuple):
                raise TypeError(f"Invalid type for argument `axes`: it should be a list or an int. Received: "
                                f"axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two elements. Received: "
                                 f"axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should be integers. Received: "
                                 f"axes={axes}")
        self.axes, self.normalize = axes, normalize

    def _check_inputs(self, inputs):
        if not isinstance(inputs, list | tuple) or len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: input_shape="
                             f"{[backend.int_shape(t) for t in (inputs if isinstance(inputs, list) else [inputs])]}")
        shapes = [_shape_tuple(t) for t in inputs]
        a0, a1 = self._axes(shapes)
        if shapes[0][a0] != shapes[1][a1]:
            raise ValueError(f"Incompatible input shapes: axis values {shapes[0][a0]} (at axis {a0}) != "
                             f"{shapes[1][a1]} (at axis {a1}). Full input shapes: {shapes[0]}, {shapes[1]}")

    def _axes(self, shapes):
        axes = [self.axes] * 2 if isinstance(self.axes, int) else list(self.axes)
        return [a % len(shape) if a < 0 else a for a, shape in zip(axes, shapes)]

    def call(self, inputs):
        from numflow.ops.nn_impl import l2_normalize

        x1, x2 = inputs
        axes = self._axes([_shape_tuple(x1), _shape_tuple(x2)])
        if self.normalize:
            x1, x2 = l2_normalize(x1, axis=axes[0]), l2_normalize(x2, axis=axes[1])
        return backend.batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        shape1, shape2 = (list(TensorShape(s).as_list()) for s in input_shape)
        a0, a1 = self._axes([shape1, shape2])
        shape1.pop(a0)
        shape2.pop(a1)
        shape2.pop(0)
        output_shape = shape1 + shape2
        return TensorShape(output_shape + [1] if len(output_shape) == 1 else output_shape)


def dot(inputs, axes, normalize=False, **kwargs):
    """``Dot(axes, normalize)(inputs)``."""
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """``Concatenate(axis)(inputs)``."""
    return Concatenate(axis=axis, **kwargs)(inputs)
