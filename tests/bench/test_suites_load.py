"""Every benchmark module loads as ``bench/run.py`` loads it (a top-level module beside the others) and
holds at least one suite, so a broken import shows here rather than in a benchmark run."""

import importlib
import pathlib
import sys

import pytest

BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "bench" / "benchmarks"
MODULES = sorted(p.stem for p in BENCHMARKS.glob("bench_*.py"))


@pytest.fixture(scope="module", autouse=True)
def benchmarks_on_path():
    sys.path.insert(0, str(BENCHMARKS))
    yield
    sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize("name", MODULES)
def test_benchmark_module_loads_with_suites(name):
    module = importlib.import_module(name)
    suites = [cls for cls in vars(module).values()
              if isinstance(cls, type) and cls.__module__ == name
              and any(m.startswith(("time_", "track_")) for m in dir(cls))]
    assert suites, f"{name} defines no benchmark suite"
