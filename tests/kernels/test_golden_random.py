"""numflow's random kernels against TensorFlow's own outputs, bit for bit.

The golden file holds ``tf.raw_ops`` outputs followed by the Mul/Add of ``tf.random.*``, for
float16/32/64 uniform, normal and truncated normal, int32/int64 uniform, and second and third
runs of the same stateful op. If this fails after a TensorFlow upgrade, regenerate the file::

    /opt/tfenv/bin/python tests/golden/random/regenerate.py

and look at what changed in ``tensorflow/core/lib/random/`` before accepting new values.
"""

import ast
import os
import platform
import sys

import numpy as np
import pytest

from numflow_kernels import philox
from numflow_kernels.cpu import init

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden", "random", "tf_random.npz")
HOW_TO_REGENERATE = "regenerate with: /opt/tfenv/bin/python tests/golden/random/regenerate.py"


def load_cases():
    """``(name, op, seed, seed2, a, b, run, expected)`` for every case in the golden file."""
    with np.load(GOLDEN) as data:
        names = sorted(k for k in data.files if not k.endswith(".case"))
        return [(n, *ast.literal_eval(str(data[n + ".case"])), data[n]) for n in names]


CASES = load_cases()

# float64 normals call the C library's log/sin/cos, as TensorFlow does; the file was written on
# x86-64 with glibc >= 2.28 using its FMA code paths. Elsewhere they may differ in the last bit.
_LIBC, _LIBC_VERSION = platform.libc_ver()
SAME_LIBM = (sys.platform == "linux" and platform.machine() == "x86_64" and _LIBC == "glibc"
             and tuple(int(p) for p in _LIBC_VERSION.split(".")[:2]) >= (2, 28)
             and "fma" in open("/proc/cpuinfo").read().split())


def generate(module, op, seed, seed2, a, b, run, out):
    """Fill ``out`` as TensorFlow's op would on its ``run``-th run (0 = first) in one session."""
    counter = run * philox.RESERVED_PER_OUTPUT * out.size
    if op == "int":
        module.random_uniform_int(out, seed, seed2, a, b, counter=counter)
    else:
        fill = {"uniform": module.random_uniform, "normal": module.random_normal,
                "truncated": module.truncated_normal}[op]
        fill(out, seed, seed2, a, b, counter=counter)
    return out


@pytest.mark.parametrize("name, op, seed, seed2, a, b, run, expected", CASES, ids=[c[0] for c in CASES])
def test_cpu_kernels_reproduce_tensorflow_bit_for_bit(name, op, seed, seed2, a, b, run, expected):
    out = generate(init, op, seed, seed2, a, b, run, np.empty_like(expected))
    if expected.dtype == np.float64 and op in ("normal", "truncated") and not SAME_LIBM:
        np.testing.assert_allclose(out, expected, rtol=1e-14, atol=1e-14, err_msg=name)
        return
    assert_same_bits(out, expected, name)


def assert_same_bits(out, expected, name):
    """Equal bits, or a message that says how many values differ and how to regenerate."""
    as_int = f"u{expected.dtype.itemsize}"
    differ = np.flatnonzero(out.view(as_int) != expected.view(as_int))
    assert differ.size == 0, (f"{name}: {differ.size} of {out.size} values differ from TensorFlow's, "
                              f"first at {differ[:5].tolist()}; {HOW_TO_REGENERATE}")


def test_golden_file_covers_every_kernel():
    kinds = {(op, str(expected.dtype)) for _, op, *_, expected in CASES}
    floats = {(op, dt) for op in ("uniform", "normal", "truncated") for dt in ("float16", "float32", "float64")}
    assert floats | {("int", "int32"), ("int", "int64")} <= kinds
