"""Op declarations: each op type's output dtypes and static shapes, and its gradient.

An op type is declared once, next to the function that adds it to a graph::

    @declare("Square")
    def _square(op):
        x = op.inputs[0]
        return [(x.dtype, x.shape)]

The inference function receives the new :class:`~numflow.framework.graph.Operation` (inputs and
attrs set, outputs not yet) and returns one ``(dtype, shape)`` pair per output. It raises
``ValueError``/``TypeError`` for inputs the op cannot take; the graph adds the op's name to the
message. Kernels that compute the op live in ``numflow_kernels`` and are found by
(op type, device type).
"""

from dataclasses import dataclass, field


@dataclass
class OpDef:
    """What the graph knows of one op type."""

    type: str
    infer: object
    stateful: bool = False
    ref_inputs: tuple = ()
    ref_output: bool = False
    blocking: bool = False
    functional: bool = False
    gradient: object = field(default=None, repr=False)


OP_DEFS = {}  # op type -> OpDef (``get`` raises for an undeclared type; the graph reads it directly)


def declare(op_type, *, stateful=False, ref_inputs=(), ref_output=False, blocking=False, functional=False):
    """Declare ``op_type`` with the decorated shape/dtype inference function.

    ``stateful`` ops (variables, assignments, random ops) are never folded or deduplicated.
    A variable's tensor is a reference to its buffer: ops listed with ``ref_output`` produce one,
    and the inputs listed in ``ref_inputs`` (True: all of them) take one as is (an assign writes
    through it). Any other input fed by a reference receives the variable's current value.
    A ``blocking`` op may wait for another op to run (a queue, a barrier): the executor always
    gives it a thread of its own, however quickly it once finished.
    A ``functional`` op (If, Case, While) runs parts of the graph itself: the runtime builds their
    sub-plans with the plan of the run (``numflow.runtime.subplan``) and passes its inputs as they
    are, variables' states included, for the sub-plans to read when they run.
    """

    def wrap(infer):
        if op_type in OP_DEFS:
            raise KeyError(f"Op type {op_type!r} is declared twice")
        OP_DEFS[op_type] = OpDef(op_type, infer, stateful, ref_inputs if ref_inputs is True else tuple(ref_inputs),
                                   ref_output, blocking, functional)
        return infer

    return wrap


def get(op_type):
    """The OpDef of ``op_type``; KeyError naming it when it was never declared."""
    try:
        return OP_DEFS[op_type]
    except KeyError:
        raise KeyError(f"Op type {op_type!r} is not declared") from None


# Gradients registered under a name that is no op type, for ops that gradient_override_map points to them.
_NAMED_GRADIENTS = {}


def register_gradient(op_type):
    """Register the decorated ``grad(op, *output_grads) -> list of input grads`` for ``op_type``, or under
    a name of its own (not an op type) for the ops a graph's ``gradient_override_map`` maps to it."""

    def wrap(fn):
        if op_type in OP_DEFS:
            get(op_type).gradient = fn
        elif op_type in _NAMED_GRADIENTS:
            raise KeyError(f"Registering two gradient with name '{op_type}'!")
        else:
            _NAMED_GRADIENTS[op_type] = fn
        return fn

    return wrap


def named_gradient(name):
    """The gradient registered under ``name`` (not an op type), or None."""
    return _NAMED_GRADIENTS.get(name)


class RegisterGradient:
    """TensorFlow's decorator spelling: ``@tf.RegisterGradient("OpType")``."""

    def __init__(self, op_type):
        self._op_type = op_type

    def __call__(self, fn):
        return register_gradient(self._op_type)(fn)


def declared_types():
    """Every declared op type, sorted."""
    return sorted(OP_DEFS)
