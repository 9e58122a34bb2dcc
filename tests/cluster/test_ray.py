"""Jobs on Ray with real processes: one ps and worker processes joined to one local Ray cluster
(shared by the module), started and stopped by each test."""

import signal
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import numflow as tf  # noqa: E402
from numflow.cluster import launch  # noqa: E402

pytestmark = pytest.mark.ray

HERE = Path(__file__).parent
EXAMPLE = HERE.parents[1] / "examples" / "distributed_train.py"
TASK = HERE / "ray_task.py"


@pytest.fixture(scope="module")
def ray_address():
    ray.init(num_cpus=2, include_dashboard=False, configure_logging=False, log_to_driver=False,
             namespace="numflow-tests")
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


class _Job:
    """The tasks a test starts; every one stopped at the end."""

    def __init__(self, address, num_ps, num_workers, base_port):
        self.address = address
        self.cluster = launch.local_cluster(num_ps, num_workers, base_port)
        self.tasks = []

    def start(self, job, index, argv):
        task = launch.start_task(self.cluster, job, index, argv, self.address, out=_Quiet())
        self.tasks.append(task)
        return task

    def stop_all(self):
        for task in self.tasks:
            task.stop(signal.SIGKILL, grace=5)


class _Quiet:
    def write(self, text):
        pass

    def flush(self):
        pass


@pytest.fixture
def job(ray_address, request):
    base_port = 30000 + 10 * (abs(hash(request.node.name)) % 1000)  # a cluster (namespace) per test
    jobs = []

    def make(num_ps, num_workers):
        jobs.append(_Job(ray_address, num_ps, num_workers, base_port))
        return jobs[-1]
    yield make
    for j in jobs:
        j.stop_all()


def _wait_for_line(task, prefix, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(task.lines):
            if line.startswith(prefix):
                return line
        if task.process.poll() is not None and not any(line.startswith(prefix) for line in task.lines):
            raise AssertionError(f"{task.name} exited ({task.process.returncode}) without '{prefix}':\n"
                                 + "\n".join(task.lines[-30:]))
        time.sleep(0.05)
    raise AssertionError(f"no '{prefix}' from {task.name} within {timeout} s:\n" + "\n".join(task.lines[-30:]))


def test_the_between_graph_example_trains_across_processes_and_every_task_exits(job, tmp_path):
    j = job(2, 2)
    argv = [str(EXAMPLE), "--steps", "40", "--features", "16", "--classes", "3", "--batch", "8",
            "--checkpoint_dir", str(tmp_path)]
    ps = [j.start("ps", i, argv) for i in range(2)]
    workers = [j.start("worker", i, argv) for i in range(2)]
    assert [w.wait(180) for w in workers] == [0, 0], "\n".join(workers[0].lines[-20:] + workers[1].lines[-20:])
    assert [p.wait(30) for p in ps] == [0, 0]  # join returned once both workers were done
    assert all("ps done" in p.lines for p in ps)
    results = [_wait_for_line(w, f"worker {i}:") for i, w in enumerate(workers)]
    fields = [dict(item.split("=") for item in line.split(": ", 1)[1].split()) for line in results]
    # The chief stops at the 40th global step; every step of either worker is one increment.
    assert max(int(f["global_step"]) for f in fields) >= 40
    assert int(fields[0]["steps"]) + int(fields[1]["steps"]) >= 40
    assert float(fields[0]["loss"]) < float(fields[0]["first_loss"])
    # The chief's last checkpoint: one data file per ps task, written by that task's process.
    prefix = tf.train.latest_checkpoint(str(tmp_path))
    step = int(prefix.rsplit("-", 1)[1])
    assert sorted(p.name for p in tmp_path.glob(f"model.ckpt-{step}.*")) == [
        f"model.ckpt-{step}.data-00000-of-00002", f"model.ckpt-{step}.data-00001-of-00002",
        f"model.ckpt-{step}.index", f"model.ckpt-{step}.meta"]
    reader = tf.train.NewCheckpointReader(prefix)
    # Named by the step read before the save; the other worker may still step in between, as in TF.
    assert reader.get_tensor("global_step") >= step >= int(fields[0]["global_step"])
    assert reader.get_variable_to_shape_map() == {"w": [16, 3], "b": [3], "global_step": []}


def test_n_workers_times_k_adds_on_a_ps_variable_make_exactly_n_k(job):
    j = job(1, 2)
    ps = j.start("ps", 0, [str(TASK), "count", "50", "2"])
    workers = [j.start("worker", i, [str(TASK), "count", "50", "2"]) for i in range(2)]
    assert [w.wait(180) for w in workers] == [0, 0], "\n".join(workers[0].lines[-20:])
    assert _wait_for_line(workers[0], "total") == "total 100"
    assert ps.wait(30) == 0


def test_a_dequeue_waiting_on_a_ps_lets_other_workers_calls_through(job):
    j = job(1, 2)
    ps = j.start("ps", 0, [str(TASK), "handoff"])
    waiting = j.start("worker", 1, [str(TASK), "handoff"])
    _wait_for_line(waiting, "dequeuing")
    time.sleep(0.5)  # its dequeue is on the ps by now, waiting
    filling = j.start("worker", 0, [str(TASK), "handoff"])
    assert _wait_for_line(waiting, "dequeued") == "dequeued 7"
    assert [filling.wait(60), waiting.wait(60), ps.wait(30)] == [0, 0, 0]


def test_a_killed_ps_is_unavailable_and_its_restart_aborts_the_stale_session(job):
    j = job(1, 1)
    ps = j.start("ps", 0, [str(TASK), "ps"])
    worker = j.start("worker", 0, [str(TASK), "loop"])
    _wait_for_line(worker, "value 5")
    killed = time.monotonic()
    ps.stop(signal.SIGKILL)
    line = _wait_for_line(worker, "UNAVAILABLE")
    assert "/job:ps/replica:0/task:0 is unavailable" in line
    assert float(line.split()[1]) - killed < 30
    j.start("ps", 0, [str(TASK), "ps"])
    assert "/job:ps/replica:0/task:0 restarted" in _wait_for_line(worker, "ABORTED")
    # The new ps came back with uninitialized variables: no session trains on fresh zeros.
    assert _wait_for_line(worker, "UNINITIALIZED") == "UNINITIALIZED [b'v']"
    assert worker.wait(30) == 0


def test_a_killed_worker_leaves_the_others_training_and_its_restart_rejoins(job):
    j = job(1, 2)
    j.start("ps", 0, [str(TASK), "ps"])
    survivor = j.start("worker", 0, [str(TASK), "count", "300", "1"])
    victim = j.start("worker", 1, [str(TASK), "loop"])
    _wait_for_line(victim, "value")
    victim.stop(signal.SIGKILL)
    restarted = j.start("worker", 1, [str(TASK), "loop"])
    assert survivor.wait(180) == 0, "\n".join(survivor.lines[-20:])
    assert int(_wait_for_line(survivor, "total").split()[1]) >= 300
    # The restarted worker goes on from the shared value, past what the first one had added.
    killed_at = max(int(line.split()[1]) for line in victim.lines if line.startswith("value"))
    first = int(_wait_for_line(restarted, "value").split()[1])
    assert first > killed_at


def test_the_launcher_runs_a_job_and_leaves_no_process(ray_address, tmp_path):
    script = tmp_path / "job.py"
    script.write_text(
        "import numflow as tf\n"
        "r = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
        "s = tf.train.Server(r.cluster_spec(), job_name=r.task_type, task_index=r.task_id)\n"
        "if r.task_type == 'ps':\n"
        "    s.join()\n"
        "else:\n"
        "    with tf.device('/job:ps/task:0'):\n"
        "        v = tf.get_variable('v', [], tf.int64, initializer=tf.zeros_initializer())\n"
        "        add = v.assign_add(1)\n"
        "    with tf.train.MonitoredTrainingSession(master=s.target, is_chief=r.task_id == 0) as sess:\n"
        "        print('seen', r.task_type, r.task_id, sess.run(add) >= 1)\n"
    )
    lines = []

    class Out:
        def write(self, text):
            lines.append(text)

        def flush(self):
            pass
    code = launch.run_job(1, 2, [str(script)], ray_address, out=Out())
    assert code == 0, "".join(lines[-30:])
    assert "[worker:0] seen worker 0 True\n" in lines and "[worker:1] seen worker 1 True\n" in lines
    assert not _processes_running(str(script))


def _processes_running(text):
    """Pids of this machine's processes whose command line holds ``text``."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids
