"""Live round trips of graphs holding control flow with TensorFlow (run where ``tensorflow`` is
importable: tox -e tf): numflow's ``.meta`` loads in TensorFlow, gives TensorFlow's numbers and
trains on to them; numflow's GraphDef of nested loops and conds runs in TensorFlow alike, and its
datasets with functions read TensorFlow's elements there.
"""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as nf

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "functions"
golden = load_script(HERE / "regenerate.py")
CONTROL_FLOW = json.loads((HERE / "control_flow.json").read_text())


@pytest.fixture(autouse=True)
def _ref_variables():
    """TensorFlow 1.x's reference variables (numflow's kind; resource variables are TF 2's default)."""
    v1.disable_resource_variables()
    yield
    v1.enable_resource_variables()


def test_tensorflow_loads_numflows_meta_graph_with_control_flow_and_trains_on(tmp_path):
    with nf.Graph().as_default(), nf.Session() as sess:
        train, _, saver = golden.build_control_flow(nf)
        sess.run(nf.global_variables_initializer())
        sess.run(train, golden.FEEDS[0])
        path = saver.save(sess, str(tmp_path / "model"), write_state=False)
    with tf.Graph().as_default(), v1.Session() as sess:
        v1.train.import_meta_graph(path + ".meta").restore(sess, path)
        outputs = v1.get_collection("outputs")
        for feed, expected in zip(golden.FEEDS, CONTROL_FLOW["outputs"]):
            for tensor, want in zip(outputs, expected):
                np.testing.assert_allclose(sess.run(tensor, feed), want, rtol=1e-5, atol=1e-6, err_msg=tensor.name)
        train = v1.get_collection("train_op")[0]
        losses = [sess.run([train, "loss:0"], golden.FEEDS[1])[1] for _ in range(2)]
    np.testing.assert_allclose(losses, CONTROL_FLOW["losses"], rtol=1e-5)


def test_tensorflow_runs_numflows_graph_def_of_nested_loops_and_conds():
    with nf.Graph().as_default() as graph:
        golden.build_pure(nf)
        graph_def = v1.GraphDef.FromString(graph.as_graph_def().SerializeToString())
    with tf.Graph().as_default(), v1.Session() as sess:
        v1.import_graph_def(graph_def, name="")
        values = sess.run(golden.PURE_OUTPUTS, {"x:0": golden.PURE_X})
    for value, want in zip(values, json.loads((HERE / "pure.json").read_text())):
        np.testing.assert_allclose(value, want, rtol=1e-6)


def test_tensorflow_reads_numflows_datasets_with_functions(tmp_path):
    with nf.Graph().as_default():
        golden.build_datasets(nf)
        nf.train.export_meta_graph(str(tmp_path / "datasets.meta"))
    with tf.Graph().as_default(), v1.Session() as sess:
        v1.train.import_meta_graph(str(tmp_path / "datasets.meta"))
        sess.run(v1.get_collection("initializers"), golden.DATASETS_FEED)
        values = [golden.read_all(sess, element) for element in v1.get_collection("elements")]
    assert values == json.loads((HERE / "datasets.json").read_text())


def test_tensorflow_runs_numflows_loop_gradient_summed_after_the_loop(tmp_path):
    rng = np.random.default_rng(3)
    x_value = rng.standard_normal((5, 3, 4))
    with nf.Graph().as_default():
        x = nf.placeholder(nf.float64, [5, None, 4], name="x")
        w = nf.constant(rng.standard_normal((4, 6)))
        b = nf.constant(rng.standard_normal(6))

        def body(i, h, total):
            h = nf.tanh(nf.nn.bias_add(nf.matmul(x[i], w) + h, b))
            return i + 1, h, total + nf.reduce_sum(h * h)

        _, _, loss = nf.while_loop(lambda i, h, total: i < 5, body,
                                   [0, nf.zeros([3, 6], nf.float64), nf.constant(0.0, nf.float64)])
        grads = nf.gradients(loss, [w, b])
        for g in grads:
            nf.add_to_collection("grads", g)
        nf.train.export_meta_graph(str(tmp_path / "loop.meta"))
        with nf.Session() as sess:
            want = sess.run(grads, {x: x_value})
    with tf.Graph().as_default() as graph, v1.Session() as sess:
        v1.train.import_meta_graph(str(tmp_path / "loop.meta"))
        assert "TensorListConcatV2" in {op.type for op in graph.get_operations()}
        got = sess.run(v1.get_collection("grads"), {"x:0": x_value})
    for g, w_ in zip(got, want):
        np.testing.assert_allclose(g, w_, rtol=1e-12)


def test_tensorflow_loads_numflows_batch_norm_training_switch_as_frames_and_trains_on_alike(tmp_path):
    # The layer's moving-average updates are conds changing variables: numflow writes them as Switch and Merge.
    from test_cond_frames_export import reloaded_and_trained, saved_batch_norm_model

    path = str(tmp_path / "model")
    want = saved_batch_norm_model(path)
    got = reloaded_and_trained(v1, path)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-6)
