"""Devices: what placement costs when a plan is built, and the CUDA kernels' bandwidth.

- ``PlanBuild``: the first runs of a 12,000-op graph (2,000 variables on 4 ps tasks via
  ``replica_device_setter``: initializers, reads and updates): pruning, placing, ordering and
  resolving kernels, against the same plans with numflow's placement rules replaced by a bare
  lookup of each op's own task, so the difference is what placement costs. TensorFlow: the first
  runs of the same graph in one process with 4 CPU devices (placement and graph rewriting included).
- ``CudaBandwidth``: the CUDA ``assign_add`` and ``random_normal`` kernels on 64M float32 against a
  device-to-device copy of the same bytes (the bandwidth floor). Needs a real GPU: without one (or
  under the simulator) ``setup`` raises NotImplementedError and both runners skip it.
"""

import os

import numpy as np

try:
    from .bench_session import graph_library
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library

QUICK = os.environ.get("NUMFLOW_BENCH_QUICK", "") not in ("", "0")
VARIABLES = 200 if QUICK else 2000  # five ops each: variable, initial value, initializer, read, update


def _build(tf, ps_tasks, ps_device, worker_device):
    graph = tf.Graph()
    with graph.as_default():
        setter = tf.train.replica_device_setter(ps_tasks=ps_tasks, ps_device=ps_device,
                                                worker_device=worker_device)
        updates = []
        with tf.device(setter):
            for i in range(VARIABLES):
                v = tf.Variable(tf.zeros([4]), name=f"v{i}", use_resource=False)
                updates.append(v.assign_add(v.read_value()).op)
            step = tf.group(*updates)
            init = tf.global_variables_initializer()
    return graph, init, step


class PlanBuild:
    """The first run of a 10,000-op graph: plan building with and without placement.

    numflow spreads the variables over the ps tasks of an in-process cluster; TensorFlow, which
    would need real servers for that, places them on the CPUs of one process instead.
    """

    params = [["numflow", "tensorflow"], ["placed", "unplaced"]]
    param_names = ["library", "placement"]
    number = 1
    repeat = 3

    def setup(self, library, placement):
        self.tf = tf = graph_library(library)
        self._restore = None
        if library == "tensorflow":
            if placement == "unplaced":
                raise NotImplementedError("TensorFlow always places")
            self.target, self.config = "", tf.ConfigProto(device_count={"CPU": 4})
            self.graph, self.init, self.step = _build(tf, 4, "/cpu", "/cpu:0")
            return
        workers, self.ps = tf.test.create_local_cluster(num_workers=1, num_ps=4)
        self.target, self.config = workers[0].target, None
        self.graph, self.init, self.step = _build(tf, 4, "/job:ps", "/job:worker")
        if placement == "unplaced":
            from numflow.runtime import placement as placement_module

            self._restore = (placement_module, placement_module.place)
            placement_module.place = _place_by_request_only

    def teardown(self, library, placement):
        if self._restore is not None:
            module, place = self._restore
            module.place = place

    def time_first_run(self, library, placement):
        with self.tf.Session(self.target, graph=self.graph, config=self.config) as sess:
            sess.run(self.init)
            sess.run(self.step)


def _place_by_request_only(ops, session):
    """Each op on the first device of the task its device string names: placement's floor."""
    first = {}
    for d in session._devices:
        first.setdefault((d.job, d.task), d)
    default = session._devices[0]
    placed = {}
    for op in ops:
        device = op.device or (op._colocation and "")
        job = task = None
        for part in device.split("/"):
            if part.startswith("job:"):
                job = part[4:]
            elif part.startswith("task:"):
                task = int(part[5:])
        placed[op] = first.get((job, task or 0), default) if job else default
    return placed


class CudaBandwidth:
    """CUDA kernels on 64M float32 against a device-to-device copy of the same bytes."""

    params = [["assign_add", "random_normal", "copy"]]
    param_names = ["kernel"]

    def setup(self, kernel):
        if os.environ.get("NUMBA_ENABLE_CUDASIM"):
            raise NotImplementedError("the simulator measures nothing about a GPU")
        from numba import cuda

        if not cuda.is_available():
            raise NotImplementedError("no CUDA GPU")
        from numflow_kernels.cuda import assign, init

        n = (16 if QUICK else 64) * 1024 * 1024
        self.a = cuda.to_device(np.ones(n, np.float32))
        self.b = cuda.to_device(np.ones(n, np.float32))
        self.sync = cuda.synchronize
        self.calls = {
            "assign_add": lambda: assign.assign_add(self.a, self.b),
            "random_normal": lambda: init.random_normal(self.a, 1, 2),
            "copy": lambda: self.a.copy_to_device(self.b),
        }
        self.calls[kernel]()
        self.sync()

    def time_kernel(self, kernel):
        self.calls[kernel]()
        self.sync()
