"""Write ``examples.tfrecord`` (three Examples, by TensorFlow's writer) and ``tf_parsing_golden.json``:
what TensorFlow 2.21's compat.v1 builds and reads in each case of ``parsing_cases.py``.

Run with TensorFlow installed: ``python tests/io/data/make_tf_parsing_golden.py``.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from parsing_cases import CASES, EXAMPLES_FILE, records  # noqa: E402

tf.disable_v2_behavior()


def main():
    with tf.io.TFRecordWriter(str(EXAMPLES_FILE)) as writer:
        for record in records(tf):
            writer.write(record)
    golden = {}
    for name, case in CASES.items():
        with tf.Graph().as_default():
            golden[name] = case(tf)
    (HERE / "tf_parsing_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
