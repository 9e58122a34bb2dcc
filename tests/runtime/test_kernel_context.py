"""What a kernel is told about its op: plain values, never the op or the graph."""

import re

import numpy as np
import pytest

import numflow as tf
from numflow.framework.kernel_context import kernel_context
from numflow.runtime import plan as _plan


def test_attrs_shapes_and_dtypes_reach_kernels_as_plain_values():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.cast(tf.reshape(x, [-1]), tf.int64, name="y")
    ctx = kernel_context(x.op)
    assert (ctx.op_name, ctx.op_type) == ("x", "Placeholder")
    assert ctx.attrs["dtype"] == np.dtype(np.float32) and type(ctx.attrs["dtype"]) is type(np.dtype(np.float32))
    assert ctx.attrs["shape"] == (None, 3)
    assert ctx.input_shapes == () and ctx.output_shapes == ((None, 3),)
    cast = kernel_context(y.op)
    assert cast.attrs["SrcT"] == np.float32 and cast.attrs["DstT"] == np.int64
    assert cast.input_shapes == ((None,),) and cast.input_dtypes == (np.dtype(np.float32),)
    assert cast.output_dtypes == (np.dtype(np.int64),)


def test_an_unknown_rank_is_none_and_a_variables_reference_its_value_dtype():
    v = tf.Variable(np.zeros((2, 2), np.float32), name="v")
    p = tf.placeholder(tf.string, name="p")
    assign = kernel_context(v.initializer)
    assert assign.input_shapes == ((2, 2), (2, 2))
    assert assign.input_dtypes == (np.dtype(np.float32),) * 2
    assert kernel_context(p.op).attrs["shape"] is None
    assert kernel_context(p.op).attrs["dtype"] == np.dtype(object)


def test_a_plan_gives_its_kernels_no_op():
    a = tf.constant([1.0, 2.0])
    b = tf.square(a)
    with tf.Session() as sess:
        plan = _plan.build(sess.graph, [b], [], [], sess)
    for step in plan.steps:
        assert not hasattr(step.ctx, "op")
        assert step.ctx.op_name == step.op.name


def test_a_placeholder_left_unfed_names_its_dtype_as_tensorflow_does():
    p = tf.placeholder(tf.string, [None, 2], name="words")
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "You must feed a value for placeholder tensor 'words' with dtype string and shape [?,2]")):
        sess.run(p)
