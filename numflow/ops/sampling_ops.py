"""Random sampling ops: ``random_shuffle`` (op ``RandomShuffle``), ``multinomial`` and ``tf.random.categorical``
(op ``Multinomial``), ``random_gamma`` (op ``RandomGamma``) and ``random_poisson`` (op ``RandomPoissonV2``).

For the same graph and op seeds they give TensorFlow's values, run after run (a second run continues
the op's Philox stream as TensorFlow's does); kernels in ``numflow_kernels/cpu/sampling.py``. A gamma
sample's gradient with respect to ``alpha`` is TensorFlow's implicit one (op ``RandomGammaGrad``).
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.seeds import get_seed
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import broadcast_pair, gradient, not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, REAL
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, shape_from_tensor, static_value


def _seeds(seed):
    seed1, seed2 = get_seed(seed)
    return {"seed": seed1 or 0, "seed2": seed2 or 0}


@declare("RandomShuffle", stateful=True)
def _shuffle_infer(op):
    x = op.inputs[0]
    return [(x.dtype, x.shape)]


def random_shuffle(value, seed=None, name=None):
    """``value`` with its rows (slices along the first dimension) in a random order (op ``RandomShuffle``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sorted(sess.run(tf.random_shuffle([1, 2, 3, 4], seed=1)).tolist())
    [1, 2, 3, 4]
    """
    with get_default_graph().name_scope(name or "RandomShuffle") as scope:
        value = convert_to_tensor(value, name="value")
        return _out("RandomShuffle", [value], _seeds(seed), name=scope)[0]


@declare("Multinomial", stateful=True)
def _multinomial_infer(op):
    logits, num_samples = op.inputs[:2]
    check_dtype(logits, REAL, "logits")
    check_dtype(num_samples, (dtypes.int32,), "num_samples")
    check_rank(logits.shape, 2)
    check_rank(num_samples.shape, 0)
    n = static_value(num_samples)
    batch = logits.shape.dim_values[0] if logits.shape.ndims is not None else None
    return [(op._attrs["output_dtype"], TensorShape([batch, None if n is None else int(n)]))]


def _categorical(logits, num_samples, dtype, seed):
    logits = convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are (<dtype: 'int32'>, "
                         "<dtype: 'int64'>).")
    with get_default_graph().name_scope("Multinomial") as scope:
        num_samples = convert_to_tensor(num_samples, name="num_samples", dtype=dtypes.int32)
        return _out("Multinomial", [logits, num_samples], {**_seeds(seed), "output_dtype": dtype}, name=scope)[0]


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """``num_samples`` class indices per row of ``logits`` (unnormalized log-probabilities; op ``Multinomial``).

    A non-finite logit's class is never drawn.
    """
    with get_default_graph().name_scope(name or "multinomial"):
        return _categorical(logits, num_samples, output_dtype, seed)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """``tf.random.categorical``: :func:`multinomial` under its TensorFlow 2 name (scope ``categorical``)."""
    with get_default_graph().name_scope(name or "categorical"):
        return _categorical(logits, num_samples, dtype, seed)


def _per_parameter_infer(param_name):
    def infer(op):
        shape, param = op.inputs
        check_dtype(shape, INDEX_TYPES, "shape")
        check_rank(shape.shape, 1)
        dtype = op._attrs.get("dtype", param.dtype)
        sample = shape_from_tensor(shape)
        if sample.ndims is None or param.shape.ndims is None:
            return [(dtype, TensorShape(None))]
        return [(dtype, sample.concatenate(param.shape))]

    return infer


declare("RandomGamma", stateful=True)(_per_parameter_infer("alpha"))
declare("RandomPoissonV2", stateful=True)(_per_parameter_infer("rate"))


def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Samples of Gamma(``alpha``, ``beta``) (``beta`` the inverse scale, default 1), of shape
    ``shape + broadcast(alpha, beta).shape``; at least the dtype's smallest normal number (op ``RandomGamma``).

    >>> import numflow as tf
    >>> tf.random_gamma([5], [1.0, 2.0]).shape.as_list()
    [5, 2]
    """
    dtype = dtypes.as_dtype(dtype)
    with get_default_graph().name_scope(name or "random_gamma"):
        shape = convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        check_dtype(alpha, FLOATS, "alpha")
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        alpha_broadcast, _ = broadcast_pair(alpha, beta)
        sample = _out("RandomGamma", [shape, alpha_broadcast], _seeds(seed))[0]
        return math_ops.maximum(np.finfo(dtype.as_numpy_dtype).tiny, math_ops.truediv(sample, beta))


def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    """Samples of Poisson(``lam``), of shape ``shape + lam.shape`` and ``dtype`` (op ``RandomPoissonV2``)."""
    dtype = dtypes.as_dtype(dtype)
    with get_default_graph().name_scope(name or "random_poisson"):
        shape = convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        with get_default_graph().name_scope("RandomPoissonV2") as scope:
            rate = convert_to_tensor(lam, name="rate")
            check_dtype(rate, FLOATS + INDEX_TYPES, "rate")
            return _out("RandomPoissonV2", [shape, rate], {**_seeds(seed), "dtype": dtype}, name=scope)[0]


@declare("RandomGammaGrad")
def _random_gamma_grad_infer(op):
    alpha, sample = op.inputs
    check_dtype(alpha, FLOATS, "alpha")
    return [(alpha.dtype, broadcast_shapes(alpha.shape, sample.shape))]


@gradient("RandomGamma")
def _random_gamma_grad(op, grad):
    """``sum over the sample dimensions of grad * d sample / d alpha``, as TensorFlow's ``random_grad.py``."""
    shape, alpha = op.inputs
    sample = op.outputs[0]
    sample_dims = shape.shape.dim_values[0] if shape.shape.ndims == 1 else None
    if sample_dims is None or alpha.shape.ndims is None:
        raise ValueError(f"The gradient of {op.name} (RandomGamma) needs the ranks of its shape and alpha.")
    graph = get_default_graph()
    with graph.control_dependencies([grad.op]):
        leading = array_ops.reshape(alpha, array_ops.concat([[1] * sample_dims, array_ops.shape(alpha)], 0))
        partial = graph.create_op("RandomGammaGrad", [leading, sample], name="RandomGammaGrad").outputs[0]
        return [None, math_ops.reduce_sum(grad * partial, axis=list(range(sample_dims)))]


not_differentiable("RandomShuffle", "Multinomial", "RandomGammaGrad")


def random_crop(value, size, seed=None, name=None):
    """A slice of ``value`` of shape ``size`` at a random offset (TensorFlow's ops: an ``Assert`` that
    ``size`` fits, a ``RandomUniformInt`` offset modulo the room left, a ``Slice``)."""
    from numflow.ops.check_ops import Assert
    from numflow.ops.control_flow_ops import with_dependencies
    from numflow.ops.random_ops import random_uniform

    with get_default_graph().name_scope(name or "random_crop") as scope:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = array_ops.shape(value)
        check = Assert(math_ops.reduce_all(shape >= size), ["Need value.shape >= size, got ", shape, size],
                       summarize=1000)
        shape = with_dependencies([check], shape)
        limit = shape - size + 1
        offset = random_uniform(array_ops.shape(shape), dtype=size.dtype, maxval=size.dtype.max, seed=seed) % limit
        return array_ops.slice(value, offset, size, name=scope)
