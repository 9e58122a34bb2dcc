"""Session configuration and run options: ConfigProto, RunOptions, RunMetadata, as plain objects."""


class GPUOptions:
    def __init__(self, allow_growth=False, per_process_gpu_memory_fraction=0.0, visible_device_list=""):
        self.allow_growth = allow_growth
        self.per_process_gpu_memory_fraction = per_process_gpu_memory_fraction
        self.visible_device_list = visible_device_list


class ConfigProto:
    """Session settings; the fields TensorFlow's ConfigProto has that numflow acts on.

    ``inter_op_parallelism_threads``: threads running independent ops at once (0: one per core).
    ``intra_op_parallelism_threads``: threads inside one large kernel (0: as many as pay, measured;
    1: one, every kernel serial). Unlike TensorFlow's, it never changes the numbers.
    ``allow_soft_placement``: run an op elsewhere when its device is missing (default True, as TF 2).
    ``log_device_placement``: print each op's device on the first run of each run plan (a run hook).
    """

    def __init__(self, inter_op_parallelism_threads=0, intra_op_parallelism_threads=0,
                 allow_soft_placement=True, log_device_placement=False, device_count=None,
                 gpu_options=None, operation_timeout_in_ms=0, **unused):
        self.inter_op_parallelism_threads = inter_op_parallelism_threads
        self.intra_op_parallelism_threads = intra_op_parallelism_threads
        self.allow_soft_placement = allow_soft_placement
        self.log_device_placement = log_device_placement
        self.device_count = dict(device_count or {})
        self.gpu_options = gpu_options or GPUOptions()
        self.operation_timeout_in_ms = operation_timeout_in_ms


class RunOptions:
    """Per-run options: ``trace_level=RunOptions.FULL_TRACE`` fills RunMetadata.step_stats."""

    NO_TRACE = 0
    SOFTWARE_TRACE = 1
    HARDWARE_TRACE = 2
    FULL_TRACE = 3

    def __init__(self, trace_level=NO_TRACE, timeout_in_ms=0, output_partition_graphs=False):
        self.trace_level = trace_level
        self.timeout_in_ms = timeout_in_ms
        self.output_partition_graphs = output_partition_graphs


class NodeExecStats:
    """One op's execution in a traced run, with the fields of TF's ``NodeExecStats`` that numflow fills.

    ``all_start_micros`` is microseconds since the epoch; ``op_end_rel_micros`` and
    ``all_end_rel_micros`` are relative to it. ``thread_id`` identifies the thread that ran the op
    (``threading.get_ident()``), ``thread_name`` names it. ``timeline_label`` reads
    ``"name = Type(input, input:1)"`` as in TensorFlow, which the timeline uses to draw dataflow.
    """

    __slots__ = ("node_name", "op_type", "device", "thread_id", "thread_name", "all_start_micros",
                 "op_start_rel_micros", "op_end_rel_micros", "all_end_rel_micros", "timeline_label")

    def __init__(self, node_name, op_type, device, thread_id, start_micros, end_micros, inputs=(),
                 thread_name=""):
        self.node_name = node_name
        self.op_type = op_type
        self.device = device
        self.thread_id = thread_id
        self.thread_name = thread_name
        self.all_start_micros = start_micros
        self.op_start_rel_micros = 0
        self.op_end_rel_micros = self.all_end_rel_micros = end_micros - start_micros
        self.timeline_label = f"{node_name} = {op_type}({', '.join(inputs)})"

    def __repr__(self):
        return (f"NodeExecStats({self.node_name!r}, start={self.all_start_micros}, "
                f"dur={self.all_end_rel_micros}, thread={self.thread_name or self.thread_id})")


class DeviceStepStats:
    def __init__(self, device):
        self.device = device
        self.node_stats = []


class StepStats:
    def __init__(self):
        self.dev_stats = []

    def device_stats(self, device):
        for d in self.dev_stats:
            if d.device == device:
                return d
        d = DeviceStepStats(device)
        self.dev_stats.append(d)
        return d


class RunMetadata:
    """Filled by a traced run: ``step_stats.dev_stats[i].node_stats`` per device.

    ``SerializeToString`` gives TensorFlow's ``RunMetadata`` message, as ``FileWriter.add_run_metadata``
    writes it for TensorBoard: threads are numbered in order of appearance per device, their names
    in ``thread_names``.
    """

    def __init__(self):
        self.step_stats = StepStats()
        self.partition_graphs = []

    def to_proto(self):
        """TensorFlow's ``RunMetadata`` message (``numflow.protos.config_pb2``) of these stats."""
        from numflow.protos import config_pb2

        proto = config_pb2.RunMetadata()
        for dev in self.step_stats.dev_stats:
            dev_proto = proto.step_stats.dev_stats.add(device=dev.device)
            threads = {}
            for ns in dev.node_stats:
                thread = threads.setdefault(ns.thread_id, len(threads))
                dev_proto.thread_names[thread] = ns.thread_name
                dev_proto.node_stats.add(
                    node_name=ns.node_name, all_start_micros=ns.all_start_micros,
                    op_start_rel_micros=ns.op_start_rel_micros, op_end_rel_micros=ns.op_end_rel_micros,
                    all_end_rel_micros=ns.all_end_rel_micros, timeline_label=ns.timeline_label,
                    scheduled_micros=ns.all_start_micros, thread_id=thread,
                    all_start_nanos=ns.all_start_micros * 1000, op_start_rel_nanos=ns.op_start_rel_micros * 1000,
                    op_end_rel_nanos=ns.op_end_rel_micros * 1000, all_end_rel_nanos=ns.all_end_rel_micros * 1000,
                    scheduled_nanos=ns.all_start_micros * 1000)
        for graph_def in self.partition_graphs:
            proto.partition_graphs.add().CopyFrom(graph_def)
        return proto

    def SerializeToString(self):  # noqa: N802 - TensorFlow's message method
        return self.to_proto().SerializeToString()
