"""``tf.keras.layers.DenseFeatures`` (TensorFlow 1.x's): the dense feature columns of a features dict side by
side, ``[batch, sum of the columns' sizes]``, the columns sorted by name. Their variables are made when the layer
is built, each in the variable scope ``<layer>/<column>`` (``dense_features/cat_embedding/embedding_weights``),
and are the layer's weights."""

import re

from numflow.keras import backend
from numflow.keras.engine.base_layer import Layer
from numflow.ops import array_ops


class DenseFeatures(Layer):
    """The dense columns ``feature_columns`` of a features dict as one ``[batch, size]`` tensor."""

    def __init__(self, feature_columns, trainable=True, name=None, partitioner=None, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        self._feature_columns = _dense_columns(feature_columns)
        self._partitioner = partitioner
        self._column_scopes = {}

    def build(self, input_shape):
        from numflow.feature_column.dense_columns import EmbeddingColumn
        from numflow.variables.scope import get_variable, variable_scope

        for column in self._feature_columns:
            with variable_scope(self.name, partitioner=self._partitioner), \
                    variable_scope(re.sub(r"[^A-Za-z0-9_.\-]", "_", column.name)) as scope:
                self._column_scopes[column] = scope
                if isinstance(column, EmbeddingColumn):
                    shape = (column.categorical_column._num_buckets, column.dimension)
                    trainable = column.trainable and self.trainable
                    weights = get_variable("embedding_weights", shape=shape, dtype="float32",
                                           initializer=column.initializer, trainable=trainable)
                    backend.track_variable(weights)
                    (self._trainable_weights if trainable else self._non_trainable_weights).append(weights)
        self.built = True

    def call(self, features, cols_to_output_tensors=None, training=None):
        from numflow.feature_column.layers import LazyBuilder, check_batch_sizes
        from numflow.variables.scope import variable_scope

        del training
        if not isinstance(features, dict):
            raise ValueError("We expected a dictionary here. Instead we got: ", features)
        builder = LazyBuilder(features)
        outputs = []
        for column in self._feature_columns:
            with backend.name_scope(column.name), variable_scope(self._column_scopes[column], reuse=True,
                                                                 auxiliary_name_scope=False):
                tensor = column._get_dense_tensor(builder, trainable=self.trainable)
                size = column._variable_shape.num_elements()
                tensor = array_ops.reshape(tensor, shape=(array_ops.shape(tensor)[0], size))
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = tensor
            outputs.append(tensor)
        check_batch_sizes(outputs, self._feature_columns)
        if len(outputs) == 1:  # TensorFlow's concat of one tensor: an Identity in its scope
            with backend.name_scope("concat"):
                return array_ops.identity(outputs[0], name="concat")
        return array_ops.concat(outputs, -1)

    def _maybe_build(self, inputs):
        if not self.built:
            self.build(None)

    def compute_output_shape(self, input_shape):
        total = sum(column._variable_shape.num_elements() for column in self._feature_columns)
        return (input_shape[0], total)



def _dense_columns(feature_columns):
    """The columns sorted by name, each a dense column."""
    from numflow.feature_column.columns import DenseColumn
    from numflow.feature_column.layers import normalize_columns

    columns = normalize_columns(feature_columns)
    for column in columns:
        if not isinstance(column, DenseColumn):
            raise ValueError("Items of feature_columns must be a <class 'tensorflow.python.feature_column."
                             "feature_column_v2.DenseColumn'>. You can wrap a categorical column with an "
                             f"embedding_column or indicator_column. Given: {column}")
    return columns
