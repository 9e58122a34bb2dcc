"""tf.TensorArray and map_fn/scan/foldl/foldr: static shapes, names, run-time rules and TensorFlow's
messages (each checked against TensorFlow 2.21 for the same program).

Values and gradients against TensorFlow are in ``test_control_flow_golden.py``.
"""

import numpy as np
import pytest

import numflow as tf


def test_names_and_static_shapes_are_tensorflows():
    ta = tf.TensorArray(tf.float32, size=2)
    written = ta.write(0, 1.0)
    assert [ta.handle.name, ta.flow.name, written.flow.name] == [
        "TensorArray:0", "TensorArray:1", "TensorArrayWrite/TensorArrayWriteV3:0"]
    assert ta.handle.dtype == tf.resource and ta.handle.shape.as_list() == [2]
    assert written.stack().shape.as_list() == [2]
    assert str(written.element_shape) == "()" and str(ta.element_shape) == "()"  # shared, learnt from the write
    shaped = tf.TensorArray(tf.float32, size=3).scatter([2, 0], [[1.0], [2.0]])
    assert shaped.gather([0]).shape.as_list() == [None, 1]


def test_reads_writes_and_their_run_time_errors():
    ta = tf.TensorArray(tf.float32, size=2)
    written = ta.write(0, 1.0)
    sess = tf.Session()
    assert sess.run(written.read(1)) == 0.0  # unwritten, of a known shape: zeros, as TF's
    np.testing.assert_array_equal(sess.run(written.stack()), [1.0, 0.0])
    prefix = "TensorArray TensorArray: "
    cases = [
        (written.read(0) + tf.identity(written.read(0)),
         prefix + r"Could not read index 0 twice because it was cleared after a previous read \(perhaps try setting "
                  r"clear_after_read = false\?\)\."),
        (written.write(0, 2.0).flow, prefix + "Could not write to TensorArray index 0 because it has already been "
                                              "written to."),
        (ta.write(2, 1.0).flow, prefix + "Tried to write to index 2 but array is not resizeable and size is: 2"),
        (written.read(5), "Tried to read from index 5 but array size is: 2"),
    ]
    for fetch, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match="^" + message):
            sess.run(fetch)


def test_element_shapes_are_checked():
    shaped = tf.TensorArray(tf.float32, size=2, element_shape=[2])
    with pytest.raises(ValueError, match=r"^Inconsistent shapes: saw \(3,\) but expected \(2,\) $"):
        shaped.write(0, [1.0, 2.0, 3.0])
    p = tf.placeholder(tf.float32, None)
    loose = tf.TensorArray(tf.float32, size=2, name="loose").write(0, p).write(1, p[:1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^TensorArray loose: Could not write to TensorArray index 1 because the value shape is "
                             r"\[1\] which is incompatible with the TensorArray's inferred element shape: \[2\] "
                             r"\(consider setting infer_shape=False\)\."):
        tf.Session().run(loose.stack(), {p: [1.0, 2.0]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="^TensorArray dtype is float32 but Op is trying to write "
                                                             "dtype int32 $"):
        tf.TensorArray(tf.float32, size=1).write(0, tf.constant(1))


def test_empty_arrays_stack_only_with_a_known_element_shape():
    sess = tf.Session()
    assert sess.run(tf.TensorArray(tf.float32, size=0, element_shape=[3]).stack()).shape == (0, 3)
    with pytest.raises(tf.errors.UnimplementedError, match=r"^TensorArray has size zero, but element shape <unknown> "
                                                           r"is not fully defined\. Currently only static shapes are "
                                                           r"supported when packing zero-size TensorArrays\."):
        sess.run(tf.TensorArray(tf.float32, size=0).stack())


def test_dynamic_size_concat_split_and_close():
    sess = tf.Session()
    grown = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    assert sess.run(grown.write(3, 1.0).size()) == 4
    np.testing.assert_array_equal(sess.run(grown.write(1, 1.0).write(0, 2.0).stack()), [2.0, 1.0])
    ragged = tf.TensorArray(tf.float32, size=3, infer_shape=False)
    ragged = ragged.write(0, [1.0, 2.0]).write(1, [3.0]).write(2, [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(sess.run(ragged.concat()), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Expected sum of lengths to be equal to "
                                                             r"values\.shape\[0\], but sum of lengths is 4 and value's "
                                                             r"shape is: \[3\]"):
        sess.run(tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 3]).flow)
    with pytest.raises(ValueError, match="^Dimensions must be equal, but are 3 and 2"):
        tf.TensorArray(tf.float32, size=3).scatter([0, 1], [1.0, 2.0, 3.0])
    closed = tf.TensorArray(tf.float32, size=1, name="c")
    with tf.control_dependencies([closed.close()]):
        late = tf.identity(closed.flow)
    with pytest.raises(tf.errors.InvalidArgumentError, match="^TensorArray c: TensorArray has already been closed"):
        sess.run(closed.write(0, late).flow)


def test_constructor_arguments_are_checked():
    ta = tf.TensorArray(tf.float32, size=1)
    with pytest.raises(ValueError, match="^Argument `size` must be provided if handle is not provided.$"):
        tf.TensorArray(tf.float32)
    with pytest.raises(ValueError, match="^Argument `size` should be None if `handle` is not None.$"):
        tf.TensorArray(tf.float32, size=1, handle=ta.handle, flow=ta.flow)


def test_map_fn_and_friends_check_their_arguments():
    with pytest.raises(TypeError, match="is not callable. Please provide a callable function."):
        tf.scan(1, tf.constant([1.0]))
    with pytest.raises(ValueError, match="^Elements in elems must be 1\\+ dimensional Tensors, not scalars$"):
        tf.map_fn(lambda v: v, tf.constant(1.0))
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.map_fn(lambda v: (v, v), tf.constant([1.0, 2.0]))


def test_map_fn_of_a_structure_with_an_unknown_length():
    x = tf.placeholder(tf.float32, [None, 2])
    out = tf.map_fn(lambda pair: pair[0] * pair[1], (x, x + 1.0), dtype=tf.float32)
    assert out.shape.as_list() == [None, 2]
    value = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(tf.Session().run(out, {x: value}), value * (value + 1.0))
