"""Graph files: GraphDef and MetaGraphDef both ways, against files TensorFlow wrote.

The goldens (tests/golden/graphs) come from ``regenerate.py`` there, whose builders the tests run
with numflow in place of ``tensorflow.compat.v1``.
"""

import json
import logging
import os
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf
from numflow.framework import op_defs, op_mapping
from numflow.framework.regenerate_op_defs import declare_all

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "graphs"
REGENERATE = "run `/opt/tfenv/bin/python tests/golden/graphs/regenerate.py` to rewrite the goldens"
golden = load_script(HERE / "regenerate.py")
TF_MODEL = json.loads((HERE / "tf_model.json").read_text())
NUMFLOW_ONLY = {"Orthogonal", "InitializedValue", "ReportUninitializedVariables",
                "AccumulatorRead", "BranchValue", "LoopVar",  # these three: inside control flow
                "NfExtractImagePatchesGrad"}  # TensorFlow's own gradient is a Python-built scatter


def _feed(x=None, y=None):
    feed = {"x:0": np.array(golden.X, np.float32)}
    if y is not None:
        feed["y:0"] = np.array(golden.Y, np.float32)
    return feed


# -- op mapping --------------------------------------------------------------------------------
def test_every_declared_op_maps_to_tensorflow_or_is_numflow_only():
    unmapped = [t for t in declare_all() if not t.startswith("NfTest") and op_defs.get(t) is None
                and t not in op_mapping.EXPORTS and t not in NUMFLOW_ONLY]
    assert unmapped == [], "regenerate numflow/framework/tf_op_defs.pb (python -m numflow.framework.regenerate_op_defs)"


def _tf_nodes():
    from google.protobuf import text_format

    return {n.name: n for n in text_format.Parse((HERE / "tf_ops.pbtxt").read_text(), tf.GraphDef()).node}


def _public_attrs(node):
    return {k: v for k, v in node.attr.items() if not k.startswith("_")}


def test_nodes_are_written_as_tensorflow_writes_them():
    graph = tf.Graph()
    with graph.as_default():
        golden.build_ops(tf)
    ours = {n.name: n for n in graph.as_graph_def().node}
    theirs = _tf_nodes()
    assert sorted(ours) == sorted(theirs), REGENERATE
    for name, node in theirs.items():
        assert (ours[name].op, list(ours[name].input)) == (node.op, list(node.input)), name
        assert _public_attrs(ours[name]) == _public_attrs(node), name


def test_tensorflow_nodes_read_back_identically():
    gd = tf.GraphDef()
    gd.node.extend(_tf_nodes().values())
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(gd, name="")
    ours = {n.name: n for n in graph.as_graph_def().node}
    for node in gd.node:
        assert ours[node.name].op == node.op and _public_attrs(ours[node.name]) == _public_attrs(node), node.name
    with tf.Session(graph=graph) as sess:
        assert sess.run("strings:0").tolist() == [b"a", b"bc"]
        assert sess.run("halves:0").dtype == np.float16
        np.testing.assert_array_equal(sess.run("sum:0", {"x:0": np.ones((2, 4), np.float32)}), [[4.0], [4.0]])


def _conformance_rows():
    path = pathlib.Path(__file__).resolve().parents[1] / "ops" / "test_op_conformance.py"
    module = load_script(path)
    return module.ROWS


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", _conformance_rows())
def test_every_op_runs_the_same_after_a_graph_def_round_trip(build, ref, inputs, dtype, rank_free, keeps_rank):
    with tf.Graph().as_default() as graph:
        out = build(*[tf.constant(v) for v in inputs])
    with tf.Session(graph=graph) as sess:
        want = sess.run(out)
    with tf.Graph().as_default() as copy:
        tf.import_graph_def(graph.as_graph_def(), name="")
    assert len(copy.as_graph_def().node) == len(graph.as_graph_def().node)  # read back, written alike
    with tf.Session(graph=copy) as sess:
        got = sess.run(out.name)
    np.testing.assert_array_equal(got, want)
    assert np.asarray(got).dtype == np.asarray(want).dtype


# -- import_graph_def ----------------------------------------------------------------------------
def _small_graph_def():
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [2], name="x")
        tf.multiply(x, 3.0, name="y")
    return graph.as_graph_def()


def test_import_graph_def_prefix_input_map_and_return_elements():
    with tf.Graph().as_default():
        feed = tf.constant([1.0, 2.0], name="feed")
        y, op = tf.import_graph_def(_small_graph_def(), input_map={"x": feed}, return_elements=["y:0", "y"])
        assert (y.name, op.name) == ("import/y:0", "import/y")
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(y), [3.0, 6.0])
        (z,) = tf.import_graph_def(_small_graph_def(), return_elements=["y:0"], name="")
        assert z.name == "y:0"


def test_import_graph_def_errors_name_what_is_wrong():
    gd = _small_graph_def()
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Attempted to map inputs that were not found in graph_def: \[zz:0\]"):
            tf.import_graph_def(gd, input_map={"zz:0": tf.constant(1.0)})
        with pytest.raises(ValueError, match="Requested return tensor 'y:5' not found"):
            tf.import_graph_def(gd, return_elements=["y:5"])


def test_an_op_numflow_lacks_is_named_with_its_node_and_nothing_is_added():
    gd = _small_graph_def()
    gd.node.add(name="decode", op="AudioSpectrogram", input=["x"])
    with tf.Graph().as_default() as graph:
        with pytest.raises(tf.errors.NotFoundError, match="Op type not registered 'AudioSpectrogram'.*node 'decode'"):
            tf.import_graph_def(gd, name="")
        assert graph.get_operations() == []


def test_an_unknown_attr_on_a_known_op_is_an_error():
    gd = _small_graph_def()
    next(n for n in gd.node if n.name == "y").attr["fancy"].i = 1
    with tf.Graph().as_default() as graph:
        with pytest.raises(ValueError, match="Node 'y': NodeDef mentions attr 'fancy' not in Op Mul"):
            tf.import_graph_def(gd, name="")
        assert graph.get_operations() == []


def test_graph_def_versions_and_shapes():
    with tf.Graph().as_default() as graph:
        tf.placeholder(tf.float32, [None, 3], name="x")
    assert graph.graph_def_versions.producer == op_defs.GRAPH_DEF_VERSION
    node = graph.as_graph_def(add_shapes=True).node[0]
    assert [d.size for d in node.attr["_output_shapes"].list.shape[0].dim] == [-1, 3]
    assert "_output_shapes" not in graph.as_graph_def().node[0].attr


def test_write_graph_text_and_binary(tmp_path):
    from google.protobuf import text_format

    with tf.Graph().as_default() as graph:
        tf.constant(1.0, name="one")
    text = tf.train.write_graph(graph, str(tmp_path), "g.pbtxt")
    binary = tf.train.write_graph(graph, str(tmp_path / "sub"), "g.pb", as_text=False)
    assert text_format.Parse(pathlib.Path(text).read_text(), tf.GraphDef()) == graph.as_graph_def()
    assert tf.GraphDef.FromString(pathlib.Path(binary).read_bytes()) == graph.as_graph_def()


# -- models TensorFlow wrote ---------------------------------------------------------------------
def test_tensorflow_model_restores_and_trains_on_as_in_tensorflow():
    prefix = str(HERE / "tf_model" / "model-2")
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        assert [v.op.name for v in tf.trainable_variables()] == ["w1", "b1", "layer2/w", "layer2/b"]
        assert tf.get_collection("sizes") == [4]
        train = tf.get_collection("train_op")[0]
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            np.testing.assert_allclose(sess.run("out:0", _feed()), TF_MODEL["outputs"], rtol=1e-6)
            for i in range(3):
                _, loss = sess.run([train, "loss:0"], _feed(y=True))
                np.testing.assert_allclose(loss, TF_MODEL["losses"][i], rtol=1e-5)
                assert sess.run(tf.train.get_global_step()) == TF_MODEL["steps"][i]
                np.testing.assert_allclose(sess.run("layer2/b:0"), TF_MODEL["b2"][i], rtol=1e-5, atol=1e-7)


def test_tensorflow_resource_variables_restore_and_train_on_as_in_tensorflow(tmp_path):
    """Keras layers' and use_resource's variables (VarHandleOp, ResourceApplyAdam, ResourceScatterAdd...)."""
    prefix = str(HERE / "tf_resource_model" / "model-2")
    record = json.loads((HERE / "tf_resource_model.json").read_text())
    feed = {name: np.array(value, np.int32 if name == "ids:0" else np.float32)
            for name, value in golden.RESOURCE_FEED.items()}
    with tf.Graph().as_default() as graph:
        saver = tf.train.import_meta_graph(prefix + ".meta")
        assert [v.op.name for v in tf.trainable_variables()] == [
            "dense/kernel", "dense/bias", "emb", "dense_1/kernel", "dense_1/bias", "counter"]
        assert graph.get_operation_by_name("emb").type == "VariableV2"
        train = tf.get_collection("train_op")[0]
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value"):
                sess.run("loss:0", feed)
            assert set(sess.run(tf.report_uninitialized_variables())) >= {b"emb", b"counter"}
            saver.restore(sess, prefix)
            assert sess.run(tf.report_uninitialized_variables()).size == 0
            losses = [sess.run([train, "loss:0"], feed)[1] for _ in range(3)]
            np.testing.assert_allclose(losses, record["losses"], rtol=1e-5)
            assert sess.run("counter:0") == record["counter"]
            np.testing.assert_allclose(sess.run("emb:0"), record["emb"], rtol=1e-5)
            resumed = saver.save(sess, str(tmp_path / "model"), global_step=5)
    with tf.Graph().as_default():  # what numflow writes back holds reference variables, and trains on
        saver = tf.train.import_meta_graph(resumed + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, resumed)
            np.testing.assert_allclose(sess.run("emb:0"), record["emb"], rtol=1e-5)
            sess.run(tf.get_collection("train_op")[0], feed)
            assert sess.run("counter:0") == record["counter"] + 1


def test_tensorflow_ops_on_a_resource_handle_run_on_the_variable():
    """VariableShape, ResourceGather (with batch_dims too), VarIsInitializedOp, AssignSubVariableOp."""
    from google.protobuf import text_format

    graph_def = text_format.Parse((HERE / "tf_resource_ops.pbtxt").read_text(), tf.GraphDef())
    expected = json.loads((HERE / "tf_resource_ops.json").read_text())
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.import_graph_def(graph_def, name="")
        assert not sess.run("initialized:0")
        for op in golden.RESOURCE_OPS_RUNS:
            sess.run(op)
        for name, got, want in zip(golden.RESOURCE_OPS_FETCHES, sess.run(golden.RESOURCE_OPS_FETCHES), expected):
            np.testing.assert_array_equal(got, want, err_msg=name)


def test_frozen_tensorflow_graph_runs():
    gd = tf.GraphDef()
    gd.ParseFromString((HERE / "tf_frozen.pb").read_bytes())
    with tf.Graph().as_default():
        (out,) = tf.import_graph_def(gd, return_elements=["out:0"], name="")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(out, _feed()), TF_MODEL["outputs"], rtol=1e-6)


# -- numflow's own files -----------------------------------------------------------------------
def _trained_model(tmp_path):
    """numflow's model after two steps, saved; returns (prefix, outputs, 3 more (loss, step) pairs)."""
    with tf.Graph().as_default():
        x, y, out, loss, train, saver = golden.build_model(tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(train, {x: golden.X, y: golden.Y})
            prefix = saver.save(sess, str(tmp_path / "model"), global_step=2)
            outputs = sess.run(out, {x: golden.X})
            more = [(sess.run([train, loss], {x: golden.X, y: golden.Y})[1], sess.run(tf.train.get_global_step()))
                    for _ in range(3)]
    return prefix, outputs, more


def test_saver_writes_a_meta_graph_that_resumes_training(tmp_path):
    prefix, outputs, more = _trained_model(tmp_path)
    np.testing.assert_allclose(outputs, TF_MODEL["outputs"], rtol=1e-6)  # the same model as TensorFlow's
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        train = tf.get_collection("train_op")[0]
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run("out:0", _feed()), outputs)
            assert [(sess.run([train, "loss:0"], _feed(y=True))[1], sess.run(tf.train.get_global_step()))
                    for _ in range(3)] == more
            assert saver.save(sess, str(tmp_path / "again"), global_step=tf.train.get_global_step()).endswith("-5")


def test_write_meta_graph_false_and_max_to_keep(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        saver = tf.train.Saver(max_to_keep=1)
        with tf.Session() as sess:
            sess.run(v.initializer)
            first = saver.save(sess, str(tmp_path / "m"), global_step=1)
            assert os.path.exists(first + ".meta")
            second = saver.save(sess, str(tmp_path / "m"), global_step=2, write_meta_graph=False)
            assert not os.path.exists(first + ".meta") and not os.path.exists(second + ".meta")


def test_scopes_and_devices(tmp_path):
    with tf.Graph().as_default() as graph:
        with tf.name_scope("tower"), tf.device("/cpu:0"):
            v = tf.Variable([1.0, 2.0], name="v")
            tf.multiply(v, 2.0, name="double")
        tf.constant(0.0, name="outside")
    meta = tf.train.export_meta_graph(graph=graph, export_scope="tower", clear_devices=True)
    assert sorted(n.name for n in meta.graph_def.node) == ["double", "double/y", "v", "v/Assign",
                                                              "v/initial_value", "v/read"]
    assert all(n.device == "" for n in meta.graph_def.node)
    with tf.Graph().as_default() as copy:
        tf.train.import_meta_graph(meta, import_scope="new")
        (var,) = tf.global_variables()
        assert var.name == "new/v:0" and var.initializer.name == "new/v/Assign"
        with tf.Session() as sess:
            sess.run(var.initializer)
            np.testing.assert_array_equal(sess.run("new/double:0"), [2.0, 4.0])
    assert copy.get_operation_by_name("new/double").device == ""


def test_convert_variables_to_constants_extract_and_remove_training_nodes():
    with tf.Graph().as_default() as graph:
        x, y, out, loss, train, saver = golden.build_model(tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            want = sess.run(out, {x: golden.X})
            frozen = tf.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["out"])
    assert not any(n.op == "VariableV2" for n in frozen.node)
    assert not any(n.name.startswith(("gradients", "Adam", "save")) for n in frozen.node)
    slim = tf.graph_util.remove_training_nodes(frozen, protected_nodes=["out"])
    assert len(slim.node) < len(frozen.node)
    for graph_def in (frozen, slim):
        with tf.Graph().as_default():
            (got,) = tf.import_graph_def(graph_def, return_elements=["out:0"])
            with tf.Session() as sess:
                np.testing.assert_array_equal(sess.run(got, {"import/x:0": golden.X}), want)
    with pytest.raises(AssertionError, match="nope is not in graph"):
        tf.graph_util.extract_sub_graph(frozen, ["nope"])


def test_collections_numflow_cannot_write_are_left_out_with_a_warning(caplog):
    with tf.Graph().as_default() as graph:
        tf.add_to_collection("things", object())
        tf.add_to_collection("names", "a")
        with caplog.at_level(logging.WARNING):
            meta = tf.train.export_meta_graph()
    assert "things" in caplog.text and "things" not in meta.collection_def
    assert list(meta.collection_def["names"].bytes_list.value) == [b"a"]
    assert graph.get_collection("names") == ["a"]


# -- bad files -----------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", [lambda b: b[: len(b) // 2], lambda b: b"\xff\xfe" + b[2:40], lambda b: b[:-7]])
def test_a_truncated_or_corrupt_meta_graph_is_a_data_loss_error(tmp_path, damage):
    path = tmp_path / "bad.meta"
    path.write_bytes(damage((HERE / "tf_model" / "model-2.meta").read_bytes()))
    with tf.Graph().as_default() as graph:
        with pytest.raises(tf.errors.DataLossError, match=f"Cannot parse file {path}"):
            tf.train.import_meta_graph(str(path))
        assert graph.get_operations() == []


def test_a_missing_meta_graph_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match="File does not exist"):
        tf.train.import_meta_graph(str(tmp_path / "none.meta"))


def test_a_truncated_graph_def_fails_to_parse():
    from google.protobuf.message import DecodeError

    with pytest.raises(DecodeError):
        tf.GraphDef().ParseFromString((HERE / "tf_frozen.pb").read_bytes()[:-1])
