"""Gradients of the convolutions and pools against central finite differences (float64), for the
layouts and attrs TensorFlow's CPU kernels cannot run (so no golden holds them): NCDHW, dilated 3-D
and depthwise filters, unequal depthwise strides, and the gradients of the gradient ops."""

import numpy as np
import pytest
from test_gradients import check_gradient

import numflow as tf

CASES = {
    "conv3d_ncdhw_dilated": (lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 2, 1], "SAME", data_format="NCDHW",
                                                       dilations=[1, 1, 2, 1, 1]), [(1, 2, 3, 4, 3), (2, 2, 2, 2, 2)]),
    "conv3d_transpose_ncdhw": (lambda x, w: tf.nn.conv3d_transpose(x, w, [1, 2, 4, 3, 4], [1, 1, 2, 1, 2], "SAME",
                                                                   data_format="NCDHW"),
                               [(1, 3, 2, 3, 2), (2, 1, 2, 2, 3)]),
    "conv2d_transpose_nchw_dilated": (lambda x, w: tf.nn.conv2d_transpose(x, w, [1, 2, 6, 5], 1, "VALID",
                                                                          data_format="NCHW", dilations=2),
                                      [(1, 3, 4, 3), (2, 2, 2, 3)]),
    "depthwise_nchw_dilated": (lambda x, w: tf.nn.depthwise_conv2d_native(x, w, [1, 1, 1, 2], "SAME",
                                                                          data_format="NCHW", dilations=[1, 1, 2, 1]),
                               [(1, 2, 5, 4), (2, 2, 2, 2)]),
    "max_pool3d_ncdhw": (lambda x: tf.nn.max_pool3d(x, [1, 1, 2, 2, 2], [1, 1, 1, 2, 1], "VALID",
                                                    data_format="NCDHW"), [(1, 2, 3, 4, 3)]),
    "avg_pool3d_ncdhw": (lambda x: tf.nn.avg_pool3d(x, [1, 1, 2, 3, 2], [1, 1, 2, 1, 2], "SAME",
                                                    data_format="NCDHW"), [(1, 2, 3, 4, 3)]),
    "max_pool_with_argmax_batch": (lambda x: tf.nn.max_pool_with_argmax(x, 2, 1, "SAME",
                                                                        include_batch_in_index=True)[0],
                                   [(2, 3, 3, 2)]),
    "space_to_batch_nd": (lambda x: tf.space_to_batch_nd(x, [2, 3], [[1, 0], [2, 1]]), [(2, 3, 3, 2)]),
    "batch_to_space_nd": (lambda x: tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 1]]), [(4, 2, 3, 2)]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradient(case):
    build, shapes = CASES[case]
    check_gradient(build, shapes, rtol=1e-5, atol=1e-6)


def _grad_of(op_fn, x_shape):
    """``u -> d/dx sum(op_fn(x) * u)`` at a fixed random ``x``: the gradient op as a function of ``u``."""
    def build(u):
        x = tf.constant(np.random.default_rng(3).normal(size=x_shape))
        return tf.gradients(tf.reduce_sum(op_fn(x) * u), x)[0]
    return build


@pytest.mark.parametrize("name, op_fn, x_shape, u_shape", [
    ("max_pool_grad", lambda x: tf.nn.max_pool(x, 3, 2, "SAME"), (1, 5, 4, 2), (1, 3, 2, 2)),
    ("max_pool3d_grad", lambda x: tf.nn.max_pool3d(x, 2, 1, "VALID"), (1, 3, 3, 2, 1), (1, 2, 2, 1, 1)),
    ("avg_pool_grad", lambda x: tf.nn.avg_pool(x, 2, 1, "VALID"), (1, 3, 4, 2), (1, 2, 3, 2)),
    ("argmax_grad", lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[0], (2, 4, 4, 1), (2, 2, 2, 1)),
])
def test_gradient_of_the_gradient_op(name, op_fn, x_shape, u_shape):
    # The gradient op is linear in u; its gradient with respect to u is the GradGrad op (MaxPoolGradGrad,
    # MaxPool3DGradGrad, AvgPool of AvgPoolGrad, MaxPoolGradGradWithArgmax).
    check_gradient(_grad_of(op_fn, x_shape), [u_shape], rtol=1e-5, atol=1e-6)
