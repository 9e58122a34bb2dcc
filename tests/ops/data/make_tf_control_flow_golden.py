"""Regenerate tf_control_flow_golden.npz and .json with real TensorFlow (not a numflow dependency; run it
by hand).

    python tests/ops/data/make_tf_control_flow_golden.py   # in an environment with tensorflow installed

The graphs are those of ``tests/ops/control_flow_cases.py``. The .npz holds the inputs and, per case,
``<case>/<run>/<fetch>``: the value TensorFlow computed, and ``batch_norm_cnn/<result>``: the losses
and moving averages of that training run. The .json holds, per case, the name of each fetched tensor.
"""

import json
import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from control_flow_cases import CASES, batch_norm_cnn, inputs, run_case  # noqa: E402

tf.disable_v2_behavior()


def main():
    a = inputs()
    arrays = dict(a)
    names = {}
    for case in CASES:
        values, names[case] = run_case(tf, case, a)
        arrays.update({f"{case}/{k}": v for k, v in values.items()})
    arrays.update({f"batch_norm_cnn/{k}": v for k, v in batch_norm_cnn(tf, a).items()})
    here = pathlib.Path(__file__).parent
    np.savez_compressed(here / "tf_control_flow_golden.npz", **arrays)
    (here / "tf_control_flow_golden.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
