"""``tf.map_fn``, ``tf.scan``, ``tf.foldl`` and ``tf.foldr``: a function applied along the first axis of
tensors, built as TensorFlow 1.x builds them: the elements unstacked into TensorArrays, a
``tf.while_loop`` reading one per iteration, and the results written into TensorArrays and stacked.
They differentiate through the loop like any other.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     sums = tf.scan(lambda total, x: total + x, tf.constant([1, 2, 3, 4]))
...     with tf.Session() as sess:
...         sess.run(sums).tolist()
[1, 3, 6, 10]
"""

from numflow.framework import nest
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.tensor_array_ops import TensorArray
from numflow.ops.while_loop import while_loop


def _check_callable(fn):
    if not callable(fn):
        raise TypeError(f"{getattr(fn, '__name__', fn)} is not callable. Please provide a callable function.")


def _length(elems_flat):
    """The number of elements along the first axis: static when known, else a tensor."""
    n = elems_flat[0].shape.dim_values[0] if elems_flat[0].shape.ndims else None
    return n if n is not None else array_ops.shape(elems_flat[0])[0]


def _static_length(elems_flat):
    lengths = {t.shape.dim_values[0] for t in elems_flat if t.shape.ndims} - {None}
    if len(lengths) > 1:
        raise ValueError(f"Dimensions {sorted(lengths)[0]} and {sorted(lengths)[1]} are not compatible")
    return lengths.pop() if lengths else None


def _unstacked(elems_flat, n, element_shapes=False):
    return [TensorArray(e.dtype, size=n, dynamic_size=False, infer_shape=True,
                        element_shape=e.shape[1:] if element_shapes and e.shape.ndims else None).unstack(e)
            for e in elems_flat]


def _with_first_dimension(tensors, n_static):
    for t in tensors:
        t.set_shape(TensorShape([n_static]).concatenate(t.shape[1:]) if t.shape.ndims else TensorShape(None))


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """``stack([fn(e) for e in unstack(elems)])``, for a (nested structure of) tensors ``elems``.

    ``dtype`` (or ``fn_output_signature``): the structure and dtypes of ``fn``'s results, when they
    differ from ``elems``'. The other arguments are ``tf.while_loop``'s.
    """
    _check_callable(fn)
    signature = fn_output_signature if fn_output_signature is not None else dtype
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. Got {elems}, which does "
                         "not contain any Tensors.")
    graph = get_default_graph()
    with graph.name_scope(name or "map"):
        elems_flat = [convert_to_tensor(t, name="elem") for t in elems_flat]
        if elems_flat[0].shape.ndims is not None and elems_flat[0].shape.ndims < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        n_static = _static_length(elems_flat)
        n = n_static if n_static is not None else array_ops.shape(elems_flat[0])[0]
        elems_ta = _unstacked(elems_flat, n)
        result_dtypes = [t.dtype.base_dtype for t in elems_flat] if signature is None else nest.flatten(signature)
        result_ta = [TensorArray(d, size=n, dynamic_size=False, infer_shape=infer_shape) for d in result_dtypes]

        def compute(i, tas):
            value = fn(nest.pack_sequence_as(elems, [ta.read(i) for ta in elems_ta]))
            nest.assert_same_structure(signature if signature is not None else elems, value)
            return i + 1, [ta.write(i, v) for ta, v in zip(tas, nest.flatten(value))]

        _, results = while_loop(lambda i, _: i < n, compute, (constant(0), result_ta),
                                parallel_iterations=parallel_iterations or 10, back_prop=back_prop,
                                swap_memory=swap_memory, maximum_iterations=n)
        stacked = [r.stack() for r in results]
        _with_first_dimension(stacked, n_static)
        return nest.pack_sequence_as(signature if signature is not None else elems, stacked)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """The running results of ``a = fn(a, e)`` over the elements ``e`` of ``elems`` along their first axis
    (the last first with ``reverse``), stacked; ``a`` starts at ``initializer`` (default: the first
    element, which is then also the first result)."""
    _check_callable(fn)
    input_is_nested = nest.is_nested(elems)

    def input_pack(flat):
        return nest.pack_sequence_as(elems, flat) if input_is_nested else flat[0]

    if initializer is None:
        output_flatten, output_pack = (nest.flatten, input_pack) if input_is_nested else (lambda x: [x], input_pack)
    else:
        output_is_nested = nest.is_nested(initializer)

        def output_flatten(x):
            return nest.flatten(x) if output_is_nested else [x]

        def output_pack(flat):
            return nest.pack_sequence_as(initializer, flat) if output_is_nested else flat[0]

    graph = get_default_graph()
    with graph.name_scope(name or "scan"):
        elems_flat = [convert_to_tensor(e, name="elem") for e in (nest.flatten(elems) if input_is_nested else [elems])]
        n = _length(elems_flat)
        elems_ta = _unstacked(elems_flat, n, element_shapes=True)
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in elems_ta]
            start = 1
        else:
            a_flat = [convert_to_tensor(a) for a in output_flatten(initializer)]
            start = 0
        accs_ta = [TensorArray(a.dtype, size=n, element_shape=a.shape if infer_shape else None, dynamic_size=False,
                               infer_shape=infer_shape) for a in a_flat]
        if initializer is None:
            accs_ta = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs_ta, a_flat)]

        def compute(i, a_flat, tas):
            a_out = fn(output_pack(a_flat), input_pack([ta.read(i) for ta in elems_ta]))
            nest.assert_same_structure(elems if initializer is None else initializer, a_out)
            flat_out = output_flatten(a_out)
            tas = [ta.write(i, v) for ta, v in zip(tas, flat_out)]
            return (i - 1 if reverse else i + 1), flat_out, tas

        if reverse:
            initial, condition = n - 1 - start, (lambda i, _1, _2: i >= 0)
        else:
            initial, condition = start, (lambda i, _1, _2: i < n)
        _, _, results = while_loop(condition, compute, (initial, a_flat, accs_ta),
                                   parallel_iterations=parallel_iterations, back_prop=back_prop,
                                   swap_memory=swap_memory, maximum_iterations=n)
        stacked = [r.stack() for r in results]
        _with_first_dimension(stacked, _static_length(elems_flat))
        return output_pack(stacked)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """``a = fn(a, e)`` over the elements ``e`` of ``elems`` along their first axis, first to last; ``a``
    starts at ``initializer`` (default: the first element)."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name or "foldl", False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """``a = fn(a, e)`` over the elements ``e`` of ``elems`` along their first axis, last to first; ``a``
    starts at ``initializer`` (default: the last element)."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name or "foldr", True)


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, from_the_end):
    _check_callable(fn)
    graph = get_default_graph()
    with graph.name_scope(name):
        elems_flat = [convert_to_tensor(e, name="elem") for e in nest.flatten(elems)]
        n = _length(elems_flat)
        elems_ta = nest.pack_sequence_as(elems, _unstacked(elems_flat, n))

        def read(i):
            return nest.map_structure(lambda ta: ta.read(i), elems_ta)

        if from_the_end:
            i, a = (n - 1, read(n - 1)) if initializer is None else (n, initializer)

            def compute(i, a):
                i -= 1
                return [i, fn(a, read(i))]

            condition = lambda i, a: i > 0  # noqa: E731 - TensorFlow's loop, as written there
        else:
            i, a = (constant(1), read(0)) if initializer is None else (constant(0), initializer)

            def compute(i, a):
                return [i + 1, fn(a, read(i))]

            condition = lambda i, a: i < n  # noqa: E731
        _, result = while_loop(condition, compute, [i, a], parallel_iterations=parallel_iterations,
                               back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)
        return result
