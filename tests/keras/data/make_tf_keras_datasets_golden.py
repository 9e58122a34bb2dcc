"""Regenerate tf_keras_datasets_golden.json with real TensorFlow and tf-keras (not a numflow dependency; run it
by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_datasets_golden.py   # where tensorflow is installed

tf-keras' ``imdb.load_data`` and ``reuters.load_data`` over the fakes of ``tests/keras/keras_dataset_fakes.py``,
with each set of arguments there. The fakes are not Keras' files, so the check of their hash is turned off.
"""

import json
import os
import pathlib
import sys
import tempfile

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow.compat.v1 as tf  # noqa: E402
from tf_keras.src.utils import data_utils  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
import keras_dataset_fakes as fakes  # noqa: E402


def main():
    data_utils.validate_file = lambda *args, **kwargs: True
    with tempfile.TemporaryDirectory() as home:
        (pathlib.Path(home) / "datasets").mkdir()
        fakes.write_imdb(pathlib.Path(home) / "datasets" / "imdb.npz")
        fakes.write_reuters(pathlib.Path(home) / "datasets" / "reuters.npz")
        results = {
            "imdb": {name: fakes.as_lists(tf.keras.datasets.imdb.load_data(cache_dir=home, **kw))
                     for name, kw in fakes.IMDB_CALLS.items()},
            "reuters": {name: fakes.as_lists(tf.keras.datasets.reuters.load_data(cache_dir=home, **kw))
                        for name, kw in fakes.REUTERS_CALLS.items()},
        }
    path = pathlib.Path(__file__).parent / "tf_keras_datasets_golden.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
