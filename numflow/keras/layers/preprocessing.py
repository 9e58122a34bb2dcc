"""Keras' preprocessing layers that run in a graph: Rescaling, Resizing, CenterCrop, Normalization, Discretization
(given its boundaries), Hashing and CategoryEncoding, with Keras' ops.

``Normalization.adapt`` computes the mean and variance of numpy data here (TensorFlow 1.x mode's Keras refuses
to adapt, "only supported in tensorflow v2"); the numbers are TensorFlow 2's: the population moments over all
axes but ``axis``."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.shapes import TensorShape
from numflow.keras import backend
from numflow.keras.engine.base_layer import Layer, config_value
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor

_H_AXIS, _W_AXIS = -3, -2
_OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count")


def _ensure_tensor(inputs, dtype=None):
    """``inputs`` as a tensor, cast to ``dtype`` when given."""
    inputs = convert_to_tensor(inputs, dtype=dtype) if not hasattr(inputs, "op") else inputs
    if dtype is not None and inputs.dtype.base_dtype != dtypes.as_dtype(dtype):
        inputs = math_ops.cast(inputs, dtype)
    return inputs


def _compute_dtype(layer):
    return dtypes.as_dtype(layer._dtype or backend.floatx()).base_dtype


class _Image(Layer):
    """A layer of images ``[..., height, width, channels]`` to ``height`` x ``width`` images."""

    _config_keys = ("height", "width")

    def __init__(self, height, width, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = height, width

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        dims[_H_AXIS], dims[_W_AXIS] = self.height, self.width
        return TensorShape(dims)


class Rescaling(Layer):
    """``inputs * scale + offset``."""

    _config_keys = ("scale", "offset")

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        dtype = _compute_dtype(self)
        inputs = _ensure_tensor(inputs, dtype)
        scale = math_ops.cast(self.scale, dtype)
        offset = math_ops.cast(self.offset, dtype)
        return math_ops.cast(inputs, dtype) * scale + offset

    def compute_output_shape(self, input_shape):
        return input_shape


def _smart_resize(images, size, interpolation="bilinear"):
    """``images`` centre-cropped to the aspect ratio of ``size``, then resized to it."""
    from numflow.keras.backend_nn import resize_image_v2

    shape = array_ops.shape(images)
    height, width = shape[-3], shape[-2]
    target_height, target_width = size
    channels = images.shape.as_list()[-1]
    crop_height = math_ops.cast(math_ops.cast(width * target_height, "float32") / target_width, "int32")
    crop_width = math_ops.cast(math_ops.cast(height * target_width, "float32") / target_height, "int32")
    crop_height = math_ops.minimum(height, crop_height)
    crop_width = math_ops.minimum(width, crop_width)
    h_start = math_ops.cast(math_ops.cast(height - crop_height, "float32") / 2, "int32")
    w_start = math_ops.cast(math_ops.cast(width - crop_width, "float32") / 2, "int32")
    if images.shape.ndims == 4:
        start, box = array_ops.stack([0, h_start, w_start, 0]), array_ops.stack([-1, crop_height, crop_width, -1])
    else:
        start, box = array_ops.stack([h_start, w_start, 0]), array_ops.stack([crop_height, crop_width, -1])
    resized = resize_image_v2(array_ops.slice(images, start, box), size, interpolation)
    resized.set_shape((None,) * (images.shape.ndims - 1) + (channels,))
    return resized


class Resizing(_Image):
    """Images resized to ``height`` x ``width`` (``tf.image.resize`` by ``interpolation``; first centre-cropped to
    the target's aspect ratio when ``crop_to_aspect_ratio``)."""

    _config_keys = ("height", "width", "interpolation", "crop_to_aspect_ratio")

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False, **kwargs):
        super().__init__(height, width, **kwargs)
        self.interpolation, self.crop_to_aspect_ratio = interpolation, crop_to_aspect_ratio

    def call(self, inputs):
        from numflow.keras.backend_nn import resize_image_v2

        dtype = _compute_dtype(self)
        inputs = _ensure_tensor(inputs, dtype if self.interpolation == "nearest" else dtypes.float32)
        size = [self.height, self.width]
        if self.crop_to_aspect_ratio:
            outputs = _smart_resize(inputs, size, self.interpolation)
        else:
            outputs = resize_image_v2(inputs, size, self.interpolation)
        return math_ops.cast(outputs, dtype)


class CenterCrop(_Image):
    """The central ``height`` x ``width`` window of the images (resized to it, aspect kept, when smaller)."""

    def call(self, inputs):
        from numflow.ops.cond import cond
        from numflow.ops.image_ops import crop_to_bounding_box

        dtype = _compute_dtype(self)
        inputs = _ensure_tensor(inputs, dtype)
        shape = array_ops.shape(inputs)
        h_diff = shape[_H_AXIS] - self.height
        w_diff = shape[_W_AXIS] - self.width

        def center_crop():
            h_start = math_ops.cast(h_diff / 2, dtypes.int32)
            w_start = math_ops.cast(w_diff / 2, dtypes.int32)
            return crop_to_bounding_box(inputs, h_start, w_start, self.height, self.width)

        def upsize():
            return math_ops.cast(_smart_resize(inputs, [self.height, self.width]), dtype)

        return cond(math_ops.reduce_all((h_diff >= 0, w_diff >= 0)), center_crop, upsize)


class Normalization(Layer):
    """``(inputs - mean) / max(sqrt(variance), epsilon)`` per index of ``axis`` (``invert``: the other way):
    ``mean`` and ``variance`` given, or non-trainable weights set by ``adapt``."""

    _config_keys = ("axis", "invert")

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        if (mean is not None) != (variance is not None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Got mean: "
                             f"{mean} and variance: {variance}")
        self.input_mean, self.input_variance, self.invert = mean, variance, invert

    def get_config(self):
        """tf-keras' config: with the ``mean`` and ``variance`` given (None when adapted)."""
        return {**super().get_config(), "mean": config_value("mean", self.input_mean),
                "variance": config_value("variance", self.input_variance)}

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        ndim = len(dims)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Found ndim: `{ndim}`, axis: "
                             f"{self.axis}")
        self._keep_axis = sorted(d if d >= 0 else d + ndim for d in self.axis)
        for d in self._keep_axis:
            if dims[d] is None:
                raise ValueError(f"All `axis` values to be kept must have known shape. Got axis: {self.axis}, input "
                                 f"shape: {dims}, with unknown axis at index: {d}")
        self._reduce_axis = [d for d in range(ndim) if d not in self._keep_axis]
        self._broadcast_shape = [dims[d] if d in self._keep_axis else 1 for d in range(ndim)]
        shape = tuple(dims[d] for d in self._keep_axis)
        dtype = _compute_dtype(self)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=shape, dtype=dtype, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=shape, dtype=dtype, initializer="ones",
                                                  trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype=dtypes.int64, initializer="zeros",
                                         trainable=False)
            self.mean = math_ops.cast(array_ops.reshape(self.adapt_mean, self._broadcast_shape), dtype)
            self.variance = math_ops.cast(array_ops.reshape(self.adapt_variance, self._broadcast_shape), dtype)
        else:
            mean = array_ops.reshape(self.input_mean * np.ones(shape), self._broadcast_shape)
            variance = array_ops.reshape(self.input_variance * np.ones(shape), self._broadcast_shape)
            self.mean, self.variance = math_ops.cast(mean, dtype), math_ops.cast(variance, dtype)
        self.built = True

    def adapt(self, data, batch_size=None, steps=None):
        """Set the mean and variance to those of ``data`` (a numpy array, or a tensor run in the Keras session)."""
        del batch_size, steps
        if self.input_mean is not None:
            raise ValueError("Cannot adapt a `Normalization` layer built from a given `mean` and `variance`.")
        values = backend.get_session().run(data) if hasattr(data, "op") else data
        values = np.asarray(values, dtype=np.float64)
        if not self.built:
            with backend.name_scope(self.name):
                self.build(TensorShape(values.shape))
        axes = tuple(d for d in range(values.ndim) if d not in self._keep_axis)
        backend.batch_set_value([(self.adapt_mean, values.mean(axis=axes)),
                                 (self.adapt_variance, values.var(axis=axes)),
                                 (self.count, int(np.prod([values.shape[d] for d in axes])))])

    def call(self, inputs):
        inputs = math_ops.cast(_ensure_tensor(inputs), _compute_dtype(self))
        scale = math_ops.maximum(math_ops.sqrt(self.variance), backend.epsilon())
        if self.invert:
            return self.mean + inputs * scale
        return (inputs - self.mean) / scale

    def compute_output_shape(self, input_shape):
        return input_shape


def _check_output_mode(output_mode, layer, sparse):
    if output_mode not in _OUTPUT_MODES:
        raise ValueError(f"Unknown value for `output_mode`. Allowed values are: {list(_OUTPUT_MODES)}. Received: "
                         f"{output_mode}")
    if sparse:
        raise NotImplementedError(f"{layer}: sparse outputs are not implemented; use sparse=False")


def _categorical_dtype(kwargs, output_mode):
    """The layer's dtype: int64 for ``"int"`` outputs (unless an integer type is given), floatx otherwise."""
    dtype = kwargs.get("dtype")
    if dtype is None:
        kwargs["dtype"] = dtypes.int64 if output_mode == "int" else backend.floatx()
    elif output_mode == "int" and not dtypes.as_dtype(dtype).is_integer:
        kwargs["dtype"] = dtypes.int64
    return kwargs


def _known_other_than_one(dim):
    """Whether a last dimension asks for a one-hot axis of its own: known and not 1 (TensorFlow 1.x's
    ``Dimension(None) != 1`` is unknown, so falsy: a vector of unknown length is one example)."""
    return dim is not None and dim != 1


def encode_categorical(inputs, output_mode, depth, dtype, count_weights=None):
    """Integer ``inputs`` as Keras encodes them: as they are (``"int"``), or per row as one-hot, multi-hot or
    counts over ``depth`` values (``tf.math.bincount`` of each row)."""
    from numflow.ops.counting_ops import bincount

    if output_mode == "int":
        return array_ops.identity(math_ops.cast(inputs, dtype))
    original_shape = inputs.shape
    if inputs.shape.ndims == 0:
        inputs = array_ops.expand_dims(inputs, -1)
    if output_mode == "one_hot" and _known_other_than_one(inputs.shape.as_list()[-1]):
        inputs = array_ops.expand_dims(inputs, -1)
    if inputs.shape.ndims > 2:
        raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank is 2. Received "
                         f"output_mode {output_mode} and input shape {original_shape}, which would result in output "
                         f"rank {inputs.shape.ndims}.")
    result = bincount(inputs, weights=count_weights, minlength=depth, maxlength=depth, dtype=dtype, axis=-1,
                      binary_output=output_mode in ("multi_hot", "one_hot"))
    result.set_shape((depth,) if inputs.shape.ndims == 1 else (inputs.shape.as_list()[0], depth))
    return result


class Discretization(Layer):
    """The bin of each input among ``bin_boundaries`` (``Bucketize``), encoded by ``output_mode``."""

    _config_keys = ("bin_boundaries", "num_bins", "epsilon", "output_mode", "sparse")

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False, **kwargs):
        super().__init__(**_categorical_dtype(kwargs, output_mode))
        _check_output_mode(output_mode, "Discretization", sparse)
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. You passed "
                             f"`num_bins={num_bins}` and `bin_boundaries={bin_boundaries}`")
        if bin_boundaries is None:
            raise NotImplementedError("Discretization: adapting to `num_bins` is not implemented; give "
                                      "`bin_boundaries`")
        self.bin_boundaries = list(bin_boundaries)
        self.num_bins, self.epsilon, self.output_mode, self.sparse = num_bins, epsilon, output_mode, sparse

    def call(self, inputs):
        from numflow.ops.counting_ops import bucketize

        indices = bucketize(_ensure_tensor(inputs), boundaries=self.bin_boundaries)
        return encode_categorical(indices, self.output_mode, len(self.bin_boundaries) + 1, _compute_dtype(self))

    def compute_output_shape(self, input_shape):
        return input_shape


class Hashing(Layer):
    """Each input (a string, or an integer as its decimal string) hashed to one of ``num_bins`` bins (FarmHash
    Fingerprint64, or SipHash keyed by ``salt``); ``mask_value`` takes bin 0 and the others shift up by one."""

    _config_keys = ("num_bins", "mask_value", "salt", "output_mode", "sparse")

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        super().__init__(**_categorical_dtype(kwargs, output_mode))
        _check_output_mode(output_mode, "Hashing", sparse)
        self.num_bins, self.mask_value, self.output_mode, self.sparse = num_bins, mask_value, output_mode, sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, tuple | list) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")

    def _hash_values_to_bins(self, values):
        from numflow.ops.selection_ops import where_v2
        from numflow.ops.string_ops import as_string
        from numflow.ops.string_transform_ops import string_to_hash_bucket_fast, string_to_hash_bucket_strong

        hash_bins, mask = self.num_bins, None
        if self.mask_value is not None and hash_bins > 1:
            hash_bins -= 1
            mask = math_ops.equal(values, self.mask_value)
        if values.dtype.is_integer:
            values = as_string(values)
        if self.salt is not None:
            values = string_to_hash_bucket_strong(values, hash_bins, name="hash", key=self.salt)
        else:
            values = string_to_hash_bucket_fast(values, hash_bins, name="hash")
        if mask is not None:
            values = math_ops.add(values, array_ops.ones_like(values))
            values = where_v2(mask, array_ops.zeros_like(values), values)
        return values

    def call(self, inputs):
        indices = self._hash_values_to_bins(_ensure_tensor(inputs))
        return encode_categorical(indices, self.output_mode, self.num_bins, _compute_dtype(self))

    def compute_output_shape(self, input_shape):
        return input_shape


class CategoryEncoding(Layer):
    """Integer inputs in ``[0, num_tokens)`` as one-hot, multi-hot or count vectors (checked by an ``Assert``)."""

    _config_keys = ("num_tokens", "output_mode", "sparse")

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        if "max_tokens" in kwargs:
            num_tokens = kwargs.pop("max_tokens")
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(**kwargs)
        output_mode = "multi_hot" if output_mode == "binary" else output_mode
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown value for `output_mode`. Allowed values are: ['count', 'one_hot', "
                             f"'multi_hot']. Received: {output_mode}")
        _check_output_mode(output_mode, "CategoryEncoding", sparse)
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens, self.output_mode, self.sparse = num_tokens, output_mode, sparse

    def call(self, inputs, count_weights=None):
        from numflow.ops.check_ops import Assert

        inputs = _ensure_tensor(inputs)
        if count_weights is not None:
            if self.output_mode != "count":
                raise ValueError(f"`count_weights` is not used when `output_mode` is not `'count'`. Received "
                                 f"`count_weights={count_weights}`.")
            count_weights = _ensure_tensor(count_weights, _compute_dtype(self))
        depth = self.num_tokens
        max_value, min_value = math_ops.reduce_max(inputs), math_ops.reduce_min(inputs)
        condition = math_ops.logical_and(math_ops.greater(math_ops.cast(depth, max_value.dtype), max_value),
                                         math_ops.greater_equal(min_value, math_ops.cast(0, min_value.dtype)))
        assertion = Assert(condition, [f"Input values must be in the range 0 <= values < num_tokens with "
                                       f"num_tokens={depth}"])
        from numflow.framework.graph import get_default_graph

        with get_default_graph().control_dependencies([assertion]):
            return encode_categorical(inputs, self.output_mode, depth, _compute_dtype(self), count_weights)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if not dims:
            return TensorShape([self.num_tokens])
        if self.output_mode == "one_hot" and _known_other_than_one(dims[-1]):
            return TensorShape(dims + [self.num_tokens])
        return TensorShape(dims[:-1] + [self.num_tokens])
