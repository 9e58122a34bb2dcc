"""TensorFlow's outputs for the tf.nn tests (``data/tf_nn_more_golden.npz``) and how they compare.

Regenerate the file with ``/opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py``.
"""

import pathlib

import numpy as np

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_nn_more_golden.npz")


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def assert_golden(got, key, rtol=1e-5, atol=1e-6):
    """``got`` (an array, or a list of them saved as ``<key>_<i>``) against TensorFlow's ``out_<key>``."""
    if isinstance(got, list | tuple):
        for i, g in enumerate(got):
            np.testing.assert_allclose(g, GOLDEN[f"out_{key}_{i}"], rtol=rtol, atol=atol, err_msg=f"{key}[{i}]")
    else:
        np.testing.assert_allclose(got, GOLDEN[f"out_{key}"], rtol=rtol, atol=atol, err_msg=key)
