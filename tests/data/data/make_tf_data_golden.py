"""Write ``tf_data_golden.json`` and ``tf_data_transformations_golden.json``: what TensorFlow 2.21's
compat.v1 reads from each pipeline of ``pipeline_cases.py`` and ``transformation_cases.py`` (elements,
end of sequence, op names, static shapes and dtypes).

Run with TensorFlow installed: ``python tests/data/data/make_tf_data_golden.py``.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

import transformation_cases  # noqa: E402
from pipeline_cases import CASES, TRAINING  # noqa: E402

tf.disable_v2_behavior()


def write(cases, file_name):
    golden = {}
    for name, case in cases.items():
        with tf.Graph().as_default():
            golden[name] = case(tf)
    (HERE / file_name).write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


def main():
    write({**CASES, **TRAINING}, "tf_data_golden.json")
    write(transformation_cases.CASES, "tf_data_transformations_golden.json")


if __name__ == "__main__":
    main()
