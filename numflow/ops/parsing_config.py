"""What ``tf.parse_example`` is asked to parse: ``FixedLenFeature``, ``VarLenFeature`` and
``FixedLenSequenceFeature``, and their translation into the attrs and inputs of ``ParseExampleV2``
(``_ParseOpParams`` in TensorFlow's ``parsing_config.py``, with its checks and messages)."""

import collections
import re

from numflow.framework import dtypes
from numflow.framework.shapes import TensorShape, as_shape

PARSED_TYPES = (dtypes.float32, dtypes.int64, dtypes.string)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values, parsed into a ``SparseTensor``.

    Parameters
    ----------
    dtype : DType
        ``tf.float32`` (``FloatList``), ``tf.int64`` (``Int64List``) or ``tf.string`` (``BytesList``).
    """


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature of a fixed number of values, parsed into a dense ``Tensor`` of ``shape``.

    Parameters
    ----------
    shape : list of int
        The shape of one example's values (fully known).
    dtype : DType
        ``tf.float32``, ``tf.int64`` or ``tf.string``.
    default_value : optional
        The value of an example that lacks the feature; without it, such an example is an error.
    """

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature of any number of blocks of ``shape``, parsed into a dense ``Tensor`` of
    ``[None] + shape`` (a batch is padded with ``default_value`` to its longest example).

    Parameters
    ----------
    shape : list of int
        The shape of one block.
    dtype : DType
        ``tf.float32``, ``tf.int64`` or ``tf.string``.
    allow_missing : bool
        Must be True for ``parse_example``: an example without the feature has no blocks.
    default_value : optional
        The padding value (``""`` for strings, 0 otherwise).
    """

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


def prepend_none_dimension(features):
    """``features`` with each FixedLenSequenceFeature's shape led by an unknown dimension."""
    modified = dict(features)
    for key, feature in features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            modified[key] = FixedLenSequenceFeature([None, *feature.shape], feature.dtype, feature.allow_missing,
                                                    feature.default_value)
    return modified


class ParseOpParams:
    """The keys, types, shapes and defaults of one parse op, features sorted by key."""

    def __init__(self):
        self.sparse_keys, self.sparse_types = [], []
        self.dense_keys, self.dense_types, self.dense_shapes = [], [], []
        self.dense_defaults = {}
        self.missing_assumed_empty = set()  # sequence features that may be absent (``allow_missing``)

    @classmethod
    def from_features(cls, features, types=(VarLenFeature, FixedLenFeature, FixedLenSequenceFeature)):
        """The parameters of ``features`` (a dict of feature key -> feature config, or None), each of
        one of ``types``."""
        params = cls()
        for key in sorted(features or {}):
            feature = features[key]
            if not isinstance(feature, types):
                raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")
            if isinstance(feature, VarLenFeature):
                params._add_varlen(key, feature)
            else:
                params._add_dense(key, feature)
        dense, sparse = set(params.dense_keys), set(params.sparse_keys)
        if not dense.isdisjoint(sparse):
            raise ValueError(f"Dense and sparse keys must not intersect; dense_keys: {params.dense_keys}, "
                             f"sparse_keys: {params.sparse_keys}, intersection: {dense & sparse}")
        return params

    def _add_varlen(self, key, feature):
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}")
        self.sparse_keys.append(key)
        self.sparse_types.append(dtypes.as_dtype(feature.dtype))

    def _add_dense(self, key, feature):
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        shape = as_shape(feature.shape)
        if isinstance(feature, FixedLenFeature):
            if feature.shape and shape.ndims and shape.dims[0].value is None:
                raise ValueError(f"First dimension of shape for feature {key} unknown. Consider using "
                                 f"FixedLenSequenceFeature. Received feature={feature}.")
            if not shape.is_fully_defined():
                raise ValueError(f"All dimensions of shape for feature {key} need to be known but received "
                                 f"{feature.shape!s}.")
        self.dense_keys.append(key)
        self.dense_shapes.append(shape)
        self.dense_types.append(dtypes.as_dtype(feature.dtype))
        if isinstance(feature, FixedLenSequenceFeature) and feature.allow_missing:
            self.missing_assumed_empty.add(key)
        if feature.default_value is not None:
            self.dense_defaults[key] = feature.default_value

    def dense_default_tensors(self):
        """One default tensor per dense key, built in the current name scope as TensorFlow builds them:
        ``Const`` (empty: required) or ``key_<key>`` reshaped to the feature's shape; a sequence
        feature's padding value, a scalar (``padding_<key>`` when given)."""
        from numflow.ops.array_ops import reshape
        from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor

        tensors = []
        for key, shape, dtype in zip(self.dense_keys, self.dense_shapes, self.dense_types):
            value = self.dense_defaults.get(key)
            safe = re.sub("[^A-Za-z0-9_.\\-/]", "_", key)
            if shape.ndims and shape.dims[0].value is None:
                if value is None:
                    value = convert_to_tensor("" if dtype == dtypes.string else 0, dtype=dtype)
                else:
                    value = reshape(convert_to_tensor(value, dtype=dtype, name=f"padding_{safe}"), [])
            elif value is None:
                value = constant([], dtype=dtype)
            elif not is_tensor(value):
                value = reshape(convert_to_tensor(value, dtype=dtype, name=f"key_{safe}"), shape)
            tensors.append(value)
        return tensors


def check_parsed_types(types, param):
    """TensorFlow's TypeError unless every one of ``types`` is float32, int64 or string."""
    for dtype in types:
        if dtype not in PARSED_TYPES:
            raise TypeError(f"Value passed to parameter '{param}' has DataType {dtype.name} not in list of allowed "
                            "values: float32, int64, string")


SCALAR = TensorShape([])
