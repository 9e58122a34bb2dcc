"""The examples a new user runs first still run and do what they say."""

import json
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np

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


def test_deep_mnist_first_steps_match_tensorflow():
    # The tutorial's CNN with TensorFlow's seeds: the same initial weights and dropout masks, so the
    # losses agree to float rounding (the convolutions sum in another order than oneDNN's).
    from deep_mnist_steps import first_losses

    golden = json.loads((Path(__file__).parent / "data" / "tf_deep_mnist.json").read_text())
    losses, final = first_losses(tf)
    np.testing.assert_allclose(losses, golden["losses"], rtol=2e-6)
    np.testing.assert_allclose(final, golden["final_loss"], rtol=2e-6)


def test_deep_mnist_example_runs_and_reports(capsys):
    tf.reset_default_graph()
    module = runpy.run_path(str(EXAMPLES / "deep_mnist.py"))
    loss, accuracy = module["main"](steps=50, batch=16)
    tf.reset_default_graph()
    out = capsys.readouterr().out
    assert "step   50" in out and "steps/s" in out and "test accuracy" in out
    assert accuracy > 0.4  # chance is 0.1: 50 steps already learn the synthetic classes
def test_ptb_word_lm_runs_unchanged_and_matches_tensorflows_losses():
    """examples/ptb_word_lm.py (the PTB tutorial's model on synthetic text) gives TensorFlow's costs.

    ``data/tf_ptb_golden.json`` holds TensorFlow's; regenerate it with
    ``TF_USE_LEGACY_KERAS=1 python tests/examples/data/make_tf_ptb_golden.py`` where TF is installed.
    """
    golden = json.loads((Path(__file__).parent / "data" / "tf_ptb_golden.json").read_text())
    module = runpy.run_path(str(EXAMPLES / "ptb_word_lm.py"))

    class Config(module["SmallConfig"]):
        max_max_epoch = golden["epochs"]

    results = module["main"](Config, max_batches=golden["batches"], verbose=False)
    np.testing.assert_allclose([costs for _, _, costs in results], golden["costs"], rtol=2e-6)
    np.testing.assert_allclose([[train, valid] for train, valid, _ in results], golden["perplexities"], rtol=2e-6)
