"""embedding_lookup_sparse and the sparse segment reductions: TensorFlow's values and gradients for
every combiner, with and without weights, over one and two partitions; graphs and errors.

``data/tf_sampling_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_sampling_golden.py``.
"""

import pathlib

import numpy as np
import pytest

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_sampling_golden.npz")
TABLE, INDICES, IDS, WEIGHTS = (GOLDEN[f"sparse_{k}"] for k in ("table", "indices", "ids", "weights"))


def _golden(key, got):
    for i, value in enumerate(got):
        np.testing.assert_allclose(value, GOLDEN[f"out_{key}_run0_{i}"], rtol=1e-5, atol=1e-6, err_msg=f"{key}[{i}]")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
@pytest.mark.parametrize("parts", [1, 2])
def test_values_and_gradients_match_tensorflow(parts, combiner, weighted):
    params = tf.Variable(TABLE) if parts == 1 else [tf.Variable(TABLE[i::2]) for i in range(2)]
    sp_ids = tf.SparseTensor(INDICES, IDS, [4, 3])
    sp_weights = tf.SparseTensor(INDICES, WEIGHTS, [4, 3]) if weighted else None
    out = tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=combiner)
    assert out.shape.as_list() == [None, 3]
    grads = tf.gradients(out * out, params if parts == 2 else [params])
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run([out, [tf.convert_to_tensor(g) for g in grads]])
    key = f"els_{parts}_{combiner}_{weighted}"
    _golden(key, [got[0]])
    _golden(key + "_grad", got[1])


def test_unweighted_lookup_of_one_table_is_one_sparse_segment_op():
    table = tf.Variable(TABLE, name="t")
    sp = tf.sparse_placeholder(tf.int64, [None, 3])
    out = tf.nn.embedding_lookup_sparse(table, sp, None)
    assert out.op.type == "SparseSegmentMean" and out.op.name == "embedding_lookup_sparse"
    assert out.op.inputs[0].op.name == "t/read" and out.op.get_attr("sparse_gradient") is True
    (g,) = tf.gradients(out, table)
    assert isinstance(g, tf.IndexedSlices) and g.values.op.type == "SparseSegmentMeanGradV2"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(out, {sp: tf.SparseTensorValue(INDICES, IDS, [4, 3])})
    want = np.stack([TABLE[[4, 1, 4]].mean(0), np.zeros(3), TABLE[0], TABLE[[6, 2]].mean(0)])
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_arguments_are_checked_as_tensorflow():
    table = tf.constant(TABLE)
    sp = tf.SparseTensor(INDICES, IDS, [4, 3])
    with pytest.raises(ValueError, match="combiner must be one of 'mean', 'sqrtn' or 'sum', got max"):
        tf.nn.embedding_lookup_sparse(table, sp, None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids must be SparseTensor"):
        tf.nn.embedding_lookup_sparse(table, IDS, None)
    with pytest.raises(TypeError, match="sp_weights must be either None or SparseTensor"):
        tf.nn.embedding_lookup_sparse(table, sp, WEIGHTS)


@pytest.mark.parametrize("name, fn", [("sum", tf.sparse_segment_sum), ("mean", tf.sparse_segment_mean),
                                      ("sqrt_n", tf.sparse_segment_sqrt_n)])
def test_sparse_segment_reductions_and_their_dense_gradients(name, fn):
    data = tf.constant(TABLE)
    out = fn(data, [0, 2, 2, 5], [0, 0, 2, 2])
    (g,) = tf.gradients(out * out, data)
    assert out.shape.as_list() == [None, 3] and g.op.type.endswith("Grad") and g.shape.as_list() == [7, 3]
    with tf.Session() as sess:
        _golden(f"segment_{name}", sess.run([out, g]))


def test_sparse_segment_errors_are_tensorflows():
    data = tf.constant(TABLE)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Bad: indices\[1\] == 9 out of range \[0, 7\)"):
            sess.run(tf.sparse_segment_sum(data, [0, 9], [0, 0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
            sess.run(tf.sparse_segment_sum(data, [0, 1], [1, 0]))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.sparse_segment_sum(data, [0, 1], [0, 0, 1])
    assert tf.sparse.segment_sum is tf.sparse_segment_sum
