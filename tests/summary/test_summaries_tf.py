"""Live round trips of summaries and their files with TensorFlow (run where ``tensorflow`` is importable:
tox -e tf): TensorFlow reads numflow's event and record files, and runs numflow's summary ops from a
``.meta`` to numflow's bytes."""

import pathlib

import pytest
from golden_scripts import load_script

import numflow as nf

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "summaries"
golden = load_script(HERE / "regenerate.py")


def test_tensorflow_reads_numflows_event_file(tmp_path):
    with nf.Graph().as_default() as graph:
        loss = nf.summary.scalar("loss", nf.constant(0.25))
        with nf.Session() as sess, nf.summary.FileWriter(str(tmp_path), graph) as writer:
            writer.add_summary(sess.run(loss), global_step=3)
    (path,) = tmp_path.iterdir()
    events = list(v1.train.summary_iterator(str(path)))
    assert events[0].file_version == "brain.Event:2"
    assert {n.name for n in tf.compat.v1.GraphDef.FromString(events[1].graph_def).node} >= {"loss", "loss/tags"}
    assert (events[-1].step, events[-1].summary.value[0].simple_value) == (3, 0.25)


@pytest.mark.parametrize("compression", ["", "ZLIB", "GZIP"])
def test_tensorflow_reads_numflows_records(tmp_path, compression):
    path = str(tmp_path / "records")
    with nf.io.TFRecordWriter(path, compression) as writer:
        for record in golden.RECORDS:
            writer.write(record)
    assert list(v1.io.tf_record_iterator(path, v1.io.TFRecordOptions(compression))) == golden.RECORDS


def test_tensorflow_runs_numflows_summary_ops_to_the_same_bytes(tmp_path):
    with nf.Graph().as_default():
        made = golden.cases(nf)
        with nf.Session() as sess:
            ours = sess.run(made)
        nf.train.export_meta_graph(str(tmp_path / "summaries.meta"))
    with tf.Graph().as_default():
        v1.train.import_meta_graph(str(tmp_path / "summaries.meta"))
        with v1.Session() as sess:
            theirs = sess.run({case: t.name for case, t in made.items()})
    for case, value in ours.items():
        if "image" in case:  # PNG encoders differ; the pixels are compared against TensorFlow's goldens
            assert [v.tag for v in v1.Summary.FromString(theirs[case]).value] == \
                [v.tag for v in v1.Summary.FromString(value).value]
        else:
            assert theirs[case] == value, case
