"""replica_device_setter and its strategies, replayed against devices TensorFlow 1.x chose.

The scenarios and TensorFlow's devices are in tests/golden/devices/tf_devices.json
(``/opt/tfenv/bin/python tests/golden/devices/regenerate.py`` rewrites it): each op is rebuilt here
as a small fake op and placed through numflow's device stack and setter.
"""

import json
import logging
import pathlib

import pytest

from numflow.framework import dtypes
from numflow.framework.device_spec import apply_device_stack, device_function
from numflow.framework.shapes import TensorShape
from numflow.train.cluster import ClusterSpec
from numflow.train.device_setter import (
    STANDARD_PS_OPS,
    GreedyLoadBalancingStrategy,
    byte_size_load_fn,
    replica_device_setter,
)

GOLDEN_FILE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "devices" / "tf_devices.json"
REGENERATE = "run `/opt/tfenv/bin/python tests/golden/devices/regenerate.py` to rewrite the golden file"
GOLDEN = json.loads(GOLDEN_FILE.read_text())
GUIDE_CLUSTER = {
    "ps": ["ps0:2222", "ps1:2222"],
    "worker": ["worker0:2222", "worker1:2222", "worker2:2222"],
}


class FakeTensor:
    def __init__(self, shape, dtype):
        self._shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)

    def get_shape(self):
        return self._shape


class FakeOp:
    """What a device function sees of an op: type, name, device, outputs, and optional attrs."""

    def __init__(self, type="VariableV2", name="v", device="", shape=(2, 2), dtype="float32", attrs=None):  # noqa: A002
        self.type, self.name, self.device = type, name, device
        self.outputs = [] if type == "NoOp" else [FakeTensor(shape, dtype)]
        self._attrs = attrs or {}

    def get_attr(self, name):
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self.name!r} has no attr named {name!r}.") from None


def make_setter(kwargs):
    kwargs = dict(kwargs)
    strategy = kwargs.pop("strategy", None)
    if strategy is not None:
        n = len(kwargs["cluster"]["ps"]) if "cluster" in kwargs else kwargs["ps_tasks"]
        load_fn = byte_size_load_fn if strategy == "greedy_bytes" else (lambda op: 1)
        kwargs["ps_strategy"] = GreedyLoadBalancingStrategy(n, load_fn)
    return replica_device_setter(**kwargs)


@pytest.mark.parametrize("scenario", GOLDEN["setters"], ids=lambda s: s["name"])
def test_devices_match_tensorflow(scenario):
    setters = [make_setter(kwargs) for kwargs in scenario["setters"]]
    assert [s is None for s in setters] == scenario["setters_are_none"], REGENERATE
    got = []
    for i, case in enumerate(scenario["ops"]):
        stack = [setters[e["setter"]] if isinstance(e, dict) else e for e in case["stack"]]
        op = FakeOp(case["type"], f"op_{i}", "", case["shape"], case["dtype"])
        got.append(apply_device_stack([device_function(x) for x in stack], op))
    assert got == [case["device"] for case in scenario["ops"]], REGENERATE


def test_golden_covers_the_guide():
    names = {s["name"] for s in GOLDEN["setters"]}
    assert {"guide_cluster", "greedy_byte_size", "inner_scopes_win", "outer_scopes_fill_in"} <= names


def test_guide_example():
    # The "Device placement" guide: variables go to /job:ps/task:0, /job:ps/task:1, ... in turn.
    guide = GOLDEN["guide"]
    assert guide["variable_op_type"] == "VariableV2"
    setter = replica_device_setter(cluster=GUIDE_CLUSTER)
    devices = []
    for name in ("v", "v1", "v2", "v3"):
        devices.append(apply_device_stack([setter], FakeOp(guide["variable_op_type"], name)))
        # A variable's initial value and initializer are not ps ops: they go to the worker.
        assert apply_device_stack([setter], FakeOp("Const", name + "/initial_value")) == "/job:worker"
    assert devices == guide["variable_devices"] == ["/job:ps/task:0", "/job:ps/task:1"] * 2
    assert apply_device_stack([setter], FakeOp("MatMul")) == guide["other_op_device"] == "/job:worker"


def test_cluster_spec_object_and_dict_agree():
    a = replica_device_setter(cluster=GUIDE_CLUSTER)
    b = replica_device_setter(cluster=ClusterSpec(GUIDE_CLUSTER))
    ops = ["VariableV2", "Add", "VarHandleOp", "VariableV2", "VariableV2"]
    assert [a(FakeOp(t)) for t in ops] == [b(FakeOp(t)) for t in ops]


def test_standard_ps_ops():
    assert STANDARD_PS_OPS[:11] == (
        "Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
        "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
        "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
    )  # fmt: skip
    setter = replica_device_setter(ps_tasks=len(STANDARD_PS_OPS))
    assert [setter(FakeOp(t)) for t in STANDARD_PS_OPS] == [
        f"/job:ps/task:{i}" for i in range(len(STANDARD_PS_OPS))
    ]


def test_no_ps_tasks_gives_none():
    assert replica_device_setter() is None
    assert replica_device_setter(ps_tasks=0, cluster=None) is None
    assert replica_device_setter(cluster={"worker": ["w0"]}) is None
    assert replica_device_setter(cluster={"ps": [], "worker": ["w0"]}) is None
    assert replica_device_setter(cluster=GUIDE_CLUSTER, ps_device="/job:param") is None
    # cluster wins over ps_tasks
    assert replica_device_setter(ps_tasks=3, cluster={"worker": ["w0"]}) is None


def test_ps_tasks_come_from_the_cluster():
    setter = replica_device_setter(ps_tasks=5, cluster={"ps": ["a", "b", "c"]})
    assert [setter(FakeOp()) for _ in range(4)] == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:2", "/job:ps/task:0",
    ]  # fmt: skip


def test_errors():
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        replica_device_setter(ps_tasks=2, ps_strategy=3)
    with pytest.raises(TypeError, match="`cluster` must be a dictionary"):
        replica_device_setter(cluster=["ps0:2222"])
    with pytest.raises(ValueError, match='"/job:ps/gpuu:0"'):
        replica_device_setter(ps_tasks=1, ps_device="/job:ps/gpuu:0")
    with pytest.raises(ValueError, match='"/wrker:0"'):
        replica_device_setter(ps_tasks=1, worker_device="/wrker:0")


def test_merge_devices_false_warns_and_keeps_set_devices(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        setter = replica_device_setter(ps_tasks=2, merge_devices=False)
    assert "merge_devices=true" in caplog.text
    assert setter(FakeOp(device="/gpu:1")) == "/gpu:1"  # as it was, not canonical: untouched
    assert setter(FakeOp()) == "/job:ps/task:0"


def test_ps_ops_may_be_one_string():
    setter = replica_device_setter(ps_tasks=2, ps_ops="VariableV2")
    assert setter(FakeOp("Variable")) == "/job:worker"  # no substring match
    assert setter(FakeOp("VariableV2")) == "/job:ps/task:0"


def test_custom_strategy_gets_the_op():
    seen = []

    def by_name(op):
        seen.append(op.name)
        return 1 if op.name.startswith("embedding") else 0

    setter = replica_device_setter(ps_tasks=2, ps_strategy=by_name)
    assert setter(FakeOp(name="embedding/w")) == "/job:ps/task:1"
    assert setter(FakeOp(name="dense/w")) == "/job:ps/task:0"
    assert setter(FakeOp("Add", name="add")) == "/job:worker"
    assert seen == ["embedding/w", "dense/w"]


def test_strategy_numpy_result():
    np = pytest.importorskip("numpy")
    setter = replica_device_setter(ps_tasks=2, ps_strategy=lambda op: np.int64(1))
    assert setter(FakeOp()) == "/job:ps/task:1"


# -- strategies ------------------------------------------------------------------------------------
def test_greedy_uniform_load_is_round_robin():
    strategy = GreedyLoadBalancingStrategy(3, lambda op: 1)
    assert [strategy(None) for _ in range(7)] == [0, 1, 2, 0, 1, 2, 0]


def test_greedy_byte_size():
    # TensorFlow's contrib test: [2,2], [2,1], [2,2], [1,3] float32 on two ps tasks -> 0, 1, 1, 0.
    strategy = GreedyLoadBalancingStrategy(2, byte_size_load_fn)
    shapes = [(2, 2), (2, 1), (2, 2), (1, 3)]
    assert [strategy(FakeOp(shape=s)) for s in shapes] == [0, 1, 1, 0]
    assert isinstance(strategy(FakeOp()), int)


def test_byte_size_load_fn():
    assert byte_size_load_fn(FakeOp(shape=(20, 20))) == 1600
    assert byte_size_load_fn(FakeOp(shape=(3,), dtype="float64")) == 24
    assert byte_size_load_fn(FakeOp(shape=(), dtype="int8")) == 1


def test_byte_size_load_fn_falls_back_to_the_shape_attr():
    op = FakeOp(shape=None, attrs={"shape": TensorShape([4, 5])})
    assert byte_size_load_fn(op) == 80
    assert byte_size_load_fn(FakeOp(shape=None, attrs={"shape": [2]})) == 8


@pytest.mark.parametrize(
    "op",
    [FakeOp(shape=None), FakeOp(shape=(None, 3)), FakeOp(shape=None, attrs={"shape": [None]})],
    ids=["unknown rank", "unknown dim", "unknown attr"],
)
def test_byte_size_load_fn_unknown_shape(op):
    with pytest.raises(ValueError, match=r"is not fully defined: byte_size_load_fn cannot size op 'v'"):
        byte_size_load_fn(op)


def test_byte_size_load_fn_needs_one_output():
    with pytest.raises(ValueError, match="Op 'v' must have a single output, has 0"):
        byte_size_load_fn(FakeOp("NoOp"))
    op = FakeOp()
    op.outputs = op.outputs * 2
    with pytest.raises(ValueError, match="must have a single output, has 2"):
        byte_size_load_fn(op)


def test_greedy_in_a_setter_unknown_shape_fails_at_op_creation():
    setter = replica_device_setter(ps_tasks=2, ps_strategy=GreedyLoadBalancingStrategy(2, byte_size_load_fn))
    with pytest.raises(ValueError, match="not fully defined"):
        apply_device_stack([setter], FakeOp(shape=None))
