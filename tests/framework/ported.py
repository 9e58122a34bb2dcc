"""Run a program written for ``tensorflow.compat.v1`` with numflow in its place."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).parents[2]


def run_ported(program, tmp_path, *args):
    """The finished run of ``program`` (a path) with ``import numflow as tf`` for TensorFlow's import and
    without ``tf.disable_v2_behavior()``; it must exit cleanly."""
    source = pathlib.Path(program).read_text()
    ported = source.replace("import tensorflow.compat.v1 as tf\n", "import numflow as tf\n").replace(
        "tf.disable_v2_behavior()\n", "")
    assert ported != source
    path = tmp_path / "program.py"
    path.write_text(ported)
    done = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done
