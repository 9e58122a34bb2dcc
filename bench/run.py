"""Run every benchmark suite of bench/benchmarks without asv and print one table.

    python bench/run.py [--quick] [--filter REGEX] [--repeat N]

The suites follow asv's conventions (classes with ``setup``/``teardown``, ``time_*`` methods,
``track_*`` methods returning a value to report, ``params``/``param_names``, optional
``number``/``repeat``). A suite parametrized by ``library``
gets one column per library (numflow, numpy, tensorflow), so every row compares them measured in
this one process; a ``setup`` raising NotImplementedError (a library not installed, or a case
it has no counterpart for) leaves its cell empty. Each cell is the median time per call over
``repeat`` samples of ``number`` calls (calibrated to about 20 ms per sample when the suite does
not set it), with Python's garbage collector left on, as in a user's program. On a machine busy
with other work, ``--stat min`` reports the fastest sample instead: what the code does when it
gets the cores. ``peakmem_*``
benchmarks are for asv only. A module may define ``summarize(results)`` returning lines, printed
after the table: bench_session.py prints the engine's targets.

TensorFlow is used only where it is importable: run the same command with the interpreter of an
environment that has it (``/path/to/tf-env/bin/python bench/run.py``) to fill its column; numflow
is imported from this checkout when it is not installed.

``--quick`` (tox -e bench, CI) sets ``NUMFLOW_BENCH_QUICK=1`` (suites shrink their arrays) and takes
3 samples of about 5 ms.
"""

import argparse
import gc
import importlib
import importlib.metadata
import itertools
import os
import platform
import re
import statistics
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCHMARKS = os.path.join(HERE, "benchmarks")
LIBRARY_ORDER = ["numflow", "numpy", "tensorflow"]
STATS = {"median": statistics.median, "min": min}


def _suites(module):
    """``(name, class, methods)`` of each suite of ``module``; as asv, leading underscores mark helpers
    (a base class holding shared ``time_`` methods), not suites."""
    for name, cls in sorted(vars(module).items()):
        if isinstance(cls, type) and cls.__module__ == module.__name__ and not name.startswith("_"):
            methods = sorted(m for m in dir(cls) if m.startswith(("time_", "track_")) and callable(getattr(cls, m)))
            if methods:
                yield name, cls, methods


def _params(cls):
    params = getattr(cls, "params", None) or []
    if params and not isinstance(params[0], list | tuple):
        params = [params]
    names = list(getattr(cls, "param_names", None) or [f"param{i + 1}" for i in range(len(params))])
    return names, [list(p) for p in params]


def _repeat(cls, given, quick):
    """Samples per case: ``--repeat`` when given, else the suite's ``repeat``, else 7; at most 3 with --quick."""
    repeat = getattr(cls, "repeat", 0)
    if isinstance(repeat, tuple | list):
        repeat = repeat[1] if len(repeat) > 1 else repeat[0]
    repeat = given or repeat or 7
    return min(repeat, 3) if quick else repeat


def _measure(fn, number, repeat, sample_s, stat=statistics.median):
    """Seconds per call of ``fn``: ``stat`` (median) of ``repeat`` samples of ``number`` calls."""
    if not number:
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        number = max(1, min(1_000_000, int(sample_s / max(once, 1e-7))))
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return stat(samples)


def _format_time(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def run_suite(module, name, cls, methods, args, results, rows):
    """Run every parameter combination of one suite; record medians in ``results`` and ``rows``."""
    names, params = _params(cls)
    lib_axis = names.index("library") if "library" in names else None
    for combo in itertools.product(*params) if params else [()]:
        library = combo[lib_axis] if lib_axis is not None else "value"
        others = tuple((n, v) for i, (n, v) in enumerate(zip(names, combo)) if i != lib_axis)
        suite = cls()
        try:
            if hasattr(suite, "setup"):
                suite.setup(*combo)
        except NotImplementedError:
            continue
        except Exception as e:  # noqa: BLE001 - one broken case must not hide the others
            for method in methods:
                rows.setdefault((module.__name__, name, method, others), {})[library] = f"error: {e}"
            traceback.print_exc(file=sys.stderr)
            continue
        try:
            for method in methods:
                fn = getattr(suite, method)
                if method.startswith("track_"):  # asv's track_: the method returns the value to report
                    try:
                        value = fn(*combo)
                    except NotImplementedError:
                        continue
                    results[(name, method, others, library)] = value
                    unit = getattr(fn, "unit", "")
                    rows.setdefault((module.__name__, name, method, others), {})[library] = f"{value:.3g}{unit}"
                    continue
                try:
                    seconds = _measure(lambda fn=fn, combo=combo: fn(*combo), getattr(cls, "number", 0),
                                       _repeat(cls, args.repeat, args.quick), args.sample, STATS[args.stat])
                except NotImplementedError:
                    continue
                except Exception as e:  # noqa: BLE001
                    rows.setdefault((module.__name__, name, method, others), {})[library] = f"error: {e}"
                    traceback.print_exc(file=sys.stderr)
                    continue
                results[(name, method, others, library)] = seconds
                cell = _format_time(seconds)
                work = getattr(cls, "work", {}).get(method)
                if work:
                    cell += f" ({work[0] / seconds:,.0f} {work[1]}/s)"
                rows.setdefault((module.__name__, name, method, others), {})[library] = cell
        finally:
            if hasattr(suite, "teardown"):
                suite.teardown(*combo)
            del suite
            gc.collect()


def _versions():
    parts = [f"python {platform.python_version()}", f"{os.cpu_count()} CPUs"]
    for lib in ("numflow", "numpy", "numba", "tensorflow"):
        if lib in sys.modules:
            version = getattr(sys.modules[lib], "__version__", None)
            if version is None:
                try:
                    version = importlib.metadata.version(lib)
                except importlib.metadata.PackageNotFoundError:
                    version = "(checkout)"
            parts.append(f"{lib} {version}")
    if hasattr(os, "getloadavg"):
        parts.append(f"load {os.getloadavg()[0]:.1f}")
    return ", ".join(parts)


def print_table(rows):
    libraries = [lib for lib in LIBRARY_ORDER if any(lib in cells for cells in rows.values())]
    libraries += sorted({lib for cells in rows.values() for lib in cells} - set(libraries))
    labels = {}
    for module, suite, method, others in rows:
        extra = ", ".join(f"{n}={v}" for n, v in others)
        short = method.split("_", 1)[1]
        labels[(module, suite, method, others)] = f"{suite}.{short}" + (f" [{extra}]" if extra else "")
    width = max([len(label) for label in labels.values()] + [9])
    cols = {lib: max([len(lib)] + [len(cells.get(lib, "")) for cells in rows.values()]) for lib in libraries}
    header = f"{'benchmark':{width}s}  " + "  ".join(f"{lib:>{cols[lib]}s}" for lib in libraries)
    print(header)
    print("-" * len(header))
    module = None
    for key in rows:
        if key[0] != module:
            module = key[0]
            print(f"{module}:")
        cells = rows[key]
        print(f"{labels[key]:{width}s}  " + "  ".join(f"{cells.get(lib, '-'):>{cols[lib]}s}" for lib in libraries))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small arrays, few short samples (CI)")
    parser.add_argument("--filter", default="", help="regex on 'module.Suite.method'")
    parser.add_argument("--repeat", type=int, help="samples per case (default: the suite's, else 7; --quick: 3)")
    parser.add_argument("--stat", choices=sorted(STATS), default="median",
                        help="statistic of the samples (median, as asv; min on a machine shared with other work)")
    args = parser.parse_args(argv)
    args.sample = 0.005 if args.quick else 0.02
    if args.quick:
        os.environ["NUMFLOW_BENCH_QUICK"] = "1"
    for path in (ROOT, BENCHMARKS):
        if path not in sys.path:
            sys.path.insert(0, path)
    pattern = re.compile(args.filter)
    results, rows, summaries = {}, {}, []
    for filename in sorted(os.listdir(BENCHMARKS)):
        if not (filename.startswith("bench_") and filename.endswith(".py")):
            continue
        name = filename[:-3]
        try:
            module = importlib.import_module(name)
        except Exception as e:  # noqa: BLE001
            print(f"skipping {name}: cannot import it ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        module_results = {}
        for suite_name, cls, methods in _suites(module):
            chosen = [m for m in methods if pattern.search(f"{name}.{suite_name}.{m}")]
            if chosen:
                print(f"running {name}.{suite_name} ...", file=sys.stderr, flush=True)
                run_suite(module, suite_name, cls, chosen, args, module_results, rows)
        results.update(module_results)
        if module_results and hasattr(module, "summarize"):
            summaries += module.summarize(module_results)
    samples = "3" if args.quick else str(args.repeat) if args.repeat else "7 (or the suite's repeat)"
    print(f"{args.stat} time per call over {samples} samples; {_versions()}" + ("; --quick" if args.quick else ""))
    print_table(rows)
    if summaries:
        print()
        for line in summaries:
            print(line)


if __name__ == "__main__":
    main()
