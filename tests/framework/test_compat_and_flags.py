"""tf.compat.forward_compatible and forward_compatibility_horizon (TensorFlow 2.21's horizon, 2026-01-16),
tf.errors.error_code_from_exception_type, tf.debugging.set/get_log_device_placement and
tf.initializers.uniform_unit_scaling: what TensorFlow 2.21 gives for the same calls."""

import pytest

import numflow as tf


def test_forward_compatible_against_tensorflows_horizon():
    assert tf.compat.forward_compatible(2026, 1, 15)
    assert not tf.compat.forward_compatible(2026, 1, 16)
    assert not tf.compat.forward_compatible(2030, 1, 1)
    with tf.compat.forward_compatibility_horizon(2030, 6, 2):
        assert tf.compat.forward_compatible(2030, 6, 1)
        assert not tf.compat.forward_compatible(2030, 6, 2)
    assert not tf.compat.forward_compatible(2030, 6, 1)
    with tf.compat.forward_compatibility_horizon(2020, 1, 1):  # in the past: ignored
        assert not tf.compat.forward_compatible(2026, 1, 16)


def test_error_codes_of_exception_types():
    assert tf.errors.error_code_from_exception_type(tf.errors.InvalidArgumentError) == tf.errors.INVALID_ARGUMENT == 3
    assert tf.errors.error_code_from_exception_type(tf.errors.DataLossError) == 15
    for code in (1, 2, 5, 9, 14, 16):
        assert tf.errors.error_code_from_exception_type(tf.errors.exception_type_from_error_code(code)) == code
    with pytest.warns(UserWarning, match="Unknown class exception"):
        unknown = tf.errors.error_code_from_exception_type(ValueError)
    assert isinstance(unknown, tf.errors.UnknownError) and unknown.message == "Unknown class exception"


def test_log_device_placement_flag():
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement() is True
    finally:
        tf.debugging.set_log_device_placement(False)


def test_uniform_unit_scaling_is_the_tf1_initializer():
    assert tf.initializers.uniform_unit_scaling is tf.uniform_unit_scaling_initializer


def test_tf_io_write_graph_writes_the_graph_def_import_graph_def_reads(tmp_path):
    with tf.Graph().as_default() as graph:
        tf.constant([1.0, 2.0], name="c") * 3.0
        path = tf.io.write_graph(graph, str(tmp_path), "g.pb", as_text=False)
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(open(path, "rb").read())
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.import_graph_def(graph_def, name="")
        assert sess.run("mul:0").tolist() == [3.0, 6.0]
