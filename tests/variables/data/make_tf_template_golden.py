"""Regenerate tf_template_golden.json with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/variables/data/make_tf_template_golden.py   # any Python with tensorflow installed

TensorFlow 2.21's (compat.v1) records of the programs in ``template_scenarios.py``.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from template_scenarios import SCENARIOS, run  # noqa: E402

tf.disable_v2_behavior()


def main():
    golden = {name: run(tf, name) for name in SCENARIOS}
    path = pathlib.Path(__file__).with_name("tf_template_golden.json")
    path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
