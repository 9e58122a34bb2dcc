"""Regenerate tf_image_golden.npz, tf_counting_golden.npz, tf_string_golden.npz, tf_patch_golden.npz,
tf_linalg_cross_golden.npz, tf_sparse_math_golden.npz, tf_distributions_golden.npz, tf_sets_golden.npz,
tf_stateless_golden.npz, tf_sparse_more_golden.npz, tf_index_golden.npz, tf_special_more_golden.npz,
tf_complex_golden.npz, tf_fft_golden.npz, tf_signal_golden.npz, tf_morphology_golden.npz and
tf_fractional_pool_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_case_goldens.py [string_cases ...]   # any Python with tensorflow

Only the named case modules when given, else all of them. The graphs are those of ``tests/ops/image_cases.py``,
``counting_cases.py``, ``string_cases.py``, ``patch_cases.py``, ``linalg_cross_cases.py``,
``sparse_math_cases.py``, ``distribution_cases.py``, ``set_cases.py``, ``stateless_cases.py``,
``sparse_more_cases.py``, ``index_cases.py``, ``special_more_cases.py``, ``complex_cases.py``, ``fft_cases.py``,
``signal_cases.py``, ``morphology_cases.py`` and ``fractional_pool_cases.py``: ``NAME/I`` holds the values of a
case's ``I``-th tensor (over its runs, for the image cases), ``NAME/names`` the names of its tensors.
"""

import importlib
import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
tf.disable_v2_behavior()

GOLDENS = {"image_cases": "tf_image_golden.npz", "counting_cases": "tf_counting_golden.npz",
           "string_cases": "tf_string_golden.npz", "patch_cases": "tf_patch_golden.npz",
           "linalg_cross_cases": "tf_linalg_cross_golden.npz", "sparse_math_cases": "tf_sparse_math_golden.npz",
           "distribution_cases": "tf_distributions_golden.npz", "set_cases": "tf_sets_golden.npz",
           "stateless_cases": "tf_stateless_golden.npz", "sparse_more_cases": "tf_sparse_more_golden.npz",
           "index_cases": "tf_index_golden.npz", "special_more_cases": "tf_special_more_golden.npz",
           "complex_cases": "tf_complex_golden.npz", "fft_cases": "tf_fft_golden.npz",
           "signal_cases": "tf_signal_golden.npz", "morphology_cases": "tf_morphology_golden.npz",
           "fractional_pool_cases": "tf_fractional_pool_golden.npz"}


def main():
    for module_name in sys.argv[1:] or GOLDENS:
        file_name = GOLDENS[module_name]
        cases = importlib.import_module(module_name)
        arrays = {}
        for name in cases.CASES:
            values, names = cases.run_case(tf, name)
            for i, value in enumerate(values):
                arrays[f"{name}/{i}"] = value
            arrays[f"{name}/names"] = np.array(names)
        np.savez_compressed(pathlib.Path(__file__).with_name(file_name), **arrays)


if __name__ == "__main__":
    main()
