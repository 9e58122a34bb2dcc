"""Regenerate the ``.out`` files beside these programs: what each printed when run by TensorFlow 2.21 with its
legacy Keras layers (not a numflow dependency; run it by hand where TensorFlow is installed)::

    /opt/tfenv/bin/python tests/examples/tf1_programs/make_tf_outputs.py

``batchnorm_cnn.py`` also saves its trained model to ``checkpoint/batchnorm_cnn`` and prints, restored from
there, into ``batchnorm_cnn.restore.out``.
"""

import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
PROGRAMS = ("mnist_cnn_layers", "autoencoder", "batchnorm_cnn", "gan", "dense_regression")
CHECKPOINT = HERE / "checkpoint" / "batchnorm_cnn"


def run(name, *args):
    env = {**os.environ, "TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}
    done = subprocess.run([sys.executable, str(HERE / f"{name}.py"), *args], capture_output=True, text=True,
                          env=env, check=True)
    return done.stdout


def main():
    shutil.rmtree(CHECKPOINT.parent, ignore_errors=True)
    CHECKPOINT.parent.mkdir()
    for name in PROGRAMS:
        extra = ("--save", str(CHECKPOINT)) if name == "batchnorm_cnn" else ()
        (HERE / f"{name}.out").write_text(run(name, *extra))
    (HERE / "batchnorm_cnn.restore.out").write_text(run("batchnorm_cnn", "--restore", str(CHECKPOINT)))


if __name__ == "__main__":
    main()
