"""The graphs behind ``data/tf_complex_golden.npz``, written once for both engines: complex tensors' parts,
casts, arithmetic, products and reductions, and the gradients TensorFlow defines for them (of a real loss
with respect to complex and real inputs), each case returning the tensors to fetch."""

import numpy as np

_RNG = np.random.RandomState(64)
Z = (_RNG.randn(2, 3) + 1j * _RNG.randn(2, 3)).astype(np.complex64)
W = (_RNG.randn(2, 3) + 1j * _RNG.randn(2, 3)).astype(np.complex128)
X = _RNG.randn(2, 3).astype(np.float32)
Y = _RNG.randn(2, 3).astype(np.float32)
M = (_RNG.randn(2, 3, 3) + 1j * _RNG.randn(2, 3, 3)).astype(np.complex64)


def _parts(tf):
    z, w, x = tf.constant(Z), tf.constant(W), tf.constant(X)
    return [tf.complex(x, tf.constant(Y)), tf.complex(X.astype(np.float64), np.full(3, 2.0)), tf.real(z), tf.imag(w),
            tf.math.real(w), tf.conj(z), tf.angle(w), tf.abs(z), tf.abs(w), tf.imag(x), tf.angle(x),
            tf.to_complex64(x), tf.to_complex128(x), tf.cast(z, tf.float64), tf.cast(w, tf.complex64),
            tf.cast(z, tf.int32), tf.constant([1, 2.5j, -1 - 1j]), tf.zeros([2], tf.complex64),
            tf.ones_like(z), tf.conj(x)]


def _arithmetic(tf):
    z, c = tf.constant(Z), tf.constant(Z[::-1].copy())
    outs = [z + c, z - c, z * c, z / c, tf.div_no_nan(z, c), tf.pow(z, c), tf.squared_difference(z, c), -z,
            tf.square(z), tf.sqrt(z), tf.rsqrt(z), tf.exp(z), tf.log(z), tf.log1p(z), tf.sign(z), tf.reciprocal(z),
            tf.tanh(z), tf.sigmoid(z), tf.sin(z), tf.cos(z), z * 2.0, 1j * tf.constant(W), tf.add_n([z, c, z])]
    m = tf.constant(M)
    outs += [tf.matmul(z, c, transpose_b=True), tf.matmul(z, c, adjoint_b=True), tf.matmul(z, c, adjoint_a=True),
             tf.matmul(m, m, adjoint_a=True), tf.matmul(m, m, adjoint_b=True), tf.reduce_sum(z, 0),
             tf.reduce_mean(z, 1), tf.reduce_prod(z), tf.reduce_sum(m, [1, 2], keepdims=True),
             tf.equal(z, c), tf.not_equal(z, z)]
    return outs


def _gradients(tf):
    z, c, x, y = tf.constant(Z), tf.constant(Z[::-1].copy()), tf.constant(X), tf.constant(Y)
    m = tf.constant(M)
    weights = tf.constant((np.arange(6).reshape(2, 3) + 1j * np.ones([2, 3])).astype(np.complex64))

    def loss(t):
        return tf.reduce_sum(tf.real(t * tf.cast(weights, t.dtype))) + tf.reduce_sum(tf.imag(t)) * 0.5

    parts = tf.complex(x, y)
    outs = [tf.gradients(tf.reduce_sum(tf.abs(parts)) + loss(parts), [x, y])]
    outs += [tf.gradients(loss(f), [z, c]) for f in (z * c, z / c, z + c, z - c, tf.pow(z, c))]
    outs += [tf.gradients(loss(f(z)), z) for f in (
        tf.square, tf.sqrt, tf.rsqrt, tf.exp, tf.log, tf.log1p, tf.reciprocal, tf.tanh, tf.sigmoid, tf.sin, tf.cos,
        tf.conj, tf.negative, lambda t: tf.complex(tf.abs(t), tf.angle(t)), lambda t: tf.cast(tf.real(t) * 3.0,
                                                                                              tf.complex64),
        lambda t: tf.cast(t, tf.complex128), lambda t: tf.complex(tf.imag(t), tf.real(t) ** 2))]
    outs += [tf.gradients(loss(tf.matmul(z, c, adjoint_b=True)[:, :2] @ c[:, :3][:2]), [z, c])]
    outs += [tf.gradients(tf.reduce_sum(tf.abs(tf.matmul(m, m, adjoint_a=True))), m)]
    outs += [tf.gradients(tf.reduce_sum(tf.abs(tf.matmul(m[0], m[1], transpose_a=True))), m)]
    outs += [tf.gradients(loss(tf.reduce_mean(z * c, 0, keepdims=True) + tf.reduce_sum(z, 1, keepdims=True)), z)]
    outs += [tf.gradients(tf.reduce_sum(tf.abs(z * z)), z, grad_ys=2.0)]
    return [g for pair in outs for g in pair]


def _variables(tf):
    v = tf.Variable(Z, name="v")
    p = tf.placeholder(tf.complex128, [2, 3], name="p")
    with tf.control_dependencies([v.initializer]):
        step = tf.identity(tf.assign_add(v, tf.cast(p, tf.complex64)))
    return [step, p * 2.0, tf.conj(p)]


def _scans_and_segments(tf):
    z, m = tf.constant(Z), tf.constant(M)
    outs = [tf.cumsum(z, 1), tf.cumsum(z, 0, exclusive=True, reverse=True), tf.unsorted_segment_sum(z, [1, 0], 3),
            tf.einsum("ij,kj->ik", z, z), tf.einsum("bij,bjk->bik", m, m), tf.transpose(m, [0, 2, 1], conjugate=True),
            tf.linalg.adjoint(m), tf.norm(z), tf.norm(m, axis=[-2, -1]), tf.nn.l2_normalize(z, 1)]
    for value in outs[:-5]:
        outs.append(tf.gradients(tf.reduce_sum(tf.abs(value)), z if value.shape.ndims == 2 else m)[0])
    return outs


CASES = {"parts": _parts, "arithmetic": _arithmetic, "gradients": _gradients, "variables": _variables,
         "scans_and_segments": _scans_and_segments}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        feed = {"p:0": W} if name == "variables" else None
        with tf.Session() as sess:
            return sess.run(outs, feed_dict=feed), [t.name for t in outs]
