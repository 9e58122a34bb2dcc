"""The vocabulary tables of the vocabulary columns, built as TensorFlow's ``index_table_from_tensor``
and ``index_table_from_file`` build them: a static table of ids under ``<name>/hash_table``, and, with
out-of-vocabulary buckets, the hash of a value not found (``numflow.ops.lookup_ops``)."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import lookup_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor


def _table(name, prepare, num_oov_buckets, default_value):
    """``prepare()`` runs in the table's scope and returns what makes its initializer in ``hash_table/``."""
    graph = get_default_graph()
    with graph.name_scope(name or "string_to_index"):
        make_initializer = prepare()
        with graph.name_scope("hash_table"):
            initializer = make_initializer()
            if num_oov_buckets:
                return lookup_ops.StaticVocabularyTable(initializer, num_oov_buckets)
            return lookup_ops.StaticHashTable(initializer, default_value)


def index_table_from_tensor(vocabulary_list, num_oov_buckets=0, default_value=-1, dtype=dtypes.string, name=None):
    """A table of each value of ``vocabulary_list`` to its position (int64)."""
    from numflow.ops.sequence_ops import size

    def initializer():
        keys = convert_to_tensor(list(vocabulary_list), dtype=dtype)
        values = math_ops.cast(math_ops.range(size(keys)), dtypes.int64)
        return lambda: lookup_ops.KeyValueTensorInitializer(keys, values, dtype, dtypes.int64, name="table_init")

    return _table(name, initializer, num_oov_buckets, default_value)


def index_table_from_file(vocabulary_file, num_oov_buckets=0, vocab_size=None, default_value=-1,
                          key_dtype=dtypes.string, name=None):
    """A table of each line of ``vocabulary_file`` to its line number (int64)."""
    index = lookup_ops.TextFileIndex

    def initializer():
        return lambda: lookup_ops.TextFileInitializer(vocabulary_file, key_dtype, index.WHOLE_LINE, dtypes.int64,
                                                      index.LINE_NUMBER, vocab_size=vocab_size, name="table_init")

    return _table(name, initializer, num_oov_buckets, default_value)
