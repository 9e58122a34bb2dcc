"""Write ``tf_queue_golden.json``: what TensorFlow 2.21's compat.v1 reads from each queue pipeline of
``queue_cases.py``, and the op names of a batch and shuffle_batch pipeline.

Run with TensorFlow installed: ``python tests/train/data/make_tf_queue_golden.py``.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from queue_cases import CASES, names  # noqa: E402

tf.disable_v2_behavior()


def main():
    golden = {}
    for name, case in CASES.items():
        with tf.Graph().as_default():
            golden[name] = case(tf)
    with tf.Graph().as_default():
        golden["names"] = names(tf)
    (HERE / "tf_queue_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
