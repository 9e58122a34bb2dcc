"""Recurrent Keras models against TensorFlow 2.21's compat.v1 with tf-keras: for each model of
``keras_recurrent_model_cases.py`` (an IMDB-style LSTM classifier on padded, masked ids; a sequence tagger with
TimeDistributed; a functional bidirectional GRU; a tagger trained on masked steps), the printed summary and
``fit`` log, the names, and the losses, metrics and predictions from the same seeds; and ``save_weights``/
``load_weights`` against the checkpoint tf-keras writes for ``saved_weights`` (``data/tf_rnn_weights``): the
same keys and object graph (an RNN's weights under its ``cell``, a wrapper's under ``layer`` or
``forward_layer``/``backward_layer``), read both ways; and a ``tf.train.Saver`` restoring TensorFlow's
checkpoint of the same weights by their names (``data/tf_rnn_saver``).

``data/tf_keras_recurrent_models_golden.json`` and ``data/tf_rnn_weights`` hold TensorFlow's; regenerate them with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_recurrent_models_golden.py`` (TensorFlow installed).
"""

import json
import pathlib

import numpy as np
import pytest
from keras_model_cases import NAMES, assert_numbers_as_golden, run_case
from keras_recurrent_model_cases import CASES, saved_weights
from test_keras_saving import assert_same_checkpoint

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "tf_keras_recurrent_models_golden.json").read_text())
HOW = ("regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_recurrent_models_golden.py "
       "(TensorFlow installed)")


@pytest.fixture(scope="module")
def results():
    return {case: run_case(tf, case, CASES) for case in CASES}


@pytest.mark.parametrize("case", sorted(CASES))
def test_printed_text_and_names_as_tensorflow(case, results):
    for key in NAMES:
        assert results[case].get(key) == GOLDEN[case].get(key), f"{case}: {key}; {HOW}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_losses_and_predictions_as_tensorflow(case, results):
    assert_numbers_as_golden(case, results[case], GOLDEN[case], HOW)


def test_save_weights_writes_tensorflows_keys_values_and_object_graph(tmp_path):
    saved_weights(tf, tmp_path)
    assert_same_checkpoint(tmp_path / "weights", DATA / "tf_rnn_weights" / "weights")


def test_load_weights_reads_tensorflows_checkpoint(tmp_path):
    model, x = saved_weights(tf, tmp_path)
    session = tf.keras.backend.get_session()
    session.run([w.assign(tf.zeros_like(w)) for w in model.weights])
    model.load_weights(str(DATA / "tf_rnn_weights" / "weights"))
    for got, want in zip(model.get_weights(), GOLDEN["saved_weights"]["weights"]):
        np.testing.assert_array_equal(got, np.asarray(want, np.float32))
    np.testing.assert_allclose(model.predict(x), GOLDEN["saved_weights"]["predict"], rtol=1e-6)


def test_a_saver_restores_tensorflows_checkpoint_by_the_variables_names(tmp_path):
    model, x = saved_weights(tf, tmp_path)
    prefix = str(DATA / "tf_rnn_saver" / "model")
    reader = tf.train.load_checkpoint(prefix)
    assert sorted(reader.get_variable_to_shape_map()) == sorted(v.op.name for v in model.weights)
    session = tf.keras.backend.get_session()
    tf.train.Saver(model.weights).restore(session, prefix)
    for got, want in zip(model.get_weights(), GOLDEN["saved_weights"]["weights"]):
        np.testing.assert_array_equal(got, np.asarray(want, np.float32))
    np.testing.assert_allclose(model.predict(x), GOLDEN["saved_weights"]["predict"], rtol=1e-6)
