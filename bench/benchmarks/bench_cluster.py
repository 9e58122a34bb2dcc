"""Clusters in separate processes: numflow on Ray against TensorFlow 2.21's gRPC runtime, same machine.

- ``BetweenGraphTraining.track_steps_per_s``: 1 ps + 2 worker processes training softmax regression
  between graphs (``replica_device_setter``, batch 100, each worker making its own batches), the
  two workers' steps per second summed over a 10 s window after 2 s of warm-up; a 31 KB model (W
  784x10) and a 4 MB one (4096x256). The target: at least TensorFlow's.
- ``PushPull.track_push_MBps`` / ``track_pull_MBps``: one worker feeding a 4 MB or 64 MB float32
  tensor to an ``assign_add`` on the ps (push), and fetching the ps variable (pull); the fastest of
  10. ``library=numpy`` is the ceiling: the same bytes through a loopback TCP socket from Python.

- ``TwoNodes.track_steps_per_s``: the same training with numflow's ps task (and its actor) on a
  second Ray node of this machine (``ray.cluster_utils.Cluster``), as between machines; TensorFlow's
  run is the one-machine one, its counterpart.
- ``PsScaling.track_steps_per_s``: the 4 MB model's weights split into one variable per ps task,
  1, 2 and 4 ps tasks + 2 workers.
- ``Startup.track_first_step_s`` / ``track_rss_MB``: seconds from launching the job's processes to a
  worker's first step (the slower worker; 1 ps + 2 workers, 31 KB model), and the peak resident
  memory of each kind of process: the ps process, numflow's ps actor (Ray's ``ray::PsActor`` worker
  process), a worker.

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


def run_job(library, num_workers, args, timeout=300, num_ps=1, ray_address=None, memory=None):
    """Run a job of ``bench/cluster_job.py`` and return each worker's JSON result.

    ``ray_address``: numflow's Ray cluster (default: the one this process starts). ``memory``: a dict
    that receives the peak resident MB of the ps processes, the ps actors and the workers.
    """
    from numflow.cluster import launch

    ports = _free_ports(num_ps + num_workers)
    cluster = {"ps": [f"localhost:{p}" for p in ports[:num_ps]],
               "worker": [f"localhost:{p}" for p in ports[num_ps:]]}
    numflow = library == "numflow"
    address = (ray_address or _ray()) if numflow else None
    python = sys.executable if numflow else TF_PYTHON
    argv = [JOB, "--engine", library, *args]
    os.environ["NUMFLOW_BENCH_LAUNCHED_AT"] = repr(time.time())
    tasks = [launch.start_task(cluster, "ps", i, argv, address, _Sink(), python) for i in range(num_ps)]
    tasks += [launch.start_task(cluster, "worker", i, argv, address, _Sink(), python) for i in range(num_workers)]
    sampler = _PeakMemory(tasks[:num_ps], tasks[num_ps:]) if memory is not None else None
    try:
        for task in tasks[num_ps:]:
            if task.wait(timeout) != 0:
                raise RuntimeError(f"{library} {task.name} failed:\n" + "\n".join(task.lines[-20:]))
        return [json.loads(next(line for line in t.lines if line.startswith("{"))) for t in tasks[num_ps:]]
    finally:
        if sampler is not None:
            memory.update(sampler.stop())
        for task in tasks:
            task.stop(grace=5)


def _rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def _ps_actor_pids():
    """The processes of Ray workers holding a ps actor (their title is ``ray::PsActor...``)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if f.read(12) == b"ray::PsActor":
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


class _PeakMemory:
    """Samples the resident memory of a job's processes every 0.25 s; the peak of each kind."""

    def __init__(self, ps_tasks, worker_tasks):
        self._kinds = {"ps": [t.process.pid for t in ps_tasks], "worker": [t.process.pid for t in worker_tasks]}
        self._peak = dict.fromkeys(["ps", "ps_actor", "worker"], 0.0)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stopped.wait(0.25):
            pids = dict(self._kinds, ps_actor=_ps_actor_pids())
            for kind, kind_pids in pids.items():
                self._peak[kind] = max([self._peak[kind], *map(_rss_mb, kind_pids)])

    def stop(self):
        self._stopped.set()
        self._thread.join()
        return dict(self._peak)


def _train_args(model, parts=1):
    features, classes = MODELS[model]
    return ["train", "--features", str(features), "--classes", str(classes), "--parts", str(parts),
            "--seconds", "3" if QUICK else "10"]


class _TwoNodeRay:
    """A Ray cluster of two nodes on this machine; the second's temp dir lets a process join it."""

    temp_dir = "/tmp/numflow-bench-node2"

    def __init__(self):
        from ray.cluster_utils import Cluster

        self._cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
        self._cluster.add_node(num_cpus=1, temp_dir=self.temp_dir)
        self.address = self._cluster.address

    def shutdown(self):
        self._cluster.shutdown()


class BetweenGraphTraining:
    params = [list(MODELS), ["numflow", "tensorflow"]]
    param_names = ["model", "library"]
    number = 1
    repeat = 1

    def setup(self, model, library):
        _available(library)

    def track_steps_per_s(self, model, library):
        return sum(r["steps_per_s"] for r in run_job(library, 2, _train_args(model)))

    track_steps_per_s.unit = "steps/s"


class TwoNodes:
    params = [list(MODELS), ["numflow", "tensorflow"]]
    param_names = ["model", "library"]
    number = 1
    repeat = 1

    def setup(self, model, library):
        _available(library)
        self._ray = _TwoNodeRay() if library == "numflow" else None

    def teardown(self, model, library):
        if self._ray is not None:
            self._ray.shutdown()

    def track_steps_per_s(self, model, library):
        args = _train_args(model)
        if self._ray is None:
            return sum(r["steps_per_s"] for r in run_job(library, 2, args))
        return sum(r["steps_per_s"] for r in run_job(library, 2, ["--ray-node-temp-dir", self._ray.temp_dir, *args],
                                                     ray_address=self._ray.address))

    track_steps_per_s.unit = "steps/s"


class PsScaling:
    params = [[1, 2, 4], ["numflow", "tensorflow"]]
    param_names = ["num_ps", "library"]
    number = 1
    repeat = 1

    def setup(self, num_ps, library):
        _available(library)

    def track_steps_per_s(self, num_ps, library):
        return sum(r["steps_per_s"] for r in run_job(library, 2, _train_args("4MB", parts=num_ps), num_ps=num_ps))

    track_steps_per_s.unit = "steps/s"


class Startup:
    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    number = 1
    repeat = 1
    _results = {}

    def setup(self, library):
        _available(library)

    def _measure(self, library):
        if library not in self._results:
            memory = {}
            args = _train_args("31KB")
            args[-1] = "1"
            workers = run_job(library, 2, args, memory=memory)
            self._results[library] = (max(r["first_step_s"] for r in workers), memory)
        return self._results[library]

    def track_first_step_s(self, library):
        return self._measure(library)[0]

    def track_ps_rss_MB(self, library):
        return self._measure(library)[1]["ps"]

    def track_ps_actor_rss_MB(self, library):
        if library != "numflow":
            raise NotImplementedError("TensorFlow's ps holds its variables in its own process")
        return self._measure(library)[1]["ps_actor"]

    def track_worker_rss_MB(self, library):
        return self._measure(library)[1]["worker"]

    track_first_step_s.unit = "s"
    track_ps_rss_MB.unit = track_ps_actor_rss_MB.unit = track_worker_rss_MB.unit = "MB"


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


def _shutdown_ray():
    global _ray_address
    if _ray_address is not None:
        import ray

        ray.shutdown()
        _ray_address = None


def main(repeat=2):
    """Every figure, numflow beside TensorFlow, the best of ``repeat`` runs (steps/s: the most)."""
    libraries = ("numflow", "tensorflow")

    def best(fn, *args):
        return max(fn(*args) for _ in range(repeat))

    training = BetweenGraphTraining()
    for model in MODELS:
        print(model, *(f"{lib} {best(training.track_steps_per_s, model, lib):.1f}" for lib in libraries), "steps/s",
              flush=True)
    scaling = PsScaling()
    for num_ps in (1, 2, 4):
        print(f"{num_ps} ps, 4MB", *(f"{lib} {best(scaling.track_steps_per_s, num_ps, lib):.1f}" for lib in libraries),
              "steps/s", flush=True)
    for library in libraries:
        runs = []
        for _ in range(repeat):
            Startup._results.pop(library, None)
            runs.append(Startup()._measure(library))
        memory = {kind: min(r[1][kind] for r in runs) for kind in runs[0][1]}
        print("startup", library, f"first step {min(r[0] for r in runs):.1f} s",
              " ".join(f"{kind} {mb:.0f} MB" for kind, mb in memory.items()), flush=True)
    bench = PushPull()
    for size in ("4MB", "64MB"):
        for library in ("numflow", "tensorflow", "numpy"):
            print(size, library, f"push {bench.track_push_MBps(size, library):.0f} MB/s",
                  f"pull {bench.track_pull_MBps(size, library):.0f} MB/s", flush=True)
    _shutdown_ray()
    nodes = TwoNodes()
    for model in MODELS:
        nodes.setup(model, "numflow")
        try:
            figure = best(nodes.track_steps_per_s, model, "numflow")
        finally:
            nodes.teardown(model, "numflow")
        print(model, f"two nodes: numflow {figure:.1f} steps/s", flush=True)

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
