"""The examples a new user runs first still run and do what they say."""

import runpy
import subprocess
import sys
from pathlib import Path

import numflow as tf

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_quickstart_prints_the_product():
    out = subprocess.run([sys.executable, str(EXAMPLES / "quickstart.py")], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["[[7.]", "[3.]]"]


def test_train_mlp_learns_and_restores_exactly(capsys):
    tf.reset_default_graph()
    module = runpy.run_path(str(EXAMPLES / "train_mlp.py"))
    loss, accuracy = module["main"](steps=300)
    tf.reset_default_graph()
    out = capsys.readouterr().out
    assert "step   300" in out and "steps/s" in out
    assert loss < 1.5 and accuracy > 0.45  # chance is 0.1 (10 classes) and loss log(10) = 2.3
    assert "restored: eval loss" in out
