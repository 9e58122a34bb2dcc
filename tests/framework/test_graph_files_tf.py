"""Live round trips of graph files with TensorFlow (run where ``tensorflow`` is importable: tox -e tf).

numflow's ``.meta`` and checkpoint load in TensorFlow and give numflow's outputs, and train on to
the same numbers; TensorFlow's load in numflow likewise; a GraphDef TensorFlow froze runs in numflow.
Both libraries build the model with the goldens' ``build_model``. TensorFlow's graphs run in a
``tf.Graph`` context, so the rest of the process keeps TF's eager mode; its variables are TF 1.x's
reference variables (graphs of resource variables, which numflow reads as reference variables, are
checked against a golden in ``test_graph_files.py``).
"""

import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as nf

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "graphs"
golden = load_script(HERE / "regenerate.py")
FEED = {"x:0": np.array(golden.X, np.float32), "y:0": np.array(golden.Y, np.float32)}


@pytest.fixture(autouse=True)
def _ref_variables():
    """TensorFlow 1.x's reference variables (numflow's kind; resource variables are TF 2's default)."""
    v1.disable_resource_variables()
    yield
    v1.enable_resource_variables()


def _save(lib, session_cls, graph, path):
    """Build the model with ``lib``, train two steps, save; returns (prefix, outputs, 3 more losses)."""
    with graph.as_default():
        x, y, out, loss, train, saver = golden.build_model(lib)
        with session_cls() as sess:
            sess.run(lib.global_variables_initializer())
            for _ in range(2):
                sess.run(train, FEED)
            prefix = saver.save(sess, str(path / "model"), global_step=2)
            outputs = sess.run(out, FEED)
            losses = [sess.run([train, loss], FEED)[1] for _ in range(3)]
    return prefix, outputs, losses


def _resume(lib, session_cls, graph, prefix):
    """Load ``prefix``'s meta graph and checkpoint with ``lib``; its outputs and 3 more losses."""
    with graph.as_default():
        saver = lib.train.import_meta_graph(prefix + ".meta")
        train = lib.get_collection("train_op")[0]
        with session_cls() as sess:
            saver.restore(sess, prefix)
            outputs = sess.run("out:0", FEED)
            losses = [sess.run([train, "loss:0"], FEED)[1] for _ in range(3)]
            steps = sess.run(lib.train.get_global_step())
    return outputs, losses, steps


_LIBRARIES = {"numflow": (nf, nf.Session, nf.Graph), "tensorflow": (v1, v1.Session, tf.Graph)}


@pytest.mark.parametrize("writer, reader", [("numflow", "tensorflow"), ("tensorflow", "numflow")])
def test_a_meta_graph_loads_in_the_other_library_and_trains_on(tmp_path, writer, reader):
    lib, session_cls, graph_cls = _LIBRARIES[writer]
    prefix, outputs, losses = _save(lib, session_cls, graph_cls(), tmp_path)
    lib, session_cls, graph_cls = _LIBRARIES[reader]
    got_outputs, got_losses, steps = _resume(lib, session_cls, graph_cls(), prefix)
    np.testing.assert_allclose(got_outputs, outputs, rtol=1e-6)
    np.testing.assert_allclose(got_losses, losses, rtol=1e-5)
    assert steps == 5


def test_numflow_runs_a_graph_tensorflow_froze():
    graph = tf.Graph()
    with graph.as_default():
        x, y, out, loss, train, saver = golden.build_model(v1)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            want = sess.run(out, FEED)
            frozen = v1.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["out"])
    with nf.Graph().as_default():
        (got,) = nf.import_graph_def(frozen, return_elements=["out:0"], name="")
        with nf.Session() as sess:
            np.testing.assert_allclose(sess.run(got, {"x:0": FEED["x:0"]}), want, rtol=1e-6)


def test_tensorflow_runs_a_graph_numflow_froze():
    with nf.Graph().as_default() as graph:
        x, y, out, loss, train, saver = golden.build_model(nf)
        with nf.Session() as sess:
            sess.run(nf.global_variables_initializer())
            want = sess.run(out, FEED)
            frozen = nf.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["out"])
    tf_graph_def = v1.GraphDef.FromString(frozen.SerializeToString())
    with tf.Graph().as_default():
        (got,) = v1.import_graph_def(tf_graph_def, return_elements=["out:0"], name="")
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(got, {"x:0": FEED["x:0"]}), want, rtol=1e-6)
