"""Regenerate tf_metric_stream_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_metric_stream_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/metric_stream_cases.py``: ``CASE/updates`` and ``CASE/values`` hold the update's
and the value's results after each batch, ``CASE/names`` the value's, the update's and the local variables' names
(with static shape and dtype), ``CASE/collections`` the tensors in the cases' two collections.
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
tf.disable_v2_behavior()


def main():
    from metric_stream_cases import CASES, run_case

    arrays = {}
    for name in CASES:
        updates, values, names, collections = run_case(tf, name)
        arrays.update({f"{name}/updates": updates, f"{name}/values": values, f"{name}/names": np.array(names),
                       f"{name}/collections": np.array(collections)})
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_metric_stream_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
