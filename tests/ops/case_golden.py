"""A case of a ``*_cases.py`` module against the golden TensorFlow wrote for it
(``data/make_tf_case_goldens.py``): the case's tensor names, and each value's dtype and value."""

import numpy as np


def check_case(tf, run_case, golden, name, rtol=0.0, atol=0.0, named=None):
    """Run case ``name`` with ``tf`` and compare it with ``golden``: the first ``named`` tensor names (all
    by default: gradients are named by each engine's graph), then every value, exactly unless a
    tolerance is given."""
    values, names = run_case(tf, name)
    assert names[:named] == golden[f"{name}/names"].tolist()[:named]
    for i, value in enumerate(values):
        want = golden[f"{name}/{i}"]
        assert np.asarray(value).dtype == want.dtype, (name, i)
        if rtol or atol:
            np.testing.assert_allclose(value, want, rtol=rtol, atol=atol, err_msg=f"{name}/{i}")
        else:
            np.testing.assert_array_equal(value, want, err_msg=f"{name}/{i}")
