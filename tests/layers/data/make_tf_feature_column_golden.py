"""Write ``tf_feature_column_golden.json``: what TensorFlow 2.21's compat.v1 feature columns build and compute in
each case of ``feature_column_cases.py``, with the vocabulary file written in a temporary folder.

Run with TensorFlow installed: ``python tests/layers/data/make_tf_feature_column_golden.py``.
"""

import json
import pathlib
import sys
import tempfile

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from feature_column_cases import CASES, make_files  # noqa: E402

tf.disable_v2_behavior()


def main():
    golden = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        make_files(tf, folder)
        for name, case in CASES.items():
            with tf.Graph().as_default():
                golden[name] = case(tf, folder)
    (HERE / "tf_feature_column_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
