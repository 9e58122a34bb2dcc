"""Custom getters and threads, run the same way by TensorFlow (to write the golden) and numflow (to test).

Each scenario takes the ``tf`` module (``tensorflow.compat.v1`` or ``numflow``), builds a fresh graph
and returns a JSON-able record: what each custom getter received (its positional arguments, its
keyword arguments in the order they came, and their values as text), and the variables made. A getter
may change what it passes on, call the getter positionally, or nest inside another scope's getter.
``make_tf_golden.py`` writes TensorFlow's records to ``tf_getter_golden.json``;
``tests/variables/test_getter_golden.py`` compares numflow's with them.
"""

import threading


def _text(key, value):
    """``value`` as text that means the same in TensorFlow and numflow."""
    if key == "getter":
        return "getter"
    if key == "dtype":
        return value.name
    if key == "initializer":
        return None if value is None else type(value).__name__
    if key in ("synchronization", "aggregation") or key == "reuse" and value not in (None, True, False):
        return str(value)
    if callable(value):
        return "callable"
    if isinstance(value, tuple):
        return list(value)
    return value


def _seen(tag, args, kwargs):
    return {"getter": tag, "args": [_text("", a) for a in args],
            "kwargs": [[k, _text(k, v)] for k, v in kwargs.items()]}


def _variables(tf, variables):
    trainable = set(tf.trainable_variables())
    return [[v.name, v.shape.as_list(), v.dtype.base_dtype.name, v in trainable,
             sorted(k for k in (tf.GraphKeys.GLOBAL_VARIABLES, tf.GraphKeys.LOCAL_VARIABLES, "extra")
                    if v in tf.get_collection(k))] for v in variables]


def getters(tf):
    """Custom getters of scopes and of get_variable calls, changing and passing on their arguments."""
    log = []

    def plain(getter, name, *args, **kwargs):
        log.append(_seen("plain", (name, *args), kwargs))
        return getter(name, *args, **kwargs)

    def with_constraint(getter, name, shape=None, constraint=None, **kwargs):
        log.append(_seen("with_constraint", (name, shape, constraint), kwargs))
        return getter(name, shape=shape, constraint=constraint, **kwargs)

    def renaming(getter, name, *args, **kwargs):
        log.append(_seen("renaming", (name, *args), kwargs))
        kwargs["trainable"] = False
        kwargs["collections"] = [tf.GraphKeys.GLOBAL_VARIABLES, "extra"]
        return getter(name + "_r", *args, **kwargs)

    def reshaping(getter, name, *args, **kwargs):
        log.append(_seen("reshaping", (name, *args), kwargs))
        kwargs["shape"] = [3]
        kwargs["dtype"] = tf.float64
        return getter(name, *args, **kwargs)

    def positional(getter, *args, **kwargs):
        log.append(_seen("positional", args, kwargs))
        return getter(kwargs.pop("name"), kwargs.pop("shape"), kwargs.pop("dtype"), **kwargs)

    def no_kwargs(getter, name, shape, dtype, initializer, regularizer, reuse, trainable, collections,
                  caching_device, partitioner, validate_shape, use_resource, synchronization, aggregation):
        log.append({"getter": "no_kwargs", "args": [name, shape, dtype.name, reuse, trainable]})
        return getter(name, shape, dtype, initializer, regularizer, reuse, trainable, collections)

    made = []
    with tf.Graph().as_default():
        with tf.variable_scope("a", custom_getter=plain, initializer=tf.zeros_initializer(), dtype=tf.float64):
            made.append(tf.get_variable("v", [2]))
        with tf.variable_scope("b", custom_getter=with_constraint):
            made.append(tf.get_variable("v", [2], constraint=lambda x: x, validate_shape=False))
        with tf.variable_scope("c", custom_getter=reshaping):
            with tf.variable_scope("d", custom_getter=renaming):
                made.append(tf.get_variable("v", [2]))
        with tf.variable_scope("e", custom_getter=plain):
            made.append(tf.get_variable("v", [1], custom_getter=renaming))
        with tf.variable_scope("f", custom_getter=positional, reuse=tf.AUTO_REUSE):
            made.append(tf.get_variable("v", [1], trainable=False))
            made.append(tf.get_variable("v", [1]))
        with tf.variable_scope("g", custom_getter=no_kwargs):
            made.append(tf.get_variable("v", [4], dtype=tf.int32))
        made.append(tf.get_local_variable("h", [1], custom_getter=plain, collections=["extra"]))
        return {"seen": log, "variables": _variables(tf, made)}


def threads(tf):
    """What a second thread sees of the scopes the first has open in the same graph."""
    seen = {}
    graph = tf.Graph()

    def other():
        seen["default graph"] = tf.get_default_graph() is graph
        with graph.as_default():
            seen["variable scope"] = tf.get_variable_scope().name
            seen["name scope"] = graph.get_name_scope()
            seen["op"] = tf.constant(1.0, name="c").name
            with tf.variable_scope("inner"):
                seen["variable"] = tf.get_variable("w", [1]).name
                seen["op inside"] = tf.constant(1.0, name="d").name
            with tf.variable_scope("outer", reuse=tf.AUTO_REUSE):
                seen["variable made here"] = tf.get_variable("v", [1]).name
            with tf.variable_scope(None, default_name="scope"):
                seen["default name"] = tf.get_variable_scope().name

    with graph.as_default(), tf.variable_scope("outer"), tf.name_scope("ns"):
        with tf.variable_scope(None, default_name="scope"):
            seen["first thread's default name"] = tf.get_variable_scope().name
            thread = threading.Thread(target=other)
            thread.start()
            thread.join()
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            seen["shared with the first thread"] = tf.get_variable("v", [1]).name
        seen["first thread's scopes after"] = [tf.get_variable_scope().name, graph.get_name_scope()]
        seen["first thread's op after"] = tf.constant(1.0, name="c").name
        with tf.variable_scope(None, default_name="scope"):
            seen["first thread's next default name"] = tf.get_variable_scope().name
    return seen


SCENARIOS = {"getters": getters, "threads": threads}
