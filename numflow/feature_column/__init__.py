"""``tf.feature_column`` (TensorFlow 1.x's API): the columns, ``input_layer``, ``linear_model`` and
``make_parse_example_spec``; re-exports only."""

from numflow.feature_column.columns import (
    bucketized_column,
    categorical_column_with_hash_bucket,
    categorical_column_with_identity,
    categorical_column_with_vocabulary_file,
    categorical_column_with_vocabulary_list,
    crossed_column,
    numeric_column,
    weighted_categorical_column,
)
from numflow.feature_column.dense_columns import embedding_column, indicator_column, shared_embedding_columns
from numflow.feature_column.layers import input_layer, linear_model, make_parse_example_spec

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_file", "categorical_column_with_vocabulary_list", "crossed_column",
           "embedding_column", "indicator_column", "input_layer", "linear_model", "make_parse_example_spec",
           "numeric_column", "shared_embedding_columns", "weighted_categorical_column"]
