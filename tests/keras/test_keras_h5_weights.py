"""``save_weights``/``load_weights`` in Keras' HDF5 format against tf-keras' file (``data/tf_weights.h5``,
written by ``data/make_tf_keras_models_golden.py`` for ``keras_model_cases.saved_weights``)."""

import json
import pathlib

import numpy as np
import pytest
from keras_model_cases import saved_weights

import numflow as tf

h5py = pytest.importorskip("h5py")

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "tf_keras_models_golden.json").read_text())["saved_weights"]


def _layout(path):
    """Every attribute (decoded) and dataset (name, shape, dtype) of the file, and its datasets' values."""
    layout, values = [], {}
    with h5py.File(path, "r") as f:
        def visit(name, item):
            attrs = {k: [v.decode() if isinstance(v, bytes) else v for v in np.atleast_1d(item.attrs[k])]
                     for k in item.attrs}
            if isinstance(item, h5py.Dataset):
                layout.append((name, item.shape, str(item.dtype), attrs))
                values[name] = item[()]
            else:
                layout.append((name, attrs))
        visit("/", f)
        f.visititems(visit)
    return layout, values


def _fresh_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", input_shape=(4,)),
                                tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(2)])


def test_numflow_writes_tf_keras_layout_and_the_same_values(tmp_path):
    model, _ = saved_weights(tf, tmp_path)
    model.save_weights(str(tmp_path / "w.h5"))
    ours, our_values = _layout(tmp_path / "w.h5")
    theirs, their_values = _layout(DATA / "tf_weights.h5")
    assert ours == theirs
    for name, value in their_values.items():  # the same training step from the same seeds
        np.testing.assert_allclose(our_values[name], value, rtol=1e-5, atol=1e-6, err_msg=name)


def test_numflow_reads_tf_keras_file_in_order_and_by_name(tmp_path):
    model, x = saved_weights(tf, tmp_path)
    for by_name in (False, True):
        tf.keras.backend.get_session().run([w.assign(tf.zeros_like(w)) for w in model.weights])
        model.load_weights(str(DATA / "tf_weights.h5"), by_name=by_name)
        for got, want in zip(model.get_weights(), GOLDEN["weights"]):
            np.testing.assert_array_equal(got, np.asarray(want, np.float32))
        np.testing.assert_allclose(model.predict(x), GOLDEN["predict"], rtol=1e-6)


def test_a_file_that_does_not_fit_changes_no_weight(tmp_path):
    tf.keras.backend.clear_session()
    other = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(5)])
    before = other.get_weights()
    with pytest.raises(ValueError, match=r"Shape mismatch in layer #2 \(named dense_1 in the model, dense_1 in "
                                         r"the file\) for weight dense_1/kernel:0: it expects shape \(3, 5\)"):
        other.load_weights(str(DATA / "tf_weights.h5"))
    for got, want in zip(other.get_weights(), before):  # the first layers fit, and are left as they were too
        np.testing.assert_array_equal(got, want)
    other.load_weights(str(DATA / "tf_weights.h5"), by_name=True, skip_mismatch=True)
    np.testing.assert_array_equal(other.get_weights()[0], np.asarray(GOLDEN["weights"][0], np.float32))
    np.testing.assert_array_equal(other.get_weights()[-2], before[-2])


def test_weights_round_trip_through_h5_into_a_fresh_graph(tmp_path):
    model, x = saved_weights(tf, tmp_path)
    predicted = model.predict(x)
    model.save_weights(str(tmp_path / "nested" / "w.hdf5"))
    tf.keras.backend.clear_session()
    fresh = _fresh_model()
    fresh.load_weights(str(tmp_path / "nested" / "w.hdf5"))
    np.testing.assert_array_equal(fresh.predict(x), predicted)
    with pytest.raises(ValueError, match="Layer count mismatch .* the model has 1 layers with weights, the file 3"):
        tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))]).load_weights(
            str(tmp_path / "nested" / "w.hdf5"))
