"""``tf.nn`` functions composed of other ops: the sigmoid cross entropy and l2_normalize.

They add no op types of their own, so their gradients are those of the ops they are built from.
"""

from numflow.framework.graph import get_default_graph
from numflow.ops import math_ops, nn_ops
from numflow.ops.constant_op import convert_to_tensor


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
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        if not labels.shape.is_compatible_with(logits.shape):
            raise ValueError(
                f"`logits` and `labels` must have the same shape, received ({logits.shape} vs {labels.shape})."
            )
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
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=scope)
