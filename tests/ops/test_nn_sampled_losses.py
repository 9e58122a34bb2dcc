"""Partitioned embedding_lookup, dynamic_partition/dynamic_stitch, nce_loss and sampled_softmax_loss:
TensorFlow's values and gradients (the samplers draw TF's classes), graphs and errors.

``data/tf_sampling_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_sampling_golden.py``.
"""

import pathlib

import numpy as np
import pytest

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_sampling_golden.npz")


def _dense(grad):
    return tf.convert_to_tensor(grad)


def _run_twice(fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [sess.run(fetches) for _ in range(2)]


def _check(runs, keys, rtol=1e-5, atol=1e-6):
    for run, results in enumerate(runs):
        for key in keys:
            for i, value in enumerate(results[key]):
                np.testing.assert_allclose(value, GOLDEN[f"out_{key}_run{run}_{i}"], rtol=rtol, atol=atol,
                                           err_msg=f"{key} run {run} output {i}")


PARTITIONS = {"mod": lambda t: [t[0::3], t[1::3], t[2::3]], "div": lambda t: [t[0:4], t[4:8], t[8:]]}


@pytest.mark.parametrize("strategy", sorted(PARTITIONS))
def test_partitioned_embedding_lookup_and_its_gradients_match_tensorflow(strategy):
    table, ids = GOLDEN["embedding_table"], GOLDEN["embedding_ids"]
    variables = [tf.Variable(p, name=f"part_{i}") for i, p in enumerate(PARTITIONS[strategy](table))]
    out = tf.nn.embedding_lookup(variables, ids, partition_strategy=strategy)
    assert out.shape.as_list() == [2, 3, 3]
    grads = tf.gradients(out * out, variables)
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)
    runs = _run_twice({f"lookup_{strategy}": [out], f"lookup_{strategy}_grad": [_dense(g) for g in grads]})
    _check(runs, [f"lookup_{strategy}", f"lookup_{strategy}_grad"])
    np.testing.assert_array_equal(runs[0][f"lookup_{strategy}"][0], table[ids])


def test_partitioned_lookup_graph_is_tensorflows():
    parts = [tf.placeholder(tf.float32, [None, 4], name=f"p{i}") for i in range(2)]
    out = tf.nn.embedding_lookup(parts, tf.placeholder(tf.int32, [None, 2]), name="emb")
    assert out.shape.as_list() == [None, 2, 4]
    stitch = out.op.inputs[0].op
    assert stitch.type == "ParallelDynamicStitch" and stitch.name == "emb"
    assert {t.op.type for t in stitch.inputs} == {"DynamicPartition", "GatherV2"}
    unknown = tf.nn.embedding_lookup([tf.placeholder(tf.float32), tf.placeholder(tf.float32, [3, 5])], [1, 2],
                                     partition_strategy="div")
    assert unknown.shape.as_list() == [2, 5]
    with pytest.raises(ValueError, match="Unrecognized partition strategy: lsb.Must be one of either `mod` or `div`."):
        tf.nn.embedding_lookup(parts, [1], partition_strategy="lsb")


def test_dynamic_partition_and_stitch():
    data = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]])
    parts = tf.dynamic_partition(data, [1, 0, 1, 1], 2)
    assert [p.shape.as_list() for p in parts] == [[None, 2], [None, 2]]
    merged = tf.dynamic_stitch([[3, 0], [1, 2, 3]], [[[0, 0], [1, 1]], [[2, 2], [3, 3], [4, 4]]])
    assert merged.shape.as_list() == [4, 2] and merged.op.type == "DynamicStitch"
    with tf.Session() as sess:
        got_parts, got_merged = sess.run([parts, merged])
    np.testing.assert_array_equal(got_parts[0], [[3, 4]])
    np.testing.assert_array_equal(got_parts[1], [[1, 2], [5, 6], [7, 8]])
    np.testing.assert_array_equal(got_merged, [[1, 1], [2, 2], [3, 3], [4, 4]])  # index 3: the later value
    bad = tf.dynamic_partition(data, [0, 2, 1, 1], 2)
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 2 is not in "
                                                                                   r"\[0, 2\)"):
        sess.run(bad)


def test_dynamic_partition_and_stitch_gradients():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    a, b = tf.dynamic_partition(x, [1, 0, 1], 2)
    (gx,) = tf.gradients(tf.reduce_sum(a * 10.0) + tf.reduce_sum(b * b), [x])
    merged = tf.dynamic_stitch([[2], [0, 1]], [x[:1], x[1:]])
    (gs,) = tf.gradients(merged * [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], [x])
    with tf.Session() as sess:
        got_x, got_s = sess.run([gx, gs])
    np.testing.assert_array_equal(got_x, [[2, 4], [10, 10], [10, 12]])
    np.testing.assert_array_equal(got_s, [[3, 3], [1, 1], [2, 2]])


LOSSES = {
    "nce": (tf.nn.nce_loss, dict(num_true=2)),
    "nce_hits": (tf.nn.nce_loss, dict(num_true=2, remove_accidental_hits=True)),
    "sampled_softmax": (tf.nn.sampled_softmax_loss, dict(num_true=2)),
    "sampled_softmax_keep": (tf.nn.sampled_softmax_loss, dict(num_true=2, remove_accidental_hits=False)),
    "sampled_softmax_1": (tf.nn.sampled_softmax_loss, dict(num_true=1)),
}


@pytest.mark.parametrize("parts", [1, 3])
@pytest.mark.parametrize("loss_name", sorted(LOSSES))
def test_sampled_losses_and_gradients_match_tensorflow(loss_name, parts):
    weights, biases, inputs, labels = (GOLDEN[f"loss_{k}"] for k in ("weights", "biases", "inputs", "labels"))
    w = tf.Variable(weights) if parts == 1 else [tf.Variable(weights[i::3]) for i in range(3)]
    b, x = tf.Variable(biases), tf.Variable(inputs)
    fn, kwargs = LOSSES[loss_name]
    y = labels if kwargs["num_true"] == 2 else labels[:, :1]
    sampled = tf.nn.log_uniform_candidate_sampler(y, kwargs["num_true"], 8, True, 30, seed=31)
    loss = fn(w, b, y, x, 8, 30, sampled_values=sampled, **kwargs)
    assert loss.shape.as_list() == [5]
    key = f"{loss_name}_{parts}"
    grads = tf.gradients(loss, (w if parts == 3 else [w]) + [b, x])
    runs = _run_twice({key: [loss, sampled[0]], key + "_grad": [_dense(g) for g in grads]})
    _check(runs, [key, key + "_grad"], rtol=2e-5, atol=2e-6)


def test_default_sampler_is_seeded_as_tensorflows():
    weights, biases, inputs, labels = (GOLDEN[f"loss_{k}"] for k in ("weights", "biases", "inputs", "labels"))
    loss = tf.nn.sampled_softmax_loss(tf.constant(weights), tf.constant(biases), labels[:, :1], inputs, 6, 30, seed=5)
    _check(_run_twice({"sampled_softmax_seeded": [loss]}), ["sampled_softmax_seeded"])


def test_sampled_loss_graphs_are_tensorflows():
    w, b = tf.ones([30, 4]), tf.zeros([30])
    x, y = tf.placeholder(tf.float32, [None, 4]), tf.placeholder(tf.int64, [None, 1])
    nce = tf.nn.nce_loss(w, b, y, x, 5, 30)
    assert nce.shape.as_list() == [None] and nce.op.type == "Reshape"
    graph = tf.get_default_graph()
    sampler = graph.get_operation_by_name("nce_loss/LogUniformCandidateSampler")
    assert sampler.get_attr("unique") is True and sampler.get_attr("range_max") == 30
    assert graph.get_operation_by_name("sampled_losses").type == "AddV2"
    softmax = tf.nn.sampled_softmax_loss(w, b, y, x, 5, 30)
    assert softmax.op.type == "SoftmaxCrossEntropyWithLogits" and softmax.shape.as_list() == [None]
    assert graph.get_operation_by_name("sampled_softmax_loss/ComputeAccidentalHits").type == "ComputeAccidentalHits"
    assert graph.get_operation_by_name("labels_stop_gradient").type == "StopGradient"


def test_compute_sampled_logits_subtracts_log_q_on_request():
    from numflow.ops.nn_sampled_losses import compute_sampled_logits

    weights, biases, inputs = GOLDEN["loss_weights"], GOLDEN["loss_biases"], GOLDEN["loss_inputs"]
    labels = GOLDEN["loss_labels"][:, :1]
    sampled = tf.nn.log_uniform_candidate_sampler(labels, 1, 4, True, 30, seed=3)
    plain, labels_out = compute_sampled_logits(weights, biases, labels, inputs, 4, 30, sampled_values=sampled,
                                               subtract_log_q=False)
    shifted, _ = compute_sampled_logits(weights, biases, labels, inputs, 4, 30, sampled_values=sampled)
    with tf.Session() as sess:
        got_plain, got_shifted, got_labels, (ids, true_q, sampled_q) = sess.run([plain, shifted, labels_out, sampled])
    classes = np.concatenate([labels, np.tile(ids, (5, 1))], axis=1)
    np.testing.assert_allclose(got_plain, np.einsum("bd,bkd->bk", inputs, weights[classes]) + biases[classes],
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_shifted, got_plain - np.log(np.concatenate([true_q, np.tile(sampled_q, (5, 1))],
                                                                               axis=1)), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(got_labels, np.concatenate([np.ones((5, 1)), np.zeros((5, 4))], axis=1))
