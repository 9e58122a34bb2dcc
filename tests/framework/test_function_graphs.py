"""Graphs holding functions, both ways: control flow as TensorFlow 2's functional ops (``If``, ``Case``,
``While``, their branches and bodies FunctionDefs of the graph's library), and tf.data's ops with
functions (``map``, ``filter``, ``flat_map``, ``interleave``, a one-shot iterator's dataset factory).

The goldens (tests/golden/functions) come from ``regenerate.py`` there, whose builders the tests run
with numflow in place of ``tensorflow.compat.v1``: TensorFlow's files load and run in numflow to
TensorFlow's numbers, and numflow's files, read back, give them too (``test_function_graphs_tf.py``
loads numflow's in TensorFlow).
"""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script
from google.protobuf import text_format

import numflow as tf

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "functions"
golden = load_script(HERE / "regenerate.py")
CONTROL_FLOW = json.loads((HERE / "control_flow.json").read_text())
PURE = json.loads((HERE / "pure.json").read_text())
DATASETS = json.loads((HERE / "datasets.json").read_text())


def _check_control_flow_model(sess):
    """The model of ``build_control_flow`` in ``sess`` (restored after one step) gives TensorFlow's
    outputs on each feed, then trains on to TensorFlow's losses."""
    outputs = tf.get_collection("outputs")
    assert len(outputs) == len(CONTROL_FLOW["outputs"][0])
    for feed, expected in zip(golden.FEEDS, CONTROL_FLOW["outputs"]):
        for tensor, want in zip(outputs, expected):
            np.testing.assert_allclose(sess.run(tensor, feed), want, rtol=1e-5, atol=1e-6, err_msg=tensor.name)
    train = tf.get_collection("train_op")[0]
    losses = [sess.run([train, "loss:0"], golden.FEEDS[1])[1] for _ in range(2)]
    np.testing.assert_allclose(losses, CONTROL_FLOW["losses"], rtol=1e-5)


def _graph_def(path):
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(path.read_bytes())
    return graph_def


# -- TensorFlow's files in numflow ------------------------------------------------------------
def test_tensorflows_meta_graph_with_control_flow_runs_and_trains_to_its_numbers():
    with tf.Graph().as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(str(HERE / "control_flow" / "model.meta"))
        saver.restore(sess, str(HERE / "control_flow" / "model"))
        _check_control_flow_model(sess)


def test_tensorflows_graph_def_with_nested_loops_and_conds_runs_to_its_numbers():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        tf.import_graph_def(_graph_def(HERE / "control_flow.pb"), name="")
        assert {"While", "If"} <= {op.type for op in graph.get_operations()}  # numflow's, from the Stateless ones
        values = sess.run(golden.PURE_OUTPUTS, {"x:0": golden.PURE_X})
    for value, want in zip(values, PURE):
        np.testing.assert_allclose(value, want, rtol=1e-6)


# -- numflow's files --------------------------------------------------------------------------
def test_numflows_meta_graph_writes_functional_ops_and_reads_back_to_tensorflows_numbers(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        train, _, saver = golden.build_control_flow(tf)
        sess.run(tf.global_variables_initializer())
        sess.run(train, golden.FEEDS[0])
        path = saver.save(sess, str(tmp_path / "model"), write_state=False)
    meta = tf.MetaGraphDef()
    meta.ParseFromString((tmp_path / "model.meta").read_bytes())
    types = {n.op for n in meta.graph_def.node}
    assert {"StatelessIf", "StatelessCase", "StatelessWhile"} <= types
    assert not types & {"LoopVar", "BranchValue", "AccumulatorRead", "Switch", "Merge"}
    functions = {f.signature.name for f in meta.graph_def.library.function}
    assert {"chosen_true", "chosen_false", "looped_cond", "looped_body"} <= functions
    stripped = {op.name for op in meta.meta_info_def.stripped_op_list.op}
    assert {"Sin", "OptionalFromValue", "TensorListPushBack"} <= stripped  # ops found only in functions
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.train.import_meta_graph(path + ".meta").restore(sess, path)
        _check_control_flow_model(sess)


def test_a_graph_def_with_nested_loops_and_conds_reads_back_to_tensorflows_numbers():
    with tf.Graph().as_default() as graph:
        golden.build_pure(tf)
        graph_def = graph.as_graph_def()
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.import_graph_def(graph_def, name="")
        values = sess.run(golden.PURE_OUTPUTS, {"x:0": golden.PURE_X})
    for value, want in zip(values, PURE):
        np.testing.assert_allclose(value, want, rtol=1e-6)


def test_a_loop_keeps_its_maximum_iterations_in_the_condition_function():
    with tf.Graph().as_default() as graph:
        limit = tf.placeholder(tf.int32, [], name="limit")
        out = tf.while_loop(lambda k: k < 1000, lambda k: k * 3, [tf.constant(1)], maximum_iterations=limit)
        tf.identity(out, name="out")
        graph_def = graph.as_graph_def()
    (cond,) = [f for f in graph_def.library.function if f.signature.name.endswith("_cond")]
    assert {"Less", "LogicalAnd"} <= {n.op for n in cond.node_def}
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.import_graph_def(graph_def, name="")
        # 3 ** n for n iterations; the condition stops it at 3 ** 7 whatever the limit above
        assert [sess.run("out:0", {"limit:0": n}) for n in (0, 2, 5, 9)] == [1, 9, 243, 2187]


# -- datasets ---------------------------------------------------------------------------------
def _check_datasets(sess):
    sess.run(tf.get_collection("initializers"), golden.DATASETS_FEED)
    elements = tf.get_collection("elements")
    assert [golden.read_all(sess, element) for element in elements] == DATASETS


def test_tensorflows_meta_graph_with_dataset_functions_reads_its_elements():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        tf.train.import_meta_graph(str(HERE / "datasets.meta"))
        # interleave with num_parallel_calls: TensorFlow's ParallelInterleaveDatasetV4, read in its deterministic order
        assert graph.get_operation_by_name("ParallelInterleaveDatasetV4").type == "InterleaveDataset"
        _check_datasets(sess)


def test_numflows_dataset_functions_go_into_the_library_and_read_back(tmp_path):
    with tf.Graph().as_default():
        golden.build_datasets(tf)
        meta = tf.train.export_meta_graph(str(tmp_path / "datasets.meta"))
    nodes = {n.name: n for n in meta.graph_def.node}
    functions = {f.signature.name: f for f in meta.graph_def.library.function}
    interleave = functions[nodes["InterleaveDataset"].attr["f"].func.name]
    assert [n.op for n in interleave.node_def] == ["TensorDataset", "Const", "AddV2", "RepeatDataset"]
    assert interleave.attr["_tf_data_function"].b
    mapped = functions[nodes["MapDataset"].attr["f"].func.name]  # the element, then the captured `scale`
    assert [a.name for a in mapped.signature.input_arg] == ["args_0", "scale"]
    assert list(nodes["MapDataset"].input) == ["RangeDataset", "scale"]
    branchy = functions[nodes["MapDataset_2"].attr["f"].func.name]  # a cond inside: its branches are functions
    assert [n.op for n in branchy.node_def if n.op.endswith("If")] == ["StatelessIf"]
    assert {f.signature.name for f in functions.values()} >= {"cond_true", "cond_false"}
    assert not {n.op for f in functions.values() for n in f.node_def} & {"LoopVar", "BranchValue"}
    factory = functions[nodes["OneShotIterator_1"].attr["dataset_factory"].func.name]
    assert [n.op for n in factory.node_def][-2:] == ["RangeDataset", "FlatMapDataset"]
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.train.import_meta_graph(str(tmp_path / "datasets.meta"))
        _check_datasets(sess)


def test_a_dataset_from_a_python_generator_has_no_graph_def_form():
    with tf.Graph().as_default() as graph:
        tf.data.make_one_shot_iterator(tf.data.Dataset.from_generator(lambda: iter([1, 2]), tf.int64)).get_next()
        with pytest.raises(ValueError, match="node 'FlatMapDataset' \\(FlatMapDataset\\) is Dataset.from_generator, "
                                             "which runs Python code: it has no GraphDef form"):
            graph.as_graph_def()


def test_a_loop_changing_a_variable_has_no_functional_form_and_the_error_names_it():
    # TensorFlow's own functional loop (control flow v2) refuses this program too: inside the body
    # function, AssignAdd's input is no reference (a TypeError)
    with tf.Graph().as_default() as graph:
        v = tf.Variable(1.0, name="v")
        tf.while_loop(lambda i: i < 3, lambda i: tf.tuple([i + 1], control_inputs=[tf.assign_add(v, 1.0)])[0], [0])
        message = ("node 'while/AssignAdd' \\(AssignAdd\\) changes variable 'v' inside function 'while_body' .*"
                   "numflow writes a cond that changes a variable as TensorFlow 1's Switch and Merge frames, but not a "
                   "loop")
        with pytest.raises(ValueError, match=message):
            tf.train.export_meta_graph(graph=graph)
        with pytest.raises(ValueError, match=message):
            graph.as_graph_def()


@pytest.mark.parametrize("cycle_length, block_length, message", [
    (0, 1, "cycle_length must be greater than zero."), (2, -1, "block_length must be greater than zero.")])
def test_interleave_refuses_a_cycle_or_block_not_above_zero(cycle_length, block_length, message):
    with tf.Graph().as_default(), tf.Session() as sess:
        cycle, block = tf.placeholder(tf.int64, []), tf.placeholder(tf.int64, [])
        dataset = tf.data.Dataset.range(3).interleave(tf.data.Dataset.from_tensors, cycle, block)
        iterator = tf.data.make_initializable_iterator(dataset)
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(iterator.initializer, {cycle: cycle_length, block: block_length})


# -- errors -----------------------------------------------------------------------------------
def _graph_def_text(text):
    return text_format.Parse(text, tf.GraphDef())


_IF = """
    node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
    node { name: "If" op: "StatelessIf" input: "p"
           attr { key: "Tcond" value { type: DT_BOOL } } attr { key: "Tin" value { list { } } }
           attr { key: "Tout" value { list { type: DT_FLOAT } } }
           attr { key: "then_branch" value { func { name: "then" } } }
           attr { key: "else_branch" value { func { name: "else" } } } }
"""
_BRANCH = """
    function { signature { name: "%s" output_arg { name: "out" type: DT_FLOAT } }
               node_def { name: "c" op: "%s" attr { key: "dtype" value { type: DT_FLOAT } }
                          attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 2 } } } }
               ret { key: "out" value: "%s" } }
"""


def _if_graph(then_op="Const", then_ret="c:output:0", else_name="else"):
    library = "library {" + _BRANCH % ("then", then_op, then_ret) + _BRANCH % (else_name, "Const", "c:output:0") + "}"
    return _graph_def_text(_IF + library)


def test_an_if_runs_the_branch_its_condition_picks():
    with tf.Graph().as_default(), tf.Session() as sess:
        (out,) = tf.import_graph_def(_if_graph(), return_elements=["If:0"], name="")
        assert sess.run(out, {"p:0": True}) == 2.0


@pytest.mark.parametrize("graph_def, error, message", [
    (_if_graph(else_name="other"), tf.errors.NotFoundError, "Function else is not defined \\(node 'If' names it\\)"),
    (_if_graph(then_op="NoSuchOp"), tf.errors.NotFoundError,
     "Op type not registered 'NoSuchOp' in numflow \\(node 'c' of function 'then'\\)"),
    (_if_graph(then_ret="d:output:0"), tf.errors.InvalidArgumentError,
     "input d:output:0 is not found: function output out of function 'then'"),
    (_if_graph(then_ret="c:y:0"), tf.errors.InvalidArgumentError, "input c:y:0 is not found"),
])
def test_a_bad_function_library_is_refused_before_the_graph_changes(graph_def, error, message):
    with tf.Graph().as_default() as graph:
        with pytest.raises(error, match=message):
            tf.import_graph_def(graph_def)
        assert graph.get_operations() == []
