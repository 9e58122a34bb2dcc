"""Write ``tf_sequence_golden.json``: what TensorFlow 2.21's compat.v1 builds and reads in each case of
``sequence_cases.py``.

Run with TensorFlow installed: ``python tests/io/data/make_tf_sequence_golden.py``.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from sequence_cases import CASES  # noqa: E402

tf.disable_v2_behavior()


def main():
    golden = {}
    for name, case in CASES.items():
        with tf.Graph().as_default():
            golden[name] = case(tf)
    (HERE / "tf_sequence_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
