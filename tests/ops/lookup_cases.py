"""The tf.lookup programs behind ``data/tf_lookup_golden.json``, written once for both engines: each
case takes the ``tf`` module and a folder holding the files ``make_files`` wrote, and returns the
ops' types and names, the static shapes, the values it runs, and the errors (class and message).
"""

import numpy as np

FILES = {"vocab.txt": "a\t10\nb\t20\nc\t30\n", "words.txt": "apple\nbanana\ncherry\n", "dup.txt": "a\nb\na\n",
         "crlf.txt": "x 1\r\ny 2\r\n", "ints.txt": "7\n11\n42\n"}


def make_files(tf, folder):
    for name, text in FILES.items():
        (folder / name).write_text(text, newline="")


def _plain(value):
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "indices") and hasattr(value, "dense_shape"):
        return {"indices": _plain(value.indices), "values": _plain(value.values), "shape": _plain(value.dense_shape)}
    array = np.asarray(value)
    if array.dtype == object:
        return [x.decode() for x in array.reshape(-1)] if array.ndim else array.item().decode()
    return array.tolist()


def _static(tensors):
    return [[t.name, str(t.shape), t.dtype.name] for t in tensors]


def _graph(tf):
    return [[op.type, op.name] for op in tf.get_default_graph().get_operations()]


def _error(tf, sess, fetch, feed=None):
    try:
        sess.run(fetch, feed)
    except tf.errors.OpError as e:
        lines = [line for line in e.message.splitlines() if line.strip() and "[[" not in line]
        return [type(e).__name__, lines[-1]]
    return None


def static_hash_table(tf, folder):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64))
    table = tf.lookup.StaticHashTable(init, -1)
    keys = tf.placeholder(tf.string, [None, 2])
    found, size = table.lookup(keys), table.size()
    again = table.lookup(tf.constant(["c"]), name="again")
    sparse = table.lookup(tf.SparseTensor([[0, 1], [2, 0]], tf.constant(["b", "q"]), [3, 2]))
    result = {"static": _static([found, size, again, table.resource_handle, table.default_value]),
              "names": [table.name, table.key_dtype.name, table.value_dtype.name],
              "initializers": [op.name for op in tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)]}
    with tf.Session() as sess:
        result["before"] = _error(tf, sess, found, {keys: [["a", "x"]]})
        sess.run(tf.tables_initializer())
        sess.run(tf.initializers.tables_initializer())
        result["values"] = _plain(sess.run([found, size, again, sparse], {keys: [["a", "x"], ["c", "b"]]}))
    result["graph"] = _graph(tf)
    return result


def int_keys_float_values(tf, folder):
    init = tf.lookup.KeyValueTensorInitializer([5, 7], [0.5, 1.5], tf.int64, tf.float32, name="floats")
    table = tf.lookup.StaticHashTable(init, -2.0, name="by_id")
    found = table.lookup(tf.constant([[5, 6], [7, 5]], tf.int64))
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        return {"static": _static([found]), "values": _plain(sess.run(found)), "graph": _graph(tf)}


def text_files(tf, folder):
    index = tf.lookup.TextFileIndex
    inits = {
        "columns": tf.lookup.TextFileInitializer(str(folder / "vocab.txt"), tf.string, 0, tf.int64, 1),
        "whole_lines": tf.lookup.TextFileInitializer(str(folder / "words.txt"), tf.string, index.WHOLE_LINE,
                                                     tf.int64, index.LINE_NUMBER),
        "first_two": tf.lookup.TextFileInitializer(str(folder / "words.txt"), tf.string, index.WHOLE_LINE,
                                                   tf.int64, index.LINE_NUMBER, vocab_size=2),
        "offset": tf.lookup.TextFileInitializer(str(folder / "words.txt"), tf.string, index.WHOLE_LINE,
                                                tf.int64, index.LINE_NUMBER, value_index_offset=10),
        "space_crlf": tf.lookup.TextFileInitializer(str(folder / "crlf.txt"), tf.string, 0, tf.string, 1,
                                                    delimiter=" "),
        "int_keys": tf.lookup.TextFileInitializer(str(folder / "ints.txt"), tf.int64, index.WHOLE_LINE,
                                                  tf.int64, index.LINE_NUMBER),
        "reversed": tf.lookup.TextFileInitializer(str(folder / "vocab.txt"), tf.int64, 1, tf.string, 0),
    }
    queries = {"columns": ["b", "q"], "whole_lines": ["cherry", "apple", "kiwi"], "first_two": ["banana", "cherry"],
               "offset": ["banana"], "space_crlf": ["y", "x", "z"], "int_keys": [42, 7, 8], "reversed": [30, 5]}
    fetches = {}
    for name, init in inits.items():
        default = "?" if init.value_dtype == tf.string else -1
        keys = tf.constant(queries[name], init.key_dtype)
        fetches[name] = tf.lookup.StaticHashTable(init, default).lookup(keys)
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        values = {name: _plain(value) for name, value in sess.run(fetches).items()}
    assets = len(tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS))
    return {"values": values, "graph": _graph(tf)[:8], "assets": assets}


def vocabulary_tables(tf, folder):
    words = tf.lookup.StaticVocabularyTable(
        tf.lookup.TextFileInitializer(str(folder / "words.txt"), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                      tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), 5)
    ids = words.lookup(tf.constant([["banana", "kiwi"], ["", "apple pie"], ["cherry", "zebra"]]))
    numbers = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([5, 7], tf.int64), tf.constant([0, 1], tf.int64)), 3,
        name="numbers")
    number_ids = numbers.lookup(tf.constant([5, 9, 123, -4, 7], tf.int64))
    sparse_ids = words.lookup(tf.SparseTensor([[0, 0], [1, 2]], tf.constant(["apple", "fig"]), [2, 3]))
    sizes = [words.size(), numbers.size()]
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        values = _plain(sess.run([ids, number_ids, sparse_ids, sizes]))
    return {"static": _static([ids, number_ids, *sizes]), "values": values, "graph": _graph(tf),
            "names": [words.name, numbers.name, words.key_dtype.name, words.value_dtype.name]}


def mutable_tables(tf, folder):
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    insert = table.insert(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64))
    replace = table.insert(tf.constant(["b"]), tf.constant([20], tf.int64))
    remove = table.remove(tf.constant(["a", "zz"]))
    found = table.lookup(tf.constant([["a", "b"], ["c", "d"]]))
    keys, values = table.export()
    vectors = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, -1.0], name="vectors")
    put = vectors.insert(tf.constant([3, 4], tf.int64), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    got = vectors.lookup(tf.constant([[3], [5]], tf.int64))
    result = {"static": _static([found, keys, values, got, table.size()]), "insert": [insert.type, insert.name]}
    with tf.Session() as sess:
        result["empty"] = _plain(sess.run([found, table.size()]))
        sess.run(insert)
        result["inserted"] = _plain(sess.run([found, table.size()]))
        sess.run([replace, put])
        sess.run(remove)
        k, v = sess.run([keys, values])
        result["exported"] = sorted([key, value] for key, value in zip(_plain(k), _plain(v)))
        result["after"] = _plain(sess.run([found, table.size(), got]))
        bad = vectors.insert(tf.constant([3], tf.int64), tf.constant([[1.0, 2.0, 3.0]]))
        result["bad_insert"] = _error(tf, sess, bad)
    result["graph"] = _graph(tf)
    return result


def dense_table(tf, folder):
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0,
                                                  deleted_key=-1)
    insert = table.insert(tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64))
    found = table.lookup(tf.constant([6, 7], tf.int64))
    with tf.Session() as sess:
        sess.run(insert)
        result = {"values": _plain(sess.run([found, table.size()])), "static": _static([found])}
        result["empty_key"] = _error(tf, sess, table.insert(tf.constant([0], tf.int64), tf.constant([1], tf.int64)))
    result["graph"] = _graph(tf)[:6]
    return result


def errors(tf, folder):
    """The run-time errors: a missing file, a duplicate key, too few columns, a bad number, too few lines."""
    index = tf.lookup.TextFileIndex
    inits = {
        "missing": tf.lookup.TextFileInitializer(str(folder / "absent.txt"), tf.string, index.WHOLE_LINE,
                                                 tf.int64, index.LINE_NUMBER),
        "duplicate_line": tf.lookup.TextFileInitializer(str(folder / "dup.txt"), tf.string, index.WHOLE_LINE,
                                                        tf.int64, index.LINE_NUMBER),
        "duplicate_key": tf.lookup.KeyValueTensorInitializer(["a", "a"], tf.constant([1, 2], tf.int64)),
        "columns": tf.lookup.TextFileInitializer(str(folder / "vocab.txt"), tf.string, 0, tf.int64, 2),
        "not_a_number": tf.lookup.TextFileInitializer(str(folder / "vocab.txt"), tf.int64, 0, tf.string, 1),
        "vocab_size": tf.lookup.TextFileInitializer(str(folder / "words.txt"), tf.string, index.WHOLE_LINE,
                                                    tf.int64, index.LINE_NUMBER, vocab_size=5),
    }
    tables = {name: tf.lookup.StaticHashTable(init, -1 if init.value_dtype == tf.int64 else "?")
              for name, init in inits.items()}
    found = {}
    with tf.Session() as sess:
        for name, table in tables.items():
            message = _error(tf, sess, table.initializer)
            found[name] = [message[0], message[1].replace(str(folder), "DIR")]
        same = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(["a", "a"], tf.constant([1, 1], tf.int64)), -1)
        sess.run(same.initializer)
        found["same_value_twice"] = _plain(sess.run(same.lookup(tf.constant(["a"]))))
    return found


CASES = {f.__name__: f for f in (static_hash_table, int_keys_float_values, text_files, vocabulary_tables,
                                 mutable_tables, dense_table, errors)}
