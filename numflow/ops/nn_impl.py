"""``tf.nn`` functions composed of other ops: the sigmoid and weighted cross entropies, l2_normalize,
xw_plus_b, relu_layer and zero_fraction.

They add no op types of their own, so their gradients are those of the ops they are built from.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import array_ops, complex_ops, math_ops, nn_ops
from numflow.ops.constant_op import constant, convert_to_tensor


def _logits_and_labels(logits, labels):
    """Both as tensors of one shape (TensorFlow's ValueError when they cannot be)."""
    logits = convert_to_tensor(logits, name="logits")
    labels = convert_to_tensor(labels, name="labels")
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError(
            f"`logits` and `labels` must have the same shape, received ({logits.shape} vs {labels.shape})."
        )
    return logits, labels


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``-z * log(sigmoid(x)) - (1 - z) * log(1 - sigmoid(x))`` elementwise, for labels z and logits x.

    Computed as TensorFlow does, ``max(x, 0) - x * z + log(1 + exp(-abs(x)))``, which neither
    overflows nor loses precision for large ``|x|``. ``labels`` and ``logits`` have one shape and dtype.

    >>> import numflow as tf
    >>> loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[-100.0, 0.0])
    >>> [round(float(v), 6) for v in tf.Session().run(loss)]
    [100.0, 0.693147]
    """
    with get_default_graph().name_scope(name or "logistic_loss") as scope:
        logits, labels = _logits_and_labels(logits, labels)
        relu_logits = nn_ops.relu(logits)
        # -abs(x) as x - 2 * max(x, 0): exact, and at x = 0 its gradient agrees with relu's, so the
        # gradient there is sigmoid(0) - z, as TF's where-based form gives.
        neg_abs_logits = logits - 2 * relu_logits
        return math_ops.add(relu_logits - logits * labels, math_ops.log1p(math_ops.exp(neg_abs_logits)), name=scope)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``: unit L2 norm along ``axis``."""
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    with get_default_graph().name_scope(name or "l2_normalize") as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype.is_complex:  # each part over the modulus, as TensorFlow computes it
            re, im = complex_ops.real(x), complex_ops.imag(x)
            square_sum = complex_ops.real(math_ops.reduce_sum(math_ops.square(re) + math_ops.square(im), axis,
                                                              keepdims=True))
            x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
            return complex_ops.complex(math_ops.multiply(re, x_inv_norm), math_ops.multiply(im, x_inv_norm),
                                       name=scope)
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=scope)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    """The sigmoid cross entropy with the positive term weighted by ``pos_weight``:
    ``pos_weight * z * -log(sigmoid(x)) + (1 - z) * -log(1 - sigmoid(x))``.

    Computed as TensorFlow does, ``(1 - z) * x + (1 + (pos_weight - 1) * z) * (log1p(exp(-abs(x)))
    + max(-x, 0))``. ``targets`` is TensorFlow 1's name for ``labels``.

    >>> import numflow as tf
    >>> loss = tf.nn.weighted_cross_entropy_with_logits(targets=[1.0], logits=[0.0], pos_weight=2.0)
    >>> round(float(tf.Session().run(loss)[0]), 6)
    1.386294
    """
    if labels is not None and targets is not None:
        raise ValueError("Cannot specify both 'labels' and 'targets'")
    labels = targets if labels is None else labels
    with get_default_graph().name_scope(name or "logistic_loss") as scope:
        logits, labels = _logits_and_labels(logits, labels)
        log_weight = 1 + (pos_weight - 1) * labels
        softplus_neg = math_ops.log1p(math_ops.exp(-math_ops.abs(logits))) + nn_ops.relu(-logits)
        return math_ops.add((1 - labels) * logits, log_weight * softplus_neg, name=scope)


def xw_plus_b(x, weights, biases, name=None):
    """``matmul(x, weights) + biases`` (a ``MatMul`` then a ``BiasAdd`` named ``xw_plus_b``)."""
    with get_default_graph().name_scope(name or "xw_plus_b") as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        return nn_ops.bias_add(math_ops.matmul(x, weights), biases, name=scope)


def relu_layer(x, weights, biases, name=None):
    """``relu(matmul(x, weights) + biases)`` (the ``Relu`` named ``relu_layer``)."""
    with get_default_graph().name_scope(name or "relu_layer") as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        return nn_ops.relu(nn_ops.bias_add(math_ops.matmul(x, weights), biases), name=scope)


def zero_fraction(value, name=None):
    """The fraction of zeros in ``value``, a float32 scalar (NaN for an empty ``value``).

    The zeros are counted in int64 whatever the size (TensorFlow picks int32 or int64 with a
    ``tf.cond`` on the size; the count is the same).
    """
    graph = get_default_graph()
    with graph.name_scope(name or "zero_fraction"):
        value = convert_to_tensor(value, name="value")
        if value.shape.is_fully_defined():
            size = constant(value.shape.num_elements(), dtype=dtypes.int64, name="Size")
        else:
            size = math_ops.reduce_prod(array_ops.shape(value, out_type=dtypes.int64), name="Size")
        with graph.name_scope("count_nonzero"):
            zero = array_ops.zeros([], dtype=value.dtype.base_dtype)
            nonzero = math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(value, zero), dtypes.int64),
                                          name="nonzero_count")
        with graph.name_scope("counts_to_fraction"):
            num_zero = math_ops.cast(size - nonzero, dtypes.float32)
            fraction = num_zero / math_ops.cast(size, dtypes.float32)
        return array_ops.identity(fraction, name="fraction")
