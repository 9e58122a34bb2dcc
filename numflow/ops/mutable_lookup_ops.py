"""``tf.lookup.experimental.MutableHashTable`` and ``DenseHashTable``: tables a graph changes as it
runs (``LookupTableInsertV2``, ``LookupTableRemoveV2``, ``LookupTableExportV2``), with TensorFlow's
op names (``MutableHashTable_lookup_table_insert/LookupTableInsertV2``...). Each starts empty in
each session; an export lists the entries in the order they were first inserted.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
...     insert = table.insert(tf.constant(["a", "b"]), tf.constant([7, 8], tf.int64))
...     found = table.lookup(tf.constant(["b", "c"]))
...     with tf.Session() as sess:
...         sess.run(insert)
...         sess.run(found).tolist(), int(sess.run(table.size()))
([8, -1], 2)
"""

from numflow.framework.graph import get_default_graph
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.lookup_ops import LookupInterface, _check_keys, _table_op


class MutableHashTable(LookupInterface):
    """A table of keys to values of one shape (that of ``default_value``), changed by ``insert`` and
    ``remove`` (``tf.lookup.experimental.MutableHashTable``).

    Parameters
    ----------
    key_dtype, value_dtype : DType
    default_value : tensor-like
        The value of absent keys; its shape is every value's.
    name : str
        The table op's name.
    checkpoint : bool
        As in TensorFlow, an export op is made with the table for a saver (``<name>_lookup_table_export_values``);
        numflow's Saver does not save tables yet.
    """

    _DEFAULT_NAME = None

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype, name=self._DEFAULT_NAME)
        self._value_shape = self._default_value.shape
        self._resource_handle = self._create(name)
        self._name = self._resource_handle.op.name.split("/")[-1]
        if checkpoint:
            self.export()

    def _create(self, name):
        if self._value_shape.ndims == 0:
            return _table_op("MutableHashTableV2", name, self._key_dtype, self._value_dtype)
        return _table_op("MutableHashTableOfTensorsV2", name, self._key_dtype, self._value_dtype,
                         value_shape=self._value_shape)

    @property
    def default_value(self):
        return self._default_value

    def _edit(self, op_type, suffix, inputs, name, attrs):
        graph = get_default_graph()
        with self._scope(name, suffix), graph.colocate_with(self._resource_handle.op):
            return graph.create_op(op_type, [self._resource_handle, *inputs], attrs, name=op_type)

    def lookup(self, keys, name=None):
        """The values of ``keys``, shaped ``keys.shape + value_shape``; ``default_value`` where absent."""
        keys = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        _check_keys(keys, self._key_dtype)
        attrs = {"Tin": self._key_dtype, "Tout": self._value_dtype}
        return self._edit("LookupTableFindV2", "lookup_table_find", [keys, self._default_value], name,
                          attrs).outputs[0]

    def insert(self, keys, values, name=None):
        """An op adding (or replacing) the entries of ``keys``: ``values`` shaped ``keys.shape + value_shape``."""
        keys = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        values = convert_to_tensor(values, dtype=self._value_dtype, name="values")
        _check_keys(keys, self._key_dtype)
        attrs = {"Tin": self._key_dtype, "Tout": self._value_dtype}
        return self._edit("LookupTableInsertV2", "lookup_table_insert", [keys, values], name, attrs)

    def remove(self, keys, name=None):
        """An op removing the entries of ``keys`` (absent keys are ignored)."""
        keys = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        _check_keys(keys, self._key_dtype)
        attrs = {"Tin": self._key_dtype, "Tout": self._value_dtype}
        return self._edit("LookupTableRemoveV2", "lookup_table_remove", [keys], name, attrs)

    def export(self, name=None):
        """The (keys, values) of every entry, in the order they were first inserted."""
        attrs = {"Tkeys": self._key_dtype, "Tvalues": self._value_dtype}
        keys, values = self._edit("LookupTableExportV2", "lookup_table_export_values", [], name, attrs).outputs
        return keys, values


class DenseHashTable(MutableHashTable):
    """A mutable table whose keys exclude two reserved ones, ``empty_key`` and ``deleted_key``
    (``tf.lookup.experimental.DenseHashTable``); numflow keeps it as a hash map like MutableHashTable,
    so ``initial_num_buckets`` and ``max_load_factor`` only travel with the graph.
    """

    _DEFAULT_NAME = "default_value"

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
                 name="MutableDenseHashTable", checkpoint=True, experimental_is_anonymous=False):
        default_value = convert_to_tensor(default_value, dtype=value_dtype, name=self._DEFAULT_NAME)
        self._empty_key = convert_to_tensor(empty_key, dtype=key_dtype, name="empty_key")
        self._deleted_key = convert_to_tensor(deleted_key, dtype=key_dtype, name="deleted_key")
        self._initial_num_buckets = initial_num_buckets or 131072
        super().__init__(key_dtype, value_dtype, default_value, name, checkpoint)

    def _create(self, name):
        return _table_op("MutableDenseHashTableV2", name, self._key_dtype, self._value_dtype,
                         inputs=(self._empty_key, self._deleted_key), value_shape=self._value_shape,
                         initial_num_buckets=int(self._initial_num_buckets), max_load_factor=0.8)
