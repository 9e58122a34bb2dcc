"""Fractional pooling: ``tf.nn.fractional_max_pool`` and ``tf.nn.fractional_avg_pool`` (ops
``FractionalMaxPool`` and ``FractionalAvgPool``: TensorFlow 1.x's signature, ``pooling_ratio``,
``pseudo_random``, ``overlapping``, ``deterministic``, ``seed``, ``seed2``), each returning the output and
its row and column pooling sequences, and their gradients through ``FractionalMaxPoolGrad`` and
``FractionalAvgPoolGrad``. Kernels: ``numflow_kernels/reference_fractional_pool.py``.
"""

import math

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import check_dtype, check_rank

_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def _fractional_infer(op):
    x = op.inputs[0]
    check_dtype(x, _TYPES, "value")
    check_rank(x.shape, 4)
    ratio = op._attrs["pooling_ratio"]
    if len(ratio) < 4:
        raise ValueError(f"Attr 'pooling_ratio' of '{op.type}' Op passed list of length {len(ratio)} less than "
                         "minimum 4.")
    if len(ratio) != 4:
        raise ValueError(f"pooling_ratio field must specify 4 dimensions, got {len(ratio)}")
    for r in ratio:
        if r < 1:
            raise ValueError(f"pooling_ratio cannot be smaller than 1, got: {r:g}")
    dims = x.shape.dim_values if x.shape.ndims is not None else [None] * 4
    out = [None if d is None else int(math.floor(d / r)) for d, r in zip(dims, ratio)]
    sequences = [TensorShape([None if d is None else d + 1]) for d in out[1:3]]
    return [(x.dtype, TensorShape(out)), (dtypes.int64, sequences[0]), (dtypes.int64, sequences[1])]


for _type in ("FractionalMaxPool", "FractionalAvgPool"):
    declare(_type)(_fractional_infer)


@declare("FractionalMaxPoolGrad")
def _max_grad_infer(op):
    check_rank(op.inputs[0].shape, 4)
    return [(op.inputs[0].dtype, op.inputs[0].shape)]


@declare("FractionalAvgPoolGrad")
def _avg_grad_infer(op):
    return [(op.inputs[1].dtype, TensorShape([None] * 4))]


def _fractional_pool(op_type, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2, name):
    attrs = {"pooling_ratio": [float(r) for r in pooling_ratio], "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "deterministic": bool(deterministic), "seed": int(seed),
             "seed2": int(seed2)}
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(value, name="value")
        return tuple(get_default_graph().create_op(op_type, [x], attrs, name=scope).outputs)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
                        seed2=0, name=None):
    """Max pooling of the 4-D ``value`` over cells of random sizes (op ``FractionalMaxPool``).

    Each output dimension is ``floor(input / pooling_ratio)``; cells step by ``k = input // output`` or
    ``k + 1`` rows (columns), in a random order, or, with ``pseudo_random``, as one random offset of an
    even spacing. With ``overlapping``, a cell also reads the next cell's first row (column).
    ``deterministic`` keeps one pair of seeds, ``(seed, seed2)`` or drawn once when both are 0, so every
    run pools the same cells (TensorFlow's sequences for those seeds); otherwise both must be 0 and each
    run draws new cells.

    Returns
    -------
    (output, row_pooling_sequence, col_pooling_sequence)
        The pooled tensor and the cell boundaries (int64, ``output + 1`` values, from 0 to the input size).

    >>> import numflow as tf
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> out, rows, cols = tf.nn.fractional_max_pool(x, [1, 2, 2, 1], deterministic=True, seed=1)
    >>> tf.Session().run(out)[0, :, :, 0].tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    return _fractional_pool("FractionalMaxPool", value, pooling_ratio, pseudo_random, overlapping, deterministic,
                            seed, seed2, name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
                        seed2=0, name=None):
    """Average pooling of the 4-D ``value`` over cells of random sizes (op ``FractionalAvgPool``), drawn as
    :func:`fractional_max_pool` draws them; returns ``(output, row_pooling_sequence, col_pooling_sequence)``."""
    return _fractional_pool("FractionalAvgPool", value, pooling_ratio, pseudo_random, overlapping, deterministic,
                            seed, seed2, name)


@gradient("FractionalMaxPool")
def _fractional_max_pool_grad(op, grad, unused_rows_grad, unused_cols_grad):
    inputs = [op.inputs[0], op.outputs[0], grad, op.outputs[1], op.outputs[2]]
    attrs = {"overlapping": op._attrs["overlapping"]}
    return [get_default_graph().create_op("FractionalMaxPoolGrad", inputs, attrs,
                                          name="FractionalMaxPoolGrad").outputs[0]]


@gradient("FractionalAvgPool")
def _fractional_avg_pool_grad(op, grad, unused_rows_grad, unused_cols_grad):
    shape = op.inputs[0].shape
    if not shape.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
    with get_default_graph().name_scope("FractionalAvgPoolGrad") as scope:
        orig_shape = convert_to_tensor(shape.as_list(), dtypes.int64, name="orig_input_tensor_shape")
        inputs = [orig_shape, grad, op.outputs[1], op.outputs[2]]
        out = get_default_graph().create_op("FractionalAvgPoolGrad", inputs, {"overlapping": op._attrs["overlapping"]},
                                            name=scope).outputs[0]
    out.set_shape(shape)
    return [out]
