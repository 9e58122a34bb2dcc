"""Saving and restoring a 1 GiB checkpoint (16 float32 arrays of 4096 x 4096): numflow, numpy, TensorFlow.

asv runs the ``Save`` and ``Restore`` suites (``asv run --bench bench_checkpoint``), parametrized by
library; a library that is not installed is skipped. Run plainly, the file prints one table::

    python bench/benchmarks/bench_checkpoint.py [--repeat 5] [--dir /path/on/the/disk/to/test]

- numflow: ``BundleWriter`` (256 KiB pieces written with ``os.write`` straight from each array's
  buffer, each checksummed right after while still in the CPU cache; temporary names renamed into
  place) and ``BundleReader.get_tensor(name, out=...)`` into newly allocated arrays (two threads
  ``preadv`` pieces and checksum them while cached; every crc checked).
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


def _remove_prefix(prefix):
    directory, base = os.path.split(prefix)
    for name in os.listdir(directory):
        if name.startswith(base + "."):
            os.remove(os.path.join(directory, name))


def _measure_times(libraries, repeat, directory):
    """{library: (save times, restore times)}, the libraries taking turns in every round."""
    libs = {name: _library(name) for name in libraries}
    work = tempfile.mkdtemp(dir=directory)
    times = {name: ([], []) for name in libs}
    try:
        held = [make_array(i) for i in range(N_ARRAYS)]
        sources = {}
        for name, lib in libs.items():  # warm-up, and the files the restores read
            if name == "tensorflow":
                lib.prepare(held)
            sources[name] = os.path.join(work, f"{name}-source")
            lib.save(sources[name], held)
        for round_ in range(repeat):
            for name, lib in libs.items():
                prefix = os.path.join(work, f"{name}-{round_}")
                start = time.perf_counter()
                lib.save(prefix, held)
                times[name][0].append(time.perf_counter() - start)
                _remove_prefix(prefix)
        held.clear()
        for lib in libs.values():
            if hasattr(lib, "tensors"):
                lib.tensors = None
        for _ in range(repeat):
            for name, lib in libs.items():
                start = time.perf_counter()
                restored = lib.restore(sources[name])
                times[name][1].append(time.perf_counter() - start)
                del restored
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return times


def _measure_peaks(library, directory):
    """{case: (peak RSS, RSS beyond the base and the arrays)}, each case in a fresh process."""
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
    return peaks


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
    libraries = [name for name in LIBRARIES if name != "tensorflow" or _tensorflow() is not None]
    print(f"checkpoint of {N_ARRAYS} float32 arrays of {SHAPE[0]}x{SHAPE[1]} ({gib:.0f} GiB), "
          f"best/median of {args.repeat} rounds (libraries take turns), {os.cpu_count()} CPUs, "
          f"python {sys.version.split()[0]}")
    times = _measure_times(libraries, args.repeat, args.dir)
    header = f"{'library':12s} {'save s':>14s} {'restore s':>14s} {'save GiB/s':>11s} {'restore GiB/s':>14s} " \
             f"{'peak save MiB':>14s} {'peak restore MiB':>17s}"
    print(header)
    print("-" * len(header))
    for library in LIBRARIES:
        if library not in times:
            print(f"{library:12s} {'(not installed)':>14s}")
            continue
        save, restore = (sorted(t) for t in times[library])
        peaks = _measure_peaks(library, args.dir)
        cells = [f"{t[0]:6.3f}/{statistics.median(t):6.3f}" for t in (save, restore)]
        mem = [f"{peak / 2**20:6.0f} (+{extra / 2**20:4.0f})" for peak, extra in (peaks["save"], peaks["restore"])]
        print(f"{library:12s} {cells[0]:>14s} {cells[1]:>14s} {gib / save[0]:11.2f} {gib / restore[0]:14.2f} "
              f"{mem[0]:>14s} {mem[1]:>17s}")
    print("peak = max RSS of a fresh process; (+extra) = beyond the RSS before the arrays and the arrays' "
          f"own {TOTAL_BYTES / 2**20:.0f} MiB")


if __name__ == "__main__":
    main()
