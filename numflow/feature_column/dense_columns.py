"""The columns that make a categorical column dense: ``indicator_column`` (multi-hot counts or
weights) and ``embedding_column`` (a combination of trained embeddings, variable
``<scope>/<column>_embedding/embedding_weights``), built as TensorFlow 1.x builds them."""

import collections

from numflow.feature_column.columns import CategoricalColumn, DenseColumn, embedding_initializer
from numflow.framework import dtypes
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops


class _OverCategorical(DenseColumn):
    """A dense column of ``categorical_column``, whose features it parses."""

    @property
    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec


class _Embedded(_OverCategorical):
    """An embedding of ``categorical_column``'s ids in ``dimension`` numbers, looked up from its ids when built."""

    @property
    def _variable_shape(self):
        return TensorShape([self.dimension])

    def _transform_feature(self, inputs):
        return inputs.get(self.categorical_column)


class IndicatorColumn(_OverCategorical, collections.namedtuple("IndicatorColumn", ("categorical_column",))):
    """See ``indicator_column``."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    @property
    def _variable_shape(self):
        return TensorShape([1, self.categorical_column._num_buckets])

    def _transform_feature(self, inputs):
        from numflow.ops.scatter_ops import scatter_nd
        from numflow.ops.selection_ops import one_hot
        from numflow.ops.sparse_ops import sparse_tensor_to_dense

        ids, weights = self.categorical_column._get_sparse_tensors(inputs)
        size = self._variable_shape[-1]
        if weights is not None:
            indices = array_ops.stack([ids.indices[:, 0], math_ops.cast(ids.values, dtypes.int64)], axis=1)
            dense_shape = array_ops.stack([ids.dense_shape[0], math_ops.cast(size, dtypes.int64)])
            return scatter_nd(indices, weights.values, dense_shape)
        dense_ids = sparse_tensor_to_dense(ids, default_value=-1)
        return math_ops.reduce_sum(one_hot(dense_ids, depth=size, on_value=1.0, off_value=0.0), axis=[-2])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


def indicator_column(categorical_column):
    """A categorical column as a dense multi-hot tensor ``[batch, num_buckets]``: each id's count, or
    the sum of its weights for a weighted column (``tf.feature_column.indicator_column``)."""
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: {categorical_column}")
    return IndicatorColumn(categorical_column)


class EmbeddingColumn(_Embedded, collections.namedtuple(
        "EmbeddingColumn", ("categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
                            "tensor_name_in_ckpt", "max_norm", "trainable", "use_safe_embedding_lookup"))):
    """See ``embedding_column``."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_embedding"

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from numflow.variables.scope import get_variable

        ids, weights = self.categorical_column._get_sparse_tensors(inputs, weight_collections, trainable)
        embedding_weights = get_variable("embedding_weights", shape=(self.categorical_column._num_buckets,
                                                                     self.dimension),
                                         dtype=dtypes.float32, initializer=self.initializer,
                                         trainable=self.trainable and trainable, collections=weight_collections)
        return combine_embeddings(embedding_weights, ids, weights, self.combiner, f"{self.name}_weights",
                                  self.max_norm, self.use_safe_embedding_lookup)


def combine_embeddings(embedding_weights, ids, weights, combiner, name, max_norm=None, safe=True):
    """``safe_embedding_lookup_sparse``, or the plain lookup where asked and the ids have rank 2 at most."""
    from numflow.ops.embedding_ops import embedding_lookup_sparse, safe_embedding_lookup_sparse

    rank = ids.dense_shape.shape.dim_values[0]
    lookup = embedding_lookup_sparse if not safe and rank is not None and rank <= 2 else \
        safe_embedding_lookup_sparse
    return lookup(embedding_weights, ids, weights, combiner=combiner, name=name, max_norm=max_norm)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True, use_safe_embedding_lookup=True):
    """A categorical column as the combination of its ids' trained embeddings of ``dimension``
    (``tf.feature_column.embedding_column``).

    Parameters
    ----------
    categorical_column : CategoricalColumn
    dimension : int
    combiner : {"mean", "sqrtn", "sum"}
        How the embeddings of one example's ids combine (weighted by a weighted column's weights).
    initializer : callable, optional
        The weights' initializer; TensorFlow's truncated normal of stddev ``1/sqrt(dimension)`` when None.
    max_norm : float, optional
        Each embedding clipped to this L2 norm before they combine.
    trainable : bool
    use_safe_embedding_lookup : bool
        Drop negative ids and give empty rows zeros (``safe_embedding_lookup_sparse``).
    """
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("numflow's embedding_column does not load from a checkpoint yet: restore the "
                                  "weights with a Saver instead.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of column_name: "
                         f"{categorical_column.name}")
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: {categorical_column}")
    initializer = initializer or embedding_initializer(dimension)
    return EmbeddingColumn(categorical_column, int(dimension), combiner, initializer, None, None, max_norm, trainable,
                           use_safe_embedding_lookup)


class SharedEmbeddingColumn(_Embedded, collections.namedtuple(
        "SharedEmbeddingColumn", ("categorical_column", "dimension", "combiner", "initializer",
                                  "shared_embedding_collection_name", "max_norm", "trainable",
                                  "use_safe_embedding_lookup"))):
    """See ``shared_embedding_columns``: the first built makes the weights, kept in the graph collection
    of the shared name, the others find them there."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def _var_scope_name(self):
        return self.shared_embedding_collection_name

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from numflow.framework.graph import get_default_graph
        from numflow.variables.scope import get_variable

        graph = get_default_graph()
        with graph.name_scope(self.name):
            ids, weights = self.categorical_column._get_sparse_tensors(inputs, weight_collections, trainable)
            shape = (self.categorical_column._num_buckets, self.dimension)
            shared = graph.get_collection(self.shared_embedding_collection_name)
            if len(shared) > 1:
                raise ValueError(f"Collection {shared} can only contain one variable. Suggested fix A: Choose a "
                                 "unique name for this collection. Suggested fix B: Do not add any variables to this "
                                 "collection. The feature_column library already adds a variable under the hood.")
            if shared:
                embedding_weights = shared[0]
                if tuple(embedding_weights.shape.as_list()) != shape:
                    raise ValueError(f"Shared embedding collection {self.shared_embedding_collection_name} contains "
                                     f"variable {embedding_weights.name} of unexpected shape "
                                     f"{embedding_weights.shape}. Expected shape is {shape}.")
            else:
                embedding_weights = get_variable("embedding_weights", shape=shape, dtype=dtypes.float32,
                                                 initializer=self.initializer,
                                                 trainable=self.trainable and trainable,
                                                 collections=weight_collections)
                graph.add_to_collection(self.shared_embedding_collection_name, embedding_weights)
            return combine_embeddings(embedding_weights, ids, weights, self.combiner, f"{self.name}_weights",
                                      self.max_norm, self.use_safe_embedding_lookup)


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True, use_safe_embedding_lookup=True):
    """Embedding columns of several categorical columns of one bucket count sharing one weights
    variable, ``<scope>/<names joined by _>_shared_embedding/embedding_weights``
    (``tf.feature_column.shared_embedding_columns``); the other arguments as ``embedding_column``'s."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if ckpt_to_load_from is not None or tensor_name_in_ckpt is not None:
        raise NotImplementedError("numflow's shared_embedding_columns do not load from a checkpoint yet: restore "
                                  "the weights with a Saver instead.")
    if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified.")
    columns = list(categorical_columns)
    for column in columns:
        if not isinstance(column, CategoricalColumn):
            raise ValueError(f"All categorical_columns must be subclasses of _CategoricalColumn. Given: {column}, "
                             f"of type: {type(column)}")
        if column._num_buckets != columns[0]._num_buckets:
            raise ValueError("To use shared_embedding_column, all categorical_columns must have the same number of "
                             f"buckets. Given column: {columns[0]} with buckets: {columns[0]._num_buckets} does not "
                             f"match column: {column} with buckets: {column._num_buckets}")
    name = shared_embedding_collection_name or \
        "_".join(c.name for c in sorted(columns, key=lambda c: c.name)) + "_shared_embedding"
    initializer = initializer or embedding_initializer(dimension)
    return [SharedEmbeddingColumn(c, int(dimension), combiner, initializer, name, max_norm, trainable,
                                  use_safe_embedding_lookup) for c in columns]
