"""tf.make_template: variables made on the first call and shared on later ones, under TensorFlow's scope names.

``data/tf_template_golden.json`` holds TensorFlow's records of the programs in ``data/template_scenarios.py``;
regenerate it with ``/opt/tfenv/bin/python tests/variables/data/make_tf_template_golden.py``.
"""

import json
import pathlib
import sys

import pytest

import numflow as tf

DATA = pathlib.Path(__file__).with_name("data")
sys.path.insert(0, str(DATA))
from template_scenarios import SCENARIOS, run  # noqa: E402

GOLDEN = json.loads((DATA / "tf_template_golden.json").read_text())
HOW = "regenerate with: /opt/tfenv/bin/python tests/variables/data/make_tf_template_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_numflow_records_what_tensorflow_records(name):
    got = json.loads(json.dumps(run(tf, name)))
    assert got == GOLDEN[name], HOW


def test_errors_say_where_the_template_was_made():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^name cannot be None.$"):
            tf.make_template(None, lambda: None)
        broken = tf.make_template("broken", lambda: tf.get_variable("w"))
        with pytest.raises(ValueError, match="(?s)originally defined at:.*test_template.py"):
            broken()
        assert broken.variable_scope_name == "broken/" and broken.variables == []


def test_variables_by_collection():
    def make(x):
        tf.get_variable("steps", [], trainable=False)
        tf.get_local_variable("seen", [])
        return x * tf.get_variable("w", [])

    with tf.Graph().as_default():
        template = tf.make_template("counted", make)
        template(1.0)
        names = lambda vs: [v.name for v in vs]
        assert names(template.trainable_variables) == ["counted/w:0"]
        assert names(template.non_trainable_variables) == ["counted/steps:0"]
        assert names(template.variables) == ["counted/steps:0", "counted/w:0", "counted/seen:0"]
        assert template.weights == template.variables and template.name == "counted"
