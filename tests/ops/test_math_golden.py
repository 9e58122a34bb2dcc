"""The math and array ops of ``math_cases.py`` against TensorFlow 2.21: values, output names, dtypes,
static shapes (from constants and from inputs of unknown dimensions) and gradients.

``data/tf_math_golden.npz`` holds TensorFlow's results; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_math_golden.py`` (any Python with TensorFlow).
"""

import json
import pathlib

import numpy as np
import pytest
from math_cases import CASES, outputs, weighted_loss

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_math_golden.npz")
# Exactly TensorFlow's bits: the same arithmetic in the same order.
EXACT = {"cumsum_float32", "cumsum", "linspace", "linspace_ends", "linspace_one", "linspace_int", "linspace_nd",
         "logsumexp_axis", "segment_sum", "unsorted_segment_sum", "reverse_sequence", "gather_nd_batched"}

# Static shapes numflow knows where TensorFlow does not (its matrix 2-norm goes through map_fn).
SHARPER_SHAPES = {"norm_matrix_2"}
# Static shapes TensorFlow gets wrong: a diagonal k > 0 of unknown length gives it [?, 0, 0].
TF_SHAPE_BUGS = {"matrix_diag_k"}


def _inputs(name):
    return [GOLDEN[f"{name}/in{i}"] for i in range(len(CASES[name][1]))]


def _meta(name):
    return json.loads(str(GOLDEN[f"{name}/meta"]))


def _static(t):
    return None if t.shape.ndims is None else t.shape.as_list()


def _close(got, want, name, what):
    assert got.dtype == want.dtype, f"{what} dtype"
    assert got.shape == want.shape, f"{what} shape"
    if name in EXACT or got.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        rtol = 2e-6 if got.dtype == np.float32 else 1e-9
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=what)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_names_and_gradients(name):
    inputs = _inputs(name)
    meta = _meta(name)
    with tf.Graph().as_default():
        tensors = [tf.constant(x) for x in inputs]
        outs = outputs(tf, name, tensors)
        assert len(outs) == len(meta)
        with tf.Session() as sess:
            values = sess.run(outs)
        for j, (o, v, m) in enumerate(zip(outs, values, meta)):
            _close(np.asarray(v), GOLDEN[f"{name}/out{j}"], name, f"output {j}")
            assert (o.name, o.dtype.name) == (m["name"], m["dtype"])
            _same_shape(name, _static(o), m["shape"])
        floats = [i for i, x in enumerate(inputs) if x.dtype.kind == "f"]
        loss = weighted_loss(tf, outs, values)
        if loss is None or not floats:
            return
        if f"{name}/no_gradient" in GOLDEN:
            with pytest.raises(LookupError, match="No gradient defined for operation"):
                tf.gradients(loss, [tensors[i] for i in floats])
            return
        grads = tf.gradients(loss, [tensors[i] for i in floats])
        for i, g in zip(floats, grads):
            key = f"{name}/grad{i}"
            if key not in GOLDEN:
                assert g is None, f"TensorFlow gives no gradient for input {i}"
                continue
            with tf.Session() as sess:
                got = sess.run(tf.convert_to_tensor(g))
            _close(got, GOLDEN[key], "", f"gradient of input {i}")


def _same_shape(name, got, want):
    if name in SHARPER_SHAPES and got is not None and want is not None and len(got) == len(want):
        assert all(w is None or g == w for g, w in zip(got, want)), (got, want)
    else:
        assert got == want


@pytest.mark.parametrize("name", sorted(n for n in CASES if any("shape_unknown_dims" in m for m in _meta(n))
                                         and n not in TF_SHAPE_BUGS))
def test_static_shapes_from_inputs_of_unknown_dims(name):
    with tf.Graph().as_default():
        unknown = [tf.placeholder_with_default(x, [None] * x.ndim) for x in _inputs(name)]
        for o, m in zip(outputs(tf, name, unknown), _meta(name)):
            _same_shape(name, _static(o), m["shape_unknown_dims"])
