"""numflow.tools.draw: scopes as clusters, variables and updates marked, fetches, run times, files, CLI."""

import re
import shutil

import numpy as np
import pytest

import numflow as tf
from numflow.tools import draw

graphviz = pytest.importorskip("graphviz")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's `dot` program is not installed (Debian: apt-get install graphviz)")


def _model():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.variable_scope("layer"):
        w = tf.get_variable("w", [3, 2], initializer=tf.ones_initializer())
        y = tf.matmul(x, w)
    loss = tf.reduce_sum(y, name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    unrelated = tf.constant(1.0, name="unrelated")
    return x, loss, train, unrelated


def _clusters(source):
    return re.findall(r'subgraph "?cluster_([^" ]+)"? \{', source)


def _node_line(source, name):
    (line,) = [line for line in source.splitlines() if re.match(rf'\s*"?{re.escape(name)}"? \[', line)]
    return line


def test_scopes_are_clusters_and_variables_and_updates_are_marked():
    _model()
    source = draw.to_dot(tf.get_default_graph()).source
    assert {"layer", "layer/w", "train", "train/update_layer/w"} <= set(_clusters(source))
    assert "box3d" in _node_line(source, "layer/w") and "VariableV2" in _node_line(source, "layer/w")
    update = _node_line(source, "train/update_layer/w/ApplyGradientDescent")
    assert "#cc0000" in update
    assert re.search(r'"layer/w" -> "train/update_layer/w/ApplyGradientDescent" \[label="\[3, 2\]" color="#cc0000"',
                     source)
    assert re.search(r'"layer/MatMul" -> "?loss"? \[label="\[\?, 2\]"\]', source)  # the tensor's static shape
    assert re.search(r'-> "?train"? \[style=dashed\]', source)  # control edges into the train op


def test_fetches_draw_only_what_they_need():
    x, loss, train, unrelated = _model()
    source = draw.to_dot(tf.get_default_graph(), fetches=[loss]).source
    assert '"layer/MatMul"' in source and "unrelated" not in source and "train" not in source
    assert '"x"' in source or "\tx [" in source
    with pytest.raises(KeyError, match="missing"):
        draw.to_dot(tf.get_default_graph(), fetches=["missing:0"])


def test_run_metadata_times_each_op():
    x, loss, train, _ = _model()
    metadata = tf.RunMetadata()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: np.ones([4, 3], np.float32)},
                 options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=metadata)
    times = {s.node_name: s.all_end_rel_micros for d in metadata.step_stats.dev_stats for s in d.node_stats}
    for message in (metadata, metadata.to_proto()):
        source = draw.to_dot(tf.get_default_graph(), run_metadata=message).source
        assert f"{times['layer/MatMul']} µs" in _node_line(source, "layer/MatMul")
        assert "filled" in _node_line(source, "layer/MatMul")
        assert "µs" not in _node_line(source, "unrelated")  # it did not run


def test_tensorflows_graph_files_draw_alike(tmp_path):
    _model()
    graph = tf.get_default_graph()
    meta = tmp_path / "model.meta"
    tf.train.export_meta_graph(str(meta))
    pbtxt = tf.train.write_graph(graph, str(tmp_path), "model.pbtxt")
    expected = draw.to_dot(graph).source
    assert draw.to_dot(str(meta)).source == expected
    assert _clusters(draw.to_dot(pbtxt).source) == _clusters(expected)


@needs_dot
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"), (".png", b"\x89PNG")])
def test_writes_svg_and_png(tmp_path, suffix, magic):
    _, loss, _, _ = _model()
    path = draw.draw(tf.get_default_graph(), tmp_path / f"g{suffix}", fetches=[loss])
    data = open(path, "rb").read()
    assert data.startswith(magic)
    if suffix == ".svg":
        assert b"layer" in data and b"MatMul" in data


def test_writes_dot_without_graphviz_program(tmp_path, monkeypatch):
    _model()
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` on the path
    path = draw.draw(tf.get_default_graph(), tmp_path / "g.dot")
    assert open(path).read().startswith('digraph "graph"')
    with pytest.raises(RuntimeError, match="needs Graphviz's `dot` program"):
        draw.draw(tf.get_default_graph(), tmp_path / "g.svg")
    with pytest.raises(ValueError, match="not 'gif'"):
        draw.draw(tf.get_default_graph(), tmp_path / "g.gif")


def test_command_line(tmp_path, capsys):
    x, loss, train, _ = _model()
    meta = str(tmp_path / "model.meta")
    tf.train.export_meta_graph(meta)
    metadata = tf.RunMetadata()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(loss, {x: np.ones([1, 3], np.float32)},
                 options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=metadata)
    (tmp_path / "run.pb").write_bytes(metadata.SerializeToString())
    out = tmp_path / "g.dot"
    assert draw.main([meta, "-o", str(out), "--fetch", "loss", "--run-metadata", str(tmp_path / "run.pb")]) == 0
    source = out.read_text()
    assert "µs" in _node_line(source, "layer/MatMul") and "train" not in source
    assert draw.main([str(tmp_path / "missing.meta"), "-o", str(out)]) == 1
    assert "File does not exist" in capsys.readouterr().err
    (tmp_path / "bad.meta").write_bytes(b"\xff\x00not a graph")
    assert draw.main([str(tmp_path / "bad.meta"), "-o", str(out)]) == 1
    assert "Cannot parse file" in capsys.readouterr().err
