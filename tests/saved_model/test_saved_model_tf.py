"""Live: TensorFlow's tf.compat.v1.saved_model.loader.load reads the SavedModels numflow writes and
runs them to numflow's numbers.

Run where ``tensorflow`` is importable, for example with the TF virtual environment's pytest
(numflow's dependencies installed there too) or through tox::

    /opt/tfenv/bin/python -m pytest -m tensorflow tests/saved_model/test_saved_model_tf.py
    tox -e tf -- tests/saved_model/test_saved_model_tf.py
"""

import numpy as np
import pytest

import numflow as nf

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1
INPUTS = np.float32([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])


def _numflow_saves(export_dir, as_text=False):
    with nf.Graph().as_default(), nf.Session() as sess:
        x = nf.placeholder(nf.float32, [None, 3], name="x")
        w = nf.get_variable("dense/w", initializer=np.arange(6, dtype=np.float32).reshape(3, 2) / 4)
        b = nf.get_variable("dense/b", initializer=np.float32([0.5, -1.0]))
        steps = nf.get_variable("steps", initializer=0, collections=[nf.GraphKeys.LOCAL_VARIABLES])
        y = nf.nn.relu(nf.matmul(x, w) + b, name="y")
        sess.run(nf.global_variables_initializer())
        sess.run(b.assign_add([0.25, 0.25]))
        builder = nf.saved_model.builder.SavedModelBuilder(export_dir)
        signature = nf.saved_model.signature_def_utils.predict_signature_def({"x": x}, {"y": y})
        builder.add_meta_graph_and_variables(sess, [nf.saved_model.tag_constants.SERVING],
                                             {"serving_default": signature}, main_op=nf.assign(steps, 7).op)
        builder.save(as_text=as_text)
        return sess.run(y, {x: INPUTS})


@pytest.mark.parametrize("as_text", [False, True])
def test_tensorflow_loads_and_runs_numflows_saved_model(tmp_path, as_text):
    export_dir = str(tmp_path / "model")
    expected = _numflow_saves(export_dir, as_text)
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, [v1.saved_model.tag_constants.SERVING], export_dir)
        signature = meta.signature_def["serving_default"]
        assert signature.method_name == "tensorflow/serving/predict"
        got = sess.run(signature.outputs["y"].name, {signature.inputs["x"].name: INPUTS})
        assert sess.run("steps:0") == 7
    np.testing.assert_array_equal(got, expected)
