"""Regenerate tf_getter_golden.json with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/variables/data/make_tf_golden.py   # any Python with tensorflow installed

The scenarios are those of ``scenarios.py`` beside this file.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from scenarios import SCENARIOS  # noqa: E402

tf.disable_v2_behavior()


def main():
    golden = {name: scenario(tf) for name, scenario in SCENARIOS.items()}
    path = pathlib.Path(__file__).with_name("tf_getter_golden.json")
    path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
