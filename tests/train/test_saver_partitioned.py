"""Saver and partitioned variables: one checkpoint entry under the full name with its slices, as
TensorFlow writes it (byte for byte), restored into any partitioning or none.

The golden checkpoint is TensorFlow's, written by ``tests/golden/partitioned/regenerate.py``.
"""

import pathlib
import shutil

import numpy as np
import pytest

import numflow as tf
from numflow.framework import errors

GOLDEN = pathlib.Path(__file__).parent.parent / "golden" / "partitioned"
with np.load(GOLDEN / "checkpoint_values.npz") as _values:
    FULL, WIDE = _values["embedding"], _values["wide"]


def _model(parts, wide_parts=2):
    """The golden's variables: ``embedding`` (7x3) in ``parts`` parts (0: one whole variable), ``plain``,
    and ``wide`` (150x1 float64) in ``wide_parts``."""
    partitioner = tf.fixed_size_partitioner(parts) if parts else None
    embedding = tf.get_variable("embedding", [7, 3], partitioner=partitioner)
    plain = tf.get_variable("plain", initializer=np.float32(0.0))
    wide = tf.get_variable("wide", [150, 1], dtype=tf.float64, partitioner=tf.fixed_size_partitioner(wide_parts))
    return embedding, plain, wide


def test_the_checkpoint_is_tensorflows_byte_for_byte(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        embedding, plain, wide = _model(3)
        sess.run(tf.global_variables_initializer())
        sess.run([embedding.assign(FULL), plain.assign(2.0), wide.assign(WIDE)])
        prefix = tf.train.Saver().save(sess, str(tmp_path / "model"), write_meta_graph=False)
    for suffix in (".index", ".data-00000-of-00001"):
        assert pathlib.Path(prefix + suffix).read_bytes() == (GOLDEN / f"model{suffix}").read_bytes(), suffix


@pytest.mark.parametrize("parts, wide_parts", [(3, 2), (2, 3), (5, 1), (0, 7)])
def test_tensorflows_checkpoint_restores_into_any_partitioning(parts, wide_parts):
    with tf.Graph().as_default(), tf.Session() as sess:
        embedding, plain, wide = _model(parts, wide_parts)
        tf.train.Saver().restore(sess, str(GOLDEN / "model"))
        np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(embedding)), FULL)
        np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(wide)), WIDE)
        assert sess.run(plain) == 2.0


def test_restore_replaces_initialized_parts_and_a_dict_names_the_partitioned_variable(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        embedding, *_ = _model(2)
        sess.run(tf.global_variables_initializer())
        tf.train.Saver({"embedding": embedding}).restore(sess, str(GOLDEN / "model"))
        np.testing.assert_array_equal(sess.run(list(embedding)[1]), FULL[4:])


def test_readers_see_the_full_variable():
    reader = tf.train.NewCheckpointReader(str(GOLDEN / "model"))
    assert reader.get_variable_to_shape_map() == {"embedding": [7, 3], "plain": [], "wide": [150, 1]}
    np.testing.assert_array_equal(reader.get_tensor("embedding"), FULL)
    np.testing.assert_array_equal(reader.get_tensor("wide"), WIDE)
    assert tf.train.list_variables(str(GOLDEN / "model")) == [("embedding", [7, 3]), ("plain", []), ("wide", [150, 1])]


def test_another_full_shape_is_refused_naming_the_variable(tmp_path):
    shutil.copy(GOLDEN / "model.index", tmp_path / "model.index")
    shutil.copy(GOLDEN / "model.data-00000-of-00001", tmp_path / "model.data-00000-of-00001")
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.get_variable("embedding", [8, 3], partitioner=tf.fixed_size_partitioner(2))
        saver = tf.train.Saver()
        with pytest.raises(errors.InvalidArgumentError) as info:
            saver.restore(sess, str(tmp_path / "model"))
    assert ("tensor_name = embedding; shape in shape_and_slice spec [8,3] does not match the shape stored in "
            "checkpoint: [7,3]") in str(info.value)


def test_slices_and_a_whole_variable_under_one_name_are_refused():
    with tf.Graph().as_default():
        whole = tf.get_variable("embedding", [7, 3])
    with tf.Graph().as_default():
        embedding, *_ = _model(2)
        with pytest.raises(ValueError, match="At least two variables have the same name: embedding"):
            tf.train.Saver([*embedding, whole])


def test_parts_of_another_variable_under_a_dict_key_are_refused():
    with tf.Graph().as_default():
        embedding, *_ = _model(2)
        with pytest.raises(ValueError, match="Slices must all be from the same tensor: embedding != table"):
            tf.train.Saver({"table": list(embedding)})


def _variable_defs(meta):
    from numflow.protos import variable_pb2

    return [variable_pb2.VariableDef.FromString(raw) for raw in meta.collection_def["variables"].bytes_list.value]


def _string_consts(meta, suffix):
    return {n.name: list(n.attr["value"].tensor.string_val) for n in meta.graph_def.node if n.name.endswith(suffix)}


def test_exported_meta_graph_keeps_the_slices_as_tensorflows_does():
    from numflow.framework.meta_graph import read_meta_graph_file

    golden = read_meta_graph_file(str(GOLDEN / "model.meta"))
    with tf.Graph().as_default():
        _model(3)
        meta = tf.train.Saver().export_meta_graph()
    ours = {d.variable_name: d.save_slice_info_def for d in _variable_defs(meta)}
    theirs = {d.variable_name: d.save_slice_info_def for d in _variable_defs(golden)}
    assert ours == theirs and theirs["embedding/part_2:0"].var_offset == [5, 0]
    specs = _string_consts(golden, "/SaveV2/shape_and_slices")["save/SaveV2/shape_and_slices"]
    assert set(map(tuple, _string_consts(meta, "/shape_and_slices").values())) == {tuple(specs)}


def test_tensorflows_meta_graph_imports_with_its_parts_and_restores(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(str(GOLDEN / "model.meta"))
        saver.restore(sess, str(GOLDEN / "model"))  # TF's own RestoreV2 ops, with their slice specs
        prefix = saver.save(sess, str(tmp_path / "model"), write_meta_graph=False)  # and its SaveV2
        for suffix in (".index", ".data-00000-of-00001"):
            assert pathlib.Path(prefix + suffix).read_bytes() == (GOLDEN / f"model{suffix}").read_bytes(), suffix
        parts = [v for v in tf.global_variables() if v._save_slice_info is not None][:3]
        assert [(v.name, v._save_slice_info.full_name, v._save_slice_info.var_offset) for v in parts] == [
            ("embedding/part_0:0", "embedding", [0, 0]), ("embedding/part_1:0", "embedding", [3, 0]),
            ("embedding/part_2:0", "embedding", [5, 0])]
        np.testing.assert_array_equal(np.concatenate(sess.run(parts)), FULL)
        sess.run(tf.global_variables_initializer())
        tf.train.Saver().restore(sess, str(GOLDEN / "model"))  # a new Saver groups the imported parts
        np.testing.assert_array_equal(np.concatenate(sess.run(parts)), FULL)


def test_moving_averages_of_parts_save_as_one_sliced_tensor(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        embedding, *_ = _model(3)
        averages = tf.train.ExponentialMovingAverage(0.5)
        update = averages.apply(list(embedding))
        sess.run(tf.global_variables_initializer())
        initial = sess.run(embedding.as_tensor())  # the averages start from it
        sess.run(embedding.assign(FULL))
        sess.run(update)
        prefix = tf.train.Saver().save(sess, str(tmp_path / "model"), write_meta_graph=False)
    reader = tf.train.NewCheckpointReader(prefix)
    assert reader.get_variable_to_shape_map()["embedding/ExponentialMovingAverage"] == [7, 3]
    np.testing.assert_allclose(reader.get_tensor("embedding/ExponentialMovingAverage"), 0.5 * initial + 0.5 * FULL,
                               rtol=1e-6)
