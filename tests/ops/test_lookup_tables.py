"""tf.lookup beyond the golden cases: tables are per-session resources, travel through a GraphDef,
and refuse keys of another dtype in TensorFlow's words."""

import numpy as np
import pytest

import numflow as tf


def test_each_session_has_its_own_tables():
    with tf.Graph().as_default():
        table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, -1)
        insert = table.insert(tf.constant([1], tf.int64), tf.constant([10], tf.int64))
        found = table.lookup(tf.constant([1], tf.int64))
        with tf.Session() as first, tf.Session() as second:
            first.run(insert)
            assert first.run(found).tolist() == [10]
            assert second.run(found).tolist() == [-1]


def test_a_table_graph_round_trips_through_a_graph_def(tmp_path):
    vocabulary = tmp_path / "words.txt"
    vocabulary.write_text("x\ny\n")
    with tf.Graph().as_default() as graph:
        table = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
            str(vocabulary), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), 4)
        ids = table.lookup(tf.constant(["y", "unknown", "x"]))
        graph_def = graph.as_graph_def()
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            expected = sess.run(ids)
    assert {"HashTableV2", "InitializeTableFromTextFileV2", "LookupTableFindV2"} <= {n.op for n in graph_def.node}
    with tf.Graph().as_default() as imported:
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            sess.run(imported.get_operation_by_name("text_file_init/InitializeTableFromTextFileV2"))
            got = sess.run(ids.name)
    np.testing.assert_array_equal(got, expected)
    assert got[0] == 1 and got[2] == 0 and 2 <= got[1] < 6


def test_keys_of_another_dtype_are_refused():
    with tf.Graph().as_default():
        table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2], tf.int64), tf.constant([1.5, 2.5])), -1.0)
        with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'int64'>, received: "
                                            "<dtype: 'string'>"):
            table.lookup(tf.constant(["a"]))


def test_a_vocabulary_table_needs_buckets():
    with tf.Graph().as_default():
        init = tf.lookup.KeyValueTensorInitializer(["a"], tf.constant([0], tf.int64))
        with pytest.raises(ValueError, match="`num_oov_buckets` must be > 0; use StaticHashTable."):
            tf.lookup.StaticVocabularyTable(init, 0)
