"""Variables: initializing, updating and building many, and starting a program, beside numpy and TF.

Run plainly for the table and the issue's targets (TensorFlow's column comes from running this same
file with TensorFlow's interpreter, ``--tensorflow-python``, default ``/opt/tfenv/bin/python``)::

    python bench/benchmarks/bench_variables.py [--quick] [--repeat N] [--stat min|median]

or through asv (``asv run --config bench/asv.conf.json --bench bench_variables``) or ``bench/run.py``,
which run the classes below (parametrized by ``library``; a library without the case raises
NotImplementedError in ``setup``).

- ``InitRandomNormal``: ``global_variables_initializer`` of ``Variable(random_normal([8192, 8192]))``.
  numpy: ``Generator.standard_normal`` of the same size into a preallocated float32 array.
- ``AssignAddFed``: ``sess.run(v.assign_add(x).op, {x: b})`` for 8192x8192 float32 (nothing fetched).
  numpy: ``a += b`` on the same arrays.
- ``ManyVariables``: 2,000 ``get_variable`` calls ([16, 16], glorot) in 100 nested ``variable_scope``s
  (20 per scope, each scope inside the previous); then the first run of their
  ``global_variables_initializer`` in a new session (kernels already compiled, graph prebuilt).
- ``Startup``: wall time of ``python -c "import numflow"`` and of the guide's first examples
  (``GUIDE_FIRST_EXAMPLES``) in a new interpreter, kernels cached. TensorFlow: the same with
  ``import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()``.

TensorFlow runs as ``tensorflow.compat.v1`` in graph mode. ``NUMFLOW_BENCH_QUICK=1`` (``--quick``)
shrinks the arrays to 2048x2048 and the variables to 200.
"""

import json
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0") or (__name__ == "__main__" and "--quick" in sys.argv)
SIDE = 2048 if QUICK else 8192
SCOPES = 10 if QUICK else 100
PER_SCOPE = 20
TF_PYTHON = os.environ.get("NUMFLOW_BENCH_TF_PYTHON", "/opt/tfenv/bin/python")

GUIDE_FIRST_EXAMPLES = """
my_variable = tf.get_variable("my_variable", [1, 2, 3])
my_int_variable = tf.get_variable("my_int_variable", [1, 2, 3], dtype=tf.int32,
  initializer=tf.zeros_initializer)
other_variable = tf.get_variable("other_variable", dtype=tf.int32,
  initializer=tf.constant([23, 42]))
my_local = tf.get_variable("my_local", shape=(), collections=[tf.GraphKeys.LOCAL_VARIABLES])
my_non_trainable = tf.get_variable("my_non_trainable", shape=(), trainable=False)
tf.add_to_collection("my_collection_name", my_local)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    session.run(my_variable.initializer)
    session.run(tf.report_uninitialized_variables())
"""

IMPORTS = {
    "numflow": "import numflow as tf",
    "tensorflow": "import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()",
}


def graph_library(library):
    """The TF-1-style module of ``library``; NotImplementedError for numpy or a library not installed."""
    if library == "numflow":
        if ROOT not in sys.path:
            sys.path.insert(0, ROOT)
        import numflow

        return numflow
    if library == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        try:
            import tensorflow.compat.v1 as tf
        except ImportError:
            raise NotImplementedError("tensorflow is not installed") from None
        tf.logging.set_verbosity(tf.logging.ERROR)
        return tf
    raise NotImplementedError(f"{library} builds no graph")


def _warm_numflow_kernels(tf):
    """Run each kernel these suites use once, on large and small arrays, so none compiles in a timing."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [1 << 17])
        big = tf.Variable(tf.random_normal([1 << 17]))
        small = tf.get_variable("small", [4, 4])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(big.assign_add(x).op, {x: np.ones(1 << 17, np.float32)})
            sess.run(small.assign_add(np.ones((4, 4), np.float32)).op)


class InitRandomNormal:
    """global_variables_initializer of Variable(random_normal([8192, 8192])); numpy: standard_normal."""

    params = [["numflow", "numpy", "tensorflow"]]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 600
    work = {"time_initializer": (SIDE * SIDE, "values")}

    def setup(self, library):
        self.sess = None
        if library == "numpy":
            rng, out = np.random.default_rng(0), np.empty((SIDE, SIDE), np.float32)
            self.run = lambda: rng.standard_normal(out=out, dtype=np.float32)
            self.run()
            return
        tf = graph_library(library)
        if library == "numflow":
            _warm_numflow_kernels(tf)
        graph = tf.Graph()
        with graph.as_default():
            tf.Variable(tf.random_normal([SIDE, SIDE]))
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=graph)
        self.run = lambda: self.sess.run(init)
        self.run()

    def teardown(self, library):
        if self.sess is not None:
            self.sess.close()

    def time_initializer(self, library):
        self.run()


class AssignAddFed:
    """sess.run(v.assign_add(x).op, {x: b}) of 8192x8192 float32; numpy: a += b."""

    params = [["numflow", "numpy", "tensorflow"]]
    param_names = ["library"]
    number = 1
    repeat = 7
    timeout = 600

    def setup(self, library):
        self.sess = None
        rng = np.random.default_rng(0)
        self.a = rng.random((SIDE, SIDE), dtype=np.float32)
        self.b = rng.random((SIDE, SIDE), dtype=np.float32)
        if library == "numpy":
            a, b = self.a, self.b
            self.run = lambda: np.add(a, b, out=a)
            self.run()
            return
        tf = graph_library(library)
        if library == "numflow":
            _warm_numflow_kernels(tf)
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, [SIDE, SIDE])
            v = tf.Variable(x)
            op = v.assign_add(x).op
        self.sess = tf.Session(graph=graph)
        self.sess.run(v.initializer, {x: self.a})
        feed = {x: self.b}
        self.run = lambda: self.sess.run(op, feed)
        self.run()

    def teardown(self, library):
        if self.sess is not None:
            self.sess.close()

    def time_assign_add(self, library):
        self.run()


def build_many_variables(tf, scopes=None, per_scope=PER_SCOPE):
    """``scopes`` (default SCOPES) nested variable scopes with ``per_scope`` get_variable calls each."""
    scopes = SCOPES if scopes is None else scopes
    graph = tf.Graph()
    with graph.as_default():
        stack = []
        for i in range(scopes):
            scope = tf.variable_scope(f"layer{i}")
            scope.__enter__()
            stack.append(scope)
            for j in range(per_scope):
                tf.get_variable(f"w{j}", [16, 16])
        for scope in reversed(stack):
            scope.__exit__(None, None, None)
        init = tf.global_variables_initializer()
    return graph, init


class ManyVariables:
    """2,000 get_variable calls in 100 nested scopes; the first run of their initializer."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 600
    work = {"time_build": (SCOPES * PER_SCOPE, "variables"), "time_first_init_run": (SCOPES * PER_SCOPE, "variables")}

    def setup(self, library):
        self.tf = tf = graph_library(library)
        if library == "numflow":
            _warm_numflow_kernels(tf)
        graph, init = build_many_variables(tf, 2, 2)  # everything the timed calls use, once
        with tf.Session(graph=graph) as sess:
            sess.run(init)
        # A first run needs a graph no session has run yet: one prebuilt graph per timed call.
        self.graphs = [build_many_variables(tf) for _ in range(self.repeat + 2)]
        self.sessions = []

    def teardown(self, library):
        for sess in self.sessions:
            sess.close()

    def time_build(self, library):
        build_many_variables(self.tf)

    def time_first_init_run(self, library):
        graph, init = self.graphs.pop()
        sess = self.tf.Session(graph=graph)
        self.sessions.append(sess)
        sess.run(init)


def _wall_of(code, python=sys.executable):
    start = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, cwd=ROOT, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


class Startup:
    """A new interpreter: ``import numflow``, and importing it then running the guide's first examples."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 600

    def setup(self, library):
        graph_library(library)  # NotImplementedError when not installed here
        self.code = IMPORTS[library]
        _wall_of(self.code + "\n" + GUIDE_FIRST_EXAMPLES)  # kernels compiled and cached, files in the OS cache

    def time_import(self, library):
        _wall_of(self.code)

    def time_import_and_guide_first_examples(self, library):
        _wall_of(self.code + "\n" + GUIDE_FIRST_EXAMPLES)


def summarize(results):
    """The issue's targets, from ``results[(suite, method, params, library)] = seconds per call``."""
    def get(suite, method, library):
        return results.get((suite, method, (), library))

    lines = []
    init, tf_init = get("InitRandomNormal", "time_initializer", "numflow"), get("InitRandomNormal",
                                                                                "time_initializer", "tensorflow")
    if init:
        ratio = f", {tf_init / init:.2f}x TensorFlow's throughput ({tf_init:.3f} s)" if tf_init else ""
        lines.append(f"(a) initializer of Variable(random_normal([{SIDE}, {SIDE}])): {init:.3f} s{ratio} "
                     "(target >= 2x)")
    add, np_add = get("AssignAddFed", "time_assign_add", "numflow"), get("AssignAddFed", "time_assign_add", "numpy")
    if add and np_add:
        tf_add = get("AssignAddFed", "time_assign_add", "tensorflow")
        tf_text = f"; TensorFlow {tf_add * 1e3:.1f} ms" if tf_add else ""
        lines.append(f"(b) assign_add of a fed {SIDE}x{SIDE} float32: {add * 1e3:.1f} ms = {add / np_add:.2f}x numpy's "
                     f"a += b ({np_add * 1e3:.1f} ms) (target <= 1.15x){tf_text}")
    n = SCOPES * PER_SCOPE
    for method, target, what in (("time_build", 0.25, f"building {n} get_variable calls in {SCOPES} nested scopes"),
                                 ("time_first_init_run", 0.5, "first run of their initializer")):
        ours, theirs = get("ManyVariables", method, "numflow"), get("ManyVariables", method, "tensorflow")
        if ours:
            tf_text = f" (TensorFlow {theirs:.2f} s)" if theirs else ""
            lines.append(f"(c) {what}: {ours:.3f} s (target <= {target} s){tf_text}")
    for method, what in (("time_import", "import numflow"),
                         ("time_import_and_guide_first_examples", "import + the guide's first examples")):
        ours, theirs = get("Startup", method, "numflow"), get("Startup", method, "tensorflow")
        if ours:
            tf_text = f" (TensorFlow {theirs:.2f} s)" if theirs else ""
            target = " (target <= 1 s)" if "guide" in what else ""
            lines.append(f"(d) {what}, new interpreter: {ours:.2f} s{target}{tf_text}")
    return lines


def _run_here(libraries, args, only=None, module=None):
    """Results and table rows of every suite (or of suite ``only``) of ``module`` (this one by default) for
    ``libraries``, in this process."""
    sys.path.insert(0, os.path.dirname(HERE))
    import run as runner

    module = module or sys.modules[__name__]
    results, rows = {}, {}
    for name, cls, methods in runner._suites(module):
        chosen = [m for m in methods if re.search(args.filter, f"{name}.{m}")]
        if not chosen or only not in (None, name):
            continue
        names, params = runner._params(cls)
        sub = type(name, (cls,), {"params": [[lib for lib in params[0] if lib in libraries]]})
        sub.__module__ = cls.__module__
        print(f"running {name} {libraries} ...", file=sys.stderr, flush=True)
        runner.run_suite(module, name, sub, chosen, args, results, rows)
    return results, rows, runner


def _run_tensorflow(args, suite, results, rows, runner, script=__file__, module_name=__name__):
    """Run ``suite`` under TensorFlow's interpreter (``script``, this file by default, with --json-for) and add
    its results."""
    command = [args.tensorflow_python, os.path.abspath(script), "--json-for", "tensorflow", "--suite", suite,
               "--stat", args.stat, "--filter", args.filter] + (["--quick"] if args.quick else [])
    print(f"running {suite} ['tensorflow'] ...", file=sys.stderr, flush=True)
    out = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    if out.returncode:
        print(out.stderr[-2000:], file=sys.stderr)
        return
    for (name, method), others, library, seconds in json.loads(out.stdout.strip().splitlines()[-1]):
        others = tuple(tuple(o) for o in others)
        results[(name, method, others, library)] = seconds
        rows.setdefault((module_name, name, method, others), {})[library] = runner._format_time(seconds)


def main(argv=None, module=None, suites=("InitRandomNormal", "AssignAddFed", "ManyVariables", "Startup")):
    """Run ``suites`` of ``module`` (this one by default): numflow and numpy here, TensorFlow under its own
    interpreter right after each suite; print the table and ``module.summarize``'s lines."""
    import argparse

    module = module or sys.modules[__name__]
    parser = argparse.ArgumentParser(description=module.__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller arrays, 3 samples")
    parser.add_argument("--repeat", type=int, default=5, help="samples per case (suites set their own)")
    parser.add_argument("--stat", choices=["median", "min"], default="min",
                        help="statistic of the samples (min by default: the machine is shared)")
    parser.add_argument("--filter", default="", help="regex searched in 'Suite.time_method'")
    parser.add_argument("--tensorflow-python", default=TF_PYTHON, help="interpreter with TensorFlow, or ''")
    parser.add_argument("--json-for", help=argparse.SUPPRESS)  # child mode: print one library's results
    parser.add_argument("--suite", help=argparse.SUPPRESS)  # child mode: only this suite
    args = parser.parse_args(argv)
    args.sample = 0.005 if args.quick else 0.02
    if args.quick:
        os.environ["NUMFLOW_BENCH_QUICK"] = "1"  # (modules read --quick when they were imported)
    if args.json_for:
        results, _, _ = _run_here([args.json_for], args, args.suite, module)
        print(json.dumps([[list(k[:2]), list(map(list, k[2])), k[3], v] for k, v in results.items()]))
        return
    # Suite by suite, TensorFlow right after numflow and numpy: on a shared machine the load
    # changes over minutes, and each row should compare the libraries under the same one.
    with_tf = bool(args.tensorflow_python) and os.path.exists(args.tensorflow_python)
    results, rows, runner = {}, {}, None
    for suite in suites:
        suite_results, suite_rows, runner = _run_here(["numflow", "numpy"], args, suite, module)
        results.update(suite_results)
        rows.update(suite_rows)
        if with_tf and any(re.search(args.filter, f"{suite}.{m}") for m in dir(getattr(module, suite))
                           if m.startswith("time_")):
            _run_tensorflow(args, suite, results, rows, runner, module.__file__, module.__name__)
    print(f"{args.stat} over the samples; {runner._versions()}" + ("; --quick" if args.quick else ""))
    runner.print_table(rows)
    print()
    for line in getattr(module, "summarize", lambda results: [])(results):
        print(line)


if __name__ == "__main__":
    main()
