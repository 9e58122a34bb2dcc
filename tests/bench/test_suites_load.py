"""Every benchmark module loads as ``bench/run.py`` loads it (a top-level module beside the others) and
holds at least one suite, so a broken import shows here rather than in a benchmark run."""

import importlib
import importlib.util
import pathlib
import sys

import pytest

BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "bench" / "benchmarks"
MODULES = sorted(p.stem for p in BENCHMARKS.glob("bench_*.py"))


@pytest.fixture(scope="module")
def runner():
    """bench/run.py as a module, with the benchmarks importable as it imports them."""
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("bench_runner", BENCHMARKS.parent / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize("name", MODULES)
def test_benchmark_module_loads_with_suites(runner, name):
    module = importlib.import_module(name)
    suites = list(runner._suites(module))
    assert suites, f"{name} defines no benchmark suite"


def test_a_base_class_named_with_an_underscore_is_no_suite(runner):
    names = [name for name, _, _ in runner._suites(importlib.import_module("bench_cnn"))]
    assert "_TrainStep" not in names and {"DeepMnistStep", "LayersCnnStep"} <= set(names)
