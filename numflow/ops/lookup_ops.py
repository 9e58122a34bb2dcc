"""``tf.lookup``: TensorFlow's lookup tables and their initializers, with TensorFlow's ops
(``HashTableV2``, ``LookupTableFindV2``, ``LookupTableImportV2``, ``InitializeTableFromTextFileV2``...)
and names (``hash_table``, ``hash_table_Lookup/LookupTableFindV2``, ``key_value_init``...).

A table lives in the session's container (``numflow_kernels.lookup_tables``), as a variable does: a
static table is filled by its initializer, which ``tf.tables_initializer()`` runs, and refuses
lookups before ("Table not initialized."); a mutable table starts empty.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     table = tf.lookup.StaticHashTable(
...         tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([1, 2], tf.int64)), -1)
...     ids = table.lookup(tf.constant(["b", "z"]))
...     with tf.Session() as sess:
...         sess.run(tf.tables_initializer())
...         ids.name, sess.run(ids).tolist()
('hash_table_Lookup/LookupTableFindV2:0', [2, -1])
"""

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out

_SCALAR = TensorShape([])
_TABLE_TYPES = ("HashTableV2", "MutableHashTableV2", "MutableHashTableOfTensorsV2", "MutableDenseHashTableV2")
_EDIT_TYPES = ("LookupTableImportV2", "InitializeTableV2", "InitializeTableFromTextFileV2", "LookupTableInsertV2",
               "LookupTableRemoveV2")

for _op_type in _TABLE_TYPES:
    declare(_op_type, stateful=True)(lambda op: [(dtypes.resource, _SCALAR)])
for _op_type in _EDIT_TYPES:
    declare(_op_type, stateful=True)(lambda op: [])
declare("LookupTableSizeV2", stateful=True)(lambda op: [(dtypes.int64, _SCALAR)])


def _value_shape(table_op):
    return as_shape(table_op._attrs["value_shape"]) if "value_shape" in table_op._attrs else _SCALAR


@declare("LookupTableFindV2", stateful=True)
def _find_infer(op):
    return [(op._attrs["Tout"], op.inputs[1].shape.concatenate(_value_shape(op.inputs[0].op)))]


@declare("LookupTableExportV2", stateful=True)
def _export_infer(op):
    return [(op._attrs["Tkeys"], TensorShape(None)), (op._attrs["Tvalues"], TensorShape(None))]


def _table_op(op_type, name, key_dtype, value_dtype, inputs=(), shared_name="", **attrs):
    attrs = {"container": "", "shared_name": shared_name or "", "use_node_name_sharing": not shared_name,
             "key_dtype": key_dtype, "value_dtype": value_dtype, **attrs}
    return _out(op_type, list(inputs), attrs, name=name)[0]


def _check_keys(keys, key_dtype):
    if keys.dtype != key_dtype:
        raise TypeError(f"Dtype of argument `keys` must be <dtype: '{key_dtype.name}'>, received: "
                        f"<dtype: '{keys.dtype.name}'>")


def _map_values(keys, fn):
    """``fn`` of ``keys``, or of a SparseTensor's values (a SparseTensor of the results)."""
    if isinstance(keys, SparseTensor):
        return SparseTensor(keys.indices, fn(keys.values), keys.dense_shape)
    return fn(convert_to_tensor(keys))


class LookupInterface:
    """What every table has: its key and value dtypes, its name, ``lookup`` and ``size``."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def name(self):
        return self._name

    @property
    def resource_handle(self):
        return self._resource_handle

    def _scope(self, name, suffix):
        return get_default_graph().name_scope(name or f"{self.name}_{suffix}")

    def size(self, name=None):
        """The number of entries, an int64 scalar."""
        with self._scope(name, "Size"):
            return _out("LookupTableSizeV2", [self._resource_handle], name="LookupTableSizeV2")[0]

    def _find(self, keys, default_value):
        _check_keys(keys, self._key_dtype)
        return _out("LookupTableFindV2", [self._resource_handle, keys, default_value],
                    {"Tin": self._key_dtype, "Tout": self._value_dtype}, name="LookupTableFindV2")[0]


class StaticHashTable(LookupInterface):
    """A table filled once by ``initializer`` (run by ``tf.tables_initializer()``), giving
    ``default_value`` for keys it does not hold (``tf.lookup.StaticHashTable``).

    Parameters
    ----------
    initializer : KeyValueTensorInitializer or TextFileInitializer
    default_value : scalar
        The value of absent keys, of the initializer's value dtype.
    name : str, optional
        The table op's name (``hash_table``).
    """

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer.key_dtype, initializer.value_dtype)
        self._initializer = initializer
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._resource_handle = _table_op("HashTableV2", name or "hash_table", self._key_dtype, self._value_dtype)
        self._name = self._resource_handle.op.name.split("/")[-1]
        self._init_op = initializer.initialize(self)

    @property
    def default_value(self):
        return self._default_value

    @property
    def initializer(self):
        return self._init_op

    def lookup(self, keys, name=None):
        """The values of ``keys`` (a Tensor or SparseTensor of the key dtype), ``default_value`` where absent."""
        def find(values):
            with self._scope(name, "Lookup"):
                return self._find(values, self._default_value)

        return _map_values(keys, find)


class StaticVocabularyTable(LookupInterface):
    """Ids of a vocabulary: a key's id in the table ``initializer`` fills, else ``size + bucket`` with
    its bucket among ``num_oov_buckets`` by TensorFlow's Fingerprint64 of the key (of its decimal
    text for integer keys) (``tf.lookup.StaticVocabularyTable``).

    Parameters
    ----------
    initializer : KeyValueTensorInitializer or TextFileInitializer
        Keys to int64 ids.
    num_oov_buckets : int
        How many buckets the keys out of the vocabulary share; more than 0.
    lookup_key_dtype : DType, optional
    name : str, optional
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got {initializer.value_dtype}.")
        self._table = StaticHashTable(initializer, -1)
        self._num_oov_buckets = int(num_oov_buckets)
        self._name = name or self._table.name
        self._resource_handle = self._table.resource_handle
        super().__init__(lookup_key_dtype or initializer.key_dtype, dtypes.int64)

    @property
    def initializer(self):
        return self._table.initializer

    def size(self, name=None):
        """The vocabulary's size plus the number of buckets."""
        with self._scope(name, "Size"):
            return self._table.size() + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """The ids of ``keys`` (a Tensor or SparseTensor of the key dtype)."""
        from numflow.ops.math_ops import add, not_equal
        from numflow.ops.selection_ops import where_v2
        from numflow.ops.string_ops import as_string
        from numflow.ops.string_transform_ops import string_to_hash_bucket_fast

        def ids_of(values):
            _check_keys(values, self._key_dtype)
            with self._scope(name, "Lookup"):
                text = as_string(values) if values.dtype.is_integer else values
                buckets = string_to_hash_bucket_fast(text, self._num_oov_buckets, name="hash_bucket")
                ids = self._table.lookup(values)
                buckets = add(buckets, self._table.size())
                return where_v2(not_equal(ids, self._table.default_value), ids, buckets)

        return _map_values(keys, ids_of)


class KeyValueTensorInitializer:
    """Fills a table with ``keys`` and their ``values`` (``tf.lookup.KeyValueTensorInitializer``).

    Parameters
    ----------
    keys, values : tensor-like
        One-dimensional, of one length.
    key_dtype, value_dtype : DType, optional
    name : str, optional
        The initializer op's scope (``key_value_init``).
    """

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype, name="keys")
        self._values = convert_to_tensor(values, dtype=value_dtype, name="values")
        self._name = name or "key_value_init"
        if self._keys.shape.is_fully_defined() and self._values.shape.is_fully_defined() \
                and self._keys.shape != self._values.shape:
            raise ValueError(f"Dimensions must be equal, but are {self._keys.shape.as_list()[0]} and "
                             f"{self._values.shape.as_list()[0]} for '{{{{node {self._name}/LookupTableImportV2}}}}'")
        self.key_dtype = self._keys.dtype
        self.value_dtype = self._values.dtype

    def initialize(self, table):
        """The op filling ``table``, added to ``TABLE_INITIALIZERS``."""
        graph = get_default_graph()
        _check_keys(self._keys, table.key_dtype)
        with graph.name_scope(self._name):
            op = graph.create_op("LookupTableImportV2", [table.resource_handle, self._keys, self._values],
                                 {"Tin": self.key_dtype, "Tout": self.value_dtype}, name="LookupTableImportV2")
        graph.add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        return op


class TextFileIndex:
    """Where a text file initializer takes keys or values: a column, the whole line, or its number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer:
    """Fills a table from a text file, a key and a value per line (``tf.lookup.TextFileInitializer``).

    Parameters
    ----------
    filename : str or Tensor
        The file; a missing one is a NotFoundError naming it when the initializer runs.
    key_dtype, value_dtype : DType
    key_index, value_index : int
        A column (split by ``delimiter``), ``TextFileIndex.WHOLE_LINE`` or ``TextFileIndex.LINE_NUMBER``.
    vocab_size : int, optional
        Read only the first ``vocab_size`` lines; fewer lines is an error.
    delimiter : str
    name : str, optional
        The initializer op's scope (``text_file_init``).
    value_index_offset : int
        Added to line numbers taken as values.
    """

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None, value_index_offset=0):
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        if key_index < -2:
            raise ValueError(f"`key_index` should be >= -2, received: {key_index}.")
        if key_index == TextFileIndex.LINE_NUMBER and key_dtype != dtypes.int64:
            raise ValueError("`key_dtype` must be int64 if `key_index` is -1 (TextFileIndex.LINE_NUMBER). "
                             f"Received: {key_dtype}")
        if key_index == TextFileIndex.WHOLE_LINE and not key_dtype.is_integer and key_dtype != dtypes.string:
            raise ValueError("`key_dtype` should be either integer or string for `key_index` -2 "
                             f"(TextFileIndex.WHOLE_LINE). Received: {key_dtype}")
        if value_index < -2:
            raise ValueError(f"`value_index` should be >= -2, received: {value_index}.")
        if value_index == TextFileIndex.LINE_NUMBER and value_dtype != dtypes.int64:
            raise ValueError("`value_dtype` must be int64 for `value_index` -1 (TextFileIndex.LINE_NUMBER). "
                             f"Received: {value_dtype}")
        if value_index == TextFileIndex.WHOLE_LINE and value_dtype != dtypes.string:
            raise ValueError("`value_dtype` must be string for `value_index` -2 (TextFileIndex.WHOLE_LINE). "
                             f"Received: {value_dtype}")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._filename = convert_to_tensor(filename, dtype=dtypes.string, name="asset_path")
        get_default_graph().add_to_collection(GraphKeys.ASSET_FILEPATHS, self._filename)
        self._attrs = {"key_index": int(key_index), "value_index": int(value_index),
                       "vocab_size": -1 if vocab_size is None else int(vocab_size), "delimiter": delimiter,
                       "offset": int(value_index_offset)}
        self._name = name or "text_file_init"
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype

    def initialize(self, table):
        """The op filling ``table``, added to ``TABLE_INITIALIZERS``."""
        graph = get_default_graph()
        with graph.name_scope(self._name):
            op = graph.create_op("InitializeTableFromTextFileV2", [table.resource_handle, self._filename],
                                 dict(self._attrs), name="InitializeTableFromTextFileV2")
        graph.add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        return op


not_differentiable(*_TABLE_TYPES, *_EDIT_TYPES, "LookupTableFindV2", "LookupTableSizeV2", "LookupTableExportV2")
