"""``save_weights``/``load_weights`` against tf-keras' checkpoints (``data/tf_weights``, written by
``data/make_tf_keras_models_golden.py`` for ``keras_model_cases.saved_weights``): numflow reads TensorFlow's,
writes the same keys, values and object graph, and reads its own back."""

import json
import pathlib

import numpy as np
import pytest
from keras_model_cases import saved_weights

import numflow as tf
from numflow.checkpoint.reader import CheckpointReader
from numflow.keras.engine.saving import OBJECT_GRAPH_KEY
from numflow.protos import trackable_object_graph_pb2

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "tf_keras_models_golden.json").read_text())["saved_weights"]


def _contents(prefix):
    """The checkpoint's keys with their values, and its object graph as (key, variable name) and slot triples."""
    with CheckpointReader(str(prefix)) as reader:
        keys = [k for k in reader.get_variable_to_shape_map() if k != OBJECT_GRAPH_KEY]
        values = {k: np.asarray(reader.get_tensor(k)) for k in keys}
        graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(reader.get_tensor(OBJECT_GRAPH_KEY))
    key_of = {i: a.checkpoint_key for i, node in enumerate(graph.nodes) for a in node.attributes}
    attributes = sorted((a.checkpoint_key, a.full_name) for node in graph.nodes for a in node.attributes)
    slots = sorted((key_of[s.original_variable_node_id], s.slot_name, key_of[s.slot_variable_node_id])
                   for node in graph.nodes for s in node.slot_variables)
    return values, attributes, slots


def assert_same_checkpoint(ours_prefix, theirs_prefix):
    """The two checkpoints have the same keys, object graph and values (to float rounding)."""
    ours, ours_attributes, ours_slots = _contents(ours_prefix)
    theirs, theirs_attributes, theirs_slots = _contents(theirs_prefix)
    assert sorted(ours) == sorted(theirs)
    assert (ours_attributes, ours_slots) == (theirs_attributes, theirs_slots)
    for key, value in theirs.items():  # the same training step from the same seeds
        np.testing.assert_allclose(ours[key], value, rtol=1e-5, atol=1e-6, err_msg=key)


def test_numflow_writes_tensorflows_keys_values_and_object_graph(tmp_path):
    saved_weights(tf, tmp_path)
    assert_same_checkpoint(tmp_path / "weights", DATA / "tf_weights" / "weights")
    assert (tmp_path / "checkpoint").read_text() == (DATA / "tf_weights" / "checkpoint").read_text()


def test_numflow_reads_tensorflows_checkpoint(tmp_path):
    model, x = saved_weights(tf, tmp_path)
    session = tf.keras.backend.get_session()
    session.run([w.assign(tf.zeros_like(w)) for w in model.weights])
    model.load_weights(str(DATA / "tf_weights" / "weights"))
    for got, want in zip(model.get_weights(), GOLDEN["weights"]):
        np.testing.assert_array_equal(got, np.asarray(want, np.float32))
    np.testing.assert_allclose(model.predict(x), GOLDEN["predict"], rtol=1e-6)
    assert tf.keras.backend.get_value(model.optimizer.iterations) == 1


def test_weights_saved_and_loaded_into_a_fresh_graph(tmp_path):
    model, x = saved_weights(tf, tmp_path)
    predicted = model.predict(x)
    tf.keras.backend.clear_session()
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(2)])
    fresh.load_weights(str(tmp_path))
    np.testing.assert_array_equal(fresh.predict(x), predicted)


def test_a_missing_checkpoint_is_not_found(tmp_path):
    model, _ = saved_weights(tf, tmp_path)
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        model.load_weights(str(tmp_path / "absent"))
    with pytest.raises(tf.errors.NotFoundError, match="absent.h5: no such file"):
        model.load_weights(str(tmp_path / "absent.h5"))
