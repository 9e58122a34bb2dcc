"""More tensor functions of ``tf.keras.backend``: comparisons, reductions, shapes (``batch_dot``,
``batch_flatten``, ``permute_dimensions``...), random tensors and variables, variable updates, the higher-order
functions and the CTC helpers, on TensorFlow's ops as Keras' backend builds them.
``backend.py`` re-exports them."""

import sys

import numpy as np

from numflow.framework import dtypes
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops, functional_ops, math_ops, scan_ops, state_ops


def _floatx():
    from numflow.keras.backend import floatx

    return floatx()


def _keras_variable(value, dtype, name):
    from numflow.keras.backend import variable

    return variable(value, dtype=dtype, name=name)


def _seed(seed, high=10e6):
    """``seed``, or one drawn from numpy's generator as Keras does."""
    return np.random.randint(high) if seed is None else seed


def backend():
    """``"tensorflow"``."""
    return "tensorflow"


greater, greater_equal, less, less_equal, not_equal = (math_ops.greater, math_ops.greater_equal, math_ops.less,
                                                       math_ops.less_equal, math_ops.not_equal)
cos, sin, round = math_ops.cos, math_ops.sin, math_ops.round  # noqa: A001  (Keras' name)
update, update_add, update_sub = state_ops.assign, state_ops.assign_add, state_ops.assign_sub


def all(x, axis=None, keepdims=False):  # noqa: A001  (Keras' name)
    """Whether all of ``x`` (as booleans) is true over ``axis``."""
    return math_ops.reduce_all(math_ops.cast(x, dtypes.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001  (Keras' name)
    """Whether any of ``x`` (as booleans) is true over ``axis``."""
    return math_ops.reduce_any(math_ops.cast(x, dtypes.bool), axis, keepdims)


def argmin(x, axis=-1):
    return math_ops.argmin(x, axis)


def arange(start, stop=None, step=1, dtype="int32"):
    """``tf.range`` named ``arange`` (a negative ``start`` alone gives an empty range), cast to ``dtype``."""
    if stop is None and start < 0:
        start = 0
    result = math_ops.range(start, limit=stop, delta=step, name="arange")
    return result if dtype == "int32" else math_ops.cast(result, dtype)


def cast_to_floatx(x):
    """``x`` as ``floatx``: a cast for tensors, a numpy array otherwise."""
    from numflow.ops.constant_op import is_tensor

    if is_tensor(x) or isinstance(x, SparseTensor):
        return math_ops.cast(x, dtype=_floatx())
    return np.asarray(x, dtype=_floatx())


def count_params(x):
    """The number of elements of ``x``'s static shape."""
    return np.prod(x.shape.as_list())


def cumsum(x, axis=0):
    return scan_ops.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return scan_ops.cumprod(x, axis=axis)


def std(x, axis=None, keepdims=False):
    """The standard deviation over ``axis`` (booleans counted as floats)."""
    from numflow.ops.math_composites import reduce_std

    if x.dtype.base_dtype == dtypes.bool:
        x = math_ops.cast(x, _floatx())
    return reduce_std(x, axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    """The variance over ``axis`` (booleans counted as floats)."""
    from numflow.ops.math_composites import reduce_variance

    if x.dtype.base_dtype == dtypes.bool:
        x = math_ops.cast(x, _floatx())
    return reduce_variance(x, axis=axis, keepdims=keepdims)


# -- shapes ------------------------------------------------------------------------------------------------
def flatten(x):
    return array_ops.reshape(x, [-1])


def batch_flatten(x):
    """``x`` reshaped to ``[batch, -1]``."""
    return array_ops.reshape(x, array_ops.stack([-1, math_ops.reduce_prod(array_ops.shape(x)[1:])]))


def permute_dimensions(x, pattern):
    return array_ops.transpose(x, perm=pattern)


def stack(x, axis=0):
    return array_ops.stack(x, axis=axis)


def tile(x, n):
    from numflow.ops.tile_pad_split_ops import tile as tile_op

    return tile_op(x, [n] if isinstance(n, int) else n)


def reverse(x, axes):
    from numflow.ops.sequence_ops import reverse as reverse_op

    return reverse_op(x, [axes] if isinstance(axes, int) else axes)


def gather(reference, indices):
    from numflow.ops.selection_ops import gather as gather_op

    return gather_op(reference, indices)


def one_hot(indices, num_classes):
    from numflow.ops.selection_ops import one_hot as one_hot_op

    return one_hot_op(indices, depth=num_classes, axis=-1)


def in_top_k(predictions, targets, k):
    from numflow.ops.top_k_ops import in_top_k as in_top_k_op

    return in_top_k_op(predictions, targets, k)


def is_sparse(tensor):
    return isinstance(tensor, SparseTensor)


def to_dense(tensor):
    """``tensor`` made dense when sparse."""
    from numflow.ops.sparse_ops import sparse_tensor_to_dense

    return sparse_tensor_to_dense(tensor) if is_sparse(tensor) else tensor


def batch_dot(x, y, axes=None):
    """The dot product of each example of ``x`` with the same of ``y`` over ``axes`` (``x``'s last and ``y``'s
    second-to-last by default): one ``BatchMatMulV2`` after moving the axes and folding the others."""
    x_shape, y_shape = tuple(x.shape.as_list()), tuple(y.shape.as_list())
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes {x_shape} and "
                         f"{y_shape}.")
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. Received inputs with shapes "
                         f"{x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if [a for a in axes if isinstance(a, list | tuple)]:
        raise ValueError(f"Multiple target dimensions are not supported. Expected: None, int, (int, int), "
                         f"Provided: {axes}")
    a0, a1 = axes[0] + x_ndim if axes[0] < 0 else axes[0], axes[1] + y_ndim if axes[1] < 0 else axes[1]
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy batch "
                         "dimension to your inputs using K.expand_dims(x, 0)")
    d1, d2 = x_shape[a0], y_shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} with axes="
                         f"{[a0, a1]}. x.shape[{a0}] != y.shape[{a1}] ({d1} != {d2}).")
    original_x_ndim, original_y_ndim = x_ndim, y_ndim
    if x_ndim == 2:
        x, a0, x_ndim = array_ops.expand_dims(x, 1), a0 + 1, x_ndim + 1
    if y_ndim == 2:
        y, y_ndim = array_ops.expand_dims(y, 2), y_ndim + 1
    if a0 != x_ndim - 1:
        x = array_ops.transpose(x, [i for i in range(x_ndim) if i != a0] + [a0])
    if a1 != 1:
        y = array_ops.transpose(y, [0, a1] + [i for i in range(1, y_ndim) if i != a1])
    x_mid = y_trail = None
    if x_ndim > 3:
        dims = array_ops.shape(x)
        x_mid = dims[1:-1]
        x = array_ops.reshape(x, array_ops.stack([dims[0], -1, dims[-1]]))
    if y_ndim > 3:
        dims = array_ops.shape(y)
        y_trail = dims[2:]
        y = array_ops.reshape(y, array_ops.stack([dims[0], dims[1], -1]))
    result = math_ops.matmul(x, y)
    output_shape = array_ops.shape(result)
    if x_mid is not None:
        output_shape = array_ops.concat([output_shape[:1], x_mid, output_shape[-1:]], 0)
    if y_trail is not None:
        output_shape = array_ops.concat([output_shape[:-1], y_trail], 0)
    if x_mid is not None or y_trail is not None:
        result = array_ops.reshape(result, output_shape)
    if original_x_ndim == 2:
        return array_ops.squeeze(result, 1)
    if original_y_ndim == 2:
        return array_ops.squeeze(result, -1)
    return result


# -- random tensors and variables --------------------------------------------------------------------------
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    from numflow.ops.random_ops import truncated_normal as draw

    return draw(shape, mean, stddev, dtype=dtype or _floatx(), seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """Ones with probability ``p``, else zeros."""
    from numflow.ops.random_ops import random_uniform
    from numflow.ops.selection_ops import where_v2

    dtype = dtype or _floatx()
    return where_v2(random_uniform(shape, dtype=dtype, seed=_seed(seed)) <= p, array_ops.ones(shape, dtype=dtype),
                 array_ops.zeros(shape, dtype=dtype))


def random_binomial(shape, p=0.0, dtype=None, seed=None):
    """``random_bernoulli`` (Keras' older name)."""
    return random_bernoulli(shape, p, dtype, seed)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """A Keras variable of normal values."""
    from numflow.ops.init_ops import random_normal_initializer

    dtype = dtype or _floatx()
    value = random_normal_initializer(mean, scale, dtype=dtypes.as_dtype(dtype), seed=_seed(seed, 10e8))(shape)
    return _keras_variable(value, dtype, name)


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """A Keras variable of uniform values in ``[low, high)``."""
    from numflow.ops.init_ops import random_uniform_initializer

    dtype = dtype or _floatx()
    value = random_uniform_initializer(low, high, dtype=dtypes.as_dtype(dtype), seed=_seed(seed, 10e8))(shape)
    return _keras_variable(value, dtype, name)


def eye(size, dtype=None, name=None):
    """A Keras variable holding the identity matrix of ``size``."""
    from numflow.ops.linalg_ops import eye as eye_op

    dtype = dtype or _floatx()
    return _keras_variable(eye_op(size, dtype=dtypes.as_dtype(dtype)), dtype, name)


# -- higher-order functions and printing -------------------------------------------------------------------
def map_fn(fn, elems, name=None, dtype=None):
    return functional_ops.map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return functional_ops.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    return functional_ops.foldr(fn, elems, initializer=initializer, name=name)


def print_tensor(x, message="", summarize=3):
    """``x`` through an identity that prints ``message`` and ``x`` to stdout when run."""
    from numflow.framework.graph import get_default_graph
    from numflow.ops.logging_ops import print_v2

    with x.graph.as_default() if hasattr(x, "graph") else get_default_graph().as_default():
        printed = print_v2(message, x, output_stream=sys.stdout, summarize=summarize)
        with get_default_graph().control_dependencies([printed]):
            return array_ops.identity(x)


# -- CTC ---------------------------------------------------------------------------------------------------
def ctc_label_dense_to_sparse(labels, label_lengths):
    """The ``SparseTensor`` of the first ``label_lengths[i]`` labels of each row of dense ``labels``."""
    from numflow.ops.array_ops import fill
    from numflow.ops.scatter_ops import gather_nd
    from numflow.ops.sequence_ops import boolean_mask

    label_shape = array_ops.shape(labels)
    num_batches = array_ops.stack([label_shape[0]])
    max_num_labels = array_ops.stack([label_shape[1]])

    def range_less_than(old_input, current_input):
        return array_ops.expand_dims(math_ops.range(array_ops.shape(old_input)[1]), 0) < fill(max_num_labels,
                                                                                               current_input)

    init = math_ops.cast(fill([1, label_shape[1]], 0), dtypes.bool)
    dense_mask = functional_ops.scan(range_less_than, label_lengths, initializer=init, parallel_iterations=1)
    dense_mask = dense_mask[:, 0, :]
    label_array = array_ops.reshape(tile(math_ops.range(0, label_shape[1]), num_batches), label_shape)
    label_ind = boolean_mask(label_array, dense_mask)
    batch_array = array_ops.transpose(array_ops.reshape(tile(math_ops.range(0, label_shape[0]), max_num_labels),
                                                        reverse(label_shape, 0)))
    batch_ind = boolean_mask(batch_array, dense_mask)
    indices = array_ops.transpose(array_ops.reshape(array_ops.concat([batch_ind, label_ind], axis=0), [2, -1]))
    values = gather_nd(labels, indices)
    return SparseTensor(math_ops.cast(indices, dtypes.int64), values, math_ops.cast(label_shape, dtypes.int64))


def _log_time_major(y_pred):
    from numflow.keras.backend import epsilon

    return math_ops.log(array_ops.transpose(y_pred, perm=[1, 0, 2]) + epsilon())


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """The CTC loss of each example (``[batch, 1]``) of softmax outputs ``y_pred`` ``[batch, time, classes]``."""
    from numflow.ops.ctc_ops import ctc_loss

    label_length = math_ops.cast(array_ops.squeeze(label_length, axis=-1), dtypes.int32)
    input_length = math_ops.cast(array_ops.squeeze(input_length, axis=-1), dtypes.int32)
    sparse = ctc_label_dense_to_sparse(y_true, label_length)
    sparse = SparseTensor(sparse.indices, math_ops.cast(sparse.values, dtypes.int32), sparse.dense_shape)
    return array_ops.expand_dims(ctc_loss(inputs=_log_time_major(y_pred), labels=sparse,
                                          sequence_length=input_length), 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """``([dense decoded paths, -1 padded], log probabilities)`` of softmax outputs ``y_pred``."""
    from numflow.ops import ctc_ops
    from numflow.ops.sparse_ops import sparse_tensor_to_dense

    dims = array_ops.shape(y_pred)
    num_samples, num_steps = dims[0], dims[1]
    inputs = _log_time_major(y_pred)
    input_length = math_ops.cast(input_length, dtypes.int32)
    if greedy:
        decoded, log_prob = ctc_ops.ctc_greedy_decoder(inputs=inputs, sequence_length=input_length)
    else:
        decoded, log_prob = ctc_ops.ctc_beam_search_decoder(inputs=inputs, sequence_length=input_length,
                                                            beam_width=beam_width, top_paths=top_paths)
    dense = [sparse_tensor_to_dense(SparseTensor(st.indices, st.values, (num_samples, num_steps)), default_value=-1)
             for st in decoded]
    return dense, log_prob
