"""top_k and in_top_k: TensorFlow's values, indices (ties and the unsorted order included), gradient,
static shapes and errors.

``data/tf_nn_more_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py``.
"""


import numpy as np
import pytest
from nn_golden import GOLDEN, run

import numflow as tf


@pytest.mark.parametrize("sort", [True, False])
def test_values_and_indices_match_tensorflow_for_every_k(sort):
    x = tf.constant(GOLDEN["topk_x"])  # 13 columns of values 0..5: many ties
    got = run([tf.nn.top_k(x, k, sorted=sort) for k in range(14)])
    for k, (values, indices) in enumerate(got):
        assert indices.dtype == np.int32 and values.shape == (5, k)
        np.testing.assert_array_equal(values, GOLDEN[f"out_topk_{k}_{sort}_0"], err_msg=f"k={k}")
        np.testing.assert_array_equal(indices, GOLDEN[f"out_topk_{k}_{sort}_1"], err_msg=f"k={k}")


def test_gradient_matches_tensorflow():
    x = tf.constant(GOLDEN["topk_x"])
    values, _ = tf.nn.top_k(x, 4)
    (g,) = tf.gradients(values, x, grad_ys=tf.constant(GOLDEN["topk_dy"]))
    assert g.shape.as_list() == [5, 13]
    np.testing.assert_array_equal(run(g), GOLDEN["out_topk_grad"])


def test_gradient_of_unknown_shapes_and_higher_rank():
    x = tf.placeholder(tf.float64, [None, None, None])
    values, _ = tf.nn.top_k(x, 2, sorted=False)
    (g,) = tf.gradients(values * values, x)
    xv = np.random.default_rng(0).permutation(24).reshape(2, 3, 4).astype(np.float64)
    want = np.where(xv >= np.sort(xv, axis=-1)[..., -2:-1], 2 * xv, 0.0)
    np.testing.assert_array_equal(run(g, {x: xv}), want)


def test_static_shapes_names_and_attrs():
    x = tf.placeholder(tf.float32, [None, 6], name="x")
    values, indices = tf.nn.top_k(x, 3)
    assert values.op.type == "TopKV2" and values.op.name == "TopKV2" and values.op.inputs[1].op.name == "TopKV2/k"
    assert values.shape.as_list() == [None, 3] and indices.shape.as_list() == [None, 3]
    assert values.op.get_attr("sorted") is True and indices.dtype == tf.int32
    assert tf.nn.top_k(x, tf.placeholder(tf.int32, []))[0].shape.as_list() == [None, None]
    assert tf.nn.top_k(tf.placeholder(tf.float32), 2)[0].shape.ndims is None
    assert tf.nn.top_k(x, 2, index_type=tf.int64)[1].dtype == tf.int64
    assert tf.math.top_k is tf.nn.top_k and tf.math.in_top_k is tf.nn.in_top_k
    (g,) = tf.gradients(values, x)
    assert g.shape.as_list() == [None, 6]


def test_build_time_errors_are_tensorflows():
    with pytest.raises(ValueError, match="input must have last dimension >= k = 3 but is 2 for .*TopKV2"):
        tf.nn.top_k(tf.placeholder(tf.float32, [3, 2]), 3)
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.nn.top_k(tf.placeholder(tf.float32, []), 1)
    with pytest.raises(ValueError, match="Dimension size, given by scalar input 1, must be non-negative but is -1"):
        tf.nn.top_k(tf.placeholder(tf.float32, [2, 3]), -1)


def test_run_time_errors_are_tensorflows():
    x = tf.placeholder(tf.float32)
    k = tf.placeholder(tf.int32)
    values, _ = tf.nn.top_k(x, k)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must have at least k columns. Had 2, needed 3"):
        run(values, {x: np.ones((1, 2), np.float32), k: 3})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need k >= 0, got -2"):
        run(values, {x: np.ones((1, 2), np.float32), k: -2})


def test_in_top_k_matches_tensorflow():
    predictions, targets = GOLDEN["in_top_k_predictions"], GOLDEN["in_top_k_targets"]
    got = run([tf.nn.in_top_k(predictions, targets, k) for k in range(6)])
    for k, value in enumerate(got):
        assert value.dtype == np.bool_
        np.testing.assert_array_equal(value, GOLDEN[f"out_in_top_k_{k}"], err_msg=f"k={k}")


def test_in_top_k_graph_and_errors():
    targets = tf.placeholder(tf.int64, [None])
    out = tf.nn.in_top_k(tf.placeholder(tf.float32, [None, 6]), targets, 2)
    assert out.op.type == "InTopKV2" and out.op.name == "in_top_k/InTopKV2" and out.shape.as_list() == [None]
    assert out.op.inputs[2].op.name == "in_top_k/InTopKV2/k" and out.op.inputs[2].dtype == tf.int64
    with pytest.raises(TypeError, match="Input 'predictions' of 'InTopKV2' Op has type float64 that does not match "
                                        "expected type of float32."):
        tf.nn.in_top_k(tf.placeholder(tf.float64, [3, 6]), tf.placeholder(tf.int32, [3]), 2)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.nn.in_top_k(tf.placeholder(tf.float32, [3, 6]), tf.placeholder(tf.int32, [4]), 2)
    # A target out of range is simply not in the top k, as in TensorFlow's kernel.
    assert run(tf.nn.in_top_k([[1.0, 2.0]], [5], 2)).tolist() == [False]
