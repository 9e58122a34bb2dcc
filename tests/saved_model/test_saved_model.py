"""SavedModels: numflow loads and runs the one TensorFlow 2.21's simple_save wrote
(``data/tf_saved_model``, regenerate with ``python tests/saved_model/data/make_tf_saved_model.py``),
and writes ones that it reads back with their tags, signatures, variables and init ops; the errors
of the builder and loader are TensorFlow's.
"""

import json
import os
import pathlib

import numpy as np
import pytest

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "tf_saved_model.json").read_text())
HOW = "regenerate with: python tests/saved_model/data/make_tf_saved_model.py (TensorFlow installed)"


def test_numflow_runs_tensorflows_saved_model_with_its_numbers():
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], str(DATA / "tf_saved_model"))
        signature = meta.signature_def[tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        assert signature.method_name == tf.saved_model.signature_constants.PREDICT_METHOD_NAME
        x = tf.saved_model.utils.get_tensor_from_tensor_info(signature.inputs["x"])
        y = tf.saved_model.utils.get_tensor_from_tensor_info(signature.outputs["y"])
        assert (x.name, y.name, x.shape.as_list(), y.shape.as_list()) == ("x:0", "y:0", [None, 3], [None, 2])
        np.testing.assert_array_equal(sess.run(y, {x: GOLDEN["inputs"]}), np.float32(GOLDEN["y"]), err_msg=HOW)


def _linear_model(sess):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.get_variable("w", initializer=np.float32([[1.0], [-2.0]]))
    counter = tf.get_variable("counter", initializer=0.0, collections=[tf.GraphKeys.LOCAL_VARIABLES])
    y = tf.identity(tf.matmul(x, w), name="y")
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    sess.run(w.assign(w * 3))
    return x, y, counter


def test_builder_writes_meta_graphs_by_tags_that_load_back(tmp_path):
    export_dir = str(tmp_path / "model")
    with tf.Graph().as_default(), tf.Session() as sess:
        x, y, counter = _linear_model(sess)
        signature = tf.saved_model.signature_def_utils.build_signature_def(
            {"in": tf.saved_model.utils.build_tensor_info(x)}, {"out": tf.saved_model.utils.build_tensor_info(y)},
            "custom/method")
        builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
        builder.add_meta_graph_and_variables(sess, ["train"], {"sig": signature},
                                             main_op=tf.assign(counter, 5.0).op)
        builder.add_meta_graph(["serve", "gpu"])
        assert builder.save(as_text=True) == os.path.join(export_dir, "saved_model.pbtxt").encode()
    assert sorted(os.listdir(os.path.join(export_dir, "variables"))) == [
        "variables.data-00000-of-00001", "variables.index"]
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.load(sess, ["train"], export_dir)
        assert meta.signature_def["sig"].method_name == "custom/method"
        assert sess.run("y:0", {"x:0": [[1.0, 1.0]]}).tolist() == [[-3.0]]
        assert sess.run("counter:0") == 5.0  # the main op ran after the restore
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["gpu", "serve"], export_dir)
        assert list(meta.meta_info_def.tags) == ["serve", "gpu"] and not meta.signature_def


def test_loader_errors_are_tensorflows(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        missing = r"SavedModel file does not exist at: .*\{saved_model.pbtxt\|saved_model.pb\}"
        with pytest.raises(OSError, match=missing):
            tf.saved_model.loader.load(sess, ["serve"], str(tmp_path))
        with pytest.raises(RuntimeError, match=r"MetaGraphDef associated with tags 'train' could not be found in "
                                               r"SavedModel, with available tags '\[\['serve'\]\]'"):
            tf.saved_model.loader.load(sess, ["train"], str(DATA / "tf_saved_model"))
    assert tf.saved_model.contains_saved_model(str(DATA / "tf_saved_model"))
    assert not tf.saved_model.maybe_saved_model_directory(str(tmp_path))


def test_builder_errors_are_tensorflows(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "file").write_text("x")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        tf.saved_model.builder.SavedModelBuilder(str(tmp_path / "full"))
    builder = tf.saved_model.Builder(str(tmp_path / "new"))
    with pytest.raises(AssertionError, match="has not been saved yet"):
        builder.add_meta_graph(["serve"])
    with tf.Graph().as_default(), tf.Session() as sess:
        x, y, _ = _linear_model(sess)
        with pytest.raises(ValueError, match="Prediction `outputs` cannot be None or empty."):
            tf.saved_model.predict_signature_def({"x": x}, {})
        bad = tf.saved_model.build_signature_def({"x": tf.saved_model.build_tensor_info(x)}, {}, "m")
        bad.inputs["x"].ClearField("name")
        with pytest.raises(AssertionError, match="must have one of the 'encoding' fields"):
            builder.add_meta_graph_and_variables(sess, ["serve"], {"bad": bad})
        with pytest.raises(TypeError, match="to be an Operation"):
            builder.add_meta_graph_and_variables(sess, ["serve"], main_op=y)
        builder.add_meta_graph_and_variables(sess, ["serve"])
        with pytest.raises(AssertionError, match="has already been saved"):
            builder.add_meta_graph_and_variables(sess, ["serve"])


def test_sparse_tensor_info_names_its_three_tensors():
    with tf.Graph().as_default():
        sparse = tf.sparse_placeholder(tf.int64, [None, 4], name="ids")
        info = tf.saved_model.utils.build_tensor_info(sparse)
        assert (info.coo_sparse.indices_tensor_name, info.coo_sparse.values_tensor_name,
                info.coo_sparse.dense_shape_tensor_name) == (sparse.indices.name, sparse.values.name,
                                                             sparse.dense_shape.name)
        back = tf.saved_model.utils.get_tensor_from_tensor_info(info)
        assert back.values is sparse.values and back.indices is sparse.indices


def test_tensorflows_sharded_saver_saves_and_restores_in_numflow(tmp_path):
    """The Saver of TensorFlow's SavedModel graph names its shard (ShardedFilename), saves it into a
    temporary folder and merges it into the checkpoint (MergeV2Checkpoints)."""
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], str(DATA / "tf_saved_model"))
        saver = tf.train.Saver(saver_def=meta.saver_def)
        prefix = saver.save(sess, str(tmp_path / "copy"), write_meta_graph=False)
        assert sorted(os.listdir(tmp_path)) == ["checkpoint", "copy.data-00000-of-00001", "copy.index"]
        w = sess.graph.get_tensor_by_name("w:0")
        sess.run(tf.assign(w, tf.zeros([3, 2])))
        saver.restore(sess, prefix)
        np.testing.assert_array_equal(sess.run(w), np.arange(6, dtype=np.float32).reshape(3, 2) / 4)
