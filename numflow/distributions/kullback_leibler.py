"""``tf.distributions.kl_divergence`` and ``RegisterKL``: the KL divergence of two distributions by the
function registered for the nearest pair of their classes (in method resolution order)."""

from numflow.framework.collections_api import control_dependencies, name_scope
from numflow.ops import array_ops, math_ops
from numflow.ops.check_ops import Assert
from numflow.ops.elementwise_ops import is_nan

_DIVERGENCES = {}


def _registered_kl(type_a, type_b):
    """The function registered for the pair of base classes of ``type_a`` and ``type_b`` nearest to them."""
    best, best_distance = None, None
    for distance_a, parent_a in enumerate(type_a.__mro__):
        for distance_b, parent_b in enumerate(type_b.__mro__):
            candidate = _DIVERGENCES.get((parent_a, parent_b))
            if candidate and (best is None or distance_a + distance_b < best_distance):
                best, best_distance = candidate, distance_a + distance_b
    return best


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """``KL[distribution_a || distribution_b]``, batched; NotImplementedError for an unregistered pair.

    With ``allow_nan_stats=False``, the result fails its run (InvalidArgumentError) where it holds a NaN.
    """
    kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(
            f"No KL(distribution_a || distribution_b) registered for distribution_a type "
            f"{type(distribution_a).__name__} and distribution_b type {type(distribution_b).__name__}")
    with name_scope("KullbackLeibler"):
        kl_t = kl_fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return kl_t
        kl_t = array_ops.identity(kl_t, name="kl")
        message = (f"KL calculation between {distribution_a.name} and {distribution_b.name} returned NaN values "
                   "(and was called with allow_nan_stats=False). Values:")
        with control_dependencies([Assert(math_ops.logical_not(math_ops.reduce_any(is_nan(kl_t))),
                                          [message, kl_t])]):
            return array_ops.identity(kl_t, name="checked_kl")


def cross_entropy(ref, other, allow_nan_stats=True, name=None):
    """``H[ref, other] = H[ref] + KL[ref || other]``."""
    with name_scope(name, "cross_entropy"):
        return ref.entropy() + kl_divergence(ref, other, allow_nan_stats=allow_nan_stats)


class RegisterKL:
    """A decorator registering ``kl_fn(a, b, name=None)`` as the KL divergence of two distribution classes."""

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn}")
        if self._key in _DIVERGENCES:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has already been registered "
                             f"to: {_DIVERGENCES[self._key]}")
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn
