"""``tensordot`` (transposes, reshapes and a ``MatMul``, as TensorFlow builds it) and ``einsum`` (op ``Einsum``).

An einsum equation names each operand's dimensions with letters (``"bij,bjk->bik"``); ``...`` stands
for leading dimensions that broadcast; without ``->`` the output has the letters used once, in
alphabetical order. Equations of one or two operands are one ``Einsum`` op; more operands are
contracted two at a time from the left. The gradient with respect to each operand is another einsum
(TensorFlow's rule), summed over the broadcast ``...`` dimensions and broadcast over the letters only
that operand has.
"""

import builtins
import re
from collections import Counter

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import broadcast_to, gradient, sum_to
from numflow.ops.complex_ops import conj
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import COMPLEX, FLOATS, SIGNED
from numflow.ops.op_util import _out, check_dtype, check_list_dtypes

_EINSUM_TYPES = FLOATS + (dtypes.int32, dtypes.int64) + SIGNED[:2] + COMPLEX
_TERM = re.compile(r"^(\.\.\.)?[a-zA-Z]*(\.\.\.)?[a-zA-Z]*$")


def parse_equation(equation, num_inputs):
    """``(input terms, output term)`` of an einsum equation, made explicit (``...`` kept as is)."""
    equation = equation.replace(" ", "")
    if "->" in equation:
        lhs, out = equation.split("->", 1)
    else:
        lhs, out = equation, None
    terms = lhs.split(",")
    if len(terms) != num_inputs:
        raise ValueError(f'Got {num_inputs} inputs for equation "{equation}", expecting {len(terms)}')
    for term in terms + ([out] if out is not None else []):
        if term.count("...") > 1 or not _TERM.match(term):
            raise ValueError(f"Invalid einsum equation '{equation}': a term holds letters and at most one '...'.")
    if out is None:
        counts = Counter(c for t in terms for c in t.replace("...", ""))
        once = "".join(sorted(c for c, n in counts.items() if n == 1))
        out = ("..." if any("..." in t for t in terms) else "") + once
    for c in out.replace("...", ""):
        if all(c not in t for t in terms):
            raise ValueError(f"Output subscript '{c}' of einsum equation '{equation}' appears in no input.")
    return terms, out


def _letter_dims(term, shape):
    """``({letter: dim}, ellipsis dims)`` of one operand; ValueError when the rank does not fit the term."""
    letters = term.replace("...", "")
    if shape.ndims is None:
        return None, None
    if "..." not in term and shape.ndims != len(letters) or shape.ndims < len(letters):
        raise ValueError(f"Expected input of rank {len(letters)} for the einsum term '{term}', got shape {shape}")
    dims = shape.dim_values
    split = term.index("...") if "..." in term else len(letters)
    n_ellipsis = len(dims) - len(letters)
    mapping = {}
    for letter, d in zip(letters, dims[:split] + dims[split + n_ellipsis:]):
        if mapping.get(letter) is not None and d is not None and mapping[letter] != d:
            raise ValueError(f"Dimensions must be equal, but are {mapping[letter]} and {d}")
        mapping[letter] = d if mapping.get(letter) is None else mapping[letter]
    return mapping, dims[split:split + n_ellipsis]


@declare("Einsum")
def _einsum_infer(op):
    inputs = op.inputs
    check_list_dtypes(inputs, "Einsum")
    check_dtype(inputs[0], _EINSUM_TYPES, "inputs")
    terms, out = parse_equation(op._attrs["equation"], len(inputs))
    letters, ellipsis = {}, TensorShape([])
    for term, t in zip(terms, inputs):
        mapping, extra = _letter_dims(term, t.shape)
        if mapping is None:
            return [(inputs[0].dtype, TensorShape(None))]
        for letter, d in mapping.items():
            old = letters.get(letter)
            if old is not None and d is not None and old != d:
                raise ValueError(f"Dimensions must be equal, but are {old} and {d}")
            letters[letter] = d if old is None else old
        ellipsis = broadcast_shapes(ellipsis, TensorShape(extra))
    dims = []
    for part in re.split(r"(\.\.\.)", out):
        dims.extend(ellipsis.dim_values if part == "..." else [letters[c] for c in part])
    return [(inputs[0].dtype, TensorShape(dims))]


def _einsum_op(equation, inputs):
    return _out("Einsum", inputs, {"equation": equation, "N": len(inputs)})[0]


def _pairwise(terms, out, tensors):
    """Contract ``tensors`` two at a time from the left, keeping the letters a later operand or the output needs."""
    term, acc = terms[0], tensors[0]
    for i in builtins.range(1, len(tensors)):
        later = "".join(terms[i + 1:]) + out
        joined = term + terms[i]
        keep = "..." if "..." in joined else ""
        keep += "".join(dict.fromkeys(c for c in joined.replace("...", "") if c in later))
        acc = _einsum_op(f"{term},{terms[i]}->{keep if i < len(tensors) - 1 else out}", [acc, tensors[i]])
        term = keep
    return acc


def einsum(equation, *inputs, **kwargs):
    """The tensor contraction described by ``equation`` over ``inputs`` (op ``Einsum``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.einsum("ij,jk->ik", [[1.0, 2.0]], [[3.0], [4.0]])).tolist()
    [[11.0]]
    """
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}")
    with get_default_graph().name_scope(name or "einsum"):
        tensors = [convert_to_tensor(x) for x in inputs]
        terms, out = parse_equation(equation, len(tensors))
        if len(tensors) <= 2:
            return _einsum_op(",".join(terms) + "->" + out, tensors)
        return _pairwise(terms, out, tensors)


@gradient("Einsum")
def _einsum_grad(op, grad):
    """Each operand's gradient: ``einsum(output, conjugated others -> operand's kept letters)``, then broadcast over
    the letters only that operand has, and summed over ``...`` dimensions it was broadcast along."""
    terms, out = parse_equation(op._attrs["equation"], len(op.inputs))
    grads = []
    for i, (term, x) in enumerate(zip(terms, op.inputs)):
        letters = term.replace("...", "")
        if len(set(letters)) != len(letters):
            raise NotImplementedError(f"The gradient of {op.name} (Einsum '{op._attrs['equation']}') is not "
                                      "implemented for an operand with a repeated letter.")
        others = [t for j, t in enumerate(terms) if j != i]
        reduced = [c for c in letters if c not in out and all(c not in t for t in others)]
        kept = "".join(c for c in _tokens(term) if c not in reduced)
        equation = ",".join([out] + others) + "->" + kept
        g = _einsum_op(equation, [grad] + [conj(t) for j, t in enumerate(op.inputs) if j != i])
        if reduced:
            g = _restore_reduced(g, kept, term, x)
        grads.append(sum_to(g, x) if "..." in term else g)
    return grads


def _tokens(term):
    """The letters of an einsum term in order, with ``...`` as one token."""
    return [c for part in re.split(r"(\.\.\.)", term) for c in ([part] if part == "..." else list(part))]


def _restore_reduced(g, kept, term, x):
    """``g`` (over the ``kept`` letters) with the summed-out letters of ``term`` put back: broadcast over ``x``."""
    order = _tokens(term)
    expanded = g
    for axis, c in enumerate(order):
        if c != "..." and c not in kept:
            expanded = array_ops.expand_dims(expanded, axis if "..." not in order[:axis] else axis - len(order))
    return broadcast_to(expanded, x)


# -- tensordot --------------------------------------------------------------------------------------------
def _tensordot_axes(a, axes):
    rank = a.shape.ndims
    if isinstance(axes, int | np.integer):
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        if rank is None:
            raise ValueError("tensordot with an integer `axes` needs the rank of `a` when the graph is built.")
        if axes > rank:
            raise ValueError(f"`axes` must not be larger than the number of dimensions of tensor {a}.  Received "
                             f"{axes}, vs tensor dimensions {rank}.")
        return list(builtins.range(rank - axes, rank)), list(builtins.range(axes))
    if isinstance(axes, list | tuple):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {list(axes)}.")
        a_axes, b_axes = axes
        if isinstance(a_axes, int | np.integer) and isinstance(b_axes, int | np.integer):
            a_axes, b_axes = [a_axes], [b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, {len(a_axes)} != {len(b_axes)}.")
        return [int(i) for i in a_axes], [int(i) for i in b_axes]
    raise TypeError("tensordot takes `axes` as an integer or a pair of lists of integers.")


def _tensordot_reshape(a, axes, flipped=False):
    """``a`` transposed and reshaped to a matrix for the contraction, and its free dimensions (a list of
    ints and Nones, and the same as ints or an int32 tensor)."""
    if a.shape.ndims is None:
        raise ValueError("tensordot needs the ranks of its inputs when the graph is built.")
    shape = a.shape.as_list() if a.shape.is_fully_defined() else a.shape.dim_values
    axes = [i if i >= 0 else i + len(shape) for i in axes]
    free = [i for i in builtins.range(len(shape)) if i not in axes]
    free_static = [shape[i] for i in free]
    perm = axes + free if flipped else free + axes
    if a.shape.is_fully_defined():
        prod_free = int(np.prod(free_static))
        prod_axes = int(np.prod([shape[i] for i in axes]))
        new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
        moved = array_ops.transpose(a, perm) if perm != list(builtins.range(len(shape))) else a
        if moved.shape.as_list() != new_shape:
            moved = array_ops.reshape(moved, new_shape)
        return moved, free_static, free_static
    dynamic = array_ops.shape(a)
    free_dims = array_ops.gather(dynamic, convert_to_tensor(free, dtype=dtypes.int32, name="free"))
    prod_free = math_ops.reduce_prod(free_dims)
    prod_axes = math_ops.reduce_prod(array_ops.gather(dynamic, convert_to_tensor(axes, dtype=dtypes.int32,
                                                                                  name="axes")))
    new_shape = array_ops.stack([prod_axes, prod_free] if flipped else [prod_free, prod_axes])
    return array_ops.reshape(array_ops.transpose(a, perm), new_shape), free_dims, free_static


def tensordot(a, b, axes, name=None):
    """The sum of products of ``a`` and ``b`` over ``axes``: the last ``axes`` dimensions of ``a`` with the
    first of ``b`` for an int, else the pair of axis lists ``[a_axes, b_axes]``.

    >>> import numflow as tf
    >>> tf.tensordot(tf.ones([2, 3, 4]), tf.ones([4, 5]), 1).shape.as_list()
    [2, 3, 5]
    """
    with get_default_graph().name_scope(name or "Tensordot") as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        a_axes, b_axes = _tensordot_axes(a, axes)
        a_matrix, a_free, a_static = _tensordot_reshape(a, a_axes)
        b_matrix, b_free, b_static = _tensordot_reshape(b, b_axes, True)
        product = math_ops.matmul(a_matrix, b_matrix)
        if isinstance(a_free, list) and isinstance(b_free, list):
            if product.shape.is_fully_defined() and product.shape.as_list() == a_free + b_free:
                return product
            return array_ops.reshape(product, a_free + b_free, name=scope)
        a_free = a_free if not isinstance(a_free, list) else convert_to_tensor(a_free, dtype=dtypes.int32)
        b_free = b_free if not isinstance(b_free, list) else convert_to_tensor(b_free, dtype=dtypes.int32)
        result = array_ops.reshape(product, array_ops.concat([a_free, b_free], 0), name=scope)
        result.set_shape(TensorShape(a_static + b_static))
        return result
