"""tf.image's non-max suppressions select what TensorFlow 2.21 selects, soft NMS's scores included
(data/tf_nms_golden.json, written by data/make_tf_nms_golden.py)."""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

golden = load_script(pathlib.Path(__file__).parent / "data" / "make_tf_nms_golden.py")
GOLDEN = json.loads(golden.GOLDEN.read_text())


@pytest.mark.parametrize("name, function, kwargs", golden.SCENARIOS, ids=[s[0] for s in golden.SCENARIOS])
def test_selection_is_tensorflows(name, function, kwargs):
    boxes, scores, overlaps = golden.inputs()
    first = overlaps if function == "non_max_suppression_overlaps" else boxes
    result = getattr(tf.image, function)(tf.constant(first), tf.constant(scores), **kwargs)
    with tf.Session() as sess:
        got = sess.run(result)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(GOLDEN[name])
    for value, want in zip(got, GOLDEN[name]):
        np.testing.assert_array_equal(value, np.asarray(want, np.asarray(value).dtype))


def test_soft_nms_lowers_an_overlapping_box_by_the_gaussian_of_its_iou():
    boxes = [[0.0, 0.0, 1.0, 1.0], [0.0, 0.5, 1.0, 1.5]]  # IoU 1/3
    selected, scores = tf.image.non_max_suppression_with_scores(boxes, [0.9, 0.8], 2, soft_nms_sigma=0.5)
    with tf.Session() as sess:
        got_selected, got_scores = sess.run([selected, scores])
    assert got_selected.tolist() == [0, 1]
    assert got_scores[1] == pytest.approx(0.8 * np.exp(-0.5 * (1 / 3) ** 2 / 0.5), rel=1e-6)


def test_bad_arguments_get_tensorflows_errors():
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"iou_threshold must be in \[0, 1\]"):
            sess.run(tf.image.non_max_suppression_with_scores([[0.0, 0.0, 1.0, 1.0]], [1.0], 1, iou_threshold=1.5))
        with pytest.raises(tf.errors.InvalidArgumentError, match="soft_nms_sigma must be non-negative"):
            sess.run(tf.image.non_max_suppression_with_scores([[0.0, 0.0, 1.0, 1.0]], [1.0], 1, soft_nms_sigma=-1.0))
    with pytest.raises(ValueError, match="Dimension must be 4 but is 3"):
        tf.image.non_max_suppression_padded(tf.zeros([2, 3]), tf.zeros([2]), 1)
