"""Regenerate tf_metric_at_k_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_metric_at_k_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/metric_at_k_cases.py``: ``update/B/I`` and ``value/B/I`` hold metric ``I``'s
update and value results after batch ``B``; ``names`` the metrics' tensor names, ``variables`` the local
variables' names.
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
tf.disable_v2_behavior()


def main():
    from metric_at_k_cases import run_metrics

    updates, reads, names, variables = run_metrics(tf)
    arrays = {"names": np.array(names), "variables": np.array(variables)}
    for b in range(len(updates)):
        for i, (update, value) in enumerate(zip(updates[b], reads[b])):
            arrays[f"update/{b}/{i}"], arrays[f"value/{b}/{i}"] = np.asarray(update), np.asarray(value)
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_metric_at_k_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
