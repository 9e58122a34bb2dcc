"""inspect_checkpoint prints what TensorFlow's tool prints, compared with TF's output in tests/golden/inspect.

Each golden case builds its checkpoint (a copy of a TF-written one, or a damaged one) in a fresh
directory, runs numflow's tool on it and compares the text with what TF 2.21 printed for the same
case. numflow's reader may add a parenthesized detail to an error line TF prints (the tensor and the
file it came from): such a line matches when it starts with TF's line.
"""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from golden_scripts import load_script

from numflow.checkpoint.bundle import write_bundle
from numflow.tools import inspect_checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
golden = load_script(os.path.join(ROOT, "tests", "golden", "inspect", "make_inspect_golden.py"))

REGENERATE = ("The golden text is what TensorFlow printed. If TF's output is what changed, regenerate it: "
              "/opt/tfenv/bin/python tests/golden/inspect/make_inspect_golden.py")
SNAPPY = pytest.mark.xfail(strict=True, reason="numflow's table reader does not decode Snappy blocks, which TF "
                           "never writes; TF reads valid ones and names corrupt ones")
KNOWN_DIFFERENCES = {"snappy_valid_all_tensors": SNAPPY, "snappy_corrupt": SNAPPY}
_DETAIL = re.compile(r" \(.*\)")


@pytest.fixture(autouse=True)
def _default_printoptions():
    with np.printoptions():
        np.set_printoptions(**_NUMPY_DEFAULTS)
        yield


_NUMPY_DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False,
                       nanstr="nan", infstr="inf", sign="-", floatmode="maxprec")


def assert_same_output(actual, expected):
    """Line by line equal, except that an actual line may add `` (detail)`` to the expected one."""
    actual_lines, expected_lines = actual.split("\n"), expected.split("\n")
    ok = len(actual_lines) == len(expected_lines) and all(
        a == e or (a.startswith(e) and _DETAIL.fullmatch(a[len(e):])) for a, e in zip(actual_lines, expected_lines))
    assert ok, f"numflow printed:\n{actual}\nTensorFlow printed:\n{expected}\n{REGENERATE}"


def _cases(table):
    return [pytest.param(name, marks=KNOWN_DIFFERENCES.get(name, ())) for name in table]


@pytest.mark.parametrize("case", _cases(golden.CASES))
def test_prints_what_tensorflow_prints(case, tmp_path, capsys):
    build, tensor_name, all_tensors, all_names, pattern = golden.CASES[case]
    directory = str(tmp_path)
    file_name = build(directory)
    capsys.readouterr()
    inspect_checkpoint.print_tensors_in_checkpoint_file(file_name, tensor_name, all_tensors, all_names,
                                                        count_exclude_pattern=pattern)
    printed = capsys.readouterr().out.replace(directory, golden.PLACEHOLDER)
    assert_same_output(printed, golden.expected_text(case))


@pytest.mark.parametrize("case", _cases(golden.CLI_CASES))
def test_command_line_prints_what_tensorflow_prints(case, tmp_path, capsys):
    build, args = golden.CLI_CASES[case]
    directory = str(tmp_path)
    argv = [] if build is None else [f"--file_name={build(directory)}"]
    capsys.readouterr()
    status = inspect_checkpoint.main(argv + args)
    printed = capsys.readouterr().out.replace(directory, golden.PLACEHOLDER) + f"exit status {status}\n"
    assert_same_output(printed, golden.expected_text(case))


def test_every_golden_file_has_a_case():
    names = {name[:-4] for name in os.listdir(os.path.dirname(golden.__file__)) if name.endswith(".txt")}
    assert names == set(golden.CASES) | set(golden.CLI_CASES), REGENERATE


def test_python_dash_m_runs_the_command_line(tmp_path):
    prefix = write_bundle(tmp_path / "m", {"w": np.arange(3, dtype=np.int32)})
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "numflow.tools.inspect_checkpoint", f"--file_name={prefix}",
                           "--tensor_name=w"], capture_output=True, text=True, env=env, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        0, "tensor: w (int32) [3]\n[0 1 2]\n# Total number of params: 3\n", "")


def test_unknown_flag_fails_as_absl_does(tmp_path, capsys):
    assert inspect_checkpoint.main([f"--file_name={tmp_path}/m", "--foo=1"]) == 1
    assert capsys.readouterr().err == ("FATAL Flags parsing error: Unknown command line flag 'foo'\n"
                                       "Pass --helpshort or --helpfull to see help on flags.\n")


@pytest.mark.parametrize("text, message", [
    ("bad", "'bad' is not in the form k=v."),
    ("nosuch=1", "'nosuch' is not a valid printoption."),
    ("formatter=1", "Setting 'formatter' from the command line is not supported."),
    ("threshold=abc", "invalid literal for int() with base 10: 'abc'"),  # TF itself crashes here
    ("suppress=maybe", "Non-boolean argument to boolean flag"),
])
def test_bad_printoptions_are_argument_errors(text, message, capsys):
    with pytest.raises(SystemExit) as info:
        inspect_checkpoint.main(["--file_name=x", "--printoptions", text])
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(f"inspect_checkpoint.py: error: argument --printoptions: {message}\n")


def test_boolean_printoptions_take_absl_words():
    for word, value in [("yes", True), ("T", True), ("0", False), ("false", False)]:
        inspect_checkpoint.parse_numpy_printoption(f"suppress={word}")
        assert np.get_printoptions()["suppress"] is value


def test_slice_keys_match_tensorflow_ordered_code():
    assert inspect_checkpoint.slice_key("pv", [(4, 4), (0, 3)]).hex(" ") == "00 70 76 00 01 01 02 84 84 80 83"
    # Escapes of 00/FF in the name, a whole-dimension extent (-1), multi-byte numbers.
    assert inspect_checkpoint.slice_key("a\x00", [(0, None)]) == b"\x00a\x00\xff\x00\x01\x01\x01\x80\x7f"
    assert inspect_checkpoint.slice_key("\udcff", [(0, 1)]) == b"\x00\xff\x00\x00\x01\x01\x01\x80\x81"
    assert inspect_checkpoint.slice_key("x", [(64, 1000)]) == b"\x00x\x00\x01\x01\x01\xc0\x40\xc3\xe8"
    assert inspect_checkpoint.slice_key("x", [(-65, 8192)]) == b"\x00x\x00\x01\x01\x01\x3f\xbf\xe0\x20\x00"
