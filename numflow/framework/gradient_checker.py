"""``tf.test.compute_gradient`` and ``compute_gradient_error``: the symbolic Jacobian of ``y`` with respect to
``x`` beside central finite differences, as TensorFlow 1's ``gradient_checker`` computes them.

Both run in the default session (``with self.cached_session():`` in a ``tf.test.TestCase``). ``x`` is fed
``x_init_value`` (uniform in [0, 1) when None); the Jacobians have one row per element of ``x`` and one
column per element of ``y``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.indexed_slices import IndexedSlices

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _session():
    from numflow.runtime.session import get_default_session

    sess = get_default_session()
    if sess is None:
        raise ValueError("compute_gradient needs a default session: call it inside `with sess.as_default():` or "
                         "`with self.cached_session():`.")
    return sess


def _theoretical(x, x_data, dx, dy, y_shape, feed):
    """Each column: the gradient with respect to ``x`` of one element of ``y`` (``dy`` one-hot)."""
    sess = _session()
    y_size = int(np.prod(y_shape))
    jacobian = np.zeros((x_data.size, y_size), dtype=x.dtype.base_dtype.as_numpy_dtype)
    dy_data = np.zeros(y_shape, dtype=dy.dtype.base_dtype.as_numpy_dtype)
    for col in range(y_size):
        dy_data.reshape(-1)[col] = 1
        run_feed = {**feed, x: x_data, dy: dy_data}
        if isinstance(dx, IndexedSlices):
            indices, values = sess.run([dx.indices, dx.values], run_feed)
            width = int(np.prod(x_data.shape[1:]))
            for i, v in zip(indices, values):
                jacobian[i * width:(i + 1) * width, col] += v.reshape(-1)
        else:
            jacobian[:, col] = sess.run(dx, run_feed).reshape(-1)
        dy_data.reshape(-1)[col] = 0
    return jacobian


def _numeric(x, x_data, y, delta, feed):
    """Each row: the central difference of ``y`` when one element of ``x`` moves by ``delta``."""
    sess = _session()
    rows = []
    scale = np.asarray(2 * delta, dtype=y.dtype.base_dtype.as_numpy_dtype)[()]
    for row in range(x_data.size):
        moved = [x_data.copy(), x_data.copy()]
        moved[0].reshape(-1)[row] += delta
        moved[1].reshape(-1)[row] -= delta
        up, down = (sess.run(y, {**feed, x: m}) for m in moved)
        rows.append(((up - down) / scale).reshape(-1))
    return np.array(rows, dtype=x.dtype.base_dtype.as_numpy_dtype).reshape(x_data.size, -1)


def _one(x, x_shape, y, y_shape, x_init_value, delta, feed):
    from numflow.ops import array_ops, gradients
    from numflow.ops.constant_op import constant

    for t, what in ((x, "x"), (y, "y")):
        if t.dtype.base_dtype not in _FLOATS:
            raise TypeError(f"Don't support type {t.dtype.base_dtype.name} for {what}")
    if x_init_value is not None:
        if list(x_shape) != list(x_init_value.shape):
            raise ValueError(f"x_shape = {x_shape}, init_data shape = {list(x_init_value.shape)}")
        x_data = np.asarray(x_init_value, dtype=x.dtype.base_dtype.as_numpy_dtype)
    else:
        x_data = np.random.random_sample(x_shape).astype(x.dtype.base_dtype.as_numpy_dtype)
    with x.graph.as_default():
        dy = constant(1.0, shape=y_shape, dtype=y.dtype.base_dtype)
        (dx,) = gradients.gradients(y, x, array_ops.identity(dy))
    if dx is None:
        raise ValueError(f"{y.name} does not depend on {x.name}: there is no gradient to check.")
    return _theoretical(x, x_data, dx, dy, y_shape, feed), _numeric(x, x_data, y, delta, feed)


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None, extra_feed_dict=None):
    """``(theoretical, numerical)`` Jacobians of ``y`` with respect to ``x``, or a list of such pairs when ``x``
    is a list (with lists of ``x_shape`` and ``x_init_value``). ``init_targets`` run first."""
    for target in init_targets or []:
        target.run()
    feed = dict(extra_feed_dict or {})
    if isinstance(x, list):
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        return [_one(xi, shape, y, y_shape, init, delta, feed) for xi, shape, init in zip(x, x_shape, inits)]
    return _one(x, x_shape, y, y_shape, x_init_value, delta, feed)


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                           extra_feed_dict=None):
    """The largest absolute difference between the theoretical and numerical Jacobians."""
    grads = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets, extra_feed_dict)
    error = 0.0
    for theoretical, numerical in grads if isinstance(grads, list) else [grads]:
        if theoretical.size or numerical.size:
            error = max(error, float(np.fabs(theoretical - numerical).max()))
    return error
