"""Graphs holding TensorFlow 1's control flow frames (Switch, Merge, Enter, Exit, NextIteration,
LoopCond), as compat.v1 writes tf.cond and tf.while_loop by default, read back as numflow's conds and
while loops.

The goldens (tests/golden/frames) come from ``regenerate.py`` there: .meta files with their
checkpoints, restored and run (their outputs, then training steps) to TensorFlow's numbers, and a
GraphDef of nested conds and loops.
"""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script
from google.protobuf import text_format

import numflow as tf

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "frames"
golden = load_script(HERE / "regenerate.py")


def _restored(sess, model):
    saver = tf.train.import_meta_graph(str(HERE / model / "model.meta"))
    saver.restore(sess, str(HERE / model / "model"))


def _check_model(model, steps=3):
    """The model restored gives TensorFlow's outputs on each feed, then trains to TensorFlow's losses."""
    record = json.loads((HERE / f"{model}.json").read_text())
    feeds = golden.FEEDS[model]
    with tf.Graph().as_default(), tf.Session() as sess:
        _restored(sess, model)
        outputs = tf.get_collection("outputs")
        assert len(outputs) == len(record["outputs"][0])
        for feed, expected in zip(feeds, record["outputs"]):
            for tensor, want in zip(outputs, expected):
                np.testing.assert_allclose(sess.run(tensor, feed), want, rtol=1e-5, atol=1e-6, err_msg=tensor.name)
        train = tf.get_collection("train_op")[0]
        losses = [sess.run([train, "loss:0"], feeds[0])[1] for _ in range(steps)]
        np.testing.assert_allclose(losses, record["losses"][:steps], rtol=1e-5)


def test_batch_norm_switched_by_a_training_placeholder_runs_and_trains_to_tensorflows_numbers():
    _check_model("batch_norm")


def test_a_conds_merges_keep_their_names_and_give_the_branch_taken():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        _restored(sess, "batch_norm")
        mean = graph.get_tensor_by_name("batch_normalization/cond/Merge:0")
        moments = graph.get_tensor_by_name("batch_normalization/moments/Squeeze:0")
        moving = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, "batch_normalization/moving_mean")[0]
        feed = {"x:0": golden.X}
        np.testing.assert_array_equal(sess.run(mean, {**feed, "training:0": True}), sess.run(moments, feed))
        np.testing.assert_array_equal(sess.run(mean, {**feed, "training:0": False}), sess.run(moving))
        assert mean.op.type == "Identity" and mean.shape.as_list() == [5]


def test_nested_conds_loops_and_a_growing_loop_variable_of_a_graph_def_give_tensorflows_outputs():
    graph_def = tf.GraphDef.FromString((HERE / "frames.pb").read_bytes())
    expected = json.loads((HERE / "pure.json").read_text())
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            values = sess.run(golden.PURE_OUTPUTS, {"x:0": golden.PURE_X})
        assert graph.get_tensor_by_name("while/Exit:0").op.type == "Identity"
        # The loop whose variable grows, built again with the invariant a trial build found.
        assert graph.get_tensor_by_name("grown:0").shape.as_list() == [None]
    for value, want, name in zip(values, expected, golden.PURE_OUTPUTS):
        np.testing.assert_allclose(value, want, rtol=1e-6, err_msg=name)


def test_an_import_scope_prefixes_the_rebuilt_conds_and_loops():
    graph_def = tf.GraphDef.FromString((HERE / "frames.pb").read_bytes())
    expected = json.loads((HERE / "pure.json").read_text())
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="model")
        assert graph.get_tensor_by_name("model/cond/Merge:0").op.type == "Identity"
        with tf.Session() as sess:
            value = sess.run("model/looped:0", {"model/x:0": golden.PURE_X})
    np.testing.assert_allclose(value, expected[1], rtol=1e-6)


# -- what cannot be rebuilt --------------------------------------------------------------------
_SAME_BRANCH_MERGE = """
    node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
    node { name: "cond/Switch" op: "Switch" input: "x" input: "p" attr { key: "T" value { type: DT_FLOAT } } }
    node { name: "cond/Merge" op: "Merge" input: "cond/Switch:1" input: "cond/Switch:1"
           attr { key: "T" value { type: DT_FLOAT } } attr { key: "N" value { i: 2 } } }
"""
_BOTH_BRANCHES = """
    node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
    node { name: "cond/Switch" op: "Switch" input: "x" input: "p" attr { key: "T" value { type: DT_FLOAT } } }
    node { name: "cond/add" op: "AddV2" input: "cond/Switch" input: "cond/Switch:1"
           attr { key: "T" value { type: DT_FLOAT } } }
"""

_CYCLE = """
    node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
    node { name: "cond/Switch" op: "Switch" input: "p" input: "p" attr { key: "T" value { type: DT_BOOL } } }
    node { name: "a" op: "Identity" input: "b" attr { key: "T" value { type: DT_BOOL } } }
    node { name: "b" op: "Identity" input: "a" attr { key: "T" value { type: DT_BOOL } } }
"""


@pytest.mark.parametrize("text, node, message", [
    (_SAME_BRANCH_MERGE, "cond/Merge", "a Merge of two tensors of the same branch"),
    (_BOTH_BRANCHES, "cond/add", "it reads both branches of the cond of 'cond/Switch'"),
    (_CYCLE, "[ab]", "it lies on a cycle that is not a while loop's NextIteration"),
])
def test_frames_that_are_no_cond_or_loop_are_refused_naming_the_node_and_nothing_is_added(text, node, message):
    graph_def = text_format.Parse(text, tf.GraphDef())
    with tf.Graph().as_default() as graph:
        tf.constant(1.0, name="before")
        with pytest.raises(tf.errors.UnimplementedError, match=f"Node '{node}' .*{message}"):
            tf.import_graph_def(graph_def)
        assert [op.name for op in graph.get_operations()] == ["before"]


def test_a_while_loop_counter_and_its_gradient_loop_run_and_train_to_tensorflows_numbers():
    # The gradient loop pops, last first, the values the forward loop pushed onto TensorFlow's stacks.
    _check_model("counter")


def test_dynamic_rnn_lstm_and_its_gradient_run_and_train_to_tensorflows_numbers():
    _check_model("lstm", steps=2)


def test_a_loops_exits_keep_their_names_and_its_body_ops_are_in_its_body():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        _restored(sess, "counter")
        i, acc = graph.get_tensor_by_name("counter/Exit:0"), graph.get_tensor_by_name("counter/Exit_1:0")
        x = np.array(golden.X[0], np.float32)
        w = sess.run(tf.global_variables()[0])
        expected = np.zeros(3, np.float32)
        for _ in range(5):
            expected = expected * w + x
        value_i, value_acc = sess.run([i, acc], {"x:0": x})
        assert value_i == 5
        np.testing.assert_allclose(value_acc, expected, rtol=1e-6)
        body_op = graph.get_operation_by_name("counter/mul")
        assert body_op._control_flow_context.part == "body" and body_op._control_flow_context.name == "counter"


# -- the ops TensorFlow 1's gradients write ---------------------------------------------------
def test_a_stack_pops_what_was_pushed_last_first_and_refuses_a_pop_when_empty():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        stack = graph.create_op("StackV2", [tf.constant(-1)], {"elem_type": tf.float32, "stack_name": "acc"})
        handle = stack.outputs[0]
        pushes = []
        for value in (1.0, 2.0):
            with tf.control_dependencies(pushes):
                pushes.append(graph.create_op("StackPushV2", [handle, tf.constant([value, -value])],
                                              {"T": tf.float32, "swap_memory": False}))
        with tf.control_dependencies(pushes):
            first = graph.create_op("StackPopV2", [handle], {"elem_type": tf.float32}).outputs[0]
        with tf.control_dependencies([first.op]):
            second = graph.create_op("StackPopV2", [handle], {"elem_type": tf.float32}).outputs[0]
        assert first.shape.as_list() == [2]  # the shape its pushes take
        values = sess.run([first, second])
        np.testing.assert_array_equal(values, [[2.0, -2.0], [1.0, -1.0]])
        empty = graph.create_op("StackPopV2", [handle], {"elem_type": tf.float32}).outputs[0]
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Stack\[acc\] is empty"):
            sess.run(empty)


def test_concat_offset_gives_where_each_input_of_a_concat_begins():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        shapes = [tf.constant([2, 3, 4]), tf.constant([2, 5, 4]), tf.constant([2, 1, 4])]
        offsets = graph.create_op("ConcatOffset", [tf.constant(-2), *shapes], {"N": 3}).outputs
        np.testing.assert_array_equal(sess.run(offsets), [[0, 0, 0], [0, 3, 0], [0, 8, 0]])
        bad = graph.create_op("ConcatOffset", [tf.constant(1), shapes[0], tf.constant([3, 3, 4])], {"N": 2})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"input\[1,0\] mismatch: 3 vs. 2"):
            sess.run(bad.outputs)


def test_conds_in_loops_map_fn_and_a_gru_with_lengths_run_and_train_to_tensorflows_numbers():
    # The cond in the loop's body pushes its branch's values inside the branch: the gradient's
    # ControlTrigger waits for them through a result the rebuilt cond gains.
    _check_model("mixed", steps=2)


@pytest.mark.parametrize("with_contexts", [True, False])
def test_each_cond_of_the_file_is_one_if_its_pivot_in_the_branch(with_contexts):
    # The MetaGraph's cond contexts pair each cond's pivot Switch (on the predicate itself) with the
    # Switches on its pred_id; a GraphDef alone pairs them by TensorFlow's names.
    meta = tf.MetaGraphDef.FromString((HERE / "batch_norm" / "model.meta").read_bytes())
    conds = sorted(n.name.rpartition("/")[0] for n in meta.graph_def.node if n.name.endswith("/pred_id"))
    if not with_contexts:
        del meta.collection_def["cond_context"]
    with tf.Graph().as_default() as graph:
        tf.train.import_meta_graph(meta)
        names = [op._attrs["cond_name"] for op in graph.get_operations() if op.type == "If"]
        assert sorted(n for n in names if not n.startswith("gradients/")) == conds  # the gradient's: one each
        assert len(names) == len(set(names)) == len(conds) + 4
        pivot = graph.get_operation_by_name("batch_normalization/cond_2/switch_t")
        merge_source = graph.get_tensor_by_name("batch_normalization/cond_2/Merge:0").op.inputs[0].op
        assert pivot._control_flow_context.op is merge_source
        assert pivot._control_flow_context.index == 0  # the true branch


def test_a_tensor_of_a_cond_branch_is_fetched_when_its_branch_runs_as_in_tensorflow_1():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        _restored(sess, "batch_norm")
        delta = graph.get_tensor_by_name("batch_normalization/cond_2/AssignMovingAvg/mul:0")
        feed = {"x:0": golden.X, "training:0": True}
        moving, mean = sess.run(["batch_normalization/moving_mean/read:0", "batch_normalization/moments/Squeeze:0"],
                                feed)
        # The branch runs whole (its moving-average update too), after its values are read.
        value, decay = sess.run([delta, "batch_normalization/cond_2/AssignMovingAvg/decay:0"], feed)
        np.testing.assert_allclose(value, (moving - mean) * decay, rtol=1e-6)
        assert 0.0 < decay < 0.02
        with pytest.raises(tf.errors.InvalidArgumentError, match="Retval.0. does not have value"):
            sess.run(delta, {**feed, "training:0": False})
        with pytest.raises(tf.errors.InaccessibleTensorError, match="counter/mul"):
            tf.train.import_meta_graph(str(HERE / "counter" / "model.meta"), import_scope="counter")
            sess.run("counter/counter/mul:0", {"counter/x:0": golden.X[0]})


@pytest.mark.parametrize("model", sorted(golden.MODELS))
def test_a_frozen_graph_def_of_the_model_gives_tensorflows_output(model):
    # TensorFlow's convert_variables_to_constants keeps the frames; the variables become Consts.
    graph_def = tf.GraphDef.FromString((HERE / model / "frozen.pb").read_bytes())
    record = json.loads((HERE / f"{model}.json").read_text())
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="")
        assert not tf.global_variables()
        output = graph.get_tensor_by_name(_first_output_name(model))
        kept = {op.name for op in graph.get_operations()}  # the placeholders the output needs
        with tf.Session() as sess:
            for feed, expected in zip(golden.FEEDS[model], record["outputs"]):
                feed = {k: v for k, v in feed.items() if k.split(":")[0] in kept}
                np.testing.assert_allclose(sess.run(output, feed), expected[0], rtol=1e-5, atol=1e-6)


def _first_output_name(model):
    meta = tf.MetaGraphDef.FromString((HERE / model / "model.meta").read_bytes())
    return meta.collection_def["outputs"].node_list.value[0]


def test_a_node_of_a_branch_that_cannot_be_built_fails_before_the_graph_changes():
    graph_def = text_format.Parse("""
        node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
        node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
               attr { key: "shape" value { shape { dim { size: 2 } dim { size: 3 } } } } }
        node { name: "cond/Switch" op: "Switch" input: "x" input: "p" attr { key: "T" value { type: DT_FLOAT } } }
        node { name: "cond/MatMul" op: "MatMul" input: "cond/Switch:1" input: "cond/Switch:1"
               attr { key: "T" value { type: DT_FLOAT } } }
        node { name: "cond/Merge" op: "Merge" input: "cond/Switch" input: "cond/MatMul"
               attr { key: "T" value { type: DT_FLOAT } } attr { key: "N" value { i: 2 } } }
    """, tf.GraphDef())
    with tf.Graph().as_default() as graph:
        tf.constant(1.0, name="before")
        with pytest.raises(ValueError, match="cond/MatMul"):
            tf.import_graph_def(graph_def)
        assert [op.name for op in graph.get_operations()] == ["before"]
