"""The tf.feature_column programs behind ``data/tf_feature_column_golden.json``, written once for both
engines: each case takes the ``tf`` module and a folder holding the vocabulary file ``make_files``
wrote, builds ``input_layer`` or ``linear_model`` over features given as TF1 programs feed them
(constants, placeholders, SparseTensors), and returns the output's name and static shape, the
variables' names and collections, the values it runs, and the values after a training step.
Embedding weights start from a constant initializer, so that both engines start alike.
"""

import numpy as np

VOCABULARY = "apple\nbanana\ncherry\n"


def make_files(tf, folder):
    (folder / "fruit.txt").write_text(VOCABULARY)


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return np.round(np.asarray(value, dtype=np.float64), 5).tolist()


def _static(tensor):
    return [tensor.name, str(tensor.shape), tensor.dtype.name]


def _variables(tf):
    keys = ("variables", "model_variables", "trainable_variables")
    return {key: [v.name for v in tf.get_collection(key)] for key in keys}


def _run(tf, fetch, feed=None, train=None):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        result = {"value": _plain(sess.run(fetch, feed))}
        if train is not None:
            sess.run(train, feed)
            result["trained"] = _plain(sess.run(tf.trainable_variables()))
    return result


def numeric_and_bucketized(tf, folder):
    fc = tf.feature_column
    age = fc.numeric_column("age")
    size = fc.numeric_column("size", shape=[2], dtype=tf.int64, normalizer_fn=lambda x: x * 2)
    columns = [size, fc.bucketized_column(age, [18, 30.5, 65]), age,
               fc.bucketized_column(fc.numeric_column("pair", shape=2), [0.0, 1.0])]
    age_input = tf.placeholder(tf.float32, [None])
    features = {"age": age_input, "size": tf.constant([[1, 2], [3, 4], [5, 6]], tf.int64),
                "pair": tf.constant([[-1.0, 0.5], [1.0, 2.0], [0.0, 0.0]])}
    outputs = {}
    net = fc.input_layer(features, columns, cols_to_output_tensors=outputs)
    result = {"net": _static(net), "outputs": sorted(_static(t) for t in outputs.values())}
    result.update(_run(tf, net, {age_input: [17.0, 30.5, 90.0]}))
    return result


def categorical_indicators(tf, folder):
    fc = tf.feature_column
    columns = [
        fc.indicator_column(fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"])),
        fc.indicator_column(fc.categorical_column_with_vocabulary_list("shape", ["box", "ball"], num_oov_buckets=3)),
        fc.indicator_column(fc.categorical_column_with_vocabulary_list("size", [10, 20, 30], default_value=1)),
        fc.indicator_column(fc.categorical_column_with_hash_bucket("word", 7)),
        fc.indicator_column(fc.categorical_column_with_hash_bucket("number", 5, dtype=tf.int64)),
        fc.indicator_column(fc.categorical_column_with_identity("id", 4, default_value=3)),
        fc.indicator_column(fc.categorical_column_with_vocabulary_file("fruit", str(folder / "fruit.txt"),
                                                                       num_oov_buckets=2)),
        fc.indicator_column(fc.weighted_categorical_column(fc.categorical_column_with_identity("tag", 3), "tag_w")),
    ]
    features = {
        "color": tf.constant([["red", "blue"], ["pink", ""], ["green", "green"]]),
        "shape": tf.constant(["box", "cube", "sphere"]),
        "size": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([20, 30, 99], tf.int64), [3, 2]),
        "word": tf.constant([["hello"], ["world"], [""]]),
        "number": tf.constant([[7], [123456], [-3]], tf.int64),
        "id": tf.constant([[0, 5], [2, -1], [1, 1]], tf.int64),
        "fruit": tf.constant([["cherry"], ["kiwi"], ["apple"]]),
        "tag": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([0, 2, 0], tf.int64), [3, 2]),
        "tag_w": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([0.5, 2.0, 3.0]), [3, 2]),
    }
    outputs = {}
    net = fc.input_layer(features, columns, cols_to_output_tensors=outputs)
    result = {"net": _static(net), "outputs": sorted(_static(t) for t in outputs.values()),
              "tables": [op.name for op in tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)]}
    result.update(_run(tf, net))
    return result


def embeddings(tf, folder):
    fc = tf.feature_column
    weights = np.arange(15, dtype=np.float32).reshape(5, 3) / 10
    init = tf.constant_initializer(weights)
    ids = fc.categorical_column_with_identity("id", 5)
    words = fc.categorical_column_with_vocabulary_list("word", ["a", "b", "c", "d", "e"])
    columns = [fc.embedding_column(ids, 3, initializer=init),
               fc.embedding_column(words, 3, combiner="sqrtn", initializer=init),
               fc.embedding_column(fc.weighted_categorical_column(
                   fc.categorical_column_with_identity("rated", 5), "rating"), 3, combiner="sum", initializer=init),
               fc.embedding_column(fc.categorical_column_with_hash_bucket("h", 5), 2)]
    features = {
        "id": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([1, 3, 4], tf.int64), [3, 2]),
        "word": tf.constant([["a", "c"], ["e", ""], ["", ""]]),
        "rated": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([2, 4, 0], tf.int64), [3, 2]),
        "rating": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([0.5, 2.0, 1.5]), [3, 2]),
        "h": tf.constant([["x"], ["y"], ["z"]]),
    }
    cols_to_vars = {}
    net = fc.input_layer(features, columns, cols_to_vars=cols_to_vars)
    hashed_net = net[:, :2]
    loss = tf.reduce_sum(tf.square(net[:, 2:] - 1.0)) + 0.0 * tf.reduce_sum(hashed_net)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    result = {"net": _static(net), "vars": _variables(tf),
              "cols_to_vars": sorted([c.name, [v.name for v in vs]] for c, vs in cols_to_vars.items())}
    result.update(_run(tf, net[:, 2:], train=train))
    result["trained"] = result["trained"][1:]  # the hashed column's weights are random
    return result


def linear_models(tf, folder):
    fc = tf.feature_column
    columns = [fc.numeric_column("age"), fc.categorical_column_with_vocabulary_list("color", ["r", "g", "b"]),
               fc.bucketized_column(fc.numeric_column("age"), [30.0]),
               fc.weighted_categorical_column(fc.categorical_column_with_identity("tag", 3), "tag_w")]
    features = {"age": tf.constant([[20.0], [40.0], [35.0]]), "color": tf.constant([["r"], ["b"], ["x"]]),
                "tag": tf.constant([[0, 2], [1, -1], [2, -1]], tf.int64),
                "tag_w": tf.constant([[1.0, 2.0], [0.5, 0.0], [3.0, 0.0]])}
    cols_to_vars = {}
    logits = fc.linear_model(features, columns, units=2, cols_to_vars=cols_to_vars)
    labels = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    result = {"logits": _static(logits), "vars": _variables(tf),
              "cols_to_vars": sorted([str(getattr(c, "name", c)), [v.name for v in vs]]
                                     for c, vs in cols_to_vars.items())}
    result.update(_run(tf, logits, train=train))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        for _ in range(3):
            sess.run(train)
        result["after_three"] = _plain(sess.run(logits))
    return result


def crossed_columns(tf, folder):
    fc = tf.feature_column
    old = fc.bucketized_column(fc.numeric_column("age"), [30.0])
    city_word = fc.crossed_column(["city", "word"], 20)
    old_city = fc.crossed_column([old, "city"], 10, hash_key=7)
    nested = fc.crossed_column([city_word, fc.categorical_column_with_identity("id", 4)], 50)
    city = tf.placeholder(tf.string, [None, 1])  # fed: TensorFlow's static batch size would come from folding
    features = {"city": city, "age": tf.constant([[20.0], [40.0], [50.0]]),
                "word": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant(["cat", "dog", "cow"]), [3, 2]),
                "id": tf.constant([[1], [3], [0]], tf.int64)}
    init = tf.constant_initializer(np.arange(100, dtype=np.float32) / 100)
    net = fc.input_layer(features, [fc.indicator_column(city_word), fc.indicator_column(old_city),
                                    fc.embedding_column(nested, 2, initializer=init)])
    logits = fc.linear_model(features, [city_word, old_city])
    train = tf.train.GradientDescentOptimizer(1.0).minimize(tf.reduce_sum(tf.square(logits - 1.0)))
    result = {"names": [city_word.name, old_city.name, nested.name], "net": _static(net), "vars": _variables(tf),
              "spec": sorted(fc.make_parse_example_spec([nested, old_city]))}
    result.update(_run(tf, [net, logits], {city: [["sf"], ["ny"], ["la"]]}, train=train))
    return result


def sparse_crosses(tf, folder):
    words = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant(["a", "b", "c"]), [3, 2])
    ids = tf.SparseTensor([[0, 0], [1, 0], [2, 0]], tf.constant([3, -7, 2**40], tf.int64), [3, 1])
    dense = tf.constant([["f", "g"], ["h", "i"], ["j", "k"]])
    crosses = {"strings": tf.sparse.cross([words, dense]), "mixed": tf.sparse.cross([dense, ids]),
               "hashed": tf.sparse.cross_hashed([words, ids, dense]),
               "buckets": tf.sparse.cross_hashed([dense, words], num_buckets=13, hash_key=99)}
    with tf.Session() as sess:
        values = sess.run({name: [c.indices, c.values, c.dense_shape] for name, c in crosses.items()})
    return {name: [v[0].tolist(), [x.decode() if isinstance(x, bytes) else int(x) for x in v[1]], v[2].tolist()]
            for name, v in values.items()}


def parsed_examples(tf, folder):
    """A TF1 input pipeline: serialized Examples through ``parse_example`` with the columns' spec, batched
    by tf.data, into ``input_layer``."""
    fc = tf.feature_column
    age = fc.numeric_column("age", default_value=-1.0)
    columns = [age, fc.bucketized_column(age, [30.0]),
               fc.indicator_column(fc.categorical_column_with_vocabulary_file("fruit", str(folder / "fruit.txt"))),
               fc.embedding_column(fc.categorical_column_with_hash_bucket("tags", 6), 2,
                                   initializer=tf.constant_initializer(np.arange(12, dtype=np.float32) / 10))]
    rows = [{"age": [25.0], "fruit": [b"banana", b"cherry"], "tags": [b"x", b"y", b"z"]},
            {"fruit": [b"kiwi"], "tags": []}, {"age": [40.0], "fruit": [], "tags": [b"y"]}]

    def example(row):
        feature = {"age": tf.train.Feature(float_list=tf.train.FloatList(value=row["age"]))} if "age" in row else {}
        for key in ("fruit", "tags"):
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=row[key]))
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()

    serialized = [example(row) for row in rows]
    dataset = tf.data.Dataset.from_tensor_slices(serialized).batch(3)
    batch = tf.data.make_one_shot_iterator(dataset).get_next()
    features = tf.parse_example(batch, fc.make_parse_example_spec(columns))
    net = fc.input_layer(features, columns)
    result = {"net": _static(net)}
    result.update(_run(tf, net))
    return result


def shared_embeddings(tf, folder):
    fc = tf.feature_column
    query = fc.categorical_column_with_identity("query", 4)
    title = fc.categorical_column_with_identity("title", 4)
    shared = fc.shared_embedding_columns([title, query], 2, combiner="sum",
                                         initializer=tf.constant_initializer(np.arange(8, dtype=np.float32) / 8))
    features = {"query": tf.constant([[1, 2], [3, -1]], tf.int64), "title": tf.constant([[0], [3]], tf.int64)}
    outputs = {}
    net = fc.input_layer(features, shared, cols_to_output_tensors=outputs)
    train = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(tf.square(net - 1.0)))
    result = {"names": [c.name for c in shared], "net": _static(net), "vars": _variables(tf),
              "outputs": sorted([c.name, t.name] for c, t in outputs.items()),
              "collection": [v.name for v in tf.get_collection("query_title_shared_embedding")]}
    result.update(_run(tf, net, train=train))
    return result


def default_embedding_initializer(tf, folder):
    """TensorFlow's initializer: its variable, shape and the scope of its ops; its spread, not its values."""
    fc = tf.feature_column
    column = fc.embedding_column(fc.categorical_column_with_identity("id", 400), 16)
    net = fc.input_layer({"id": tf.constant([[1]], tf.int64)}, [column])
    (variable,) = tf.global_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(variable)
    return {"net": _static(net), "variable": [variable.name, variable.shape.as_list()],
            "initializer_op": variable.initializer.inputs[1].op.name.split("/Initializer/")[-1].split("/")[0],
            "within_two_stddev": bool(np.abs(values).max() <= 2 / 4), "stddev_about": round(float(values.std()), 1)}


def parse_example_specs(tf, folder):
    fc = tf.feature_column
    columns = [fc.numeric_column("age", default_value=3.0), fc.numeric_column("pos", shape=[2, 2]),
               fc.embedding_column(fc.categorical_column_with_hash_bucket("word", 10), 4),
               fc.indicator_column(fc.weighted_categorical_column(
                   fc.categorical_column_with_identity("id", 4), "id_weight")),
               fc.bucketized_column(fc.numeric_column("score", dtype=tf.int64), [1, 2])]
    spec = fc.make_parse_example_spec(columns)
    return {key: [type(value).__name__, [str(getattr(value, f, None)) for f in ("shape", "dtype", "default_value")]]
            for key, value in sorted(spec.items())}


def errors(tf, folder):
    """What TensorFlow refuses when the graph is built, with its class and message."""
    fc = tf.feature_column
    color = fc.categorical_column_with_vocabulary_list("color", ["r"])
    age = fc.numeric_column("age")
    attempts = {
        "categorical_in_input_layer": lambda: fc.input_layer({"color": tf.constant([["r"]])}, [color]),
        "missing_feature": lambda: fc.input_layer({"x": tf.constant([[1.0]])}, [age]),
        "batch_sizes": lambda: fc.input_layer({"age": tf.constant([[1.0]]), "b": tf.constant([[1.0], [2.0]])},
                                              [age, fc.numeric_column("b")]),
        "duplicate": lambda: fc.input_layer({"age": tf.constant([[1.0]])}, [age, fc.numeric_column("age")]),
        "unsorted_boundaries": lambda: fc.bucketized_column(age, [3, 1]),
        "sparse_numeric": lambda: fc.input_layer({"age": tf.SparseTensor([[0, 0]], [1.0], [1, 1])}, [age]),
        "dimension": lambda: fc.embedding_column(color, 0),
        "hash_size": lambda: fc.categorical_column_with_hash_bucket("w", 0),
        "oov_and_default": lambda: fc.categorical_column_with_vocabulary_list("c", ["a"], default_value=0,
                                                                              num_oov_buckets=1),
        "empty_columns": lambda: fc.input_layer({"age": tf.constant([[1.0]])}, []),
    }
    found = {}
    for name, attempt in attempts.items():
        try:
            attempt()
            found[name] = None
        except (ValueError, TypeError) as e:
            found[name] = [type(e).__name__, str(e).split(" Given")[0].split("SparseTensor is not")[0]]
    return found


CASES = {f.__name__: f for f in (numeric_and_bucketized, categorical_indicators, embeddings, linear_models,
                                 crossed_columns, sparse_crosses, parsed_examples, shared_embeddings,
                                 default_embedding_initializer, parse_example_specs, errors)}
