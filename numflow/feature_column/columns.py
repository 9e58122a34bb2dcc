"""The feature columns of ``tf.feature_column`` (TensorFlow 1.x's API): what each column reads from the
features, how it transforms them, and the dense tensor or sparse ids it gives ``input_layer`` and
``linear_model`` (``numflow.feature_column.layers``).

Columns are named tuples, as TensorFlow's: equal columns are one column, and ``name`` orders them. A
dense column gives ``_get_dense_tensor(builder)`` of shape ``[batch, *_variable_shape]``; a
categorical column gives ``_get_sparse_tensors(builder)``, an ``IdWeightPair`` of int64 ids in
``[0, _num_buckets)`` and optional weights. The builder (``layers.LazyBuilder``) caches each
transformed column, so a column two others use is built once.
"""

import collections
import math

from numflow.framework import dtypes
from numflow.framework.shapes import TensorShape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops, math_ops

IdWeightPair = collections.namedtuple("IdWeightPair", ["id_tensor", "weight_tensor"])


class DenseColumn:
    """A column giving a dense tensor."""

    @property
    def _var_scope_name(self):
        return self.name


class CategoricalColumn:
    """A column giving sparse int64 ids."""

    IdWeightPair = IdWeightPair

    @property
    def _var_scope_name(self):
        return self.name

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        return IdWeightPair(inputs.get(self), None)


def to_sparse_input(input_tensor, ignore_value=None):
    """A dense string or integer tensor as a SparseTensor without the cells equal to ``ignore_value``
    ("" for strings, -1 for integers); a SparseTensor as it is."""
    from numflow.framework.graph import get_default_graph
    from numflow.ops.constant_op import convert_to_tensor
    from numflow.ops.scatter_ops import gather_nd
    from numflow.ops.selection_ops import where_v2

    if isinstance(input_tensor, SparseTensor):
        return input_tensor
    with get_default_graph().name_scope("to_sparse_input"):
        if ignore_value is None:
            ignore_value = "" if input_tensor.dtype == dtypes.string else -1 if input_tensor.dtype.is_integer else 0
        with get_default_graph().name_scope("ignore_value"):
            ignore_value = convert_to_tensor(ignore_value, dtype=input_tensor.dtype, name="x")
        indices = where_v2(math_ops.not_equal(input_tensor, ignore_value), name="indices")
        return SparseTensor(indices, gather_nd(input_tensor, indices, name="values"),
                            array_ops.shape(input_tensor, out_type=dtypes.int64, name="dense_shape"))


def _check_key(key):
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Given: {key}")


class NumericColumn(DenseColumn, collections.namedtuple(
        "NumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
    """See ``numeric_column``."""

    @property
    def name(self):
        return self.key

    @property
    def _parse_example_spec(self):
        from numflow.ops.parsing_config import FixedLenFeature

        return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

    def _transform_feature(self, inputs):
        tensor = inputs.get(self.key)
        if isinstance(tensor, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. SparseTensor is not "
                             f"supported. key: {self.key}")
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return math_ops.cast(tensor, dtypes.float32)

    @property
    def _variable_shape(self):
        return TensorShape(self.shape)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32, normalizer_fn=None):
    """A column of real values (``tf.feature_column.numeric_column``).

    Parameters
    ----------
    key : str
        The feature's key.
    shape : int or sequence of int
        The shape of one example's value.
    default_value : number or sequence, optional
        What ``parse_example`` fills in for a missing value.
    dtype : DType
        Integer or floating; the column gives float32.
    normalizer_fn : callable, optional
        Applied to the feature's tensor before the cast.
    """
    _check_key(key)
    shape = (int(shape),) if isinstance(shape, int) else tuple(int(d) for d in shape)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if default_value is not None:
        default_value = _default_of(default_value, shape, key)
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return NumericColumn(key, shape, default_value, dtype, normalizer_fn)


def _default_of(default_value, shape, key):
    """The default as nested tuples of ``shape``: a scalar fills it."""
    import numpy as np

    value = np.asarray(default_value, dtype=object)
    if value.ndim == 0:
        value = np.full(shape, default_value, dtype=object)
    if value.size != int(np.prod(shape)):
        raise ValueError(f"The shape of default_value must be equal to given shape. default_value: {default_value}, "
                         f"shape: {shape}, key: {key}")

    def as_tuple(item):
        return tuple(as_tuple(i) for i in item) if isinstance(item, list) else item

    return as_tuple(value.reshape(shape).tolist())


class BucketizedColumn(DenseColumn, CategoricalColumn, collections.namedtuple(
        "BucketizedColumn", ("source_column", "boundaries"))):
    """See ``bucketized_column``."""

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def _parse_example_spec(self):
        return self.source_column._parse_example_spec

    def _transform_feature(self, inputs):
        from numflow.ops.counting_ops import bucketize

        return bucketize(inputs.get(self.source_column), self.boundaries)

    @property
    def _variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from numflow.ops.selection_ops import one_hot

        return one_hot(math_ops.cast(inputs.get(self), dtypes.int64), len(self.boundaries) + 1, on_value=1.0,
                       off_value=0.0)

    @property
    def _num_buckets(self):
        return (len(self.boundaries) + 1) * self.source_column.shape[0]

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        buckets = inputs.get(self)
        batch_size = array_ops.shape(buckets)[0]
        width = self.source_column.shape[0]
        rows = array_ops.reshape(array_ops.tile(array_ops.expand_dims(math_ops.range(0, batch_size), 1),
                                                [1, width]), (-1,))
        columns = array_ops.tile(math_ops.range(0, width), [batch_size])
        ids = array_ops.reshape(buckets, (-1,)) + (len(self.boundaries) + 1) * columns
        indices = math_ops.cast(array_ops.transpose(array_ops.stack((rows, columns))), dtypes.int64)
        dense_shape = math_ops.cast(array_ops.stack([batch_size, width]), dtypes.int64)
        return IdWeightPair(SparseTensor(indices, ids, dense_shape), None)


def bucketized_column(source_column, boundaries):
    """A numeric column's values as bucket ids, one-hot as a dense column (``tf.feature_column.bucketized_column``).

    ``boundaries`` are sorted: ``[0, 10]`` makes buckets ``(-inf, 0)``, ``[0, 10)`` and ``[10, inf)``.
    """
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: {source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if not isinstance(boundaries, list | tuple) or any(b >= a for a, b in zip(boundaries[1:], boundaries)):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))


def _check_categorical_dtype(column, tensor):
    if column.dtype.is_integer != tensor.dtype.is_integer:
        raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: "
                         f"{column.key}, column dtype: {column.dtype}, tensor dtype: {tensor.dtype}")


class _KeyedCategorical(CategoricalColumn):
    """A categorical column of the one sparse feature ``key``, parsed as ``_feature_dtype`` (its ``dtype``)."""

    @property
    def name(self):
        return self.key

    @property
    def _feature_dtype(self):
        return self.dtype

    @property
    def _parse_example_spec(self):
        from numflow.ops.parsing_config import VarLenFeature

        return {self.key: VarLenFeature(self._feature_dtype)}


class HashedCategoricalColumn(_KeyedCategorical, collections.namedtuple(
        "HashedCategoricalColumn", ("key", "hash_bucket_size", "dtype"))):
    """See ``categorical_column_with_hash_bucket``."""

    def _transform_feature(self, inputs):
        from numflow.ops.string_ops import as_string
        from numflow.ops.string_transform_ops import string_to_hash_bucket_fast

        tensor = to_sparse_input(inputs.get(self.key))
        _check_categorical_dtype(self, tensor)
        values = tensor.values if self.dtype == dtypes.string else as_string(tensor.values)
        ids = string_to_hash_bucket_fast(values, self.hash_bucket_size, name="lookup")
        return SparseTensor(tensor.indices, ids, tensor.dense_shape)

    @property
    def _num_buckets(self):
        return self.hash_bucket_size


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """Ids by TensorFlow's Fingerprint64 of each value (of its decimal text for integers), modulo
    ``hash_bucket_size`` (``tf.feature_column.categorical_column_with_hash_bucket``)."""
    _check_key(key)
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    _check_string_or_int(dtype, key)
    return HashedCategoricalColumn(key, int(hash_bucket_size), dtype)


def _check_string_or_int(dtype, key):
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"dtype must be string or integer. dtype: {dtype}, column_name: {key}")


class _VocabularyColumn(_KeyedCategorical):
    """What the vocabulary columns share: a table from the vocabulary, looked up per value."""

    def _transform_feature(self, inputs):
        tensor = to_sparse_input(inputs.get(self.key))
        _check_categorical_dtype(self, tensor)
        key_dtype = self.dtype
        if tensor.dtype.is_integer:
            key_dtype = dtypes.int64
            tensor = SparseTensor(tensor.indices, math_ops.cast(tensor.values, dtypes.int64), tensor.dense_shape)
        return self._table(key_dtype).lookup(tensor)

    @property
    def _num_buckets(self):
        return self._vocabulary_size + self.num_oov_buckets


class VocabularyListCategoricalColumn(_VocabularyColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn", ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"))):
    """See ``categorical_column_with_vocabulary_list``."""

    @property
    def _vocabulary_size(self):
        return len(self.vocabulary_list)

    def _table(self, key_dtype):
        from numflow.feature_column.tables import index_table_from_tensor

        return index_table_from_tensor(self.vocabulary_list, self.num_oov_buckets, self.default_value, key_dtype,
                                       name=f"{self.key}_lookup")


class VocabularyFileCategoricalColumn(_VocabularyColumn, collections.namedtuple(
        "VocabularyFileCategoricalColumn",
        ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype", "default_value"))):
    """See ``categorical_column_with_vocabulary_file``."""

    @property
    def _vocabulary_size(self):
        return self.vocabulary_size

    def _table(self, key_dtype):
        from numflow.feature_column.tables import index_table_from_file

        return index_table_from_file(self.vocabulary_file, self.num_oov_buckets, self.vocabulary_size,
                                     self.default_value, key_dtype, name=f"{self.key}_lookup")


def _check_oov(num_oov_buckets, default_value, key):
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    if default_value != -1 and num_oov_buckets:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1, num_oov_buckets=0):
    """Ids by position in ``vocabulary_list``; other values get ``default_value``, or one of
    ``num_oov_buckets`` buckets after the vocabulary by hash
    (``tf.feature_column.categorical_column_with_vocabulary_list``)."""
    _check_key(key)
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: {key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: {key}")
    list_dtype = dtypes.string if isinstance(vocabulary_list[0], str | bytes) else dtypes.int64
    dtype = list_dtype if dtype is None else dtypes.as_dtype(dtype)
    if dtype.is_integer != list_dtype.is_integer:
        raise ValueError(f"dtype {dtype} and vocabulary dtype {list_dtype} do not match, column_name: {key}")
    _check_oov(num_oov_buckets, default_value, key)
    _check_string_or_int(dtype, key)
    return VocabularyListCategoricalColumn(key, tuple(vocabulary_list), dtype, default_value, num_oov_buckets)


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                            default_value=None, dtype=dtypes.string):
    """Ids by line number in ``vocabulary_file`` (one value per line); other values get
    ``default_value`` (-1), or one of ``num_oov_buckets`` buckets by hash
    (``tf.feature_column.categorical_column_with_vocabulary_file``)."""
    _check_key(key)
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if vocabulary_size is None:
        from numflow.io.gfile import GFile

        with GFile(vocabulary_file) as file:
            vocabulary_size = sum(1 for _ in file)
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    _check_oov(num_oov_buckets, -1 if default_value is None else default_value, key)
    dtype = dtypes.as_dtype(dtype)
    _check_string_or_int(dtype, key)
    return VocabularyFileCategoricalColumn(key, vocabulary_file, int(vocabulary_size), num_oov_buckets, dtype,
                                           -1 if default_value is None else default_value)


class IdentityCategoricalColumn(_KeyedCategorical, collections.namedtuple(
        "IdentityCategoricalColumn", ("key", "number_buckets", "default_value"))):
    """See ``categorical_column_with_identity``."""

    _feature_dtype = dtypes.int64

    def _transform_feature(self, inputs):
        from numflow.ops.selection_ops import where_v2

        tensor = to_sparse_input(inputs.get(self.key))
        if not tensor.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: {tensor.dtype}")
        values = math_ops.cast(tensor.values, dtypes.int64, name="values")
        if self.default_value is not None:
            buckets = math_ops.cast(self.number_buckets, dtypes.int64, name="num_buckets")
            zero = math_ops.cast(0, dtypes.int64, name="zero")
            out_of_range = math_ops.logical_or(values < zero, values >= buckets, name="out_of_range")
            defaults = array_ops.fill(array_ops.shape(values), math_ops.cast(self.default_value, dtypes.int64),
                                      name="default_values")
            values = where_v2(out_of_range, defaults, values)
        return SparseTensor(tensor.indices, values, tensor.dense_shape)

    @property
    def _num_buckets(self):
        return self.number_buckets


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer values as their own ids in ``[0, num_buckets)``; others get ``default_value``
    (``tf.feature_column.categorical_column_with_identity``)."""
    _check_key(key)
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), column_name {key}")
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "WeightedCategoricalColumn", ("categorical_column", "weight_feature_key", "dtype"))):
    """See ``weighted_categorical_column``."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def _parse_example_spec(self):
        from numflow.ops.parsing_config import VarLenFeature

        return {**self.categorical_column._parse_example_spec, self.weight_feature_key: VarLenFeature(self.dtype)}

    @property
    def _num_buckets(self):
        return self.categorical_column._num_buckets

    def _transform_feature(self, inputs):
        weights = inputs.get(self.weight_feature_key)
        if self.dtype != weights.dtype.base_dtype:
            raise ValueError(f"Bad dtype, expected {self.dtype}, but got {weights.dtype}.")
        weights = to_sparse_input(weights, ignore_value=0.0)
        if not weights.dtype.is_floating:
            weights = SparseTensor(weights.indices, math_ops.cast(weights.values, dtypes.float32), weights.dense_shape)
        return inputs.get(self.categorical_column), weights

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        return IdWeightPair(*inputs.get(self))


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """A categorical column whose ids carry the weights of feature ``weight_feature_key``
    (``tf.feature_column.weighted_categorical_column``)."""
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


class CrossedColumn(CategoricalColumn, collections.namedtuple("CrossedColumn", ("keys", "hash_bucket_size",
                                                                                  "hash_key"))):
    """See ``crossed_column``."""

    def _leaves(self):
        for key in self.keys:
            yield from key._leaves() if isinstance(key, CrossedColumn) else (key,)

    @property
    def name(self):
        return "_X_".join(sorted(key if isinstance(key, str) else key.name for key in self._leaves()))

    @property
    def _parse_example_spec(self):
        from numflow.ops.parsing_config import VarLenFeature

        spec = {}
        for key in self.keys:
            spec.update({key: VarLenFeature(dtypes.string)} if isinstance(key, str) else key._parse_example_spec)
        return spec

    def _transform_feature(self, inputs):
        from numflow.ops.sparse_cross_ops import sparse_cross_hashed

        tensors = []
        for key in self._leaves():
            if isinstance(key, str):
                tensors.append(inputs.get(key))
                continue
            ids, weights = key._get_sparse_tensors(inputs)
            if weights is not None:
                raise ValueError("crossed_column does not support weight_tensor, but the given column populates "
                                 f"weight_tensor. Given column: {key.name}")
            tensors.append(ids)
        return sparse_cross_hashed(tensors, num_buckets=self.hash_bucket_size, hash_key=self.hash_key)

    @property
    def _num_buckets(self):
        return self.hash_bucket_size


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The crosses of features (keys of string features, or categorical columns), hashed to
    ``hash_bucket_size`` ids as TensorFlow's ``sparse_cross_hashed`` (``tf.feature_column.crossed_column``)."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, str | CategoricalColumn):
            raise ValueError(f"Unsupported key type. All keys must be either string, or categorical column except "
                             f"HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                             "crossing will increase probability of collision. Instead, use the feature name as a "
                             f"string. Given: {key}")
    return CrossedColumn(tuple(keys), int(hash_bucket_size), hash_key)


def embedding_initializer(dimension):
    """TensorFlow's initializer of an embedding column's weights: a truncated normal of stddev 1/sqrt(dimension)."""
    from numflow.ops.init_ops import truncated_normal_initializer

    return truncated_normal_initializer(mean=0.0, stddev=1 / math.sqrt(dimension))
