"""``tf.feature_column.input_layer`` and ``linear_model`` (TensorFlow 1.x's), and
``make_parse_example_spec``: the columns, sorted by name, each in a variable scope of its name under
``input_layer`` (``linear_model``), as TensorFlow builds them.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     age = tf.feature_column.numeric_column("age")
...     old = tf.feature_column.bucketized_column(age, [30.0, 60.0])
...     net = tf.feature_column.input_layer({"age": tf.constant([[25.0], [70.0]])}, [age, old])
...     net.name, net.shape.as_list(), tf.Session().run(net).tolist()
('input_layer/concat:0', [2, 4], [[25.0, 1.0, 0.0, 0.0], [70.0, 0.0, 0.0, 1.0]])
"""

from numflow.feature_column.columns import CategoricalColumn, DenseColumn
from numflow.feature_column.dense_columns import combine_embeddings
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops


class LazyBuilder:
    """The features, and each column's transformed tensor once built (TensorFlow's ``_LazyBuilder``)."""

    def __init__(self, features):
        self._features = dict(features)
        self._built = {}

    def get(self, key):
        """The raw feature ``key`` (a string; rank 1 made rank 2), or a column's transformed tensor."""
        if key in self._built:
            return self._built[key]
        if isinstance(key, str):
            if key not in self._features:
                raise ValueError(f"Feature {key} is not in features dictionary.")
            built = self._raw(key)
        elif isinstance(key, DenseColumn | CategoricalColumn):
            built = key._transform_feature(self)
            if built is None:
                raise ValueError(f"Column {key.name} is not supported.")
        else:
            raise TypeError(f'"key" must be either a "str" or "_FeatureColumn". Provided: {key}')
        self._built[key] = built
        return built

    def _raw(self, key):
        from numflow.ops.constant_op import convert_to_tensor
        from numflow.ops.sparse_math_ops import sparse_reshape

        feature = self._features[key]
        tensor = feature if isinstance(feature, SparseTensor) else convert_to_tensor(feature)
        rank = tensor.shape.ndims
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {tensor}")
        if rank != 1:
            return tensor
        if isinstance(tensor, SparseTensor):
            return sparse_reshape(tensor, [tensor.dense_shape[0], 1])
        return array_ops.expand_dims(tensor, -1)


def normalize_columns(feature_columns):
    """The feature columns (one, or an iterable), checked and sorted by name."""
    if isinstance(feature_columns, DenseColumn | CategoricalColumn):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    feature_columns = list(feature_columns)
    for column in feature_columns:
        if not isinstance(column, DenseColumn | CategoricalColumn):
            raise ValueError(f"Items of feature_columns must be a _FeatureColumn. Given (type {type(column)}): "
                             f"{column}.")
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    by_name = {}
    for column in feature_columns:
        if column.name in by_name:
            raise ValueError(f"Duplicate feature column name found for columns: {column} and {by_name[column.name]}. "
                             "This usually means that these columns refer to same base feature. Either one must be "
                             "discarded or a duplicated but renamed item must be inserted in features dict.")
        by_name[column.name] = column
    return sorted(feature_columns, key=lambda c: c.name)


def _weight_collections(weight_collections):
    collections = list(weight_collections or [])
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return collections


def check_batch_sizes(tensors, columns):
    """Raise TensorFlow's ValueError unless the columns' tensors have one static batch size."""
    expected, first = None, None
    for tensor, column in zip(tensors, columns):
        size = tensor.shape.dim_values[0] if tensor.shape.ndims else None
        if size is None:
            continue
        if expected is None:
            expected, first = size, column
        elif size != expected:
            raise ValueError("Batch size (first dimension) of each feature must be same. Batch size of columns "
                             f"({first.name}, {column.name}): ({expected}, {size})")


def _flat(tensor, column):
    batch_size = array_ops.shape(tensor)[0]
    return array_ops.reshape(tensor, shape=(batch_size, column._variable_shape.num_elements()))


def _scope_vars(scope_name):
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope_name)


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
    """The dense columns of ``features`` side by side: ``[batch, sum of the columns' sizes]``, the
    columns in the order of their names (``tf.feature_column.input_layer``).

    Parameters
    ----------
    features : dict
        Feature key to Tensor or SparseTensor, as ``parse_example`` gives them.
    feature_columns : iterable of DenseColumn
        Numeric, bucketized, indicator and embedding columns.
    weight_collections : list of str, optional
        Collections of the variables made, besides global and model variables.
    trainable : bool
    cols_to_vars, cols_to_output_tensors : dict, optional
        Filled with each column's variables and output tensor.
    """
    from numflow.variables.scope import get_variable_scope, variable_scope

    columns = normalize_columns(feature_columns)
    for column in columns:
        if not isinstance(column, DenseColumn):
            raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a categorical column "
                             f"with an embedding_column or indicator_column. Given: {column}")
    collections = _weight_collections(weight_collections)
    with variable_scope(None, default_name="input_layer", values=list(features.values())):
        builder = LazyBuilder(features)
        outputs = []
        for column in columns:
            with variable_scope(None, default_name=column._var_scope_name):
                tensor = _flat(column._get_dense_tensor(builder, weight_collections=collections,
                                                        trainable=trainable), column)
                outputs.append(tensor)
                if cols_to_vars is not None:
                    cols_to_vars[column] = _scope_vars(get_variable_scope().name)
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = tensor
        check_batch_sizes(outputs, columns)
        if len(outputs) == 1:  # TensorFlow's concat of one tensor: an Identity in its scope
            with get_default_graph().name_scope("concat"):
                return array_ops.identity(outputs[0], name="concat")
        return array_ops.concat(outputs, 1)


def linear_model(features, feature_columns, units=1, sparse_combiner="sum", weight_collections=None,
                 trainable=True, cols_to_vars=None):
    """A linear model of the columns: ``sum over columns of input @ weights + bias``, ``[batch, units]``;
    variables ``linear_model/<column>/weights`` and ``linear_model/bias_weights``, zeros at first
    (``tf.feature_column.linear_model``). A categorical column's weights are looked up by id and
    combined by ``sparse_combiner`` ("sum", "mean" or "sqrtn")."""
    from numflow.ops.init_ops import zeros_initializer
    from numflow.ops.math_ops import add_n, matmul
    from numflow.ops.nn_ops import bias_add
    from numflow.ops.sparse_math_ops import sparse_reshape
    from numflow.variables.scope import get_variable, variable_scope

    columns = normalize_columns(feature_columns)
    for column in columns:
        if not isinstance(column, DenseColumn | CategoricalColumn):
            raise ValueError("Items of feature_columns must be either a _DenseColumn or _CategoricalColumn. "
                             f"Given: {column}")
    collections = _weight_collections(weight_collections)
    # TensorFlow's model is a Layer: it takes each column's scope name where it is made (``age``, then
    # ``age_1``...), its variables go under ``linear_model/<column>/`` and its ops under
    # ``linear_model_1/linear_model/<column>/``.
    names = {}
    for column in columns:
        with variable_scope(None, default_name=column._var_scope_name) as scope:
            names[column] = scope.name.rsplit("/", 1)[-1]
    with variable_scope(None, default_name="linear_model", values=list(features.values())) as model_scope:
        pass
    graph = get_default_graph()

    def weights_variable(name, shape):
        return get_variable(name, shape=shape, initializer=zeros_initializer(), trainable=trainable,
                            collections=collections)

    with variable_scope(model_scope), graph.name_scope(model_scope.name.rsplit("/", 1)[-1]):
        builder = LazyBuilder(features)
        sums = []
        for column in columns:
            with graph.name_scope(names[column]), variable_scope(model_scope, auxiliary_name_scope=False), \
                    variable_scope(names[column], auxiliary_name_scope=False) as column_scope:
                if isinstance(column, CategoricalColumn):
                    ids, weights = column._get_sparse_tensors(builder, collections, trainable)
                    ids = sparse_reshape(ids, [ids.dense_shape[0], -1])
                    if weights is not None:
                        weights = sparse_reshape(weights, [weights.dense_shape[0], -1])
                    variable = weights_variable("weights", (column._num_buckets, units))
                    sums.append(combine_embeddings(variable, ids, weights, sparse_combiner, "weighted_sum"))
                else:
                    tensor = _flat(column._get_dense_tensor(builder, collections, trainable), column)
                    variable = weights_variable("weights", [column._variable_shape.num_elements(), units])
                    sums.append(matmul(tensor, variable, name="weighted_sum"))
                if cols_to_vars is not None:
                    cols_to_vars[column] = _scope_vars(column_scope.name)
        check_batch_sizes(sums, columns)
        no_bias = add_n(sums, name="weighted_sum_no_bias")
        with variable_scope(model_scope, auxiliary_name_scope=False):
            bias = weights_variable("bias_weights", [units])
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return bias_add(no_bias, bias, name="weighted_sum")


def make_parse_example_spec(feature_columns):
    """The ``parse_example`` features the columns read: key to FixedLenFeature or VarLenFeature."""
    spec = {}
    for column in feature_columns:
        if not isinstance(column, DenseColumn | CategoricalColumn):
            raise ValueError(f"All feature_columns must be _FeatureColumn instances. Given: {column}")
        for key, value in column._parse_example_spec.items():
            if key in spec and spec[key] != value:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. Given {value} and "
                                 f"{spec[key]}")
        spec.update(column._parse_example_spec)
    return spec
