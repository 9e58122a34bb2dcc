"""Complex numbers: ``tf.complex``, ``tf.real``, ``tf.imag``, ``tf.conj``, ``tf.angle``, ``tf.to_complex64`` and
``to_complex128``, and the ops ``ComplexAbs`` (which ``tf.abs`` builds for a complex tensor) and
``ConjugateTranspose`` (``tf.transpose(..., conjugate=True)``), with TensorFlow's gradients.

As TensorFlow's, a gradient with respect to a complex input is the conjugate Wirtinger derivative of a real
loss: ``real``'s gradient is ``complex(grad, 0)``, ``imag``'s ``complex(0, grad)``, and the math ops'
gradients multiply by conjugates (``conj`` below returns a real tensor itself, so real graphs are unchanged).
Kernels: ``numflow_kernels/reference_complex.py``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import broadcast_shapes
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient, sum_to
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, check_same_dtype, static_value

COMPLEX = (dtypes.complex64, dtypes.complex128)
_PARTS = (dtypes.float32, dtypes.float64)


@declare("Complex")
def _complex_infer(op):
    real, imag = op.inputs
    check_same_dtype(real, imag, "Complex", "real", "imag")
    check_dtype(real, _PARTS, "T")
    return [(op._attrs["Tout"], broadcast_shapes(real.shape, imag.shape))]


def _part_infer(param):
    def infer(op):
        check_dtype(op.inputs[0], COMPLEX, param)
        return [(op._attrs["Tout"], op.inputs[0].shape)]

    return infer


for _op_type in ("Real", "Imag", "Angle"):
    declare(_op_type)(_part_infer("T"))
declare("ComplexAbs")(_part_infer("x"))


declare("ConjugateTranspose")(array_ops._transpose_infer)


@declare("Conj")
def _conj_infer(op):
    check_dtype(op.inputs[0], (*COMPLEX, dtypes.variant), "T")
    return [(op.inputs[0].dtype.base_dtype, op.inputs[0].shape)]


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's public name
    """The complex tensor ``real + 1j * imag`` (op ``Complex``): float32 parts give complex64, float64
    parts complex128; the parts broadcast."""
    real = convert_to_tensor(real, name="real")  # outside the scope, as TensorFlow converts them
    imag = convert_to_tensor(imag, name="imag")
    with get_default_graph().name_scope(name or "Complex") as scope:
        if real.dtype.base_dtype != imag.dtype.base_dtype or real.dtype.base_dtype not in _PARTS:
            raise TypeError(f"The `real` and `imag` components have incorrect types: {real.dtype.base_dtype.name} "
                            f"{imag.dtype.base_dtype.name}. They must be consistent, and one of "
                            "[tf.float32, tf.float64]")
        out = dtypes.complex64 if real.dtype.base_dtype == dtypes.float32 else dtypes.complex128
        return _out("Complex", [real, imag], {"Tout": out}, name=scope)[0]


def _numeric(x, what):
    if not x.dtype.base_dtype.is_numeric:
        raise TypeError(f"{what} must be a numeric tensor, but got tensor with dtype {x.dtype.base_dtype}")


def real(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The real parts of a complex tensor (op ``Real``); a real tensor is returned as it is."""
    with get_default_graph().name_scope(name or "Real") as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.base_dtype.is_complex:
            return _out("Real", [x], {"Tout": x.dtype.real_dtype}, name=scope)[0]
        _numeric(x, "input")
        return x


def imag(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The imaginary parts of a complex tensor (op ``Imag``); zeros for a real tensor."""
    with get_default_graph().name_scope(name or "Imag") as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.base_dtype.is_complex:
            return _out("Imag", [x], {"Tout": x.dtype.real_dtype}, name=scope)[0]
        _numeric(x, "input")
        return array_ops.zeros_like(x)


def angle(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The argument of each complex element (op ``Angle``); for a real tensor, pi where it is negative,
    else 0."""
    with get_default_graph().name_scope(name or "Angle") as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.base_dtype.is_complex:
            return _out("Angle", [x], {"Tout": x.dtype.real_dtype}, name=scope)[0]
        pi = convert_to_tensor(np.pi, dtype=x.dtype.base_dtype)  # TypeError for an integer tensor, as TF's
        return array_ops.where(math_ops.less(x, 0), pi * array_ops.ones_like(x), array_ops.zeros_like(x))


def conj(x, name=None):
    """The complex conjugate (op ``Conj``); a real tensor is returned as it is.

    Raises
    ------
    TypeError
        For a tensor that is not numeric.
    """
    if isinstance(x, Tensor):
        dtype = x.dtype.base_dtype
        if dtype.is_complex or dtype == dtypes.variant:
            with get_default_graph().name_scope(name or "Conj") as scope:
                return _out("Conj", [x], name=scope)[0]
        if not dtype.is_numeric:
            raise TypeError(f"Expected numeric or variant tensor, got dtype {dtype!r}.")
        return x
    return conj(convert_to_tensor(x), name=name)


def to_complex64(x, name="ToComplex64"):
    return math_ops.cast(x, dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    return math_ops.cast(x, dtypes.complex128, name=name)


# -- gradients --------------------------------------------------------------------------------------
def _with_zero(grad, real_first=True):
    zero = convert_to_tensor(0, dtype=grad.dtype.base_dtype)
    return complex(grad, zero) if real_first else complex(zero, grad)


@gradient("Real")
def _real_grad(op, grad):
    return [_with_zero(grad)]


@gradient("Imag")
def _imag_grad(op, grad):
    return [_with_zero(grad, real_first=False)]


@gradient("Conj")
def _conj_grad(op, grad):
    return [conj(grad)]


@gradient("Angle")
def _angle_grad(op, grad):
    x = op.inputs[0]
    with get_default_graph().control_dependencies([grad]):
        z = math_ops.reciprocal(complex(imag(x), real(x)))
        return [math_ops.negative(_with_zero(grad)) * z]


@gradient("ComplexAbs")
def _complex_abs_grad(op, grad):
    y = op.outputs[0]
    return [math_ops.div_no_nan(complex(grad, array_ops.zeros_like(grad)) * op.inputs[0],
                                complex(y, array_ops.zeros_like(y)))]


@gradient("ConjugateTranspose")
def _conjugate_transpose_grad(op, grad):
    perm = static_value(op.inputs[1])
    if perm is None:
        raise ValueError(f"The gradient of {op.name} (ConjugateTranspose) needs a permutation known when the graph is "
                         "built.")
    return [array_ops.transpose(grad, np.argsort(perm).astype(np.int32), conjugate=True), None]


@gradient("Complex")
def _complex_grad(op, grad):
    x, y = op.inputs
    return [sum_to(real(grad), x, y), sum_to(imag(grad), y, x)]
