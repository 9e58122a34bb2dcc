"""DeviceSpec parsing, printing and merging, and nested tf.device scopes, checked against TensorFlow 1.x.

The expected devices come from tests/golden/devices/tf_devices.json, written by real TensorFlow
(``/opt/tfenv/bin/python tests/golden/devices/regenerate.py`` rewrites it).
"""

import dataclasses
import json
import pathlib
import re
from types import SimpleNamespace

import pytest
from golden_scripts import load_script
from hypothesis import given
from hypothesis import strategies as st

from numflow.framework.device_spec import (
    DeviceFunction,
    DeviceSpec,
    apply_device_stack,
    canonical_device,
    check_valid,
    device_function,
    merge_device,
)

GOLDEN_DIR = pathlib.Path(__file__).resolve().parents[1] / "golden" / "devices"
REGENERATE = "run `/opt/tfenv/bin/python tests/golden/devices/regenerate.py` to rewrite the golden file"


def _load_golden():
    with open(GOLDEN_DIR / "tf_devices.json") as f:
        golden = json.load(f)
    module = load_script(GOLDEN_DIR / "regenerate.py")
    return golden, module


GOLDEN, REGEN = _load_golden()
FUNCTIONS = REGEN.device_functions(DeviceSpec)


def op(device="", type="NoOp", name="op"):  # noqa: A002 - TF's attribute name
    return SimpleNamespace(device=device, type=type, name=name)


def resolve(stack):
    return [FUNCTIONS[e["fn"]] if isinstance(e, dict) else e for e in stack]


# -- TensorFlow's goldens ------------------------------------------------------------------------
def test_golden_lists_the_guides_forms():
    specs = {case["spec"] for case in GOLDEN["parse"]}
    for form in ("/cpu:0", "/gpu:0", "/gpu:1", "/device:GPU:1", "/job:ps/task:7", "", "/device:CPU:*"):
        assert form in specs, (form, REGENERATE)
    assert GOLDEN["setters"], REGENERATE


@pytest.mark.parametrize("case", GOLDEN["parse"], ids=lambda c: repr(c["spec"]))
def test_parse_matches_tensorflow(case):
    spec = case["spec"]
    if "error" in case:
        assert case["error"] == "ValueError"
        with pytest.raises(ValueError) as info:
            DeviceSpec.from_string(spec)
        assert f'"{spec}"' in str(info.value)
        with pytest.raises(ValueError):
            device_function(spec)
    else:
        assert canonical_device(spec) == case["device"], REGENERATE
        assert str(DeviceSpec.from_string(spec)) == case["device"]
        assert apply_device_stack([spec], op()) == case["device"]
        # The canonical form is a fixed point.
        assert canonical_device(case["device"]) == case["device"]


@pytest.mark.parametrize("case", GOLDEN["stacks"], ids=lambda c: repr(c["stack"]))
def test_nested_scopes_match_tensorflow(case):
    stack = resolve(case["stack"])
    assert apply_device_stack(stack, op()) == case["device"], REGENERATE
    pushed = [device_function(x) for x in stack]
    assert apply_device_stack(pushed, op()) == case["device"]


@pytest.mark.parametrize("case", GOLDEN["stacks"], ids=lambda c: repr(c["stack"]))
def test_a_graph_loop_over_device_functions_gives_the_same(case):
    # How a Graph may apply its stack itself: innermost first, storing each result on the op.
    new_op = op()
    for fn in reversed([device_function(x) for x in resolve(case["stack"])]):
        if fn is None:
            break
        new_op.device = fn(new_op)
    assert new_op.device == case["device"]


# -- printing ------------------------------------------------------------------------------------
def test_constructor_normalizes_and_prints():
    assert str(DeviceSpec(job="ps", task=7)) == "/job:ps/task:7"
    assert str(DeviceSpec(device_type="gpu", device_index=1)) == "/device:GPU:1"
    assert str(DeviceSpec(device_type="cpu")) == "/device:CPU:*"
    assert str(DeviceSpec(device_type="tpu", device_index=0)) == "/device:tpu:0"  # only cpu/gpu upper-cased
    assert str(DeviceSpec(replica="3", task="1")) == "/replica:3/task:1"
    assert str(DeviceSpec(device_index=1)) == ""  # an index without a type does not print, as in TF
    assert str(DeviceSpec()) == ""
    full = DeviceSpec("worker", 0, 1, "CPU", 0)
    assert full.to_string() == "/job:worker/replica:0/task:1/device:CPU:0"
    fields = (full.job, full.replica, full.task, full.device_type, full.device_index)
    assert fields == ("worker", 0, 1, "CPU", 0)


def test_numpy_integers_are_indices():
    np = pytest.importorskip("numpy")
    assert DeviceSpec(task=np.int64(3)).task == 3
    assert type(DeviceSpec(task=np.int64(3)).task) is int


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"task": -1}, "Bad task index -1"),
        ({"replica": "x"}, "Bad replica index 'x'"),
        ({"device_index": 1.5}, "Bad device index 1.5"),
        ({"task": True}, "Bad task index True"),
        ({"job": ""}, "Bad job name ''"),
        ({"job": "a/b"}, "Bad job name 'a/b'"),
        ({"device_type": "G PU"}, "Bad device type 'G PU'"),
    ],
)
def test_constructor_rejects_bad_fields(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DeviceSpec(**kwargs)


def test_constructor_type_errors():
    with pytest.raises(TypeError):
        DeviceSpec(job=3)
    with pytest.raises(TypeError):
        DeviceSpec(device_type=1)


def test_equality_and_hash_follow_the_printed_form():
    a = DeviceSpec.from_string("/job:ps/cpu:0")
    b = DeviceSpec(job="ps", device_type="CPU", device_index=0)
    assert a == b and hash(a) == hash(b)
    assert len({a, b, DeviceSpec.from_string("/job:ps/device:CPU:0")}) == 1
    assert DeviceSpec(device_index=1) == DeviceSpec()  # as in TensorFlow: both print ""
    assert a != "/job:ps/device:CPU:0"
    assert a != DeviceSpec.from_string("/job:ps/cpu:1")


def test_specs_are_frozen():
    spec = DeviceSpec.from_string("/job:ps")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.job = "worker"
    assert spec.job == "ps"


def test_from_string_accepts_specs_bytes_and_none():
    spec = DeviceSpec.from_string("/gpu:1")
    assert DeviceSpec.from_string(spec) is spec
    assert DeviceSpec.parse(b"/gpu:1") == spec
    assert DeviceSpec.from_string(None) == DeviceSpec()
    assert spec.parse_from_string("/cpu:0") == DeviceSpec.from_string("/cpu:0")
    assert str(spec) == "/device:GPU:1"  # unchanged
    with pytest.raises(TypeError, match="Expected a device string or DeviceSpec, got 5"):
        DeviceSpec.from_string(5)


def test_canonical_device_and_check_valid():
    assert canonical_device(None) == ""
    assert canonical_device(DeviceSpec(job="ps")) == "/job:ps"
    assert canonical_device("/job:ps/task:7") == "/job:ps/task:7"
    assert check_valid("/gpu:0") is None
    with pytest.raises(ValueError, match="gpuu"):
        check_valid("/gpuu:0")


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec, fragments",
    [
        ("/gpuu:0", ["Unknown attribute 'gpuu'", "did you mean 'gpu'?", "/job:NAME/replica:N/task:N/"]),
        ("/jobb:ps", ["Unknown attribute 'jobb'", "did you mean 'job'?"]),
        ("/foo", ["Unknown attribute 'foo'", "expected /job:NAME"]),
        ("/device:GPU", ["Bad component 'device:GPU'", "expected /device:TYPE:N"]),
        ("/job:ps:1", ["Bad component 'job:ps:1'", "expected /job:NAME"]),
        ("/cpu:0:1", ["Bad component 'cpu:0:1'", "/cpu:N"]),
        ("/cpu:0/gpu:0", ["Multiple device types", "'CPU' and 'GPU'"]),
        ("/device:CPU:0/cpu:0", ["Multiple device types"]),
        ("/task:x", ["Bad task index 'x'", "as in /task:0"]),
        ("/replica:", ["Bad replica index ''"]),
        ("/gpu:x", ["Bad device index 'x'", "or '*'", "as in /gpu:0"]),
        ("/device:GPU:", ["Bad device index ''"]),
        (" /cpu:0", ["Unknown attribute ' '"]),
    ],
)
def test_errors_quote_the_string_and_name_the_component(spec, fragments):
    with pytest.raises(ValueError) as info:
        DeviceSpec.from_string(spec)
    message = str(info.value)
    assert f'in device string "{spec}"' in message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("/job:", "Empty job name"),
        ("/device::0", "Bad device type ''"),
        ("/:5", "no attribute name"),
        ("/task:-1", "Bad task index '-1'"),
        ("/task:+1", "Bad task index '+1'"),
        ("/task: 1", "Bad task index ' 1'"),
    ],
)
def test_stricter_than_tensorflow_python(spec, fragment):
    # TensorFlow's Python parser lets these through (its C++ placer rejects most of them later).
    with pytest.raises(ValueError, match=re.escape(fragment)):
        DeviceSpec.from_string(spec)


# -- merging ---------------------------------------------------------------------------------------
def test_make_merged_spec_other_wins():
    base = DeviceSpec.from_string("/job:worker/task:1/device:CPU:0")
    other = DeviceSpec.from_string("/job:ps/gpu:1")
    assert str(base.make_merged_spec(other)) == "/job:ps/task:1/device:GPU:1"
    assert str(base.merge("/replica:2")) == "/job:worker/replica:2/task:1/device:CPU:0"
    assert base.merge("") == base
    # TensorFlow's docstring example: DeviceSpec(job=0, device_type="CPU") merged with GPU.
    assert DeviceSpec(job="0", device_type="CPU").merge(DeviceSpec(device_type="GPU")) == DeviceSpec(
        job="0", device_type="GPU"
    )
    # An index without a type still merges as a field.
    assert str(DeviceSpec.from_string("/gpu").merge(DeviceSpec(device_index=3))) == "/device:GPU:3"


def test_replace():
    spec = DeviceSpec.from_string("/job:ps/task:3/cpu:0")
    assert str(spec.replace(task=None)) == "/job:ps/device:CPU:0"
    assert str(spec.replace(device_type="gpu", device_index=2)) == "/job:ps/task:3/device:GPU:2"
    with pytest.raises(TypeError):
        spec.replace(device="GPU")


def test_is_compatible_with_and_matches():
    ps = DeviceSpec.from_string("/job:ps")
    assert ps.is_compatible_with("/task:3/gpu:0")
    assert not ps.is_compatible_with("/job:worker")
    assert DeviceSpec.from_string("/gpu").is_compatible_with("/gpu:3")
    concrete = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert DeviceSpec.from_string("/cpu:*").matches(concrete)
    assert DeviceSpec.from_string("").matches(concrete)
    assert DeviceSpec.from_string("/job:localhost/cpu:0").matches(concrete)
    assert not DeviceSpec.from_string("/gpu:0").matches(concrete)
    assert not DeviceSpec.from_string("/task:0").matches("/job:localhost")


def test_merge_device_function():
    fn = merge_device("/job:worker/gpu:0")
    assert str(fn(op("/cpu:1"))) == "/job:worker/device:CPU:1"
    assert str(fn(op(None))) == "/job:worker/device:GPU:0"
    with pytest.raises(ValueError):
        merge_device("/gpuu:0")


names = st.sampled_from(["ps", "worker", "chief", "localhost"])
small = st.integers(0, 12)
types = st.sampled_from(["CPU", "GPU", "TPU", "XLA_CPU"])
specs = st.builds(
    DeviceSpec,
    job=st.none() | names,
    replica=st.none() | small,
    task=st.none() | small,
    device_type=st.none() | types,
    device_index=st.none() | small,
)


@given(specs)
def test_to_string_round_trips(spec):
    assert DeviceSpec.from_string(spec.to_string()) == spec
    assert canonical_device(spec.to_string()) == spec.to_string()


@given(specs, specs, specs)
def test_merge_laws(a, b, c):
    assert a.merge(DeviceSpec()) == a and DeviceSpec().merge(a) == a
    assert a.merge(a) == a
    assert a.merge(b).merge(b) == a.merge(b)
    assert a.merge(b).merge(c) == a.merge(b.merge(c))


@given(st.lists(specs, max_size=5))
def test_string_scopes_fold_to_the_merge_of_their_specs(stack):
    expected = DeviceSpec()
    for spec in stack:  # outermost first: each inner scope wins; a scope is its printed string
        expected = expected.merge(str(spec))
    assert apply_device_stack([str(s) for s in stack], op()) == str(expected)


# -- device functions and scopes -----------------------------------------------------------------------
def test_device_function_kinds():
    assert device_function(None) is None
    scope = device_function("/job:ps/cpu:0")
    assert isinstance(scope, DeviceFunction) and not scope.is_null_merge
    assert device_function(scope) is scope
    assert scope(op("/task:3")) == "/job:ps/task:3/device:CPU:0"
    empty = device_function("")
    assert empty.is_null_merge and empty(op("/gpu:0")) == "/gpu:0"
    assert device_function(DeviceSpec(device_index=1)).is_null_merge  # prints "" as in TF
    assert device_function(DeviceSpec(job="ps"))(op()) == "/job:ps"
    assert "/job:ps/device:CPU:0" in repr(scope)


def test_device_function_checks_at_scope_entry():
    with pytest.raises(ValueError, match='"/gpuu:0"'):
        device_function("/gpuu:0")
    with pytest.raises(TypeError, match="tf.device\\(\\) takes a device string"):
        device_function(3)


def test_a_function_sees_the_inner_scopes_and_replaces_the_device():
    seen = []

    def spy(new_op):
        seen.append(new_op.device)
        return "/job:ps/task:0"

    new_op = op()
    assert apply_device_stack(["/job:worker/cpu:1", spy, "/gpu:0", "/task:3"], new_op) == (
        "/job:ps/task:0/device:CPU:1"
    )
    assert seen == ["/task:3/device:GPU:0"]


def test_set_device_is_called_only_before_functions():
    calls = []
    new_op = op()
    apply_device_stack(["/job:w", "/gpu:0"], new_op, set_device=calls.append)
    assert calls == []
    apply_device_stack([lambda o: "/cpu:0", "/job:w"], new_op, set_device=calls.append)
    assert calls == ["/job:w"]
    calls.clear()
    apply_device_stack([lambda o: "/cpu:0", lambda o: ""], op(), set_device=calls.append)
    assert calls == []  # the inner function left the device as it was


def test_an_op_with_a_device_keeps_its_fields():
    assert apply_device_stack(["/job:w/gpu:0"], op("/cpu:1")) == "/job:w/device:CPU:1"
    assert apply_device_stack([None], op("/cpu:1")) == "/cpu:1"
    assert apply_device_stack([], op(None)) == ""


def test_function_returning_none_names_the_function():
    def no_device(new_op):
        return None

    with pytest.raises(TypeError) as info:
        apply_device_stack(["/job:w", no_device], op(name="layer/w"))
    message = str(info.value)
    assert "no_device" in message and "'layer/w'" in message and "return a device string" in message


def test_function_returning_a_bad_string_names_the_function():
    # TensorFlow stores "/gpuu:0" as it is and fails later; numflow fails when the op is created.
    with pytest.raises(ValueError) as info:
        apply_device_stack([lambda new_op: "/gpuu:0"], op(name="v"))
    message = str(info.value)
    assert "<lambda>" in message and "Unknown attribute 'gpuu'" in message and "'v'" in message


def test_function_may_return_bytes_or_spec():
    assert apply_device_stack([lambda o: b"/gpu:0"], op()) == "/gpu:0"
    assert apply_device_stack([lambda o: DeviceSpec(job="ps")], op()) == "/job:ps"


def test_callable_objects_are_device_functions():
    class Chooser:
        def __call__(self, new_op):
            return "/job:ps" if new_op.type == "VariableV2" else ""

    assert apply_device_stack(["/task:1", Chooser()], op(type="VariableV2")) == "/job:ps/task:1"
    assert device_function(Chooser()).display_name.endswith("Chooser")
