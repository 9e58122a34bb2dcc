"""Clipping: ``clip_by_value``, ``clip_by_norm``, ``clip_by_average_norm``, ``global_norm`` and
``clip_by_global_norm``, built from TensorFlow's ops under its names, so their gradients are those of
``Minimum``, ``Maximum``, ``Sum``, ``L2Loss`` and ``Mul``."""

from collections.abc import Sequence

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.ops import array_ops, math_ops, nn_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.sequence_ops import size


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """``t`` with its elements limited to ``[clip_value_min, clip_value_max]``: ``Maximum(Minimum(t, max), min)``.

    The bounds may be scalars or tensors broadcasting to ``t``'s shape; ValueError when they would
    broadcast ``t`` to a larger shape.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.clip_by_value([-2.0, 0.5, 3.0], -1.0, 1.0)).tolist()
    [-1.0, 0.5, 1.0]
    """
    with get_default_graph().name_scope(name or "clip_by_value") as scope:
        values = convert_to_tensor(t, name="t")
        t_min = math_ops.minimum(values, clip_value_max)
        values.shape.assert_is_compatible_with(t_min.shape)
        t_max = math_ops.maximum(t_min, clip_value_min, name=scope)
        values.shape.assert_is_compatible_with(t_max.shape)
        return t_max


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """``t * clip_norm / max(l2norm(t), clip_norm)``: ``t`` scaled down to an L2 norm of at most ``clip_norm``
    (over ``axes`` when given, each slice on its own). An IndexedSlices ``t`` is clipped by its values.

    >>> import numflow as tf
    >>> tf.Session().run(tf.clip_by_norm([3.0, 4.0], 1.0)).tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    with get_default_graph().name_scope(name or "clip_by_norm") as scope:
        values = convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name="t")
        l2sum = math_ops.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        # where twice: the gradient of sqrt at 0 never reaches a NaN
        l2sum_safe = array_ops.where(pred, l2sum, array_ops.ones_like(l2sum))
        l2norm = array_ops.where(pred, math_ops.sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        values.shape.assert_is_compatible_with(intermediate.shape)
        clipped = array_ops.identity(intermediate / math_ops.maximum(l2norm, clip_norm), name=scope)
    return IndexedSlices(clipped, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else clipped


def clip_by_average_norm(t, clip_norm, name=None):
    """``t`` scaled down so that its L2 norm divided by its number of elements is at most ``clip_norm``."""
    with get_default_graph().name_scope(name or "clip_by_average_norm") as scope:
        t = convert_to_tensor(t, name="t")
        n_element = math_ops.cast(size(t), dtypes.float32)
        l2norm_inv = math_ops.rsqrt(math_ops.reduce_sum(t * t, math_ops.range(array_ops.rank(t))))
        return array_ops.identity(
            t * clip_norm * math_ops.minimum(l2norm_inv * n_element, constant(1.0) / clip_norm), name=scope)


def _check_sequence(t_list):
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return list(t_list)


def global_norm(t_list, name=None):
    """``sqrt(sum(l2norm(t) ** 2 for t in t_list))``, skipping Nones (``global_norm/global_norm:0``)."""
    t_list = _check_sequence(t_list)
    graph = get_default_graph()
    with graph.name_scope(name or "global_norm"):
        values = _values_of(t_list)
        half_squared_norms = []
        for v in values:
            if v is not None:
                with graph.colocate_with(v.op):
                    half_squared_norms.append(nn_ops.l2_loss(v))
        half_squared_norm = math_ops.reduce_sum(array_ops.stack(half_squared_norms))
        two = constant(2.0, dtype=half_squared_norm.dtype.base_dtype)
        return math_ops.sqrt(half_squared_norm * two, name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """``t_list`` scaled by ``clip_norm / max(global_norm, clip_norm)``, and the global norm.

    Returns ``(list_clipped, global_norm)``; None entries stay None. An infinite or NaN norm makes
    every clipped value NaN, as in TensorFlow.
    """
    t_list = _check_sequence(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    graph = get_default_graph()
    with graph.name_scope(name or "clip_by_global_norm") as scope:
        one = constant(1.0, dtype=use_norm.dtype.base_dtype)
        scale_for_finite = clip_norm * math_ops.minimum(1.0 / use_norm, one / clip_norm)
        scale = scale_for_finite + (use_norm - use_norm)  # NaN for an infinite or NaN norm
        clipped = []
        for i, (t, v) in enumerate(zip(t_list, _values_of(t_list))):
            if v is None:
                clipped.append(None)
                continue
            with graph.colocate_with(v.op):
                v = array_ops.identity(v * scale, name=f"{scope}_{i}")
            clipped.append(IndexedSlices(v, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else v)
        return clipped, use_norm


def _values_of(t_list):
    """Each tensor of ``t_list`` (an IndexedSlices by its values, as TF norms and scales it, so that
    it stays sparse), or None."""
    return [None if t is None else convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=f"t_{i}")
            for i, t in enumerate(t_list)]
