"""replica_device_setter: a device function that puts variables on ps tasks and other ops on workers.

Given to ``tf.device``, the function returned by ``replica_device_setter`` is called with every op
created in the block (see ``numflow.framework.device_spec`` for how it combines with other
``tf.device`` scopes). An op whose type is in ``ps_ops`` (variables, hash tables) goes to
``ps_device`` with a task chosen by ``ps_strategy`` (round robin by default); any other op goes to
``worker_device``. Fields the op's device already sets (from ``tf.device`` blocks inside this one)
win over both.

>>> from types import SimpleNamespace as Op
>>> cluster = {"ps": ["ps0:2222", "ps1:2222"], "worker": ["worker0:2222", "worker1:2222"]}
>>> setter = replica_device_setter(cluster=cluster)
>>> [setter(Op(type=t, device="")) for t in ("VariableV2", "VariableV2", "Add", "VariableV2")]
['/job:ps/task:0', '/job:ps/task:1', '/job:worker', '/job:ps/task:0']
"""

import logging

from numflow.framework.device_spec import DeviceSpec
from numflow.framework.shapes import as_shape
from numflow.train.cluster import ClusterSpec

__all__ = [
    "STANDARD_PS_OPS",
    "GreedyLoadBalancingStrategy",
    "byte_size_load_fn",
    "replica_device_setter",
]

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines

# The op types placed on ps tasks by default: TensorFlow's list, in its order.
STANDARD_PS_OPS = (
    "Variable",
    "VariableV2",
    "AutoReloadVariable",
    "MutableHashTable",
    "MutableHashTableV2",
    "MutableHashTableOfTensors",
    "MutableHashTableOfTensorsV2",
    "MutableDenseHashTable",
    "MutableDenseHashTableV2",
    "VarHandleOp",
    "BoostedTreesEnsembleResourceHandleOp",
    "BoostedTreesQuantileStreamResourceHandleOp",
    "ResourceConditionalAccumulator",
    "DecisionTreeResource",
)


class _RoundRobinStrategy:
    """Ps task indices 0, 1, ..., num_tasks - 1, 0, 1, ... one per ps op (the default strategy)."""

    def __init__(self, num_tasks):
        self._num_tasks = num_tasks
        self._next_task = 0

    def __call__(self, unused_op):
        task = self._next_task
        self._next_task = (task + 1) % self._num_tasks
        return task


class GreedyLoadBalancingStrategy:
    """Put each ps op on the ps task with the least load so far (the lowest index on ties).

    TensorFlow's ``tf.contrib.training.GreedyLoadBalancingStrategy``. The result depends on the order
    in which ps ops are created. Use it as ``ps_strategy`` of ``replica_device_setter``.

    Parameters
    ----------
    num_tasks : int
        The number of ps tasks.
    load_fn : callable
        ``load_fn(op) -> number``: the load the op adds to its task, for example
        ``byte_size_load_fn``.

    Examples
    --------
    >>> strategy = GreedyLoadBalancingStrategy(2, load_fn=lambda op: op)
    >>> [strategy(load) for load in (4, 2, 4, 3)]
    [0, 1, 1, 0]
    """

    def __init__(self, num_tasks, load_fn):
        self._num_tasks = num_tasks
        self._load_fn = load_fn
        self._ps_loads = [0.0] * num_tasks

    def __call__(self, op):
        loads = self._ps_loads
        task = min(range(self._num_tasks), key=loads.__getitem__)
        loads[task] += self._load_fn(op)
        return task


def byte_size_load_fn(op):
    """The size in bytes of an op's single output: a load function for ``GreedyLoadBalancingStrategy``.

    Parameters
    ----------
    op : Operation
        An op with one output, typically a variable op. When the output's shape is not fully
        defined at creation, the op's ``shape`` attribute is used, as TensorFlow does for scalar
        variables.

    Returns
    -------
    int
        Number of elements times the dtype's size.

    Raises
    ------
    ValueError
        When the op does not have exactly one output, or its shape is not fully defined.

    Examples
    --------
    >>> from types import SimpleNamespace as Op
    >>> from numflow.framework import dtypes, shapes
    >>> out = Op(dtype=dtypes.float32, get_shape=lambda: shapes.TensorShape([20, 20]))
    >>> byte_size_load_fn(Op(name="v", outputs=[out]))
    1600
    """
    if len(op.outputs) != 1:
        raise ValueError(f"Op {_op_name(op)} must have a single output, has {len(op.outputs)}")
    output = op.outputs[0]
    elem_size = output.dtype.size
    shape = output.get_shape()
    if not shape.is_fully_defined():
        get_attr = getattr(op, "get_attr", None)
        if get_attr is not None:
            try:
                shape = as_shape(get_attr("shape"))
            except (ValueError, KeyError, TypeError):
                pass
    if not shape.is_fully_defined():
        raise ValueError(
            f"Shape {shape} is not fully defined: byte_size_load_fn cannot size op {_op_name(op)}. "
            "Give the variable a fully defined shape, or use another load_fn."
        )
    return shape.num_elements() * elem_size


def _op_name(op):
    return repr(getattr(op, "name", op))


class _ReplicaDeviceChooser:
    """The state behind the device function ``replica_device_setter`` returns."""

    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
        self._ps_tasks = ps_tasks
        self._use_ps = bool(ps_tasks and ps_device)
        self._ps_device = DeviceSpec.from_string(ps_device)
        self._worker_device = DeviceSpec.from_string(worker_device or "")
        self._merge_devices = merge_devices
        self._ps_ops = frozenset([ps_ops] if isinstance(ps_ops, str) else ps_ops)
        self._ps_strategy = ps_strategy

    def device_function(self, op):
        """The device for ``op``: a ps task for a ps op, else the worker device, under ``op.device``."""
        if not self._merge_devices and op.device:
            return op.device
        current = DeviceSpec.from_string(op.device or "")
        if self._use_ps and op.type in self._ps_ops:
            ps_device = self._ps_device
            # The strategy picks the task only when the op names no other job: an op pinned to
            # another job keeps it and uses up no turn of the strategy.
            if ps_device.job and (not current.job or current.job == ps_device.job):
                ps_device = ps_device.replace(task=self._ps_strategy(op))
            return ps_device.make_merged_spec(current).to_string()
        return self._worker_device.make_merged_spec(current).to_string()


def replica_device_setter(
    ps_tasks=0,
    ps_device="/job:ps",
    worker_device="/job:worker",
    merge_devices=True,
    cluster=None,
    ps_ops=None,
    ps_strategy=None,
):
    """A device function for ``tf.device`` that places variables on ps tasks, other ops on a worker.

    ``tf.compat.v1.train.replica_device_setter``, with the same results. Ops of a type in ``ps_ops``
    go to ``ps_device`` with the task ``ps_strategy(op)`` chosen (round robin over the ps tasks by
    default); other ops go to ``worker_device``. With ``merge_devices`` (the default), the fields an
    op's device already sets, from ``tf.device`` blocks inside this one, win field by field.

    Parameters
    ----------
    ps_tasks : int
        The number of ps tasks; ignored when ``cluster`` is given.
    ps_device : str
        The ps job's device, ``"/job:ps"`` by default; ``""`` uses no ps job.
    worker_device : str
        The device for other ops, ``"/job:worker"`` by default; often ``"/job:worker/task:%d" % i``.
    merge_devices : bool
        If False, an op that already has a device keeps it unchanged (deprecated in TensorFlow).
    cluster : dict or ClusterSpec, optional
        The cluster; ``ps_tasks`` becomes the number of tasks of ``ps_device``'s job in it.
    ps_ops : list of str, optional
        The op types to place on ps tasks; ``STANDARD_PS_OPS`` by default.
    ps_strategy : callable, optional
        ``ps_strategy(op) -> task index`` for each ps op; round robin by default.
        ``GreedyLoadBalancingStrategy(num_tasks, byte_size_load_fn)`` balances bytes instead.

    Returns
    -------
    callable or None
        ``fn(op) -> device string``. None when there are no ps tasks: ``ps_tasks`` is 0, or
        ``cluster`` has no job named by ``ps_device``. Note that ``tf.device(None)`` then ignores
        every ``tf.device`` block outside it, as in TensorFlow.

    Raises
    ------
    TypeError
        When ``cluster`` is not a dict or ClusterSpec, or ``ps_strategy`` is not callable.

    Examples
    --------
    The guide's example: variables go to the ps tasks in turn, other ops to the worker job.

    >>> from types import SimpleNamespace as Op
    >>> cluster_spec = {
    ...     "ps": ["ps0:2222", "ps1:2222"],
    ...     "worker": ["worker0:2222", "worker1:2222", "worker2:2222"]}
    >>> setter = replica_device_setter(cluster=cluster_spec)
    >>> setter(Op(type="VariableV2", device="")), setter(Op(type="VariableV2", device=""))
    ('/job:ps/task:0', '/job:ps/task:1')
    >>> setter(Op(type="MatMul", device=""))
    '/job:worker'

    A device set inside the block wins field by field:

    >>> setter(Op(type="VariableV2", device="/device:CPU:0"))
    '/job:ps/task:0/device:CPU:0'
    >>> replica_device_setter(cluster={"worker": ["worker0:2222"]}) is None
    True
    """
    if cluster is not None:
        if isinstance(cluster, ClusterSpec):
            cluster_spec = cluster.as_dict()
        else:
            cluster_spec = ClusterSpec(cluster).as_dict()
        ps_job_name = DeviceSpec.from_string(ps_device).job
        if ps_job_name not in cluster_spec or cluster_spec[ps_job_name] is None:
            return None
        ps_tasks = len(cluster_spec[ps_job_name])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if not merge_devices:
        _log.warning("DEPRECATION: It is recommended to set merge_devices=true in replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    chooser = _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy)
    return chooser.device_function
