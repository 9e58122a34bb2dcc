"""The gradient of a gather as TensorFlow's IndexedSlices: its graph, fetching it, summing several, and
the optimizers applying it."""

import pathlib

import numba.cuda
import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

DATA = pathlib.Path(__file__).with_name("data")


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default():
        yield


def _embedding():
    return tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), name="emb")


def test_gather_gradient_is_indexed_slices_built_as_tensorflow_builds_it():
    w = _embedding()
    e = tf.nn.embedding_lookup(w, tf.constant([[0, 2], [0, 1]]))
    (g,) = tf.gradients(tf.reduce_sum(e * e), [w])
    assert isinstance(g, tf.IndexedSlices)
    assert g.values.name == "gradients/embedding_lookup_grad/Reshape:0"
    assert g.indices.name == "gradients/embedding_lookup_grad/Reshape_1:0"
    assert g.dense_shape.name == "gradients/embedding_lookup_grad/Shape:0"
    assert g.values.shape.as_list() == [4, 3] and g.indices.shape.as_list() == [4]
    assert g.dtype == tf.float32 and g.name == g.values.name and g.op is g.values.op


def test_fetching_indexed_slices_gives_indexed_slices_value():
    w = _embedding()
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(w, [2, 0, 2]) * 2.0), [w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(g)
        nested = sess.run({"g": [g]})
    assert type(value) is tf.IndexedSlicesValue
    np.testing.assert_array_equal(value.values, np.full((3, 3), 2.0, np.float32))
    np.testing.assert_array_equal(value.indices, [2, 0, 2])
    np.testing.assert_array_equal(value.dense_shape, [4, 3])
    assert type(nested["g"][0]) is tf.IndexedSlicesValue


def test_two_gathers_of_one_params_concatenate_their_slices():
    w = _embedding()
    loss = tf.reduce_sum(tf.gather(w, [1, 3])) + tf.reduce_sum(tf.gather(w, [[3]]) * 5.0)
    (g,) = tf.gradients(loss, [w])
    assert isinstance(g, tf.IndexedSlices)
    assert g.values.op.type == "ConcatV2" and g.values.name == "gradients/concat:0"
    assert g.indices.name == "gradients/concat_1:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(g)
        dense = sess.run(tf.convert_to_tensor(g))
    np.testing.assert_array_equal(value.indices, [1, 3, 3])
    np.testing.assert_array_equal(value.values, [[1] * 3, [1] * 3, [5] * 3])
    np.testing.assert_array_equal(dense, [[0] * 3, [1] * 3, [0] * 3, [6] * 3])


def test_a_dense_and_a_sparse_gradient_sum_to_a_dense_one():
    w = _embedding()
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(w, [1, 1])) + tf.reduce_sum(w * 2.0), [w])
    assert isinstance(g, tf.Tensor) and g.op.type == "AddN"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(g), [[2] * 3, [4] * 3, [2] * 3, [2] * 3])


def test_an_op_receiving_indexed_slices_gets_them_densified():
    p = tf.placeholder(tf.float32, [4, 2])
    q = tf.identity(p * 3.0)
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(q, [0, 0, 3])), [p])
    assert isinstance(g, tf.Tensor)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g, {p: np.zeros((4, 2))}), [[6, 6], [0, 0], [0, 0], [3, 3]])


def test_an_index_out_of_range_names_the_gather():
    w = _embedding()
    ids = tf.placeholder(tf.int32, [None])
    train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(tf.nn.embedding_lookup(w, ids)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in \[0, 4\)"):
            sess.run(train, {ids: [0, 7]})


@pytest.mark.parametrize("make", [
    lambda: tf.train.GradientDescentOptimizer(0.1),
    lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    lambda: tf.train.AdamOptimizer(0.1),
    lambda: tf.train.AdagradOptimizer(0.1),
    lambda: tf.train.RMSPropOptimizer(0.1, centered=True),
    lambda: tf.train.AdadeltaOptimizer(1.0),
    lambda: tf.train.ProximalGradientDescentOptimizer(0.1, 0.01, 0.01),
    lambda: tf.train.ProximalAdagradOptimizer(0.1, l1_regularization_strength=0.01),
])
def test_every_optimizer_trains_an_embedding(make):
    w = _embedding()
    train = make().minimize(tf.reduce_sum(tf.square(tf.nn.embedding_lookup(w, [1, 2, 1]))))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(w)
        sess.run(train)
        after = sess.run(w)
    assert (after[1:3] != before[1:3]).all()


golden = load_script(DATA / "make_tf_sparse_golden.py")
REGENERATE = "run `/opt/tfenv/bin/python tests/train/data/make_tf_sparse_golden.py` to rewrite the golden file"


@pytest.mark.parametrize("name", sorted(golden.OPTIMIZERS))
def test_embedding_trains_as_in_tensorflow(name):
    expected = np.load(golden.GOLDEN)
    train, ids, variables = golden.build(tf, name)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step, step_ids in enumerate(golden.IDS, 1):
            sess.run(train, {ids: step_ids})
            got = sess.run(variables)
            keys = sorted(k.split("/", 2)[2] for k in expected.files if k.startswith(f"{name}/{step}/"))
            assert sorted(got) == keys, REGENERATE
            for key, value in got.items():  # TensorFlow's operations in TensorFlow's order: the same bits
                want = expected[f"{name}/{step}/{key}"]
                assert value.dtype == want.dtype == (np.int64 if key == "global_step" else np.float32)
                np.testing.assert_array_equal(np.atleast_1d(value).view(np.uint8), np.atleast_1d(want).view(np.uint8),
                                              err_msg=f"{name}, step {step}, {key}: {value} against TF's {want}")


def test_repeated_indices_are_summed_before_the_sparse_update():
    w = _embedding()
    opt = tf.train.MomentumOptimizer(0.1, 0.9)
    train = opt.apply_gradients([(tf.IndexedSlices(tf.ones([3, 3]), tf.constant([2, 0, 2]), tf.constant([4, 3])), w)])
    update = tf.get_default_graph().get_operation_by_name("Momentum/update_emb/SparseApplyMomentum")
    assert [t.op.type for t in update.inputs[3:5]] == ["UnsortedSegmentSum", "Unique"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(opt.get_slot(w, "momentum")), [[1] * 3, [0] * 3, [2] * 3, [0] * 3])


def test_a_sparse_update_out_of_range_names_its_op():
    w = _embedding()
    grad = tf.IndexedSlices(tf.ones([2, 3]), tf.constant([1, 9]), tf.constant([4, 3]))
    train = tf.train.MomentumOptimizer(0.1, 0.9).apply_gradients([(grad, w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Index 9 at offset 1 in indices is out of range") as info:
            sess.run(train)
    assert "SparseApplyMomentum" in str(info.value)


@pytest.mark.parametrize("name, op_type", [
    ("sgd", "ScatterSub"), ("momentum", "SparseApplyMomentum"), ("nesterov", "SparseApplyMomentum"),
    ("adagrad", "SparseApplyAdagrad"), ("rmsprop", "SparseApplyRMSProp"),
    ("rmsprop_centered", "SparseApplyCenteredRMSProp"), ("adam", "ScatterAdd"), ("adadelta", "SparseApplyAdadelta"),
    ("proximal_gd", "SparseApplyProximalGradientDescent"), ("proximal_adagrad", "SparseApplyProximalAdagrad"),
    ("ftrl", "SparseApplyFtrl"), ("ftrl_shrinkage", "SparseApplyFtrlV2"), ("adagrad_da", "SparseApplyAdagradDA"),
])
def test_each_optimizer_updates_the_embedding_with_tensorflows_sparse_op(name, op_type):
    golden.build(tf, name)
    types = {op.type for op in tf.get_default_graph().get_operations() if "/update_emb/" in op.name}
    assert op_type in types and not any(t.startswith("Apply") for t in types)


@pytest.mark.cuda
@pytest.mark.skipif(not numba.cuda.is_available(), reason="no CUDA device (set NUMBA_ENABLE_CUDASIM=1 to use "
                    "the simulator)")
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["momentum", "rmsprop_centered", "adagrad"])
def test_a_variable_on_a_gpu_takes_the_sparse_update_on_the_cpu(name):
    expected = np.load(golden.GOLDEN)
    with tf.device("/gpu:0"):
        train, ids, variables = golden.build(tf, name)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step_ids in golden.IDS:
            sess.run(train, {ids: step_ids})
        np.testing.assert_allclose(sess.run(variables["emb"]), expected[f"{name}/{len(golden.IDS)}/emb"], rtol=2e-6,
                                   atol=1e-7)


def test_clip_by_global_norm_keeps_an_embedding_gradient_sparse():
    # Checked against TF 2.21: the clipped gradient stays an IndexedSlices, so Momentum leaves the
    # rows never looked up (1, 3, 4) as they were.
    emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2) / 10, name="emb")
    w = tf.Variable([[0.5], [-0.25]], name="w")
    h = tf.nn.embedding_lookup(emb, tf.constant([0, 2, 2, 5]))
    optimizer = tf.train.MomentumOptimizer(0.1, 0.9)
    grads_and_vars = optimizer.compute_gradients(tf.reduce_sum(tf.square(tf.matmul(h, w) - 1.0)))
    grads, norm = tf.clip_by_global_norm([g for g, _ in grads_and_vars], 1.0)
    assert isinstance(grads[0], tf.IndexedSlices) and grads[0].name == "clip_by_global_norm/clip_by_global_norm/_0:0"
    train = optimizer.apply_gradients(zip(grads, [v for _, v in grads_and_vars]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        np.testing.assert_allclose(sess.run(emb), [[0.13421337, 0.0564983], [0.2, 0.3], [0.62256926, 0.42428502],
                                                   [0.6, 0.7], [0.8, 0.9], [1.0815891, 1.0699629]], rtol=2e-6)
        np.testing.assert_allclose(sess.run(norm), 2.2869363, rtol=1e-6)


def test_sparse_updates_write_into_the_variable_in_place():
    emb = tf.Variable(np.ones((1000, 8), np.float32), name="emb")
    loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, tf.constant([3, 7, 3])))
    train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        (container,) = set(sess._containers.values())
        for _ in range(3):
            address = container.variable("emb").read().__array_interface__["data"][0]
            sess.run(train)
            assert container.variable("emb").read().__array_interface__["data"][0] == address
        np.testing.assert_allclose(sess.run(emb)[[0, 7]], [[1.0] * 8, [1.0 - 0.1 - 0.19 - 0.271] * 8], rtol=1e-6)
