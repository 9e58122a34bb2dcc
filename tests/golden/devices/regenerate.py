"""Regenerate tf_devices.json: the devices TensorFlow 1.x gives ops under tf.device scopes.

Run with a Python that has TensorFlow (2.x, used through ``tensorflow.compat.v1`` in graph mode)::

    /opt/tfenv/bin/python tests/golden/devices/regenerate.py

It rewrites ``tf_devices.json`` beside this file. The tests in ``tests/framework/test_device_spec.py``
and ``tests/train/test_device_setter.py`` replay every case through numflow and compare.

The file holds three tables:

- ``parse``: a device string and the ``op.device`` of a ``tf.no_op()`` created under
  ``tf.device(string)``, or the class of the error TensorFlow raises.
- ``stacks``: nested ``tf.device`` scopes (outermost first; strings, null, or ``{"fn": NAME}`` for a
  device function from ``device_functions``) and the resulting ``op.device``.
- ``setters``: scenarios for ``replica_device_setter``: the setters' arguments, then a sequence of
  ops, each with its type, output shape and dtype, the scopes it was created under (``{"setter": i}``
  for the i-th setter of the scenario) and the device TensorFlow gave it.

TensorFlow 2 no longer ships ``tf.contrib.training.GreedyLoadBalancingStrategy`` and
``byte_size_load_fn``; for the ``greedy_*`` strategies this script uses a short equivalent of them
(argmin over the loads so far) on TensorFlow's own ops, shapes and dtype sizes.

This module imports TensorFlow only in ``main``: the tests import ``device_functions`` from it.
"""

import contextlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "tf_devices.json")


def device_functions(device_spec_class):
    """Device functions the ``stacks`` table names; ``device_spec_class`` is TF's or numflow's."""
    return {
        "gpu0": lambda op: "/gpu:0",
        "ps_cpu1": lambda op: "/job:ps/cpu:1",
        "spec_ps_cpu": lambda op: device_spec_class(job="ps", device_type="cpu"),
        "empty": lambda op: "",
        "echo": lambda op: op.device,
        "by_type": lambda op: "/gpu:0" if op.type == "VariableV2" else "/cpu:0",
    }


PARSE = [
    "", "/cpu:0", "/gpu:0", "/gpu:1", "/device:GPU:1", "/job:ps/task:7",
    "/job:worker/replica:0/task:1/device:CPU:0",
    "/device:CPU:*", "/cpu:*", "/gpu", "/CPU:0", "/Gpu:2", "cpu:0", "job:ps", "//cpu:0", "/job:ps/",
    "/device:gpu:0", "/device:tpu:0", "/device:XLA_CPU:0", "/TPU:0", "/epu:0", "/device:CUSTOM:1",
    "/job:ps", "/task:3", "/replica:2", "/job:ps/job:w", "/gpu:0/job:ps", "/task:0010",
    "/job:worker/task:1/device:GPU:0", "/job:localhost/replica:0/task:0/device:CPU:0",
    # errors
    "/gpuu:0", "/device:GPU", "/job:ps:1", "/cpu:0/gpu:0", "/device:CPU:0/cpu:0", "/task:x", "/gpu:x",
    "/device:GPU:", "/replica:", " /cpu:0", "/device:GPU:1:2", "/foo", "/cpu:0:1",
]


STACKS = [
    ["/job:worker", "/gpu:1"],
    ["/job:worker/task:1/cpu:0", "/job:ps/gpu:1"],
    ["/device:GPU:0", "/job:worker", "/device:CPU:0", "/job:ps"],
    ["/job:worker", None, "/gpu:0"],
    ["/job:worker", None],
    [None, "/job:worker"],
    ["/job:worker", ""],
    ["", "/gpu:0"],
    ["/job:ps/task:0", "/task:1", "/replica:3"],
    [{"fn": "gpu0"}],
    [{"fn": "gpu0"}, "/job:w/task:2"],
    ["/job:w/task:2/cpu:3", {"fn": "gpu0"}],
    ["/job:worker/task:2/device:GPU:3", {"fn": "ps_cpu1"}],
    [{"fn": "spec_ps_cpu"}],
    ["/task:1/gpu:2", {"fn": "spec_ps_cpu"}],
    [{"fn": "empty"}],
    ["/job:w/gpu:0", {"fn": "empty"}],
    ["/job:w", {"fn": "echo"}],
    [{"fn": "echo"}, "/gpu:0"],
    [{"fn": "ps_cpu1"}, {"fn": "gpu0"}],
    ["/job:w", {"fn": "gpu0"}],
    ["/job:w", None, {"fn": "gpu0"}],
    [{"fn": "gpu0"}, None],
    [{"fn": "by_type"}],
]

GUIDE_CLUSTER = {
    "ps": ["ps0:2222", "ps1:2222"],
    "worker": ["worker0:2222", "worker1:2222", "worker2:2222"],
}
S0 = {"setter": 0}
S1 = {"setter": 1}


def _op(type_, *stack, shape=(2, 2), dtype="float32"):
    return {"type": type_, "stack": list(stack) if stack else [S0], "shape": list(shape), "dtype": dtype}


def _mixed(*stack):
    return [
        _op("VariableV2", *stack), _op("Const", *stack), _op("VariableV2", *stack), _op("NoOp", *stack),
        _op("VarHandleOp", *stack), _op("Placeholder", *stack), _op("MutableHashTableV2", *stack),
        _op("VariableV2", *stack), _op("VariableV2", *stack),
    ]


SETTERS = [
    {"name": "guide_cluster", "setters": [{"cluster": GUIDE_CLUSTER}], "ops": _mixed()},
    {"name": "ps_tasks_3", "setters": [{"ps_tasks": 3}], "ops": _mixed()},
    {
        "name": "ps_tasks_with_worker_task",
        "setters": [{"ps_tasks": 2, "worker_device": "/job:worker/task:1"}],
        "ops": _mixed(),
    },
    {
        "name": "custom_ps_and_worker_devices",
        "setters": [{
            "cluster": GUIDE_CLUSTER, "ps_device": "/job:ps/device:GPU:0",
            "worker_device": "/job:worker/task:2/device:CPU:0",
        }],
        "ops": _mixed(),
    },
    {
        "name": "ps_job_named_param",
        "setters": [{"cluster": {"param": ["p0", "p1", "p2"], "worker": ["w0"]}, "ps_device": "/job:param"}],
        "ops": _mixed(),
    },
    {
        "name": "sparse_ps_job",
        "setters": [{"cluster": {"ps": {0: "ps0", 5: "ps5"}, "worker": ["w0"]}}],
        "ops": _mixed(),
    },
    {
        "name": "inner_scopes_win",
        "setters": [{"cluster": GUIDE_CLUSTER}],
        "ops": [
            _op("VariableV2", S0, "/cpu:0"),
            _op("VariableV2", S0, "/job:ps/task:5"),  # same job: task kept, a turn is used up
            _op("VariableV2", S0),
            _op("VariableV2", S0, "/job:worker/task:3"),  # another job: no turn used
            _op("VariableV2", S0),
            _op("Const", S0, "/job:ps"),
            _op("Const", S0, "/gpu:1"),
            _op("Const", S0, "/task:4"),
            _op("VariableV2", S0, "/device:GPU:1"),
            _op("VariableV2", S0, None),
            _op("Const", S0, None),
            _op("VariableV2", S0, ""),
        ],
    },
    {
        "name": "outer_scopes_fill_in",
        "setters": [{"cluster": GUIDE_CLUSTER}],
        "ops": [
            _op("VariableV2", "/job:worker/task:1/gpu:0", S0),
            _op("Const", "/job:worker/task:1/gpu:0", S0),
            _op("VariableV2", "/job:worker/task:1/gpu:0", S0),
            _op("VariableV2", "/cpu:0", S0, "/task:7"),
            _op("NoOp", "/replica:2", S0),
            _op("VariableV2", S0, None),  # the setter is outside the None: ignored
        ],
    },
    {
        "name": "merge_devices_false",
        "setters": [{"cluster": GUIDE_CLUSTER, "merge_devices": False}],
        "ops": [
            _op("VariableV2", S0, "/cpu:0"),
            _op("VariableV2", S0),
            _op("Const", S0, "/gpu:1"),
            _op("Const", S0),
            _op("VariableV2", S0, "/job:ps"),
            _op("VariableV2", S0),
        ],
    },
    {
        "name": "custom_ps_ops",
        "setters": [{"ps_tasks": 2, "ps_ops": ["Const", "NoOp"]}],
        "ops": _mixed(),
    },
    {"name": "empty_ps_device", "setters": [{"ps_tasks": 2, "ps_device": ""}], "ops": _mixed()},
    {"name": "empty_worker_device", "setters": [{"ps_tasks": 2, "worker_device": ""}], "ops": _mixed()},
    {
        "name": "nested_setters",
        "setters": [{"cluster": GUIDE_CLUSTER}, {"ps_tasks": 3, "ps_device": "/job:ps2"}],
        "ops": [
            _op("VariableV2", S0, S1), _op("Const", S0, S1), _op("VariableV2", S0, S1),
            _op("VariableV2", S0), _op("VariableV2", S1, S0), _op("VariableV2", S1, S0),
        ],
    },
    {
        "name": "no_ps_in_cluster_gives_none",
        "setters": [{"cluster": {"worker": ["w0", "w1"]}}],
        "ops": [_op("VariableV2", "/job:worker/cpu:0", S0), _op("Const", "/job:worker/cpu:0", S0)],
    },
    {
        "name": "greedy_uniform_equals_round_robin",
        "setters": [{"cluster": GUIDE_CLUSTER, "strategy": "greedy_uniform"}],
        "ops": [
            _op("VariableV2", shape=(2, 2)), _op("VariableV2", shape=(2, 1)),
            _op("VariableV2", shape=(2, 2)), _op("VariableV2", shape=(1, 3)), _op("Const"),
        ],
    },
    {
        "name": "greedy_byte_size",
        "setters": [{"cluster": GUIDE_CLUSTER, "strategy": "greedy_bytes"}],
        "ops": [
            _op("VariableV2", shape=(2, 2)), _op("VariableV2", shape=(2, 1)),
            _op("VariableV2", shape=(2, 2)), _op("VariableV2", shape=(1, 3)), _op("Const"),
        ],
    },
    {
        "name": "greedy_byte_size_three_tasks_dtypes",
        "setters": [{"ps_tasks": 3, "strategy": "greedy_bytes"}],
        "ops": [
            _op("VariableV2", shape=(100,), dtype="float64"), _op("VariableV2", shape=(100,), dtype="int8"),
            _op("VariableV2", shape=(10, 10), dtype="float32"), _op("VariableV2", shape=(), dtype="int32"),
            _op("VariableV2", shape=(3, 7), dtype="int64"), _op("VariableV2", shape=(50,), dtype="float16"),
            _op("VariableV2", shape=(8,), dtype="float64"), _op("Placeholder", shape=(4,)),
            _op("VariableV2", shape=(1,), dtype="uint8"),
        ],
    },
]


# -- TensorFlow side ---------------------------------------------------------------------------
def main():
    import numpy as np
    import tensorflow as tf_root
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    functions = device_functions(tf.DeviceSpec)

    def make_op(case):
        shape, dtype = case.get("shape", [2, 2]), tf.as_dtype(case.get("dtype", "float32"))
        kind = case.get("type", "NoOp")
        if kind == "VariableV2":
            return tf.raw_ops.VariableV2(shape=shape, dtype=dtype).op
        if kind == "VarHandleOp":
            return tf.raw_ops.VarHandleOp(dtype=dtype, shape=shape).op
        if kind == "MutableHashTableV2":
            return tf.raw_ops.MutableHashTableV2(key_dtype=tf.string, value_dtype=tf.int64).op
        if kind == "Const":
            return tf.constant(np.zeros(shape, dtype.as_numpy_dtype)).op
        if kind == "Placeholder":
            return tf.placeholder(dtype, shape).op
        if kind == "NoOp":
            return tf.no_op()
        raise ValueError(kind)

    def run(stack, case, setters=()):
        with contextlib.ExitStack() as scopes:
            for entry in stack:
                if isinstance(entry, dict) and "fn" in entry:
                    entry = functions[entry["fn"]]
                elif isinstance(entry, dict):
                    entry = setters[entry["setter"]]
                scopes.enter_context(tf.device(entry))
            op = make_op(case)
        assert op.type == case.get("type", "NoOp"), (op.type, case)
        return op.device

    parse = []
    for spec in PARSE:
        with tf.Graph().as_default():
            try:
                parse.append({"spec": spec, "device": run([spec], {})})
            except Exception as e:  # noqa: BLE001 - the class is the result
                parse.append({"spec": spec, "error": type(e).__name__})

    stacks = []
    for stack in STACKS:
        with tf.Graph().as_default():
            stacks.append({"stack": stack, "device": run(stack, {})})

    def greedy(num_tasks, load_fn):
        loads = np.zeros(num_tasks)

        def strategy(op):
            task = int(np.argmin(loads))
            loads[task] += load_fn(op)
            return task

        return strategy

    def byte_size(op):
        out = op.outputs[0]
        return out.get_shape().num_elements() * out.dtype.size

    scenarios = []
    for scenario in SETTERS:
        setters = []
        for kwargs in scenario["setters"]:
            kwargs = dict(kwargs)
            strategy = kwargs.pop("strategy", None)
            if strategy is not None:
                n = len(kwargs["cluster"]["ps"]) if "cluster" in kwargs else kwargs["ps_tasks"]
                load_fn = byte_size if strategy == "greedy_bytes" else (lambda op: 1)
                kwargs["ps_strategy"] = greedy(n, load_fn)
            setters.append(tf.train.replica_device_setter(**kwargs))
        ops = []
        with tf.Graph().as_default():
            for case in scenario["ops"]:
                ops.append(dict(case, device=run(case["stack"], case, setters)))
        scenarios.append(dict(scenario, setters_are_none=[s is None for s in setters], ops=ops))

    # The guide's example, through tf.get_variable and tf.Variable as a user writes it.
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(cluster=GUIDE_CLUSTER)):
            v = tf.get_variable("v", shape=[20, 20])
            v1, v2, v3 = (tf.Variable(tf.zeros([3])) for _ in range(3))
            product = tf.matmul(v, v)
        guide = {
            "variable_op_type": v.op.type,
            "variable_devices": [x.device for x in (v, v1, v2, v3)],
            "other_op_device": product.device,
        }

    golden = {
        "how_to_regenerate": "/opt/tfenv/bin/python tests/golden/devices/regenerate.py",
        "tensorflow_version": tf_root.__version__,
        "parse": parse,
        "stacks": stacks,
        "setters": scenarios,
        "guide": guide,
    }
    with open(GOLDEN, "w") as f:
        json.dump(golden, f, indent=1)
        f.write("\n")
    print(f"wrote {GOLDEN}: {len(parse)} strings, {len(stacks)} stacks, {len(scenarios)} setter scenarios")


if __name__ == "__main__":
    main()
