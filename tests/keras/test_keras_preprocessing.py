"""``pad_sequences``, ``Tokenizer`` and ``skipgrams`` against tf-keras 2.21: the results and errors of
``keras_preprocessing_cases.py``, held in ``data/tf_keras_preprocessing_golden.json`` (regenerate with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_preprocessing_golden.py`` where TensorFlow is
installed)."""

import json
import math
import pathlib

import pytest
from keras_preprocessing_cases import CASES

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_preprocessing_golden.json").read_text())


@pytest.mark.parametrize("case", sorted(CASES))
def test_as_tf_keras(case):
    got = json.loads(json.dumps(CASES[case](tf.keras), sort_keys=True))
    for key, want in GOLDEN[case].items():
        assert got[key] == want, key


def test_tfidf_by_hand():
    tokenizer = tf.keras.preprocessing.text.Tokenizer()
    tokenizer.fit_on_texts(["a b", "a"])  # a: 1 (in 2 documents), b: 2 (in 1)
    row = tokenizer.texts_to_matrix(["a a b"], mode="tfidf")[0]
    assert row[1] == pytest.approx((1 + math.log(2)) * math.log(1 + 2 / (1 + 2)))
    assert row[2] == pytest.approx((1 + math.log(1)) * math.log(1 + 2 / (1 + 1)))
