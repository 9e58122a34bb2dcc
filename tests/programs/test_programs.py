"""TensorFlow 1.x programs and snippets run unchanged on numflow and give what TensorFlow gives.

``cases.py`` holds snippets, each returning values; ``prog_*.py`` whole programs, each printing as
tutorials do. ``data/`` holds TensorFlow's results and printouts; regenerate them with
``TF_USE_LEGACY_KERAS=1 /opt/tfenv/bin/python tests/programs/make_goldens.py [name ...]``.
"""

import json
import pathlib
import sys

import pytest

import numflow as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
from cases import CASES  # noqa: E402
from golden_io import assert_matches  # noqa: E402
from output_compare import differences  # noqa: E402
from programs import PROGRAMS, load, run_program  # noqa: E402

GOLDENS = json.loads((HERE / "data" / "cases.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_gives_what_tensorflow_gives(name):
    assert_matches(GOLDENS[name], CASES[name](tf), name)


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_tensorflow_prints(name, tmp_path, capsys):
    run_program(name, tf, str(tmp_path))
    printed = capsys.readouterr().out
    expected = (HERE / "data" / f"{name}.txt").read_text()
    module = load(name)
    found = differences(expected, printed, rtol=getattr(module, "RTOL", 1e-5))
    assert not found, f"{name} printed {found} where TensorFlow printed otherwise:\n{printed}"
