"""Checkpoints against the hardware: saves that stall training or not, restores all or nothing, S3.

Run plainly, the file prints one table, each figure the minimum of ``--repeat`` runs (the disk is
shared with other work: minima are what the code does when it gets the disk)::

    python bench/benchmarks/bench_checkpoint_io.py [--repeat 3] [--dir DIR] [--s3-mib 256]

Under ``bench/run.py`` (and asv), ``CheckpointTargets`` reports each target as a ratio, and
``summarize`` prints which are met.

With 16 float32 variables of 4096 x 4096 (1 GiB; ``NUMFLOW_BENCH_QUICK=1``: 16 MiB):

- ``disk write floor``: the same bytes written to one new file with ``os.write`` in 8 MiB pieces,
  then ``fsync``; the same with ``sync_file_range`` after each piece (the disk starts at once, as
  the Saver has it do from a helper thread); and the same after 4 s idle (see below). ``blocking
  save``: ``Saver.save`` to a new prefix (synced before its renames), split into its phases
  (snapshot + data, index, fsync, rename); ``save over the same prefix``: the renames then replace
  the previous checkpoint's files. Each timed write follows the deletion of 1 GiB (for the save
  over the same prefix, the old checkpoint's cached pages are dropped, its files kept), so that
  all of them take their page cache from memory just freed.
- ``training loop``: a step adds 1 to every variable (1 GiB read and written). ``held by a blocking
  save``: the step with the save minus a plain step. ``held by an async save``: the time in
  ``save()``, and the extra time of the 8 steps that follow it (the write in the background
  overlaps them: copies on write, the writer's share of the two cores) over 8 steps without a save.
- ``disk read floor``: ``preadv`` of the same bytes into arrays, from the disk (pages dropped with
  ``posix_fadvise``) and from the page cache; ``restore``: into initialized variables (each tensor
  read twice: checked, then assigned), compared with reading into existing arrays, and into a new
  session's uninitialized ones (read once), compared with reading into arrays it allocates.
  ``copy``: the same bytes from the page cache into the arrays on two threads, the least the second
  pass of a restore into initialized variables costs; ``restore cold`` is compared with the cold
  read floor plus it too.
  ``peak``: what the restore adds to the process's resident set at its high-water mark, beyond
  the new session's variables themselves, against the largest variable (64 MiB).
- ``S3``: ``Saver.save`` of ``--s3-mib`` MiB to moto's S3 server (a subprocess on a loopback
  port) against ``s3fs``'s own ``put`` of a local file of the same size, to the same server.

Measured on the 2-core shared machine (seconds, minima of 3; the load, from ``uptime``, ran from 2.8
to 14, so the timed rows vary by several times from run to run). Before an update's copy on write
reused a buffer, the 8 steps after an async save took 1.97 to 9.0 s more than 8 without (load 5 to
10; 63% to 758% of what a blocking save held the loop, 1.19 to 3.12 s), and the step right after
the save faulted in 16,400 fresh pages (1 GiB, huge pages where the kernel gave them): copying
1 GiB into fresh memory took 0.2 to 12 s, into memory already faulted in 0.13 to 0.57 s. Reusing
the buffer the previous save's snapshots left, that step faults 528 pages, as a step without a
save (the faults of the 8 steps, less 8 without: 546 against 1,633 before, in runs at load 12 to
14); the extra time of the 8 steps was 3.2 to 10 s at load 8 to 14 (the copy of 1 GiB and the
writer's share of the two cores against a dozen other processes' work), against 4.5 s before at
load 12: timing does not tell the two apart at such loads. At load 2.8, before the change, it was
within the noise (-0.1 s). The time in ``save()`` is 3 to 24 ms.
Before the writeback started per piece, the blocking save was 1.04x the disk floor at load 2.8
(0.564 s against 0.545 s: data 0.281, fsync 0.282, index and rename under 1 ms), 1.17x at load 1.3
(0.557 s against 0.478 s) and 1.3 to 2.5x at load 5 to 11; saving over the same prefix took 0.78 to
5.9 s. Two causes. Its renames took 0.16 to 0.29 s: unlinking the replaced 1 GiB file, which frees
its blocks and cached pages (a thread does it now: 0.004 s). And this VM hands free memory back to
its host after about 2 s (free page reporting), so a page cache page taken from it costs a fault on
the host: 1 GiB of plain writes took 0.25 s right after 1 GiB was freed, 0.9 to 2.1 s four seconds
after, and 3.4 to 6.7 s with nothing freed (load 2.4 to 3.2). The old benchmark saved to a new
prefix right after deleting the last checkpoint, and over the same prefix with the old one still
cached. With the writeback started per piece, the fsync phase is 0.01 to 0.05 s (was 0.26 to 0.46 s)
and 1 GiB of plain writes took 0.37 s against 0.65 s without (load 3.7); a save at load 4.5 was 1.23x
the floor (0.760 s against 0.615 s), over the same prefix 0.91x (0.558 s); at load 2.2, 0.67x (0.330 s
against 0.494 s; 0.288 s for the floor with the writeback started per piece), over the same prefix
1.41x. ``held by a blocking save`` runs the save after a step whose temporaries (1 GiB of ones)
took the memory just freed: it writes into pages from the host. At load 10 to 17, saves
with and without it were alike (medians 2.2 s and 1.9 s, each 0.6 to 5.4 s, the order of the two
in a round mattering more than the writeback).
Restores (minima of 5 to 7 at load 2.5 to 4.5): into initialized variables 1.00 to 1.24x the read
floor from the page cache (a crc pass over the mapped page cache, 0.08 s on two threads, then the
reads into the buffers the variables give up, 0.10 s on two threads, against 0.18 to 0.39 s for the
floor's one thread), 1.09 to 1.18x from the disk; 1.5 to 1.8x in other runs at load 1.3 to 4 (at 2.2:
0.303 s against 0.168 s, and 1.63x from the disk). A new session's restore (read once) was 1.09x
its floor at load 2.2. The two passes are the price of all or nothing within one variable's extra
memory: the crc pass must end before any variable changes. Reading
each tensor once into a new buffer (a whole model's worth of memory) took 0.23 to 6.5 s against 0.24
to 0.97 s for the two passes in the same run: new pages cost more here than the crc pass.
At load 1.2: restore cold 0.525 s, 1.30x the cold read floor (0.403 s) and 1.07x that floor plus the
copy (0.090 s); the disk alone (O_DIRECT reads) took 0.44 to 0.48 s, and copying 1 GiB on two threads
0.08 to 0.10 s even from pages already mapped: with one variable's extra memory a cold restore cannot
come under about 1.2x the disk floor on this machine.
"""

import argparse
import concurrent.futures
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
for _path in (ROOT, os.path.dirname(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench_saver import _reset_peak, _status  # noqa: E402 - found through the path set above

QUICK = os.environ.get("NUMFLOW_BENCH_QUICK") == "1"
N_VARIABLES = 16
SHAPE = (512, 512) if QUICK else (4096, 4096)
TOTAL = N_VARIABLES * SHAPE[0] * SHAPE[1] * 4
PIECE = 8 << 20
LOOP_STEPS = 8  # steps timed with and without an asynchronous save at the first (its write overlaps them)
PAGES_RETURNED_AFTER = 0.0 if QUICK else 4.0  # seconds: a VM reporting free pages has given them back


def _files_of(prefix):
    directory, base = os.path.split(prefix)
    return [os.path.join(directory, n) for n in os.listdir(directory) if n.startswith(base + ".")]


def _drop_cache(paths):
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def _remove(prefix):
    for path in _files_of(prefix):
        os.remove(path)


def _write_floor(directory, arrays, writeback=False):
    """Write ``arrays`` to a new file and sync it: its path, the seconds in all and the seconds of the writes.
    With ``writeback``, the disk is asked to start on each piece once it is written (as the Saver does)."""
    from numflow.checkpoint.files import start_writeback

    path = os.path.join(directory, "floor.bin")
    start = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    position = 0
    for arr in arrays:
        view = memoryview(arr.reshape(-1).view(np.uint8))
        for offset in range(0, len(view), PIECE):
            count = os.write(fd, view[offset:offset + PIECE])
            if writeback:
                start_writeback(fd, position, count)
            position += count
    written = time.perf_counter()
    os.fsync(fd)
    os.close(fd)
    end = time.perf_counter()
    return path, end - start, written - start


def _read_floor(path, arrays, cold, threads=1):
    """Seconds to read ``path`` into ``arrays`` (None: into arrays allocated by the timed code), in
    8 MiB pieces shared by ``threads`` threads."""
    if cold:
        _drop_cache([path])
    fd = os.open(path, os.O_RDONLY)
    pool = concurrent.futures.ThreadPoolExecutor(threads) if threads > 1 else None
    start = time.perf_counter()
    if arrays is None:
        arrays = [np.empty(SHAPE, np.float32) for _ in range(N_VARIABLES)]
    pieces, offset = [], 0
    for arr in arrays:
        view = memoryview(arr.reshape(-1).view(np.uint8))
        pieces += [(view[piece:piece + PIECE], offset + piece) for piece in range(0, len(view), PIECE)]
        offset += len(view)
    if pool is None:
        for view, at in pieces:
            os.preadv(fd, [view], at)
    else:
        list(pool.map(lambda piece: os.preadv(fd, [piece[0]], piece[1]), pieces))
    elapsed = time.perf_counter() - start
    if pool is not None:
        pool.shutdown()
    os.close(fd)
    return elapsed


class _Phases:
    """Time spent in the bundle writer's steps, by wrapping them where bundle.py looks them up."""

    def __init__(self):
        from numflow.checkpoint import bundle

        self.bundle = bundle
        self.seconds = {}
        self.originals = {name: getattr(bundle, name) for name in ("sync", "commit", "sync_directory")}
        self.originals["build_table"] = bundle.table.build_table

    def _timed(self, phase, fn):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - start
        return run

    def __enter__(self):
        self.seconds = {}
        b = self.bundle
        b.sync = self._timed("fsync", self.originals["sync"])
        b.sync_directory = self._timed("fsync", self.originals["sync_directory"])
        b.commit = self._timed("rename", self.originals["commit"])
        b.table.build_table = self._timed("index", self.originals["build_table"])
        return self

    def __exit__(self, *exc):
        b = self.bundle
        b.sync, b.commit, b.sync_directory = (self.originals[n] for n in ("sync", "commit", "sync_directory"))
        b.table.build_table = self.originals["build_table"]


def _model():
    import numflow as tf

    tf.reset_default_graph()
    variables = [tf.get_variable(f"layer{i:02d}/kernel", shape=SHAPE, initializer=tf.constant_initializer(i + 1.0))
                 for i in range(N_VARIABLES)]
    train = tf.group(*[v.assign_add(tf.ones(SHAPE)) for v in variables])
    return tf, variables, train


def _initialize(sess, variables):
    for var in variables:
        sess.run(var.initializer)


def _faults():
    """Page faults of this process so far (each fresh page an update writes is one, or one per huge page)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _wait_for_unbacked_pages():
    """Let the pages freed so far go back to the host (the VM reports free memory after about 2 s)."""
    time.sleep(PAGES_RETURNED_AFTER)


def measure_saves(directory, repeat):
    """Each timed write starts right after 1 GiB of page cache was freed, so that its pages come from
    memory the VM still backs (the floor, a save to a new prefix, a save over the same prefix alike);
    ``floor, pages from the host`` writes after the machine had time to return its free memory."""
    from numflow.checkpoint import files

    tf, variables, train = _model()
    saver = tf.train.Saver(max_to_keep=None)
    out = {key: [] for key in (
        "floor", "floor writes", "floor with writeback", "floor from host", "blocking", "same prefix", "phases",
        "same prefix phases", "step", "step + blocking save", "loop", "async call", "loop with async save",
        "write still going", "faults", "faults with async save")}
    with tf.Session() as sess:
        _initialize(sess, variables)
        arrays = sess.run(variables)
        prefix = saver.save(sess, os.path.join(directory, "warm"))
        for _ in range(repeat):
            _remove(prefix)
            path, floor, writes = _write_floor(directory, arrays)
            out["floor"].append(floor)
            out["floor writes"].append(writes)
            os.remove(path)
            path, floor, _ = _write_floor(directory, arrays, writeback=True)
            out["floor with writeback"].append(floor)
            os.remove(path)
            phases = _Phases()
            with phases:
                start = time.perf_counter()
                prefix = saver.save(sess, os.path.join(directory, "model"))
                out["blocking"].append(time.perf_counter() - start)
            out["phases"].append(phases.seconds)
            _drop_cache(_files_of(prefix))  # still on the disk: the old checkpoint stays whole until the renames
            with phases:
                start = time.perf_counter()
                saver.save(sess, os.path.join(directory, "model"))  # renamed over the files just written
                out["same prefix"].append(time.perf_counter() - start)
            out["same prefix phases"].append(phases.seconds)
            files.wait_for_removals()
            _wait_for_unbacked_pages()
            path, floor, _ = _write_floor(directory, arrays)
            out["floor from host"].append(floor)
            os.remove(path)
        _remove(prefix)
        del arrays
        for _ in range(3):
            sess.run(train)
        prefix = None
        for _ in range(repeat):
            start = time.perf_counter()
            sess.run(train)
            out["step"].append(time.perf_counter() - start)
            if prefix:
                _remove(prefix)  # the blocking save's pages come from memory just freed, as in the rows above
            start = time.perf_counter()
            sess.run(train)
            prefix = saver.save(sess, os.path.join(directory, "model"))
            out["step + blocking save"].append(time.perf_counter() - start)
            faults, start = _faults(), time.perf_counter()
            for _ in range(LOOP_STEPS):
                sess.run(train)
            out["loop"].append(time.perf_counter() - start)
            out["faults"].append(_faults() - faults)
            _remove(prefix)
            faults, start = _faults(), time.perf_counter()
            sess.run(train)
            called = time.perf_counter()
            prefix = saver.save(sess, os.path.join(directory, "model"), enable_async=True)
            out["async call"].append(time.perf_counter() - called)
            for _ in range(LOOP_STEPS - 1):
                sess.run(train)
            out["loop with async save"].append(time.perf_counter() - start)
            out["faults with async save"].append(_faults() - faults)
            out["write still going"].append(saver._background.busy)
            saver.sync()
        _remove(prefix)
    return out


def measure_restores(directory, repeat):
    tf, variables, _ = _model()
    saver = tf.train.Saver()
    out = {"read floor cold": [], "read floor warm": [], "copy floor": [], "read floor new arrays cold": [],
           "read floor new arrays warm": [], "restore cold": [], "restore warm": [], "restore new session": [],
           "restore new session cold": []}
    with tf.Session() as sess:
        _initialize(sess, variables)
        prefix = saver.save(sess, os.path.join(directory, "restore"))
        arrays = [np.empty(SHAPE, np.float32) for _ in range(N_VARIABLES)]
        floor_path, _, _ = _write_floor(directory, sess.run(variables))
        for _ in range(repeat):
            out["read floor cold"].append(_read_floor(floor_path, arrays, cold=True))
            out["read floor warm"].append(_read_floor(floor_path, arrays, cold=False))
            out["copy floor"].append(_read_floor(floor_path, arrays, cold=False, threads=2))
            out["read floor new arrays cold"].append(_read_floor(floor_path, None, cold=True))
            out["read floor new arrays warm"].append(_read_floor(floor_path, None, cold=False))
            _drop_cache(_files_of(prefix))
            start = time.perf_counter()
            saver.restore(sess, prefix)
            out["restore cold"].append(time.perf_counter() - start)
            start = time.perf_counter()
            saver.restore(sess, prefix)
            out["restore warm"].append(time.perf_counter() - start)
        del arrays
        os.remove(floor_path)
        reset, before = _reset_peak(), _status("VmRSS")
        saver.restore(sess, prefix)
        out["peak initialized"] = _status("VmHWM") - before if reset else None
    for cold in (False, True):
        for _ in range(repeat):
            if cold:
                _drop_cache(_files_of(prefix))
            with tf.Session() as sess:
                start = time.perf_counter()
                saver.restore(sess, prefix)
                out["restore new session cold" if cold else "restore new session"].append(
                    time.perf_counter() - start)
    with tf.Session() as sess:
        reset, before = _reset_peak(), _status("VmRSS")
        saver.restore(sess, prefix)
        out["peak new session"] = _status("VmHWM") - before - TOTAL if reset else None
    _remove(prefix)
    return out


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure_s3(directory, repeat, mib):
    """Saver.save of ``mib`` MiB to moto's server against s3fs's put of the same bytes."""
    import fsspec
    import s3fs

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        endpoint = f"http://127.0.0.1:{port}"
        os.environ["AWS_EC2_METADATA_DISABLED"] = "true"
        fsspec.config.conf["s3"] = {"key": "bench", "secret": "bench",
                                    "client_kwargs": {"endpoint_url": endpoint, "region_name": "eu-west-1"}}
        s3fs.S3FileSystem.clear_instance_cache()
        fs = fsspec.filesystem("s3")
        for _ in range(100):
            try:
                fs.mkdir("bench")
                break
            except OSError:
                time.sleep(0.1)
        import numflow as tf

        tf.reset_default_graph()
        count = max(1, mib // 64)
        shape = (mib << 20) // count // 4
        variables = [tf.get_variable(f"v{i}", shape=[shape], initializer=tf.constant_initializer(i + 1.0))
                     for i in range(count)]
        saver = tf.train.Saver(max_to_keep=None)
        local = os.path.join(directory, "s3-source.bin")
        with tf.Session() as sess:
            _initialize(sess, variables)
            with open(local, "wb") as f:
                for value in sess.run(variables):
                    f.write(value.tobytes())
            out = {"put": [], "save": []}
            for i in range(repeat):
                start = time.perf_counter()
                fs.put(local, f"bench/put-{i}.bin")
                out["put"].append(time.perf_counter() - start)
                start = time.perf_counter()
                saver.save(sess, f"s3://bench/model-{i}", write_state=False)
                out["save"].append(time.perf_counter() - start)
        os.remove(local)
        return out
    finally:
        server.terminate()
        server.wait()


def _phases_line(times, phases):
    """Where the fastest of ``times`` went."""
    best = min(range(len(times)), key=lambda i: times[i])
    spent = phases[best]
    return f"  of which: snapshot + data {times[best] - sum(spent.values()):.3f}, " + ", ".join(
        f"{name} {spent.get(name, 0.0):.3f}" for name in ("index", "fsync", "rename"))


def _cell(values):
    return f"{min(values):7.3f}"


RESTORE_ROWS = (("restore cold", "read floor cold"), ("restore warm", "read floor warm"),
                ("restore new session cold", "read floor new arrays cold"),
                ("restore new session", "read floor new arrays warm"))
TARGETS = {"blocking save": 1.1, "async save": 0.10, "restore": 1.1}


def ratios(s, r):
    """Each target's figure (a ratio, lower is better) from :func:`measure_saves`' and
    :func:`measure_restores`' results (either may be None): ``{name: (value, target)}``."""
    out = {}
    if s:
        floor = min(s["floor"])
        held_blocking = min(s["step + blocking save"]) - min(s["step"])
        out["blocking save / write floor"] = (min(s["blocking"]) / floor, TARGETS["blocking save"])
        out["save over the same prefix / write floor"] = (min(s["same prefix"]) / floor, TARGETS["blocking save"])
        out["async save's hold / a blocking save's"] = (min(s["async call"]) / held_blocking, TARGETS["async save"])
    if r:
        for row, floor_row in RESTORE_ROWS:
            out[f"{row} / {floor_row}"] = (min(r[row]) / min(r[floor_row]), TARGETS["restore"])
    return out


def report(s, r):
    """The lines of the table ``main`` prints for the results of the saves (``s``) and restores (``r``)."""
    lines = []
    figures = ratios(s, r)
    gib = TOTAL / 2**30
    if s:
        floor = min(s["floor"])
        lines.append(f"disk write floor (write + fsync)          {floor:7.3f}   (writes {min(s['floor writes']):.3f})")
        lines.append(f"  the same, writeback started per piece   {_cell(s['floor with writeback'])}   "
                     f"(sync_file_range after each 8 MiB write, as the Saver does)")
        lines.append(f"  the same, pages from the host           {_cell(s['floor from host'])}   (after "
                     f"{PAGES_RETURNED_AFTER:.0f} s idle: the VM gave free memory back)")
        value, target = figures["blocking save / write floor"]
        lines.append(f"blocking save                             {_cell(s['blocking'])}   {value:.2f}x the floor "
                     f"(target <= {target}x)")
        lines.append(_phases_line(s["blocking"], s["phases"]))
        value, target = figures["save over the same prefix / write floor"]
        lines.append(f"save over the same prefix                 {_cell(s['same prefix'])}   {value:.2f}x the floor")
        lines.append(_phases_line(s["same prefix"], s["same prefix phases"]))
        held_blocking = min(s["step + blocking save"]) - min(s["step"])
        held_async = min(s["async call"])
        extra = min(s["loop with async save"]) - min(s["loop"])
        lines.append(f"training step ({gib:.3g} GiB updated)          {_cell(s['step'])}")
        lines.append(f"held by a blocking save                   {held_blocking:7.3f}   (step + save, less a step)")
        value, target = figures["async save's hold / a blocking save's"]
        lines.append(f"held by an async save: in save()          {held_async:7.3f}   {value:.1%} of blocking "
                     f"(target <= {target:.0%})")
        lines.append(f"  {LOOP_STEPS} steps with it, less {LOOP_STEPS} without   {extra:7.3f}   "
                     f"{extra / held_blocking:.1%} of blocking (copies on write, the writer's share of the cores); "
                     f"write still going after them in {sum(s['write still going'])} of "
                     f"{len(s['write still going'])} runs")
        lines.append(f"  page faults of those steps, less without "
                     f"{min(s['faults with async save']) - min(s['faults']):7d}   (a copy on write into fresh pages: "
                     f"one per page)")
    if r:
        for row, floor_row in RESTORE_ROWS:
            value, target = figures[f"{row} / {floor_row}"]
            lines.append(f"{row:42s}{_cell(r[row])}   {value:.2f}x {floor_row} {min(r[floor_row]):.3f} "
                         f"(target <= {target}x)")
        copy = min(r["copy floor"])
        bound = min(r["read floor cold"]) + copy
        ratio = min(r["restore cold"]) / bound
        lines.append(f"  restore cold / (read floor cold + copy)  {ratio:7.2f}x {bound:.3f} (copy: the page cache "
                     f"into the arrays on two threads, {copy:.3f}; no variable may change before the last crc is "
                     f"checked)")
        largest = SHAPE[0] * SHAPE[1] * 4
        for key in ("peak initialized", "peak new session"):
            value = r[key]
            text = "n/a (VmHWM not resettable)" if value is None else \
                f"{value / 2**20:+.0f} MiB = {value / largest:.2f} x the largest variable"
            lines.append(f"{key:42s}{text}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=os.environ.get("NUMFLOW_BENCH_DIR"))
    parser.add_argument("--s3-mib", type=int, default=16 if QUICK else 256)
    parser.add_argument("--skip", nargs="*", default=[], choices=["save", "restore", "s3"])
    args = parser.parse_args(argv)
    work = tempfile.mkdtemp(dir=args.dir)
    gib = TOTAL / 2**30
    print(f"{N_VARIABLES} float32 variables of {SHAPE[0]}x{SHAPE[1]} ({gib:.3g} GiB); {os.cpu_count()} CPUs; "
          f"load {os.getloadavg()[0]:.1f}; seconds, minimum of {args.repeat}")
    try:
        s = None if "save" in args.skip else measure_saves(work, args.repeat)
        r = None if "restore" in args.skip else measure_restores(work, args.repeat)
        for line in report(s, r):
            print(line)
        if "s3" not in args.skip:
            try:
                s3 = measure_s3(work, args.repeat, args.s3_mib)
            except ImportError as exc:
                print(f"S3: skipped ({exc})")
            else:
                put, save = min(s3["put"]), min(s3["save"])
                print(f"S3 ({args.s3_mib} MiB): s3fs put {put:.3f}, Saver.save {save:.3f}: {save / put:.2f}x "
                      f"(target <= 1.5x)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


class CheckpointIO:
    """asv: a blocking and an asynchronous save of the variables of an initialized session."""

    number = 1
    repeat = 3
    timeout = 900

    def setup(self):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("NUMFLOW_BENCH_DIR"))
        tf, self.variables, _ = _model()
        self.saver = tf.train.Saver(max_to_keep=1)
        self.sess = tf.Session()
        _initialize(self.sess, self.variables)
        self.step = 0

    def teardown(self):
        self.saver.sync()
        self.sess.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _save(self, enable_async):
        self.step += 1
        self.saver.save(self.sess, os.path.join(self.dir, "model"), self.step, enable_async=enable_async)

    def time_blocking_save(self):
        self._save(False)

    def time_async_save_call(self):
        self._save(True)


_measured = {}


def _measure_targets():
    """:func:`ratios` of one run of the save and restore measurements (once per process)."""
    if not _measured:
        work = tempfile.mkdtemp(dir=os.environ.get("NUMFLOW_BENCH_DIR"))
        try:
            repeat = 2 if QUICK else 3
            _measured.update(ratios(measure_saves(work, repeat), measure_restores(work, repeat)))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return _measured


# track_<key> of CheckpointTargets -> the figure of ratios() it reports
TRACKED = {"blocking_save_vs_write_floor": "blocking save / write floor",
           "save_over_same_prefix_vs_write_floor": "save over the same prefix / write floor",
           "async_save_hold_vs_blocking": "async save's hold / a blocking save's",
           "restore_vs_read_floor": "restore warm / read floor warm",
           "restore_cold_vs_read_floor_cold": "restore cold / read floor cold",
           "restore_new_session_vs_read_floor": "restore new session / read floor new arrays warm"}


class CheckpointTargets:
    """asv and bench/run.py: each target as a ratio (lower is better), from one run of the measurements;
    a ``track_<key>`` method per entry of ``TRACKED``."""

    timeout = 1800

    def setup(self):
        self.figures = _measure_targets()


def _tracker(name):
    def track(self):
        return self.figures[name][0]

    track.unit = "x"
    return track


for _key, _name in TRACKED.items():
    setattr(CheckpointTargets, f"track_{_key}", _tracker(_name))


def summarize(results):
    """The targets met or missed, from ``results[(suite, method, params, library)]`` (bench/run.py)."""
    lines = []
    for key, name in TRACKED.items():
        value = results.get(("CheckpointTargets", f"track_{key}", (), "value"))
        if value is not None:
            target = _measured[name][1]
            lines.append(f"checkpoints of {TOTAL / 2**20:.0f} MiB, {name}: {value:.3g} (target <= {target:g}, "
                         f"{'met' if value <= target else 'missed'})")
    return lines

if __name__ == "__main__":
    main()
