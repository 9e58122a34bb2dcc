"""A cond whose branch changes a variable is written as TensorFlow 1's Switch and Merge frames (its branch
functions could take no reference): the nodes TensorFlow writes, and a round trip through a ``.meta``
that runs on, bit for bit, as the graph that wrote it, a batch norm layer's moving averages included."""

import warnings

import numpy as np

import numflow as tf

X_VALUE = np.arange(12, dtype=np.float32).reshape(4, 3)


def _moving_average_cond():
    x = tf.placeholder(tf.float32, (None, 3), name="x")
    training = tf.placeholder_with_default(False, shape=(), name="training")
    v = tf.Variable(tf.ones([3]), name="average")
    return tf.cond(training, lambda: tf.assign_sub(v, (v - tf.reduce_mean(x, 0)) * 0.1), lambda: tf.identity(v),
                   name="cond")


def test_the_cond_becomes_switches_its_branches_nodes_and_merges():
    with tf.Graph().as_default() as graph:
        _moving_average_cond()
        nodes = {n.name: n for n in graph.as_graph_def().node}
    assert (nodes["cond/Switch"].op, list(nodes["cond/Switch"].input)) == ("Switch", ["training", "training"])
    assert list(nodes["cond/switch_t"].input) == ["cond/Switch:1"]
    assert list(nodes["cond/switch_f"].input) == ["cond/Switch"]
    switches = {n.input[0]: n for n in nodes.values() if n.op in ("Switch", "RefSwitch") and n.name != "cond/Switch"}
    assert {k: (n.op, n.input[1]) for k, n in switches.items()} == {
        "x": ("Switch", "cond/pred_id"), "average/read": ("Switch", "cond/pred_id"),
        "average": ("RefSwitch", "cond/pred_id")}
    assert list(nodes["cond/AssignSub"].input)[0] == switches["average"].name + ":1"  # the true branch: output 1
    assert list(nodes["cond/Identity"].input) == [switches["average/read"].name + ":0"]
    assert list(nodes["cond/mul/y"].input) == ["^cond/switch_t"]  # a constant of the branch waits on its pivot
    (merge,) = [n for n in nodes.values() if n.op == "Merge"]
    assert list(merge.input) == ["cond/Identity", "cond/AssignSub"]  # the false branch's value first
    assert (nodes["cond/If"].op, list(nodes["cond/If"].input)) == ("IdentityN", [merge.name])
    assert not graph.as_graph_def().library.function


def test_the_meta_graph_runs_the_cond_as_the_graph_that_wrote_it(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        updated = _moving_average_cond()
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "model"))
        want = [sess.run(updated, {"x:0": X_VALUE, "training:0": training}) for training in (True, False, True)]
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        tf.train.import_meta_graph(path + ".meta").restore(sess, path)
        updated = graph.get_tensor_by_name("cond/Merge:0")
        got = [sess.run(updated, {"x:0": X_VALUE, "training:0": training}) for training in (True, False, True)]
    average = np.ones(3, np.float32)
    for training, value in zip((True, False, True), got):
        if training:
            average = average - (average - X_VALUE.mean(0)) * np.float32(0.1)
        np.testing.assert_allclose(value, average, rtol=1e-6)
    np.testing.assert_array_equal(got, want)


def batch_norm_model(tf):
    """A dense layer, a batch norm under a ``training`` placeholder, a softmax read-out and plain SGD;
    ``(train, updates, loss)``, each in a collection of its name."""
    tf.set_random_seed(1)
    x = tf.placeholder(tf.float32, (None, 4), name="X")
    y = tf.placeholder(tf.int32, (None,), name="y")
    training = tf.placeholder_with_default(False, shape=(), name="training")
    hidden = tf.layers.batch_normalization(tf.layers.dense(x, 5, name="hidden"), training=training, momentum=0.9)
    logits = tf.layers.dense(tf.nn.elu(hidden), 3, name="out")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    tf.add_to_collection("train", train)
    for update in updates:
        tf.add_to_collection("updates", update)
    return train, updates, loss


BATCHES = [(np.random.RandomState(i).randn(8, 4).astype(np.float32), np.random.RandomState(i).randint(0, 3, 8))
           for i in range(4)]


def train_on(sess, train, updates, loss, batches):
    """The losses of training steps on ``batches`` (with ``training`` on), then the moving mean and the
    loss of the first batch in inference."""
    losses = [sess.run([loss, train, updates], {"X:0": x, "y:0": y, "training:0": True})[0] for x, y in batches]
    return losses, sess.run("batch_normalization/moving_mean:0"), sess.run(loss, {"X:0": BATCHES[0][0],
                                                                                 "y:0": BATCHES[0][1]})


def saved_batch_norm_model(path):
    """Train the model two steps, save it to ``path``, train two more: what those gave."""
    with tf.Graph().as_default(), tf.Session() as sess:
        train, updates, loss = batch_norm_model(tf)
        sess.run(tf.global_variables_initializer())
        train_on(sess, train, updates, loss, BATCHES[:2])
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # a .meta left out warns: here it must be written
            tf.train.Saver().save(sess, path)
        return train_on(sess, train, updates, loss, BATCHES[2:])


def reloaded_and_trained(v1, path):
    """``train_on`` the last batches in a new graph of ``v1`` (numflow, or TensorFlow's compat.v1) that
    loaded the ``.meta`` and checkpoint at ``path``."""
    with v1.Graph().as_default(), v1.Session() as sess:
        v1.train.import_meta_graph(path + ".meta").restore(sess, path)
        return train_on(sess, v1.get_collection("train")[0], v1.get_collection("updates"), "loss:0", BATCHES[2:])


def test_a_batch_norm_layers_training_switch_saves_its_meta_graph_and_trains_on_alike(tmp_path):
    path = str(tmp_path / "model")
    want = saved_batch_norm_model(path)
    got = reloaded_and_trained(tf, path)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert got[2] == want[2]
    assert np.abs(want[1]).sum() > 0  # the moving mean moved
