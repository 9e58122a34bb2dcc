"""``python -m numflow.cluster --ps 2 --workers 3 script.py args...``: one job, every task a process.

The launcher joins the Ray cluster at ``RAY_ADDRESS`` (or starts one on this machine for the job's
length), gives each task its role in ``TF_CONFIG`` (TensorFlow's JSON: the cluster and this task),
sets ``NUMFLOW_CLUSTER_PROTOCOL=ray`` so that the script's ``tf.train.Server`` runs on Ray, starts
the tasks, prints their output line by line behind ``[ps:0]``, ``[worker:1]``... and, once every
worker has exited, stops the ps tasks (a ps task's ``join`` returns by itself when the workers are
done; one still running after a grace period is terminated). Its exit status is the first failing
worker's, else 0.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import threading

from numflow.cluster.server import PROTOCOL_VARIABLE

PS_GRACE_S = 10


def tf_config(cluster, job, task):
    """TF_CONFIG's JSON for ``task`` of ``job``."""
    return json.dumps({"cluster": cluster, "task": {"type": job, "index": task}})


def local_cluster(num_ps, num_workers, base_port=2222):
    """A ClusterSpec dict of tasks on this machine (the addresses name tasks; Ray does the transport)."""
    ports = iter(range(base_port, base_port + num_ps + num_workers))
    return {"ps": [f"localhost:{next(ports)}" for _ in range(num_ps)],
            "worker": [f"localhost:{next(ports)}" for _ in range(num_workers)]}


class Task:
    """A task's process, its output streamed with a prefix."""

    def __init__(self, job, index, command, env, out=None):
        self.name = f"{job}:{index}"
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, bufsize=1, start_new_session=True)
        self.lines = []
        self._out = out if out is not None else sys.stdout
        self._reader = threading.Thread(target=self._stream, daemon=True)
        self._reader.start()

    def _stream(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            self._out.write(f"[{self.name}] {line}")
            self._out.flush()

    def wait(self, timeout=None):
        code = self.process.wait(timeout)
        self._reader.join(5)
        return code

    def stop(self, sig=signal.SIGTERM, grace=PS_GRACE_S):
        """Stop the task's process group: ``sig``, then SIGKILL after ``grace`` seconds."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._reader.join(5)


def start_task(cluster, job, index, argv, ray_address, out=None, python=None):
    """Start one task of ``cluster`` running ``argv`` (``[script, args...]``) with its TF_CONFIG,
    under ``python`` (default: this interpreter)."""
    env = dict(os.environ, TF_CONFIG=tf_config(cluster, job, index), PYTHONUNBUFFERED="1")
    if ray_address is not None:
        env["RAY_ADDRESS"] = ray_address
        env[PROTOCOL_VARIABLE] = "ray"
    return Task(job, index, [python or sys.executable, *argv], env, out)


def run_job(num_ps, num_workers, argv, ray_address, out=None):
    """Run the job's tasks until the workers exit; the first failing worker's status, else 0."""
    cluster = local_cluster(num_ps, num_workers)
    ps = [start_task(cluster, "ps", i, argv, ray_address, out) for i in range(num_ps)]
    workers = [start_task(cluster, "worker", i, argv, ray_address, out) for i in range(num_workers)]
    try:
        codes = [w.wait() for w in workers]
        for task in ps:
            try:
                task.wait(PS_GRACE_S)
            except subprocess.TimeoutExpired:
                task.stop()
    finally:
        for task in ps + workers:
            task.stop(grace=2)
    return next((c for c in codes if c), 0)


def main(args=None):
    parser = argparse.ArgumentParser(prog="python -m numflow.cluster", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ps", type=int, default=1, help="ps tasks (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="worker tasks (default 2)")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of a Ray cluster started here")
    parser.add_argument("script", help="the training script every task runs")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args(args)
    address = os.environ.get("RAY_ADDRESS")
    if not address:
        import ray

        ray.init(num_cpus=options.num_cpus, include_dashboard=False, configure_logging=False)
        address = ray.get_runtime_context().gcs_address
    return run_job(options.ps, options.workers, [options.script, *options.args], address)
