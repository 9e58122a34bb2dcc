"""The ``checkpoint`` state file: TF's exact text, every text-format escape, path resolution."""

import logging
import math
import os
import random
import re

import pytest

from numflow.checkpoint.bundle import write_bundle
from numflow.checkpoint.state import (
    CheckpointState,
    TextFormatError,
    checkpoint_exists,
    format_checkpoint_state,
    generate_checkpoint_state_proto,
    get_checkpoint_state,
    latest_checkpoint,
    parse_checkpoint_state,
    update_checkpoint_state,
)

# What TF 2.21's update_checkpoint_state_internal wrote (save_relative_paths=True, two timestamps).
TF_WRITTEN = (b'model_checkpoint_path: "m\xc3\xb6del-1\\ttab\\"q\\\'x\\\\y\\001"\n'
              b'all_model_checkpoint_paths: "a"\n'
              b'all_model_checkpoint_paths: "m\xc3\xb6del-1\\ttab\\"q\\\'x\\\\y\\001"\n'
              b'all_model_checkpoint_timestamps: 1.0\n'
              b'all_model_checkpoint_timestamps: 1795237184.1682575\n'
              b'last_preserved_timestamp: 3.5\n')
ODD = "mödel-1\ttab\"q'x\\y\x01"


def test_spec_example_text():
    text = format_checkpoint_state(CheckpointState("model-4", ["model-3", "model-4"]))
    assert text == ('model_checkpoint_path: "model-4"\nall_model_checkpoint_paths: "model-3"\n'
                    'all_model_checkpoint_paths: "model-4"\n')


def test_writes_what_tf_writes(tmp_path):
    update_checkpoint_state(tmp_path, ODD, ["a", ODD], all_model_checkpoint_timestamps=[1.0, 1795237184.1682575],
                            last_preserved_timestamp=3.5, save_relative_paths=True)
    assert (tmp_path / "checkpoint").read_bytes() == TF_WRITTEN
    assert os.listdir(tmp_path) == ["checkpoint"]


def test_generated_states_are_tensorflows():
    """What TF 2.21's tf.train.generate_checkpoint_state_proto gives (its text format), and its error."""
    relative = generate_checkpoint_state_proto("ckpts", "ckpts/model-4", ["ckpts/model-3"])
    assert format_checkpoint_state(relative) == ('model_checkpoint_path: "model-4"\nall_model_checkpoint_paths: '
                                                 '"model-3"\nall_model_checkpoint_paths: "model-4"\n')
    absolute = generate_checkpoint_state_proto("/abs/ckpts", "/abs/ckpts/model-4",
                                               all_model_checkpoint_timestamps=[5.0], last_preserved_timestamp=2.5)
    assert format_checkpoint_state(absolute) == (
        'model_checkpoint_path: "/abs/ckpts/model-4"\nall_model_checkpoint_paths: "/abs/ckpts/model-4"\n'
        "all_model_checkpoint_timestamps: 5.0\nlast_preserved_timestamp: 2.5\n")
    with pytest.raises(ValueError, match=re.escape("must match checkpoint paths (got paths ['d/a', 'd/m'] and "
                                                   "timestamps [1.0])")):
        generate_checkpoint_state_proto("d", "d/m", ["d/a"], [1.0])


def test_control_characters_as_tf_escapes_them():
    text = format_checkpoint_state(CheckpointState("a\x7fb\nc\rd\x1f", ["a\x7fb\nc\rd\x1f"]))
    assert text.startswith('model_checkpoint_path: "a\\177b\\nc\\rd\\037"\n')


def test_reads_what_tf_writes():
    state = parse_checkpoint_state(TF_WRITTEN)
    assert state.model_checkpoint_path == ODD
    assert state.all_model_checkpoint_paths == ["a", ODD]
    assert state.all_model_checkpoint_timestamps == [1.0, 1795237184.1682575]
    assert state.last_preserved_timestamp == 3.5


def test_every_text_format_escape():
    text = r'''model_checkpoint_path: "\n\t\r\'\"\\\a\b\f\v\?|\101\60\0|\x41\x4a\xe9|\u00e9\U0001F600"'''
    expected = "\n\t\r'\"\\\a\b\f\v?|A0\x00|AJ\udce9|é😀"
    assert parse_checkpoint_state(text).model_checkpoint_path == expected


def test_other_text_format_spellings_and_unknown_fields():
    text = """
    # a comment
    unknown_scalar: 12
    model_checkpoint_path: 'single' "-adjacent"   # strings concatenate
    unknown_message { nested: "x" deeper < a: 1 > }
    unknown_list: [1, 2, "three"]
    all_model_checkpoint_paths: ["p1", 'p2'];
    all_model_checkpoint_paths: "p3",
    all_model_checkpoint_timestamps: 1e3
    all_model_checkpoint_timestamps: -inf
    all_model_checkpoint_timestamps: nan
    last_preserved_timestamp: 5
    [some.extension] { x: 1 }
    [type.googleapis.com/pkg.Any] < y: "z" >
    """
    state = parse_checkpoint_state(text)
    assert state.model_checkpoint_path == "single-adjacent"
    assert state.all_model_checkpoint_paths == ["p1", "p2", "p3"]
    assert state.all_model_checkpoint_timestamps[:2] == [1000.0, -math.inf]
    assert math.isnan(state.all_model_checkpoint_timestamps[2])
    assert state.last_preserved_timestamp == 5.0


@pytest.mark.parametrize("text", ['model_checkpoint_path: "unterminated', "model_checkpoint_path: 12",
                                  'model_checkpoint_path: "bad \\q escape"', "x {", "@"])
def test_invalid_text(text):
    with pytest.raises(TextFormatError):
        parse_checkpoint_state(text)


def test_format_parse_round_trip_random_strings():
    rng = random.Random(3)
    alphabet = [chr(c) for c in range(0, 200)] + ["é", "😀", "\\", '"', "'"]
    for _ in range(200):
        paths = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12))) for _ in range(3)]
        state = CheckpointState(paths[-1] or "x", paths, [rng.random() * 1e9 for _ in paths], 0.0)
        assert parse_checkpoint_state(format_checkpoint_state(state)) == state


def test_get_checkpoint_state_resolves_relative_paths(tmp_path):
    (tmp_path / "checkpoint").write_text(f'model_checkpoint_path: "model-2"\n'
                                         f'all_model_checkpoint_paths: "{tmp_path}/abs-1"\n'
                                         f'all_model_checkpoint_paths: "model-2"\n')
    state = get_checkpoint_state(tmp_path)
    assert state.model_checkpoint_path == os.path.join(str(tmp_path), "model-2")
    assert state.all_model_checkpoint_paths == [f"{tmp_path}/abs-1", os.path.join(str(tmp_path), "model-2")]


def test_get_checkpoint_state_missing_garbage_and_empty(tmp_path, caplog):
    assert get_checkpoint_state(tmp_path) is None
    (tmp_path / "checkpoint").write_text("this is { not valid")
    with caplog.at_level(logging.WARNING):
        assert get_checkpoint_state(tmp_path) is None
    assert "Checkpoint ignored" in caplog.text
    (tmp_path / "checkpoint").write_text('all_model_checkpoint_paths: "x"\n')
    with pytest.raises(ValueError, match="Invalid checkpoint state loaded from"):
        get_checkpoint_state(tmp_path)


def test_update_appends_the_newest_and_handles_relative_dirs(tmp_path, monkeypatch):
    state = update_checkpoint_state(tmp_path, str(tmp_path / "model-3"), [str(tmp_path / "model-2")])
    assert state.all_model_checkpoint_paths == [str(tmp_path / "model-2"), str(tmp_path / "model-3")]
    state = update_checkpoint_state(tmp_path, str(tmp_path / "model-4"), save_relative_paths=True)
    assert (tmp_path / "checkpoint").read_text() == ('model_checkpoint_path: "model-4"\n'
                                                     'all_model_checkpoint_paths: "model-4"\n')
    monkeypatch.chdir(tmp_path)
    os.mkdir("ckpts")
    update_checkpoint_state("ckpts", "ckpts/model-5", ["ckpts/model-4", "ckpts/model-5"])
    assert (tmp_path / "ckpts" / "checkpoint").read_text().startswith('model_checkpoint_path: "model-5"\n')
    update_checkpoint_state(tmp_path, str(tmp_path / "model-6"), latest_filename="other_state")
    assert (tmp_path / "other_state").exists()
    assert get_checkpoint_state(tmp_path, "other_state").model_checkpoint_path == str(tmp_path / "model-6")
    with pytest.raises(RuntimeError, match="conflicts with path used for checkpoint state"):
        update_checkpoint_state(tmp_path, str(tmp_path / "checkpoint"))
    with pytest.raises(ValueError, match="timestamps"):
        update_checkpoint_state(tmp_path, "m", ["a", "m"], all_model_checkpoint_timestamps=[1.0])


def test_latest_checkpoint_and_checkpoint_exists(tmp_path, caplog):
    assert latest_checkpoint(tmp_path) is None
    prefix = write_bundle(tmp_path / "model-1", {"v": 1.0})
    assert checkpoint_exists(prefix) and not checkpoint_exists(tmp_path / "model-2")
    assert checkpoint_exists(str(tmp_path / "model-?"))
    update_checkpoint_state(tmp_path, prefix)
    assert latest_checkpoint(tmp_path) == prefix
    update_checkpoint_state(tmp_path, str(tmp_path / "model-2"), [prefix])
    with caplog.at_level(logging.ERROR):
        assert latest_checkpoint(tmp_path) is None
    assert "Couldn't match files for checkpoint" in caplog.text
