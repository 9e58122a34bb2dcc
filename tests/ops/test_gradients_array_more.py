"""Gradients of tile, slice, gather, unsorted_segment_sum, where/select, pad, split and clip_by_value:
central finite differences, and TensorFlow's values (``data/tf_array_golden.npz``, made by
``data/make_tf_array_golden.py``) for the gradients that sum several output elements into one."""

import pathlib

import numpy as np
import pytest
from test_gradients import check_gradient

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).with_name("data") / "tf_array_golden.npz")


def _unknown_dims(x):
    return tf.placeholder_with_default(x, [None] * x.shape.ndims)


CASES = {
    "tile": (lambda x: tf.tile(x, [2, 3]), [(2, 3)]),
    "tile_unknown_dims": (lambda x: tf.tile(_unknown_dims(x), [2, 1, 2]), [(2, 1, 3)]),
    "tile_scalar": (lambda x: tf.tile(x, tf.constant([], tf.int32)), [()]),
    "slice": (lambda x: tf.slice(x, [1, 0], [1, -1]), [(3, 4)]),
    "slice_unknown_dims": (lambda x: tf.slice(_unknown_dims(x), [1, 1], [-1, 2]), [(3, 4)]),
    "gather": (lambda x: tf.gather(x, [[2, 0], [2, 2]]), [(4, 3)]),
    "gather_axis1": (lambda x: tf.gather(x, [[2, 0], [1, 2]], axis=1), [(2, 4, 3)]),
    "gather_last_axis": (lambda x: tf.gather(x, [3, 0, 3], axis=-1), [(2, 3, 4)]),
    "gather_unknown_dims": (lambda x: tf.gather(_unknown_dims(x), [2, 0, 2]), [(4, 3)]),
    "embedding_lookup": (lambda x: tf.nn.embedding_lookup(x, [[1, 1], [0, 3]]), [(4, 2)]),
    "unsorted_segment_sum": (lambda x: tf.unsorted_segment_sum(x, [[0, -1], [2, 0]], 3), [(2, 2, 3)]),
    "select": (lambda x, y: tf.where([[True, False, True], [False, False, True]], x, y), [(2, 3), (2, 3)]),
    "select_rows": (lambda x, y: tf.where([True, False], x, y), [(2, 3), (2, 3)]),
    "select_v2_broadcast": (lambda x, y: tf.where_v2([[True], [False]], x, y), [(2, 3), (3,)]),
    "pad": (lambda x: tf.pad(x, [[1, 2], [0, 1]]), [(2, 3)]),
    "pad_v2": (lambda x: tf.pad(x, [[1, 2], [0, 1]], constant_values=3.0), [(2, 3)]),
    "pad_unknown_dims": (lambda x: tf.pad(_unknown_dims(x), [[1, 2], [0, 1]]), [(2, 3)]),
    "pad_reflect": (lambda x: tf.pad(x, [[1, 2], [2, 1]], mode="REFLECT"), [(3, 4)]),
    "pad_symmetric": (lambda x: tf.pad(x, [[3, 2], [0, 4]], mode="SYMMETRIC"), [(3, 4)]),
    "split": (lambda x: tf.split(x, 3, axis=1), [(2, 6)]),
    "split_one_part_used": (lambda x: tf.split(x, 3, axis=1)[1], [(2, 6)]),
    "split_sizes": (lambda x: tf.split(x, [1, -1, 2], axis=0)[::2], [(5, 2)]),
    "clip_by_value": (lambda x: tf.clip_by_value(x, -1.0, 1.0), [(3, 4)]),
    "clip_by_global_norm": (lambda x, y: tf.clip_by_global_norm([x, y], 1.0)[0], [(3,), (2, 2)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_finite_differences(name):
    fn, shapes = CASES[name]
    check_gradient(fn, shapes)


def test_mirror_pad_grad_is_differentiable_too():
    paddings = [[1, 2], [2, 0]]

    def mirror_pad_grad(g):
        return tf.get_default_graph().create_op("MirrorPadGrad", [g, tf.constant(paddings)], {"mode": "REFLECT"},
                                                name="MirrorPadGrad").outputs[0]

    check_gradient(mirror_pad_grad, [(6, 5)])


def _weighted_grad(build, x):
    """The gradient of ``sum(build(x) * [1, 2, 3, ...])``: the golden file's weighting."""
    xt = tf.constant(x)
    out = build(xt)
    weights = np.arange(1, out.shape.num_elements() + 1, dtype=np.float64).reshape(out.shape.as_list())
    (g,) = tf.gradients(tf.reduce_sum(out * weights), [xt])
    with tf.Session() as sess:
        return sess.run(g)


@pytest.mark.parametrize("key, build", [
    ("grad_reflect", lambda t: tf.pad(t, [[2, 1], [3, 2]], mode="REFLECT")),
    ("grad_symmetric", lambda t: tf.pad(t, [[3, 0], [1, 4]], mode="SYMMETRIC")),
    ("grad_tile", lambda t: tf.tile(t, [2, 3])),
    ("grad_gather_axis1", lambda t: tf.gather(t, [[3, 0], [3, 3]], axis=1)),
])
def test_gradients_match_tensorflow(key, build):
    got = _weighted_grad(build, np.arange(12, dtype=np.float64).reshape(3, 4))
    np.testing.assert_array_equal(got, GOLDEN[key])


def test_gather_gradient_is_indexed_slices_whose_dense_tensor_is_a_segment_sum():
    params = tf.placeholder(tf.float32, [5, 2])
    (grad,) = tf.gradients(tf.reduce_sum(tf.gather(params, [3, 1, 3])), [params])
    assert isinstance(grad, tf.IndexedSlices) and grad.values.shape.as_list() == [3, 2]
    dense = tf.convert_to_tensor(grad)
    assert dense.op.type == "UnsortedSegmentSum" and dense.shape.as_list() == [5, 2]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(dense, {params: np.zeros((5, 2))}),
                                      [[0, 0], [1, 1], [0, 0], [2, 2], [0, 0]])


def test_select_routes_the_gradient_by_the_condition():
    x, y = tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0, 6.0])
    out = tf.where([True, False, True], x, y)
    dx, dy = tf.gradients(out * [10.0, 20.0, 30.0], [x, y])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(dx), [10, 0, 30])
        np.testing.assert_array_equal(sess.run(dy), [0, 20, 0])


def test_split_gives_zeros_for_parts_without_a_gradient():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    first, _, last = tf.split(x, 3, axis=1)
    (dx,) = tf.gradients(first * 2.0 + last, [x])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(dx), [[2, 0, 1], [2, 0, 1]])


def test_one_hot_has_no_gradient():
    x = tf.constant([1.0, -2.0, 3.0])
    assert tf.gradients(tf.one_hot([1, 2], 3, on_value=x[0]), [x]) == [None]
