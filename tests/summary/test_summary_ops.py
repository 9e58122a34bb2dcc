"""tf.summary's ops against TensorFlow: names, collections, and the Summary bytes each kernel gives.

The goldens (tests/golden/summaries) come from ``regenerate.py`` there, whose cases the tests run
with numflow in place of ``tensorflow.compat.v1``. Images are compared by their pixels (each PNG
decoded by ``png.py``): PNG encoders may compress the same pixels differently.
"""

import base64
import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf
from tests.summary import png

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "summaries"
REGENERATE = "run `/opt/tfenv/bin/python tests/golden/summaries/regenerate.py` to rewrite the goldens"
golden = load_script(HERE / "regenerate.py")
TF_SUMMARIES = json.loads((HERE / "tf_summaries.json").read_text())


@pytest.fixture(scope="module")
def outputs():
    with tf.Graph().as_default():
        made = golden.cases(tf)
        with tf.Session() as sess:
            return {case: (t.op.name, sess.run(t)) for case, t in made.items()}


def test_every_case_has_a_golden(outputs):
    assert sorted(outputs) == sorted(TF_SUMMARIES), REGENERATE


@pytest.mark.parametrize("case", sorted(c for c in TF_SUMMARIES if "pixels" not in TF_SUMMARIES[c]))
def test_summary_bytes_are_tensorflows(outputs, case):
    name, value = outputs[case]
    want = TF_SUMMARIES[case]
    assert name == want["op"]
    assert isinstance(value, bytes)
    expected = base64.b64decode(want["summary"])
    assert tf.summary.Summary.FromString(value) == tf.summary.Summary.FromString(expected)
    assert value == expected, REGENERATE


@pytest.mark.parametrize("case", sorted(c for c in TF_SUMMARIES if "pixels" in TF_SUMMARIES[c]))
def test_images_decode_to_tensorflows_pixels(outputs, case):
    name, value = outputs[case]
    want = TF_SUMMARIES[case]
    assert name == want["op"]
    got, expected = (tf.summary.Summary.FromString(v) for v in (value, base64.b64decode(want["summary"])))
    assert [v.tag for v in got.value] == [v.tag for v in expected.value]
    for ours, theirs, pixels in zip(got.value, expected.value, want["pixels"]):
        assert (ours.image.height, ours.image.width, ours.image.colorspace) == \
            (theirs.image.height, theirs.image.width, theirs.image.colorspace)
        np.testing.assert_array_equal(png.decode(theirs.image.encoded_image_string), pixels)  # the decoder itself
        np.testing.assert_array_equal(png.decode(ours.image.encoded_image_string), pixels)


def test_histogram_buckets_by_hand():
    """TF's bucket edges are 1e-12 * 1.1**k (and their negatives); a value counts in the bucket of the first
    edge above it, which names the bucket."""
    with tf.Graph().as_default():
        h = tf.summary.histogram("h", tf.constant([0.95, 1.0, -2.0], tf.float64))
        with tf.Session() as sess:
            histo = tf.summary.Summary.FromString(sess.run(h)).value[0].histo
    edges = [1e-12]
    while edges[-1] * 1.1 < 1.0:
        edges.append(edges[-1] * 1.1)
    assert edges[-1] < 0.95
    upper = edges[-1] * 1.1  # the first edge above 1.0
    assert histo.num == 3 and histo.min == -2.0 and histo.max == 1.0
    assert histo.sum == pytest.approx(-0.05) and histo.sum_squares == pytest.approx(0.95**2 + 1 + 4)
    nonempty = [(limit, count) for limit, count in zip(histo.bucket_limit, histo.bucket) if count]
    assert nonempty[1] == (pytest.approx(upper, rel=1e-12), 2.0)
    assert nonempty[0][1] == 1.0 and -2.0 < nonempty[0][0] <= -1.8


def test_names_scopes_and_collections_are_tensorflows():
    x = tf.placeholder(tf.float32, name="x")
    with tf.name_scope("layer"):
        a = tf.summary.scalar("loss", x)
        b = tf.summary.scalar("loss", x)
    c = tf.summary.histogram("w", x, collections=["mine"])
    d = tf.summary.scalar("a b:c", x, family="fam")
    assert [a.name, b.name, c.name, d.name] == ["layer/loss:0", "layer/loss_1:0", "w:0", "fam/a_b_c:0"]
    assert a.op.inputs[0].op.name == "layer/loss/tags" and a.op.type == "ScalarSummary"
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [a, b, d]
    assert tf.get_collection("mine") == [c]
    merged = tf.summary.merge_all()
    assert merged.op.name == "Merge/MergeSummary" and merged.op.inputs == [a, b, d]
    assert tf.summary.merge([c], name="m").op.name == "m/m"
    assert tf.summary.merge_all(key="nothing") is None
    with tf.Session() as sess:
        summary = tf.summary.Summary.FromString(sess.run(merged, {x: 2.0}))
    assert [(v.tag, v.simple_value) for v in summary.value] == [("layer/loss", 2.0), ("layer/loss_1", 2.0),
                                                                ("fam/fam/a_b_c", 2.0)]


@pytest.mark.parametrize("build, error, message", [
    (lambda: tf.summary.scalar("s", tf.constant(True)), TypeError, "has DataType bool not in list of allowed"),
    (lambda: tf.summary.image("i", tf.zeros([1, 2, 2, 1], tf.int32)), TypeError, "DataType int32 not in list"),
    (lambda: tf.summary.text("t", tf.constant(1.0)), ValueError, "to have dtype string"),
    (lambda: tf.summary.merge([]), ValueError, "shorter than minimum length 1"),
    (lambda: tf.summary.merge([tf.constant(1.0)]), TypeError, "do not match expected type string"),
])
def test_build_errors(build, error, message):
    with pytest.raises(error, match=message):
        build()


@pytest.mark.parametrize("build, feed, message", [
    (lambda p: tf.summary.scalar("s", p), [1.0, 2.0], r"tags and values are not the same shape: \[\] != \[2\] "
                                                       r"\(tag 's'\)"),
    (lambda p: tf.summary.histogram("h", p), [1.0, np.nan, np.inf], "Nan in summary histogram for: h"),
    (lambda p: tf.summary.histogram("h", p), [np.inf, np.nan], "Infinity in Histogram for: h"),
    (lambda p: tf.summary.image("i", p), np.zeros([2, 2, 3]), r"4-D with last dim 1, 3, or 4, not \[2,2,3\]"),
    (lambda p: tf.summary.image("i", p), np.zeros([1, 2, 2, 2]), r"not \[1,2,2,2\]"),
    (lambda p: tf.summary.audio("a", p, 100.0), np.zeros([3]), r"Tensor must be 3-D or 2-D, got: \[3\]"),
    (lambda p: tf.summary.audio("a", p, 0.0), np.zeros([1, 3]), "sample_rate must be > 0"),
])
def test_run_errors_are_invalid_argument(build, feed, message):
    p = tf.placeholder(tf.float32)
    summary = build(p)
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
        sess.run(summary, {p: feed})


def test_merge_errors_name_the_duplicate_tag_and_unparsable_inputs():
    a = tf.summary.scalar("d", 1.0, family="f")
    b = tf.summary.scalar("d", 2.0, family="f")
    with tf.Session() as sess:
        assert len(tf.summary.Summary.FromString(sess.run(tf.summary.merge([a, b]))).value) == 2
        with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag f/f/d found in summary inputs"):
            sess.run(tf.summary.merge([a, a]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse one of the summary inputs"):
            sess.run(tf.summary.merge([tf.constant(b"\xff\xff")]))


def test_get_summary_description():
    summary = tf.summary.tensor_summary("t", tf.constant(1.0), summary_description="d")
    with pytest.raises(ValueError, match="Can't get_summary_description on TensorSummaryV2"):
        tf.summary.get_summary_description(summary.op.node_def)
    node = tf.NodeDef(name="old", op="TensorSummary")
    node.attr["description"].s = b'{"typeHint": "scalar"}'
    assert tf.summary.get_summary_description(node).type_hint == "scalar"


def test_summary_graphs_round_trip_through_graph_defs():
    """Summary ops are written with TensorFlow's attrs and run again after import_graph_def."""
    with tf.Graph().as_default() as g:
        made = golden.cases(tf)
        with tf.Session() as sess:
            before = sess.run(made)
    graph_def = g.as_graph_def()
    image = next(n for n in graph_def.node if n.op == "ImageSummary")
    assert sorted(image.attr) == ["T", "bad_color", "max_images"]
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            after = sess.run({case: f"{t.name}" for case, t in made.items()})
    assert after == before
