"""Clusters in separate processes: numflow on Ray against TensorFlow 2.21's gRPC runtime, same machine.

- ``BetweenGraphTraining.track_steps_per_s``: 1 ps + 2 worker processes training softmax regression
  between graphs (``replica_device_setter``, batch 100, each worker making its own batches), the
  two workers' steps per second summed over a 10 s window after 2 s of warm-up; a 31 KB model (W
  784x10) and a 4 MB one (4096x256). The target: at least TensorFlow's.
- ``PushPull.track_push_MBps`` / ``track_pull_MBps``: one worker feeding a 4 MB or 64 MB float32
  tensor to an ``assign_add`` on the ps (push), and fetching the ps variable (pull); the fastest of
  10. ``library=numpy`` is the ceiling: the same bytes through a loopback TCP socket from Python.

Every task is its own process (``bench/cluster_job.py``): numflow's joined to one Ray cluster this
process starts (``ray.init(num_cpus=2)``), TensorFlow's run by the interpreter of
``NUMFLOW_BENCH_TF_PYTHON`` (default ``/opt/tfenv/bin/python``) with ``tf.train.Server`` on free
ports. A runtime that is missing (no ray extra, no TensorFlow interpreter) leaves its cells empty.
``NUMFLOW_BENCH_QUICK=1`` shortens the window to 3 s.
"""

import json
import os
import socket
import sys
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(os.path.dirname(HERE), "cluster_job.py")
TF_PYTHON = os.environ.get("NUMFLOW_BENCH_TF_PYTHON", "/opt/tfenv/bin/python")
QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
MODELS = {"31KB": (784, 10), "4MB": (4096, 256)}
_ray_address = None


def _available(library):
    if library == "tensorflow":
        if not os.path.exists(TF_PYTHON):
            raise NotImplementedError(f"no TensorFlow interpreter at {TF_PYTHON}")
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        raise NotImplementedError("the ray extra is not installed") from None


def _ray():
    global _ray_address
    if _ray_address is None:
        import ray

        ray.init(num_cpus=2, include_dashboard=False, configure_logging=False, log_to_driver=False)
        _ray_address = ray.get_runtime_context().gcs_address
    return _ray_address


def _free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


class _Sink:
    def write(self, text):
        pass

    def flush(self):
        pass


def run_job(library, num_workers, args, timeout=300):
    """Run a 1-ps job of ``bench/cluster_job.py`` and return each worker's JSON result."""
    from numflow.cluster import launch

    ports = _free_ports(1 + num_workers)
    cluster = {"ps": [f"localhost:{ports[0]}"], "worker": [f"localhost:{p}" for p in ports[1:]]}
    numflow = library == "numflow"
    address = _ray() if numflow else None
    python = sys.executable if numflow else TF_PYTHON
    argv = [JOB, "--engine", library, *args]
    tasks = [launch.start_task(cluster, "ps", 0, argv, address, _Sink(), python)]
    tasks += [launch.start_task(cluster, "worker", i, argv, address, _Sink(), python) for i in range(num_workers)]
    try:
        for task in tasks[1:]:
            if task.wait(timeout) != 0:
                raise RuntimeError(f"{library} {task.name} failed:\n" + "\n".join(task.lines[-20:]))
        return [json.loads(next(line for line in t.lines if line.startswith("{"))) for t in tasks[1:]]
    finally:
        for task in tasks:
            task.stop(grace=5)


class BetweenGraphTraining:
    params = [list(MODELS), ["numflow", "tensorflow"]]
    param_names = ["model", "library"]
    number = 1
    repeat = 1

    def setup(self, model, library):
        _available(library)

    def track_steps_per_s(self, model, library):
        features, classes = MODELS[model]
        seconds = "3" if QUICK else "10"
        results = run_job(library, 2, ["train", "--features", str(features), "--classes", str(classes),
                                       "--seconds", seconds])
        return sum(r["steps_per_s"] for r in results)

    track_steps_per_s.unit = "steps/s"


class PushPull:
    params = [["4MB", "64MB"], ["numflow", "numpy", "tensorflow"]]
    param_names = ["size", "library"]
    number = 1
    repeat = 1
    _results = {}

    def setup(self, size, library):
        if library != "numpy":
            _available(library)

    def _measure(self, size, library):
        key = (size, library)
        if key not in self._results:
            megabytes = int(size[:-2])
            if library == "numpy":
                seconds = _tcp_seconds(megabytes * 1024 * 1024)
                self._results[key] = {"push_s": seconds, "pull_s": seconds, "bytes": megabytes * 1024 * 1024}
            else:
                self._results[key] = run_job(library, 1, ["transfer", "--megabytes", str(megabytes)])[0]
        return self._results[key]

    def track_push_MBps(self, size, library):
        r = self._measure(size, library)
        return r["bytes"] / r["push_s"] / 1e6

    def track_pull_MBps(self, size, library):
        r = self._measure(size, library)
        return r["bytes"] / r["pull_s"] / 1e6

    track_push_MBps.unit = track_pull_MBps.unit = "MB/s"


def _tcp_seconds(nbytes, repeat=10):
    """The fastest of ``repeat`` sends of ``nbytes`` through a loopback TCP socket, received into numpy."""
    server = socket.socket()
    server.bind(("localhost", 0))
    server.listen(1)
    payload = np.ones(nbytes, np.uint8)
    received = np.empty(nbytes, np.uint8)

    def serve():
        conn, _ = server.accept()
        with conn:
            for _ in range(repeat):
                conn.sendall(payload)

    thread = threading.Thread(target=serve)
    thread.start()
    times = []
    with socket.create_connection(server.getsockname()) as client:
        view = memoryview(received)
        for _ in range(repeat):
            start, got = time.perf_counter(), 0
            while got < nbytes:
                got += client.recv_into(view[got:], nbytes - got)
            times.append(time.perf_counter() - start)
    thread.join()
    server.close()
    return min(times)


if __name__ == "__main__":
    for model in MODELS:
        for library in ("numflow", "tensorflow"):
            print(model, library, f"{BetweenGraphTraining().track_steps_per_s(model, library):.1f} steps/s", flush=True)
    bench = PushPull()
    for size in ("4MB", "64MB"):
        for library in ("numflow", "tensorflow", "numpy"):
            print(size, library, f"push {bench.track_push_MBps(size, library):.0f} MB/s",
                  f"pull {bench.track_pull_MBps(size, library):.0f} MB/s", flush=True)
