"""Same program, same seeds, same config: the same bits in every run, whatever the load, the way the
executor takes, or either thread count.

Each model script of ``MODELS`` (in ``models/``) runs in ``RUNS`` fresh processes, one of them beside
a CPU-bound process this test starts and stops; in each process ``driver.py`` runs it in every
configuration (the executor's way picked by timing or forced either way, 1, 2 and 4 inter-op
threads, and 1 and 3 intra-op threads), starting from a different one each time. Every fetched
value and final variable must hash alike everywhere. A new model is one more line in ``MODELS``.
"""

import contextlib
import json
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
MODELS = [
    "mlp_adam.py",
    "logreg_saver.py",
    "embedding_sparse.py",
    "cnn_batchnorm.py",
    "lstm_language_model.py",
    "data_pipeline.py",
]
RUNS = 3
BUSY_RUN = 1


@contextlib.contextmanager
def _competing_process():
    """A CPU-bound process taking a core for the duration."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        busy.kill()
        busy.wait()


def _digests(model, first):
    done = subprocess.run([sys.executable, str(HERE / "driver.py"), str(HERE / "models" / model), "--first",
                           str(first)], capture_output=True, text=True, timeout=300, cwd=HERE.parents[1])
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("model", MODELS)
def test_every_run_gives_the_same_bits(model):
    runs = []
    for run in range(RUNS):
        with _competing_process() if run == BUSY_RUN else contextlib.nullcontext():
            runs.append(_digests(model, first=run * 4))
    reference = runs[0]["auto/1/0"]
    assert reference, f"{model} returned no values"
    for run, configs in enumerate(runs):
        for config, digests in configs.items():
            differing = sorted(name for name in reference.keys() | digests.keys()
                               if digests.get(name) != reference.get(name))
            assert not differing, f"{model}: run {run} ({config}) differs from run 0 (auto/1/0) in {differing}"
