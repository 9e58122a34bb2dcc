"""Partitioned variables: parts, initial values, lookups and training bit for bit against TensorFlow,
and TensorFlow's reuse rules and errors.

The TensorFlow values are goldens written by ``tests/golden/partitioned/regenerate.py`` from the
scenarios in ``tests/golden/partitioned/scenarios.py``, which this file runs again under numflow.
"""

import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

GOLDEN_DIR = pathlib.Path(__file__).parent.parent / "golden" / "partitioned"
HOW_TO_REGENERATE = "Regenerate with: /opt/tfenv/bin/python tests/golden/partitioned/regenerate.py"


def _load_scenarios():
    return load_script(GOLDEN_DIR / "scenarios.py")


scenarios = _load_scenarios()


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN_DIR / "values.npz") as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("scenario", scenarios.ALL, ids=lambda fn: fn.__name__)
def test_values_match_tensorflow(scenario, golden):
    got = {f"{scenario.__name__}/{k}": np.asarray(v) for k, v in scenario(tf).items()}
    assert set(got) == {k for k in golden if k.startswith(scenario.__name__ + "/")}, HOW_TO_REGENERATE
    for key, value in got.items():
        want = golden[key]
        assert value.dtype.kind == want.dtype.kind and value.shape == want.shape, key
        np.testing.assert_array_equal(value, want, err_msg=key)


def test_parts_slice_the_full_shape_first_parts_longer():
    with tf.Graph().as_default():
        pv = tf.get_variable("v", [10, 2], partitioner=tf.fixed_size_partitioner(4))
        infos = [p._save_slice_info for p in pv]
        assert len(pv) == 4 and pv._get_partitions() == [4, 1]
        assert [i.var_offset for i in infos] == [[0, 0], [3, 0], [6, 0], [8, 0]]
        assert [i.var_shape for i in infos] == [[3, 2], [3, 2], [2, 2], [2, 2]]
        assert {i.full_name for i in infos} == {"v"} and infos[2].spec == "10 2 6,2:0,2"
        assert pv._get_variable_list() == list(pv) and pv.get_shape().as_list() == [10, 2]


def test_glorot_part_uses_the_full_shapes_fans():
    with tf.Graph().as_default():
        pv = tf.get_variable("v", [200, 10], initializer=tf.glorot_uniform_initializer(seed=1),
                             partitioner=tf.fixed_size_partitioner(4))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = sess.run(pv.as_tensor())
    limit = np.sqrt(6.0 / (200 + 10))  # a part of [50, 10] alone would have sqrt(6 / 60)
    assert np.abs(value).max() <= limit and np.abs(value).max() > 0.9 * limit


def test_reuse_shares_the_partitioned_variable_with_or_without_the_partitioner():
    with tf.Graph().as_default():
        with tf.variable_scope("s", partitioner=tf.fixed_size_partitioner(2)):
            pv = tf.get_variable("v", [4, 2])
        with tf.variable_scope("s", reuse=True):
            assert tf.get_variable("v") is pv
            assert tf.get_variable("v", [4, 2], partitioner=tf.fixed_size_partitioner(2)) is pv
        with tf.variable_scope("s", reuse=tf.AUTO_REUSE, partitioner=tf.fixed_size_partitioner(2)):
            assert tf.get_variable("v", [4, 2]) is pv


def _get(*args, **kwargs):
    """get_variable with a ``reuse`` of its own, as the scope's method takes it."""
    return tf.get_variable_scope().get_variable(*args, **kwargs)


@pytest.mark.parametrize("build, message", [
    (lambda: (tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2)),
              tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2))),
     "Partitioned variable with name v already exists. Did you mean to set reuse=True"),
    (lambda: (tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2)),
              _get("v", [4], partitioner=tf.fixed_size_partitioner(3), reuse=True)),
     "Trying to reuse partitioned variable v, but specified partitions [3] and found partitions [2]."),
    (lambda: (tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2)),
              _get("v", [5], partitioner=tf.fixed_size_partitioner(2), reuse=True)),
     "Trying to reuse partitioned variable v, but specified shape (5,) and found shape (4,)."),
    (lambda: _get("v", [4], partitioner=tf.fixed_size_partitioner(2), reuse=True),
     "PartitionedVariable v does not exist, or was not created with tf.get_variable()."),
    (lambda: (tf.get_variable("v", [4]), tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2))),
     "A partitioner was provided, but an unpartitioned version of the variable was found: v."),
    (lambda: (tf.get_variable("v/part_0", [2]),
              _get("v", [4], partitioner=tf.fixed_size_partitioner(3), reuse=tf.AUTO_REUSE)),
     "Partitioner returned 3 shards, and shard v/part_0 was found, but v/part_2 was not."),
    (lambda: tf.get_variable("v", tf.TensorShape([]), partitioner=tf.fixed_size_partitioner(2)),
     "A partitioned Variable must have rank at least 1, shape: ()"),
    (lambda: tf.get_variable("v", [None, 2], partitioner=tf.fixed_size_partitioner(2)),
     "Shape of a new partitioned variable must be fully defined, but instead was (?, 2)."),
    (lambda: tf.get_variable("v", [4, 4], partitioner=lambda shape, dtype: [2, 2]),
     "Can only slice a variable along one dimension: shape: (4, 4), partitioning: [2, 2]"),
    (lambda: tf.get_variable("v", [4], partitioner=lambda shape, dtype: [0]),
     "Partitioner returned zero partitions for some axes: [0]"),
    (lambda: tf.get_variable("v", [4], partitioner="two"), "Partitioner must be callable, but received: two"),
    (lambda: tf.variable_axis_size_partitioner(0), "Both max_shard_bytes and bytes_per_string_element must be"),
    (lambda: tf.min_max_variable_partitioner(2, axis=1)(shape=tf.TensorShape([3]), dtype=tf.float32),
     "Cannot partition variable along axis 1 when shape is only (3,)"),
])
def test_tensorflows_errors(build, message):
    with tf.Graph().as_default(), pytest.raises(ValueError) as info:
        build()
    assert message in str(info.value)


def test_a_scalar_shape_list_ignores_the_partitioner():
    with tf.Graph().as_default():
        v = tf.get_variable("v", [], partitioner=tf.fixed_size_partitioner(2))
        assert isinstance(v, tf.Variable) and v.name == "v:0"


def test_assign_splits_a_full_value_over_the_parts():
    with tf.Graph().as_default():
        pv = tf.get_variable("v", [5, 2], partitioner=tf.fixed_size_partitioner(2))
        full = np.arange(10, dtype=np.float32).reshape(5, 2)
        assigns = pv.assign(full)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(assigns)
            np.testing.assert_array_equal(sess.run(pv.as_tensor()), full)
            np.testing.assert_array_equal(sess.run(list(pv)[1]), full[3:])


def test_conversion_to_another_dtype_is_refused():
    with tf.Graph().as_default():
        pv = tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2))
        with pytest.raises(ValueError, match="Incompatible type conversion requested to type 'int32'"):
            tf.convert_to_tensor(pv, dtype=tf.int32)


@pytest.mark.parametrize("shape, slicing, message", [
    ([4, 2], [2], "The 'shape' and 'slicing' of a partitioned Variable must have the length"),
    ([], [], "A partitioned Variable must have rank at least 1: shape: []"),
])
def test_create_partitioned_variables_checks_its_arguments(shape, slicing, message):
    with tf.Graph().as_default(), pytest.raises(ValueError) as info:
        tf.create_partitioned_variables(shape, slicing, tf.zeros_initializer())
    assert message in str(info.value)
