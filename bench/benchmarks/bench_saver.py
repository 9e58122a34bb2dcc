"""Saver.save and Saver.restore of 16 float32 variables of 4096 x 4096 (1 GiB) through a Session: numflow, TensorFlow.

asv runs the ``SaverSave`` and ``SaverRestore`` suites (``asv run --bench bench_saver``), parametrized
by library; TensorFlow's cases are skipped where it is not importable. Run plainly, the file prints
one table, every number measured in fresh processes, the libraries taking turns round by round
(a shared machine's load changes from minute to minute)::

    python bench/benchmarks/bench_saver.py [--rounds 2] [--repeat 3] [--dir /path/on/the/disk/to/test]
        [--tf-python /opt/tfenv/bin/python]

The TensorFlow column runs ``tf.compat.v1.train.Saver`` (ref variables, ``write_meta_graph=False``
as numflow writes no ``.meta``) with this interpreter if it imports tensorflow, else with
``--tf-python`` (default: ``$NUMFLOW_BENCH_TF_PYTHON`` or ``/opt/tfenv/bin/python`` when present).

Rows (targets from issue 5, on a 2-core machine: save <= 0.5 s, restore <= 0.4 s, peak memory at
most 10% above the variables' own 1 GiB):

- ``save``: ``saver.save(sess, prefix, global_step=i)``, the previous checkpoint's files removed
  before the timing; the bytes land in the page cache.
- ``save, max_to_keep=1``: the Saver itself deletes the previous checkpoint after writing the new
  one, as in a training loop: 2 GiB of dirty pages meet, and the deletion waits for pages the
  kernel is writing back.
- ``save + fsync``: ``save``, then ``fsync`` of the files: until the bytes are on the disk.
- ``restore``: into the initialized variables of the session, the checkpoint in the page cache
  (warm: a job restoring what it just wrote).
- ``restore, new session``: into a new session's uninitialized variables, as a job starting up.
- ``restore, cold``: the checkpoint's pages dropped from the page cache first (``fsync`` then
  ``posix_fadvise(DONTNEED)`` on its files only), so the bytes come from the disk.
- ``peak``: what one call adds to the process's RSS at its high-water mark: VmHWM (reset through
  ``/proc/self/clear_refs`` just before the call, where the kernel allows it) minus VmRSS just
  before the call, less the variables' own size where the call allocates them (a new session's
  restore); in MiB and as a share of the variables' size. Save and restore are measured after a
  warm-up call, so one-time costs (loading kernels, thread pools) are not counted; the new
  session's restore is the process's first (TF's allocator would keep a warm-up session's memory
  and hand it back to the measured one).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

N_VARIABLES = 16
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK") == "1"
SHAPE = (256, 256) if QUICK else (4096, 4096)
VARIABLE_BYTES = N_VARIABLES * SHAPE[0] * SHAPE[1] * 4
NAMES = [f"layer{i:02d}/kernel" for i in range(N_VARIABLES)]
LIBRARIES = ["numflow", "tensorflow"]
TARGETS = {"save": 0.5, "restore": 0.4, "peak": 0.10}
HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def _status(field):
    """This process's ``VmRSS``/``VmHWM`` in bytes (Linux), else ru_maxrss for both."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)


def _reset_peak():
    """Reset VmHWM to the current RSS (Linux >= 4.0); False where not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _checkpoint_files(prefix):
    directory = os.path.dirname(prefix) or "."
    base = os.path.basename(prefix) + "."
    return [os.path.join(directory, name) for name in os.listdir(directory) if name.startswith(base)]


def _sync(prefix):
    for path in _checkpoint_files(prefix):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _drop_from_page_cache(prefix):
    """Write the checkpoint's pages out, then ask the kernel to forget them (only these files)."""
    _sync(prefix)
    for path in _checkpoint_files(prefix):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def write_checkpoint(prefix):
    """The benchmark's checkpoint, written with numflow's Saver (the bytes TF's Saver writes)."""
    lib = _Numflow()
    lib.build()
    with lib.session() as sess:
        lib.initialize(sess)
        return lib.save(sess, prefix, None)


# ---------------------------------------------------------------------------------------------------
# the two libraries behind one small interface


class _Numflow:
    name = "numflow"

    def __init__(self):
        if ROOT not in sys.path:
            sys.path.insert(0, ROOT)
        import numflow

        self.tf = numflow

    def build(self):
        tf = self.tf
        tf.reset_default_graph()
        self.graph = tf.get_default_graph()
        self.variables = [tf.get_variable(name, shape=SHAPE, initializer=tf.constant_initializer(i + 1.0))
                          for i, name in enumerate(NAMES)]
        self.savers = {keep: tf.train.Saver(max_to_keep=keep) for keep in (None, 1)}

    def session(self):
        return self.tf.Session(graph=self.graph)

    def initialize(self, sess):
        for var in self.variables:  # one at a time: no more than one variable's temporary at once
            sess.run(var.initializer)

    def save(self, sess, prefix, step, max_to_keep=None):
        return self.savers[max_to_keep].save(sess, prefix, global_step=step)

    def restore(self, sess, prefix):
        self.savers[None].restore(sess, prefix)


class _TensorFlow:
    name = "tensorflow"

    def __init__(self):
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        try:
            import tensorflow
        except ImportError:
            raise NotImplementedError("tensorflow is not installed") from None
        self.tf = tensorflow
        self.v1 = tensorflow.compat.v1

    def build(self):
        v1 = self.v1
        self.graph = self.tf.Graph()
        with self.graph.as_default():
            self.variables = [v1.get_variable(name, shape=SHAPE, initializer=v1.constant_initializer(i + 1.0),
                                              use_resource=False) for i, name in enumerate(NAMES)]
            self.savers = {keep: v1.train.Saver(max_to_keep=keep) for keep in (None, 1)}

    def session(self):
        return self.v1.Session(graph=self.graph)

    def initialize(self, sess):
        for var in self.variables:
            sess.run(var.initializer)

    def save(self, sess, prefix, step, max_to_keep=None):
        return self.savers[max_to_keep].save(sess, prefix, global_step=step, write_meta_graph=False)

    def restore(self, sess, prefix):
        self.savers[None].restore(sess, prefix)


def _library(name):
    return {"numflow": _Numflow, "tensorflow": _TensorFlow}[name]()


# ---------------------------------------------------------------------------------------------------
# asv suites


class SaverSave:
    """asv: Saver.save of the variables of an initialized session."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 900

    def setup(self, library):
        self.lib = _library(library)
        self.lib.build()
        self.sess = self.lib.session()
        self.lib.initialize(self.sess)
        self.dir = tempfile.mkdtemp(dir=os.environ.get("NUMFLOW_BENCH_DIR"))
        self.step = 0

    def teardown(self, library):
        self.sess.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _save(self):
        self.step += 1
        self.lib.save(self.sess, os.path.join(self.dir, "model"), self.step, max_to_keep=1)

    def time_save(self, library):
        self._save()

    def peakmem_save(self, library):
        self._save()


class SaverRestore:
    """asv: Saver.restore into the initialized variables of a session (checkpoint in the page cache)."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 900

    def setup(self, library):
        self.lib = _library(library)
        self.dir = tempfile.mkdtemp(dir=os.environ.get("NUMFLOW_BENCH_DIR"))
        self.prefix = write_checkpoint(os.path.join(self.dir, "model"))
        self.lib.build()
        self.sess = self.lib.session()
        self.lib.initialize(self.sess)

    def teardown(self, library):
        self.sess.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def time_restore(self, library):
        self.lib.restore(self.sess, self.prefix)

    def peakmem_restore(self, library):
        self.lib.restore(self.sess, self.prefix)


# ---------------------------------------------------------------------------------------------------
# plain runner: one child process per library and measurement


def _remove(prefix):
    for path in _checkpoint_files(prefix):
        os.remove(path)


def _timed(fn, before=None, count=None, repeat=None):
    times = []
    for _ in range(count or repeat):
        if before:
            before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def _child_times(library, directory, repeat, checkpoint):
    lib = _library(library)
    lib.build()
    out = {}
    prefix = os.path.join(directory, "model")
    written = []
    with lib.session() as sess:
        lib.initialize(sess)
        lib.restore(sess, checkpoint)  # warm-up, and the checkpoint into the page cache
        out["restore"] = _timed(lambda: lib.restore(sess, checkpoint), repeat=repeat)
        out["restore, cold"] = _timed(lambda: lib.restore(sess, checkpoint),
                                      lambda: _drop_from_page_cache(checkpoint), count=2)
        lib.restore(sess, checkpoint)
        _remove(lib.save(sess, prefix, 0))  # warm-up: first-call costs are not what is measured

        def save(max_to_keep=None, sync=False):
            written.append(lib.save(sess, prefix, len(written) + 1, max_to_keep))
            if sync:
                _sync(written[-1])

        def forget():
            for old in written:
                if os.path.exists(old + ".index"):
                    _remove(old)

        out["save"] = _timed(save, forget, repeat=repeat)
        forget()
        out["save, max_to_keep=1"] = _timed(lambda: save(1), repeat=repeat)
        forget()
        out["save + fsync"] = _timed(lambda: save(sync=True), forget, count=2)
        forget()
    times = []
    for _ in range(repeat):
        with lib.session() as sess:
            start = time.perf_counter()
            lib.restore(sess, checkpoint)
            times.append(time.perf_counter() - start)
    out["restore, new session"] = times
    return out


def _child_peak(library, case, directory, checkpoint):
    """One measured call after a warm-up call: RSS just before it, VmHWM during it."""
    lib = _library(library)
    lib.build()
    if case == "restore, new session":
        # No warm-up: TF's allocator keeps a closed session's memory, which a second restore reuses.
        with lib.session() as sess:
            reset, before = _reset_peak(), _status("VmRSS")
            lib.restore(sess, checkpoint)
            peak = _status("VmHWM")
        return {"before": before, "peak": peak, "reset": reset, "allocates_variables": True}
    with lib.session() as sess:
        lib.initialize(sess)
        if case == "save":
            warm = lib.save(sess, os.path.join(directory, "warm"), None)
            for path in _checkpoint_files(warm):
                os.remove(path)
            reset, before = _reset_peak(), _status("VmRSS")
            lib.save(sess, os.path.join(directory, "model"), 1)
        else:
            lib.restore(sess, checkpoint)
            reset, before = _reset_peak(), _status("VmRSS")
            lib.restore(sess, checkpoint)
        peak = _status("VmHWM")
    return {"before": before, "peak": peak, "reset": reset, "allocates_variables": False}


def _tf_python(explicit):
    try:
        import importlib.util

        if importlib.util.find_spec("tensorflow") is not None:
            return sys.executable
    except (ImportError, ValueError):
        pass
    for candidate in (explicit, os.environ.get("NUMFLOW_BENCH_TF_PYTHON"), "/opt/tfenv/bin/python"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def _run_child(python, args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([python, HERE, *args], capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


TIME_ROWS = ["save", "save, max_to_keep=1", "save + fsync", "restore", "restore, new session", "restore, cold"]
PEAK_ROWS = ["save", "restore", "restore, new session"]


def _measure(pythons, rounds, repeat, directory, checkpoint):
    """Times from ``rounds`` rounds in which the libraries take turns (the machine's load changes), then peaks."""
    times = {lib: {} for lib in pythons}
    peaks = {lib: {} for lib in pythons}
    work = tempfile.mkdtemp(dir=directory)
    try:
        for _ in range(rounds):
            for library, python in pythons.items():
                got = _run_child(python, ["--child", "times", library, "--dir", work, "--repeat", str(repeat),
                                          "--checkpoint", checkpoint])
                for row, values in got.items():
                    times[library].setdefault(row, []).extend(values)
        for library, python in pythons.items():
            for case in PEAK_ROWS:
                peaks[library][case] = _run_child(python, ["--child", "peak", library, "--case", case, "--dir",
                                                           work, "--checkpoint", checkpoint])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {lib: (times[lib], peaks[lib]) for lib in pythons}


def _time_cell(values, target=None):
    cell = f"{min(values):6.3f}/{statistics.median(values):6.3f}"
    if target is not None:
        cell += " ok " if min(values) <= target else " MISS"
    return cell


def _peak_cell(peak, judge):
    above = peak["peak"] - peak["before"] - (VARIABLE_BYTES if peak["allocates_variables"] else 0)
    cell = f"{above / 2**20:+6.0f} MiB {above / VARIABLE_BYTES:+6.1%}"
    if judge:
        cell += " ok " if above <= TARGETS["peak"] * VARIABLE_BYTES else " MISS"
    return cell if peak["reset"] else cell + " (HWM not reset)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="calls per row in each round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds in which the libraries take turns")
    parser.add_argument("--dir", default=os.environ.get("NUMFLOW_BENCH_DIR"))
    parser.add_argument("--tf-python", default=None, help="an interpreter that imports tensorflow")
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "LIBRARY"), help=argparse.SUPPRESS)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--checkpoint", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        what, library = args.child
        if what == "times":
            result = _child_times(library, args.dir, args.repeat, args.checkpoint)
        else:
            result = _child_peak(library, args.case, args.dir, args.checkpoint)
        print(json.dumps(result))
        return
    pythons = {"numflow": sys.executable, "tensorflow": _tf_python(args.tf_python)}
    work = tempfile.mkdtemp(dir=args.dir)
    try:
        checkpoint = write_checkpoint(os.path.join(work, "ckpt", "model"))
        _sync(checkpoint)  # no writeback of it while restores are timed; its pages stay cached
        available = {lib: python for lib, python in pythons.items() if python}
        results = _measure(available, args.rounds, args.repeat, work, checkpoint)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    gib = VARIABLE_BYTES / 2**30
    print(f"Saver.save / Saver.restore of {N_VARIABLES} float32 variables of {SHAPE[0]}x{SHAPE[1]} "
          f"({gib:.2g} GiB) through a Session; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}; seconds "
          f"min/median of {args.rounds} rounds x {args.repeat} (fsync and cold rows: x 2); the libraries take "
          f"turns, each in its own processes")
    columns = [lib for lib in LIBRARIES if lib in results]
    header = f"{'':22s}" + "".join(f"{lib:>30s}" for lib in columns) + f"{'target':>10s}"
    print(header)
    print("-" * len(header))
    for row in TIME_ROWS:
        target = TARGETS["save"] if row == "save" else TARGETS["restore"] if row.startswith("restore") else None
        cells = [_time_cell(results[lib][0][row], target if lib == "numflow" else None) for lib in columns]
        print(f"{row:22s}" + "".join(f"{c:>30s}" for c in cells) + (f"{'<= ' + str(target) + ' s':>10s}"
                                                                      if target else ""))
    for row in PEAK_ROWS:
        cells = [_peak_cell(results[lib][1][row], lib == "numflow") for lib in columns]
        print(f"{'peak ' + row:22s}" + "".join(f"{c:>30s}" for c in cells) + f"{'<= +10%':>10s}")
    if pythons["tensorflow"] is None:
        print("tensorflow: not importable here and no --tf-python given")
    elif "tensorflow" in results:
        print(f"tensorflow ran with {pythons['tensorflow']}")
    print("peak = VmHWM during a call made after a warm-up call, minus VmRSS just before it (and minus the "
          f"variables' own {VARIABLE_BYTES / 2**20:.0f} MiB where the call allocates them), as a share of them")


if __name__ == "__main__":
    main()
