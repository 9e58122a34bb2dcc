"""ClusterSpec: the jobs of a distributed program and the network address of each of their tasks."""

__all__ = ["ClusterSpec"]

_CLUSTER_TYPE_ERROR = (
    "`cluster` must be a dictionary mapping one or more job names to lists of network addresses, "
    "or a `ClusterDef` protocol buffer"
)


def _as_str(value, what):
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8")
    raise TypeError(f"{what} {value!r} must be bytes or unicode")


def _task_index(job_name, index):
    try:
        i = int(index)
    except (TypeError, ValueError):
        raise ValueError(
            f"Task index {index!r} for job {job_name!r} is not an integer: "
            "give tasks as a list of addresses or a dict {task_index: address}"
        ) from None
    if i < 0:
        raise ValueError(f"Task index {i} for job {job_name!r} must be non-negative")
    return i


class ClusterSpec:
    """A cluster as a set of tasks organized into jobs, as ``tf.train.ClusterSpec``.

    Parameters
    ----------
    cluster : dict or ClusterSpec
        Job name → list of addresses (task ``i`` at position ``i``), or job name → dict
        ``{task_index: address}`` for a job whose task indices are sparse. Another ClusterSpec is
        copied (its jobs then come in sorted order, as in TensorFlow).

    Raises
    ------
    TypeError
        When ``cluster`` is neither, a job's tasks are neither a list nor a dict, or a job name or
        address is not a string (TensorFlow's messages).
    ValueError
        When a task index is not a non-negative integer.

    Examples
    --------
    >>> cluster = ClusterSpec({"ps": ["ps0:2222", "ps1:2222"],
    ...                        "worker": {1: "worker1:2222"}})
    >>> cluster.jobs, cluster.num_tasks("ps"), cluster.task_address("worker", 1)
    (['ps', 'worker'], 2, 'worker1:2222')
    >>> cluster.as_dict()
    {'ps': ['ps0:2222', 'ps1:2222'], 'worker': {1: 'worker1:2222'}}
    >>> cluster.num_tasks("chief")
    Traceback (most recent call last):
    ...
    ValueError: No such job in cluster: 'chief'
    """

    __hash__ = None  # mutable-looking and compared with dicts, as in TensorFlow: not hashable

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            self._jobs = {job: dict(sorted(tasks.items())) for job, tasks in sorted(cluster._jobs.items())}
            return
        if not isinstance(cluster, dict):
            raise TypeError(_CLUSTER_TYPE_ERROR)
        jobs = {}
        for job_name, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                items = enumerate(tasks)
            elif isinstance(tasks, dict):
                items = ((_task_index(job_name, i), address) for i, address in tasks.items())
            else:
                raise TypeError(
                    f"The tasks for job {job_name!r} must be a list or a dictionary from integers to strings."
                )
            name = _as_str(job_name, "Job name")
            jobs[name] = {i: _as_str(address, "Task address") for i, address in items}
        self._jobs = jobs

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        """Equal to a ClusterSpec with the same tasks, or to a dict ``{job: {index: address}}``."""
        if isinstance(other, ClusterSpec):
            return self._jobs == other._jobs
        if isinstance(other, dict):
            return self._jobs == other
        return NotImplemented

    def __repr__(self):
        jobs = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {jobs[k]!r}" for k in sorted(jobs)) + "})"

    @property
    def jobs(self):
        """The job names, in the order given.

        >>> ClusterSpec({"worker": ["w0:1"], "ps": ["p0:1"]}).jobs
        ['worker', 'ps']
        """
        return list(self._jobs)

    def _job(self, job_name):
        try:
            return self._jobs[job_name]
        except (KeyError, TypeError):
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name):
        """How many tasks ``job_name`` has; ValueError when there is no such job.

        >>> ClusterSpec({"worker": {0: "w0:1", 5: "w5:1"}}).num_tasks("worker")
        2
        """
        return len(self._job(job_name))

    def task_indices(self, job_name):
        """The sorted task indices of ``job_name``; ValueError when there is no such job.

        >>> ClusterSpec({"worker": {5: "w5:1", 0: "w0:1"}}).task_indices("worker")
        [0, 5]
        """
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        """The address of task ``task_index`` of ``job_name``; ValueError when there is none.

        >>> ClusterSpec({"ps": ["ps0:2222"]}).task_address("ps", 1)
        Traceback (most recent call last):
        ...
        ValueError: No task with index 1 in job 'ps'
        """
        job = self._job(job_name)
        try:
            return job[task_index]
        except (KeyError, TypeError):
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name):
        """The addresses of ``job_name`` by task index, None where a sparse job has no task.

        The list's length is one more than the largest index, not the task count: use
        ``num_tasks`` for that. A job with no tasks gives ``[]``.

        >>> ClusterSpec({"worker": {1: "w1:1", 3: "w3:1"}}).job_tasks("worker")
        [None, 'w1:1', None, 'w3:1']
        """
        job = self._job(job_name)
        tasks = [None] * (max(job) + 1 if job else 0)
        for i, address in job.items():
            tasks[i] = address
        return tasks

    def as_dict(self):
        """Job name → list of addresses for a job with dense indices, else → ``{index: address}``.

        A job with no tasks maps to ``{}``. The result is a new dict: changing it leaves the
        ClusterSpec as it is.

        >>> ClusterSpec({"ps": ["p0:1"], "worker": {2: "w2:1"}, "chief": []}).as_dict()
        {'ps': ['p0:1'], 'worker': {2: 'w2:1'}, 'chief': {}}
        """
        out = {}
        for job_name, job in self._jobs.items():
            if job and max(job) + 1 == len(job):
                out[job_name] = self.job_tasks(job_name)
            else:
                out[job_name] = dict(sorted(job.items()))
        return out
