"""Keras models against TensorFlow 2.21's compat.v1 with tf-keras: for each model of ``keras_model_cases.py``
(Sequential and functional; SGD, momentum, Adam, RMSprop and a tf.train optimizer; cross entropies, mse,
regularization and batch normalization), the text ``summary()`` and ``fit`` print (timings left out), the
names of the model, layers, inputs, outputs, metrics and the variables Keras makes, and the numbers of
``fit``'s history, ``evaluate``, ``predict`` and the on-batch methods, from the same seeds; and the error of
each bad use of ``keras_error_cases.MODEL_CASES``.

``data/tf_keras_models_golden.json`` holds TensorFlow's; regenerate it with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_models_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import keras_error_cases
import pytest
from keras_model_cases import CASES, NAMES, assert_numbers_as_golden, run_case

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_models_golden.json").read_text())
HOW = ("regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_models_golden.py "
       "(TensorFlow installed)")
# Float rounding: sums in another order than TensorFlow's, grown by the training steps; batch normalization's
# moving mean of a near-zero batch mean differs in its last digits, which Adam's steps then carry on.
RTOL = {"batch_norm_conv": 1e-4}
ATOL = {"batch_norm_conv": 1e-5}


@pytest.fixture(scope="module")
def results():
    return {case: run_case(tf, case) for case in CASES}


@pytest.mark.parametrize("case", sorted(CASES))
def test_printed_text_and_names_as_tensorflow(case, results):
    for key in NAMES:
        assert results[case].get(key) == GOLDEN[case].get(key), f"{case}: {key}; {HOW}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_numbers_as_tensorflow(case, results):
    assert_numbers_as_golden(case, results[case], GOLDEN[case], HOW, RTOL.get(case, 1e-5), ATOL.get(case, 1e-6))


@pytest.mark.parametrize("case", sorted(keras_error_cases.MODEL_CASES))
def test_errors_as_tensorflow(case):
    assert keras_error_cases.raised(tf, case) == GOLDEN["errors"][case], HOW
