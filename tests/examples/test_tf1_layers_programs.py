"""TF1 tutorial programs written with tf.layers run unchanged on numflow and print what TensorFlow printed.

Each program of ``tf1_programs/`` is written for ``tensorflow.compat.v1``; the test runs it with
``import numflow as tf`` in its place and compares its stdout with the ``.out`` file TensorFlow 2.21 printed
(regenerate them with ``/opt/tfenv/bin/python tests/examples/tf1_programs/make_tf_outputs.py``): the same
text, and the same numbers to float rounding (the programs print six significant digits; their training
steps repeat TensorFlow's from the same seeds, convolutions summing in another order).
"""

import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

PROGRAMS = pathlib.Path(__file__).parent / "tf1_programs"
ROOT = pathlib.Path(__file__).parents[2]
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")


def run_ported(tmp_path, name, *args):
    """The program's stdout, run with numflow in place of TensorFlow's compat.v1."""
    source = (PROGRAMS / f"{name}.py").read_text()
    ported = source.replace("import tensorflow.compat.v1 as tf\n", "import numflow as tf\n").replace(
        "tf.disable_v2_behavior()\n", "")
    assert ported != source
    path = tmp_path / f"{name}.py"
    path.write_text(ported)
    done = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_prints_the_same(ours, theirs, rtol):
    """The same lines, words and numbers, each number within ``rtol`` (or the last printed digit) of TensorFlow's."""
    ours_lines, their_lines = ours.splitlines(), theirs.splitlines()
    assert len(ours_lines) == len(their_lines), ours
    for mine, want in zip(ours_lines, their_lines):
        assert NUMBER.sub("#", mine).split() == NUMBER.sub("#", want).split(), (mine, want)
        got, expected = NUMBER.findall(mine), NUMBER.findall(want)
        for a, b in zip(got, expected):
            digit = 10.0 ** -len(b.split(".")[1].split("e")[0]) if "." in b and "e" not in b else 0.0
            np.testing.assert_allclose(float(a), float(b), rtol=rtol, atol=digit, err_msg=f"{mine!r} vs {want!r}")


@pytest.mark.parametrize("name", ["mnist_cnn_layers", "autoencoder", "batchnorm_cnn", "gan", "dense_regression"])
def test_prints_what_tensorflow_printed(tmp_path, name):
    assert_prints_the_same(run_ported(tmp_path, name), (PROGRAMS / f"{name}.out").read_text(), rtol=5e-5)


def test_a_tensorflow_checkpoint_of_the_batch_norm_cnn_restores_and_evaluates_as_tensorflow(tmp_path):
    # TensorFlow trained and saved the model; restored into numflow's same graph it gives TensorFlow's outputs.
    out = run_ported(tmp_path, "batchnorm_cnn", "--restore", str(PROGRAMS / "checkpoint" / "batchnorm_cnn"))
    assert_prints_the_same(out, (PROGRAMS / "batchnorm_cnn.restore.out").read_text(), rtol=1e-6)
