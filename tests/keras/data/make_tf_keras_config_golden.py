"""Writes ``tf_keras_config_golden.json``: tf-keras' ``get_config()`` of each layer in
``keras_config_cases.py`` and the ``to_json()`` of each of its models, in TensorFlow 1.x mode.

Run with TensorFlow 2.21 and tf-keras 2.21: ``TF_USE_LEGACY_KERAS=1 python make_tf_keras_config_golden.py``.
"""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

here = pathlib.Path(__file__).parent
sys.path.insert(0, str(here.parent))
from keras_config_cases import built_configs, model_configs  # noqa: E402

tf.disable_v2_behavior()


def main():
    golden = {"layers": built_configs(tf), "models": {k: json.loads(v) for k, v in model_configs(tf).items()}}
    (here / "tf_keras_config_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
