"""Values as the goldens store them in JSON: arrays with their dtype, and back."""

import numpy as np


def encode(value):
    """``value`` (arrays, numpy and Python scalars, text, lists and dicts of them) as plain JSON data."""
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    if isinstance(value, np.ndarray | np.generic):
        return {"dtype": value.dtype.name, "shape": list(np.shape(value)), "value": np.ravel(value).tolist()}
    return value


def assert_matches(golden, value, where="", rtol=1e-5, atol=1e-6):
    """``value`` equals the decoded ``golden``: the same text and dtypes, numbers to float rounding."""
    if isinstance(golden, dict) and set(golden) == {"dtype", "shape", "value"}:
        got = np.asarray(value)
        assert got.dtype.name == golden["dtype"], f"{where}: dtype {got.dtype.name}, TensorFlow's {golden['dtype']}"
        assert list(got.shape) == golden["shape"], f"{where}: shape {got.shape}, TensorFlow's {golden['shape']}"
        want = np.asarray(golden["value"], dtype=got.dtype).reshape(got.shape)
        if got.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=where)
        else:
            np.testing.assert_array_equal(got, want, err_msg=where)
    elif isinstance(golden, dict) and set(golden) == {"bytes"}:
        assert encode(value) == golden, f"{where}: {value!r}, TensorFlow's {golden['bytes']!r}"
    elif isinstance(golden, dict):
        assert isinstance(value, dict) and sorted(value) == sorted(golden), f"{where}: keys {sorted(value)}"
        for key in golden:
            assert_matches(golden[key], value[key], f"{where}/{key}", rtol, atol)
    elif isinstance(golden, list):
        assert len(value) == len(golden), f"{where}: {len(value)} items, TensorFlow's {len(golden)}"
        for i, (g, v) in enumerate(zip(golden, value)):
            assert_matches(g, v, f"{where}[{i}]", rtol, atol)
    elif isinstance(golden, float) and not isinstance(value, str | bytes):
        np.testing.assert_allclose(value, golden, rtol=rtol, atol=atol, err_msg=where)
    else:
        assert encode(value) == golden, f"{where}: {value!r}, TensorFlow's {golden!r}"
