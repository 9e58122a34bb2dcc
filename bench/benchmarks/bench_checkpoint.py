"""Saving and restoring a 1 GiB checkpoint (16 float32 arrays of 4096 x 4096): numflow, numpy, TensorFlow.

asv runs the ``Save`` and ``Restore`` suites (``asv run --bench bench_checkpoint``), parametrized by
library; a library that is not installed is skipped. Run plainly, the file prints one table::

    python bench/benchmarks/bench_checkpoint.py [--repeat 5] [--dir /path/on/the/disk/to/test]

- numflow: ``BundleWriter`` (crc32c over each array's own buffer while a helper thread writes it;
  temporary names renamed into place) and ``BundleReader.get_tensor(name, out=...)`` into newly
  allocated arrays, every crc checked.
- numpy: ``np.save`` of the 16 arrays into one file and ``np.load`` back (no checksums): the floor.
- tensorflow: ``tf.raw_ops.SaveV2`` / ``RestoreV2`` + ``.numpy()``, only where TF is importable.

Restores read files that were just written, so from the page cache, as a training job restoring its
last checkpoint usually does. Peak memory is the process's maximum RSS, measured in a fresh process
per case; "extra" is what the case needed beyond the RSS before the arrays existed and the 1 GiB of
arrays themselves.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

N_ARRAYS = 16
SHAPE = (4096, 4096)
TOTAL_BYTES = N_ARRAYS * SHAPE[0] * SHAPE[1] * 4
NAMES = [f"layer{i:02d}/kernel" for i in range(N_ARRAYS)]
LIBRARIES = ["numflow", "numpy", "tensorflow"]


def make_array(i):
    """One 64 MiB array with distinct contents (cheap to build: no random generator)."""
    arr = np.arange(SHAPE[0] * SHAPE[1], dtype=np.float32).reshape(SHAPE)
    arr *= np.float32(1.0 / (i + 1))
    return arr


def _tensorflow():
    try:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf
    except ImportError:
        return None
    return tf


class _Numflow:
    def __init__(self):
        from numflow.checkpoint.bundle import BundleReader, BundleWriter

        self.reader, self.writer = BundleReader, BundleWriter

    def save(self, prefix, arrays):
        with self.writer(prefix) as writer:
            for name, arr in zip(NAMES, arrays, strict=True):
                writer.add(name, arr)

    def save_streaming(self, prefix):
        with self.writer(prefix) as writer:
            for i, name in enumerate(NAMES):
                writer.add(name, make_array(i))

    def restore(self, prefix):
        with self.reader(prefix) as reader:
            return [reader.get_tensor(name, out=np.empty(SHAPE, np.float32)) for name in NAMES]


class _Numpy:
    def save(self, prefix, arrays):
        with open(prefix + ".npy", "wb") as f:
            for arr in arrays:
                np.save(f, arr)

    def save_streaming(self, prefix):
        with open(prefix + ".npy", "wb") as f:
            for i in range(N_ARRAYS):
                np.save(f, make_array(i))

    def restore(self, prefix):
        with open(prefix + ".npy", "rb") as f:
            return [np.load(f) for _ in NAMES]


class _TensorFlow:
    def __init__(self):
        self.tf = _tensorflow()
        if self.tf is None:
            raise NotImplementedError("tensorflow is not installed")
        self.tensors = None

    def prepare(self, arrays):
        self.tensors = [self.tf.constant(arr) for arr in arrays]

    def save(self, prefix, arrays):
        if self.tensors is None:
            self.prepare(arrays)
        self.tf.raw_ops.SaveV2(prefix=prefix, tensor_names=NAMES, shape_and_slices=[""] * N_ARRAYS,
                               tensors=self.tensors)

    def save_streaming(self, prefix):
        _Numflow().save_streaming(prefix)  # the same bytes TF writes (tests/checkpoint checks that)

    def restore(self, prefix):
        tensors = self.tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=NAMES, shape_and_slices=[""] * N_ARRAYS,
                                            dtypes=[self.tf.float32] * N_ARRAYS)
        return [t.numpy() for t in tensors]


def _library(name):
    return {"numflow": _Numflow, "numpy": _Numpy, "tensorflow": _TensorFlow}[name]()


class Save:
    """asv: save 1 GiB from arrays already in memory."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 600

    def setup(self, library):
        self.lib = _library(library)
        self.dir = tempfile.mkdtemp(dir=os.environ.get("NUMFLOW_BENCH_DIR"))
        self.arrays = [make_array(i) for i in range(N_ARRAYS)]
        if library == "tensorflow":
            self.lib.prepare(self.arrays)
        self.count = 0

    def teardown(self, library):
        shutil.rmtree(self.dir, ignore_errors=True)

    def _prefix(self):
        self.count += 1
        return os.path.join(self.dir, f"model-{self.count}")

    def time_save(self, library):
        self.lib.save(self._prefix(), self.arrays)

    def peakmem_save(self, library):
        self.lib.save(self._prefix(), self.arrays)


class Restore:
    """asv: restore 1 GiB into newly allocated arrays (the checkpoint is written without holding it)."""

    params = [LIBRARIES]
    param_names = ["library"]
    number = 1
    repeat = 5
    timeout = 600

    def setup(self, library):
        self.lib = _library(library)
        self.dir = tempfile.mkdtemp(dir=os.environ.get("NUMFLOW_BENCH_DIR"))
        self.prefix = os.path.join(self.dir, "model")
        self.lib.save_streaming(self.prefix)

    def teardown(self, library):
        shutil.rmtree(self.dir, ignore_errors=True)

    def time_restore(self, library):
        self.lib.restore(self.prefix)

    def peakmem_restore(self, library):
        self.lib.restore(self.prefix)


# ---------------------------------------------------------------------------------------------------
# plain runner


def _rss_bytes(field="VmHWM"):
    """This process's peak (VmHWM) or current (VmRSS) resident size, from /proc on Linux.

    Elsewhere both fall back to ru_maxrss (on Linux that also counts the parent that forked us).
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def _peakmem_child(case, library, directory):
    """Run one case in this (fresh) process and print: RSS before the arrays, peak RSS."""
    lib = _library(library)
    prefix = os.path.join(directory, "model")
    if case == "save":
        base = _rss_bytes("VmRSS")
        arrays = [make_array(i) for i in range(N_ARRAYS)]
        if library == "tensorflow":
            lib.prepare(arrays)
        lib.save(prefix, arrays)
    else:
        lib.save_streaming(prefix)
        base = _rss_bytes("VmRSS")
        lib.restore(prefix)
    print(base, _rss_bytes("VmHWM"))


def _timed(fn, repeat, before=None):
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        del result
    return min(times), statistics.median(times)


def _measure(library, repeat, directory):
    lib = _library(library)
    work = tempfile.mkdtemp(dir=directory)
    try:
        held = {"arrays": [make_array(i) for i in range(N_ARRAYS)]}
        if library == "tensorflow":
            lib.prepare(held["arrays"])
        counter = iter(range(10**6))
        prefixes = []

        def save():
            prefixes.append(os.path.join(work, f"model-{next(counter)}"))
            lib.save(prefixes[-1], held["arrays"])

        def forget_old():
            for prefix in prefixes[:-1]:
                for name in os.listdir(work):
                    if name.startswith(os.path.basename(prefix) + "."):
                        os.remove(os.path.join(work, name))

        save_times = _timed(save, repeat, forget_old)
        held.clear()
        lib.tensors = None
        forget_old()
        restore_times = _timed(lambda: lib.restore(prefixes[-1]), repeat)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    peaks = {}
    for case in ("save", "restore"):
        child_dir = tempfile.mkdtemp(dir=directory)
        try:
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--peakmem", case, library,
                                  "--dir", child_dir], check=True, capture_output=True, text=True).stdout
            base, peak = (int(v) for v in out.split()[-2:])
            peaks[case] = (peak, peak - base - TOTAL_BYTES)
        finally:
            shutil.rmtree(child_dir, ignore_errors=True)
    return save_times, restore_times, peaks


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", default=os.environ.get("NUMFLOW_BENCH_DIR"))
    parser.add_argument("--peakmem", nargs=2, metavar=("CASE", "LIBRARY"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peakmem:
        _peakmem_child(*args.peakmem, args.dir)
        return
    gib = TOTAL_BYTES / 2**30
    print(f"checkpoint of {N_ARRAYS} float32 arrays of {SHAPE[0]}x{SHAPE[1]} ({gib:.0f} GiB), "
          f"best/median of {args.repeat}, {os.cpu_count()} CPUs, python {sys.version.split()[0]}")
    header = f"{'library':12s} {'save s':>14s} {'restore s':>14s} {'save GiB/s':>11s} {'restore GiB/s':>14s} " \
             f"{'peak save MiB':>14s} {'peak restore MiB':>17s}"
    print(header)
    print("-" * len(header))
    for library in LIBRARIES:
        if library == "tensorflow" and _tensorflow() is None:
            print(f"{library:12s} {'(not installed)':>14s}")
            continue
        (save_min, save_med), (rest_min, rest_med), peaks = _measure(library, args.repeat, args.dir)
        times = [f"{lo:6.3f}/{med:6.3f}" for lo, med in ((save_min, save_med), (rest_min, rest_med))]
        mem = [f"{peak / 2**20:6.0f} (+{extra / 2**20:4.0f})" for peak, extra in (peaks["save"], peaks["restore"])]
        print(f"{library:12s} {times[0]:>14s} {times[1]:>14s} {gib / save_min:11.2f} {gib / rest_min:14.2f} "
              f"{mem[0]:>14s} {mem[1]:>17s}")
    print("peak = max RSS of a fresh process; (+extra) = beyond the RSS before the arrays and the arrays' "
          f"own {TOTAL_BYTES / 2**20:.0f} MiB")


if __name__ == "__main__":
    main()
