"""Training ops: one fused update per variable (``ApplyGradientDescent``, ``ApplyAdam``...).

Each op takes the variable and its slots by reference (``ref_inputs``), updates them in place under
their locks and returns the variable's reference, as TensorFlow's ``training_ops`` do. Inputs and
attributes follow TensorFlow's op definitions, so a graph reads the same in both::

    ApplyAdam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)

The builders colocate the op with the variable (``graph.colocate_with(var.op)``); the kernels are
``numflow_kernels/cpu/training.py`` (one Numba pass over memory per op) and its CUDA twin. The
``SparseApply*`` ops update only the rows of an IndexedSlices gradient (``SparseApplyMomentum(var,
accum, lr, grad, indices, momentum)``); their kernels are ``numflow_kernels/cpu/training_sparse.py``,
CPU only.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops.constant_op import convert_to_tensor, is_tensor

# op type -> (names of the ref inputs (var first), names of the scalar inputs); grad is always last.
APPLY_OPS = {
    "ApplyGradientDescent": (("var",), ("alpha",)),
    "ApplyMomentum": (("var", "accum"), ("lr", "momentum")),
    "ApplyAdam": (("var", "m", "v"), ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")),
    "ApplyAdagrad": (("var", "accum"), ("lr",)),
    "ApplyRMSProp": (("var", "ms", "mom"), ("lr", "rho", "momentum", "epsilon")),
    "ApplyCenteredRMSProp": (("var", "mg", "ms", "mom"), ("lr", "rho", "momentum", "epsilon")),
    "ApplyAdadelta": (("var", "accum", "accum_update"), ("lr", "rho", "epsilon")),
    "ApplyProximalGradientDescent": (("var",), ("alpha", "l1", "l2")),
    "ApplyProximalAdagrad": (("var", "accum"), ("lr", "l1", "l2")),
    "ApplyFtrl": (("var", "accum", "linear"), ("lr", "l1", "l2", "lr_power")),
    "ApplyFtrlV2": (("var", "accum", "linear"), ("lr", "l1", "l2", "l2_shrinkage", "lr_power")),
    "ApplyAdagradDA": (("var", "gradient_accumulator", "gradient_squared_accumulator"), ("lr", "l1", "l2",
                                                                                        "global_step")),
}
# Scalar inputs that are int64 whatever the variable's dtype.
_STEP_INPUTS = ("global_step",)

# TensorFlow's input order where the scalar inputs do not all come before the gradient.
_INPUT_ORDER = {
    "ApplyGradientDescent": ("var", "alpha", "delta"),
    "ApplyMomentum": ("var", "accum", "lr", "grad", "momentum"),
    "ApplyProximalGradientDescent": ("var", "alpha", "l1", "l2", "delta"),
    "ApplyFtrl": ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power"),
    "ApplyFtrlV2": ("var", "accum", "linear", "grad", "lr", "l1", "l2", "l2_shrinkage", "lr_power"),
    "ApplyAdagradDA": ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1", "l2",
                       "global_step"),
}


def input_names(op_type):
    """The names of ``op_type``'s inputs in TensorFlow's order."""
    refs, scalars = APPLY_OPS[op_type]
    return _INPUT_ORDER.get(op_type, refs + scalars + ("grad",))


def _grad_name(op_type):
    return "delta" if op_type in ("ApplyGradientDescent", "ApplyProximalGradientDescent") else "grad"


def _apply_infer(op_type):
    names = input_names(op_type)
    refs, _ = APPLY_OPS[op_type]
    grad_name = _grad_name(op_type)

    def infer(op):
        inputs = dict(zip(names, op.inputs))
        var = inputs["var"]
        dtype = var.dtype.base_dtype
        shape = var.shape
        for name, t in inputs.items():
            if name in _STEP_INPUTS:
                check_step(op_type, name, t)
                continue
            if t.dtype.base_dtype != dtype:
                raise TypeError(
                    f"Input '{name}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not match "
                    f"type {dtype.name} of argument 'var'."
                )
            if name in refs:
                if not t.dtype._is_ref_dtype:
                    raise TypeError(f"Input '{name}' of '{op_type}' Op must be a variable (a reference), "
                                    f"got a {t.dtype.name} tensor {t.name}.")
                if not t.shape.is_compatible_with(shape):
                    raise ValueError(f"Shapes of var and {name} must be equal: {shape} vs {t.shape}")
                shape = shape.merge_with(t.shape)
            elif name == grad_name:
                if not t.shape.is_compatible_with(shape):
                    raise ValueError(f"var and {name} do not have the same shape: {shape} vs {t.shape}")
                shape = shape.merge_with(t.shape)
            elif t.shape.ndims not in (None, 0):
                raise ValueError(f"{name} is not a scalar: {t.shape}")
        return [(dtype, shape)]

    return infer


for _op_type, (_refs, _) in APPLY_OPS.items():
    _ref_positions = tuple(i for i, n in enumerate(input_names(_op_type)) if n in _refs)
    declare(_op_type, stateful=True, ref_inputs=_ref_positions, ref_output=True)(_apply_infer(_op_type))


def check_step(op_type, name, t):
    """An int64 scalar, as ``global_step`` must be."""
    if t.dtype.base_dtype != dtypes.int64:
        raise TypeError(f"Input '{name}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not match "
                        "expected type of int64.")
    if t.shape.ndims not in (None, 0):
        raise ValueError(f"{name} is not a scalar: {t.shape}")


def _scalar_input(name, value, dtype):
    if is_tensor(value):
        return convert_to_tensor(value)
    return convert_to_tensor(value, dtype=dtypes.int64 if name in _STEP_INPUTS else dtype, name=name)


def _apply(op_type, var, slots, scalars, grad, attrs, name):
    """Add ``op_type`` updating ``var`` (a Variable) and ``slots`` (Variables), colocated with ``var``."""
    graph = get_default_graph()
    dtype = var.dtype.base_dtype
    values = {n: (s._ref() if hasattr(s, "_ref") else s) for n, s in zip(APPLY_OPS[op_type][0], (var, *slots))}
    for n, s in scalars.items():
        values[n] = _scalar_input(n, s, dtype)
    values[_grad_name(op_type)] = convert_to_tensor(grad)
    inputs = [values[n] for n in input_names(op_type)]
    with graph.colocate_with(values["var"].op):
        return graph.create_op(op_type, inputs, attrs, name=name or op_type).outputs[0]


def apply_gradient_descent(var, alpha, delta, use_locking=False, name=None):
    """``var -= alpha * delta``."""
    return _apply("ApplyGradientDescent", var, (), {"alpha": alpha}, delta,
                  {"use_locking": bool(use_locking)}, name)


def apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False, name=None):
    """``accum = accum * momentum + grad; var -= lr * accum`` (Nesterov: ``var -= lr * (grad + momentum * accum)``)."""
    return _apply("ApplyMomentum", var, (accum,), {"lr": lr, "momentum": momentum}, grad,
                  {"use_locking": bool(use_locking), "use_nesterov": bool(use_nesterov)}, name)


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False,
               use_nesterov=False, name=None):
    """Adam: ``lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)``, then one pass over m, v, var."""
    scalars = {"beta1_power": beta1_power, "beta2_power": beta2_power, "lr": lr, "beta1": beta1, "beta2": beta2,
               "epsilon": epsilon}
    return _apply("ApplyAdam", var, (m, v), scalars, grad,
                  {"use_locking": bool(use_locking), "use_nesterov": bool(use_nesterov)}, name)


def apply_adagrad(var, accum, lr, grad, use_locking=False, update_slots=True, name=None):
    """``accum += grad ** 2; var -= lr * grad / sqrt(accum)``."""
    return _apply("ApplyAdagrad", var, (accum,), {"lr": lr}, grad,
                  {"use_locking": bool(use_locking), "update_slots": bool(update_slots)}, name)


def apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False, name=None):
    """``ms += (grad ** 2 - ms) * (1 - rho); mom = mom * momentum + lr * grad / sqrt(ms + epsilon); var -= mom``."""
    scalars = {"lr": lr, "rho": rho, "momentum": momentum, "epsilon": epsilon}
    return _apply("ApplyRMSProp", var, (ms, mom), scalars, grad, {"use_locking": bool(use_locking)}, name)


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False, name=None):
    """RMSProp normalized by the centered second moment ``ms - mg ** 2``."""
    scalars = {"lr": lr, "rho": rho, "momentum": momentum, "epsilon": epsilon}
    return _apply("ApplyCenteredRMSProp", var, (mg, ms, mom), scalars, grad,
                  {"use_locking": bool(use_locking)}, name)


def apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, use_locking=False, name=None):
    """Adadelta: ``accum`` of squared gradients, ``accum_update`` of squared updates, both decaying by ``rho``."""
    scalars = {"lr": lr, "rho": rho, "epsilon": epsilon}
    return _apply("ApplyAdadelta", var, (accum, accum_update), scalars, grad, {"use_locking": bool(use_locking)},
                  name)


def apply_proximal_gradient_descent(var, alpha, l1, l2, delta, use_locking=False, name=None):
    """``var -= alpha * delta``, then shrunk by ``alpha * l1`` towards zero and divided by ``1 + alpha * l2``."""
    return _apply("ApplyProximalGradientDescent", var, (), {"alpha": alpha, "l1": l1, "l2": l2}, delta,
                  {"use_locking": bool(use_locking)}, name)


def apply_proximal_adagrad(var, accum, lr, l1, l2, grad, use_locking=False, name=None):
    """``accum += grad ** 2``, then the proximal step at the rate ``lr / sqrt(accum)``."""
    return _apply("ApplyProximalAdagrad", var, (accum,), {"lr": lr, "l1": l1, "l2": l2}, grad,
                  {"use_locking": bool(use_locking)}, name)


def apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=None, use_locking=False, name=None):
    """FTRL-proximal: ``ApplyFtrl``, or ``ApplyFtrlV2`` when ``l2_shrinkage`` is given."""
    scalars = {"lr": lr, "l1": l1, "l2": l2, "lr_power": lr_power}
    if l2_shrinkage is not None:
        scalars["l2_shrinkage"] = l2_shrinkage
    return _apply("ApplyFtrl" if l2_shrinkage is None else "ApplyFtrlV2", var, (accum, linear), scalars, grad,
                  {"use_locking": bool(use_locking), "multiply_linear_by_lr": False}, name)


# -- sparse updates: the rows ``indices`` (no index twice) of var and its slots, by the rows of grad ----
# op type -> (names of the ref inputs (var first), names of the scalar inputs); then grad, indices.
SPARSE_APPLY_OPS = {
    "SparseApplyMomentum": (("var", "accum"), ("lr",)),
    "SparseApplyAdagrad": (("var", "accum"), ("lr",)),
    "SparseApplyRMSProp": (("var", "ms", "mom"), ("lr", "rho", "momentum", "epsilon")),
    "SparseApplyCenteredRMSProp": (("var", "mg", "ms", "mom"), ("lr", "rho", "momentum", "epsilon")),
    "SparseApplyAdadelta": (("var", "accum", "accum_update"), ("lr", "rho", "epsilon")),
    "SparseApplyProximalGradientDescent": (("var",), ("alpha", "l1", "l2")),
    "SparseApplyProximalAdagrad": (("var", "accum"), ("lr", "l1", "l2")),
    "SparseApplyFtrl": (("var", "accum", "linear"), ("lr", "l1", "l2", "lr_power")),
    "SparseApplyFtrlV2": (("var", "accum", "linear"), ("lr", "l1", "l2", "l2_shrinkage", "lr_power")),
    "SparseApplyAdagradDA": (("var", "gradient_accumulator", "gradient_squared_accumulator"),
                             ("lr", "l1", "l2", "global_step")),
}


def sparse_input_names(op_type):
    """The names of ``op_type``'s inputs in TensorFlow's order (SparseApplyMomentum's momentum comes last,
    SparseApplyFtrl's scalars after the indices)."""
    refs, scalars = SPARSE_APPLY_OPS[op_type]
    if op_type.startswith("SparseApplyFtrl") or op_type == "SparseApplyAdagradDA":
        return refs + ("grad", "indices") + scalars
    return refs + scalars + ("grad", "indices") + (("momentum",) if op_type == "SparseApplyMomentum" else ())


def _sparse_apply_infer(op_type):
    names = sparse_input_names(op_type)
    refs, _ = SPARSE_APPLY_OPS[op_type]

    def infer(op):
        inputs = dict(zip(names, op.inputs))
        var, grad, indices = inputs["var"], inputs["grad"], inputs["indices"]
        dtype = var.dtype.base_dtype
        for name, t in inputs.items():
            if name in _STEP_INPUTS:
                check_step(op_type, name, t)
            elif name == "indices":
                if t.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
                    raise TypeError(f"Value for attr 'Tindices' of {t.dtype.base_dtype.name} is not in the list of "
                                    "allowed values: int32, int64")
            elif t.dtype.base_dtype != dtype:
                raise TypeError(
                    f"Input '{name}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not match "
                    f"type {dtype.name} of argument 'var'.")
            elif name in refs and not t.dtype._is_ref_dtype:
                raise TypeError(f"Input '{name}' of '{op_type}' Op must be a variable (a reference), "
                                f"got a {t.dtype.name} tensor {t.name}.")
            elif name in refs and not t.shape.is_compatible_with(var.shape):
                raise ValueError(f"Shapes of var and {name} must be equal: {var.shape} vs {t.shape}")
            elif name not in refs + ("grad",) and t.shape.ndims not in (None, 0):
                raise ValueError(f"{name} is not a scalar: {t.shape}")
        if indices.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {indices.shape.ndims} for indices of {op_type}")
        if var.shape.ndims is not None and grad.shape.ndims is not None:
            if not grad.shape[1:].is_compatible_with(var.shape[1:]):
                raise ValueError(f"var and grad do not match beyond their first dimension: {var.shape} vs "
                                 f"{grad.shape}")
        if grad.shape.ndims is not None and not grad.shape[:1].is_compatible_with(indices.shape):
            raise ValueError(f"grad and indices do not have the same length: {grad.shape} vs {indices.shape}")
        return [(dtype, var.shape)]

    return infer


for _op_type, (_refs, _) in SPARSE_APPLY_OPS.items():
    _ref_positions = tuple(i for i, n in enumerate(sparse_input_names(_op_type)) if n in _refs)
    declare(_op_type, stateful=True, ref_inputs=_ref_positions, ref_output=True)(_sparse_apply_infer(_op_type))


def _sparse_apply(op_type, var, slots, scalars, grad, indices, attrs, name):
    """Add ``op_type`` updating the rows ``indices`` of ``var`` and ``slots`` (Variables), colocated with ``var``."""
    graph = get_default_graph()
    dtype = var.dtype.base_dtype
    values = {n: (s._ref() if hasattr(s, "_ref") else s)
              for n, s in zip(SPARSE_APPLY_OPS[op_type][0], (var, *slots))}
    for n, s in scalars.items():
        values[n] = _scalar_input(n, s, dtype)
    values["grad"] = convert_to_tensor(grad)
    values["indices"] = convert_to_tensor(indices)
    inputs = [values[n] for n in sparse_input_names(op_type)]
    with graph.colocate_with(values["var"].op):
        return graph.create_op(op_type, inputs, attrs, name=name or op_type).outputs[0]


def sparse_apply_momentum(var, accum, lr, grad, indices, momentum, use_locking=False, use_nesterov=False,
                          name=None):
    """``apply_momentum`` on the rows ``indices`` of ``var`` and ``accum`` only."""
    return _sparse_apply("SparseApplyMomentum", var, (accum,), {"lr": lr, "momentum": momentum}, grad, indices,
                         {"use_locking": bool(use_locking), "use_nesterov": bool(use_nesterov)}, name)


def sparse_apply_adagrad(var, accum, lr, grad, indices, use_locking=False, update_slots=True, name=None):
    """``apply_adagrad`` on the rows ``indices`` of ``var`` and ``accum`` only."""
    return _sparse_apply("SparseApplyAdagrad", var, (accum,), {"lr": lr}, grad, indices,
                         {"use_locking": bool(use_locking), "update_slots": bool(update_slots)}, name)


def sparse_apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, indices, use_locking=False, name=None):
    """``apply_rms_prop`` on the rows ``indices`` of ``var``, ``ms`` and ``mom`` only."""
    scalars = {"lr": lr, "rho": rho, "momentum": momentum, "epsilon": epsilon}
    return _sparse_apply("SparseApplyRMSProp", var, (ms, mom), scalars, grad, indices,
                         {"use_locking": bool(use_locking)}, name)


def sparse_apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices, use_locking=False,
                                   name=None):
    """``apply_centered_rms_prop`` on the rows ``indices`` of ``var``, ``mg``, ``ms`` and ``mom`` only."""
    scalars = {"lr": lr, "rho": rho, "momentum": momentum, "epsilon": epsilon}
    return _sparse_apply("SparseApplyCenteredRMSProp", var, (mg, ms, mom), scalars, grad, indices,
                         {"use_locking": bool(use_locking)}, name)


def sparse_apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, indices, use_locking=False, name=None):
    """``apply_adadelta`` on the rows ``indices`` of ``var``, ``accum`` and ``accum_update`` only."""
    scalars = {"lr": lr, "rho": rho, "epsilon": epsilon}
    return _sparse_apply("SparseApplyAdadelta", var, (accum, accum_update), scalars, grad, indices,
                         {"use_locking": bool(use_locking)}, name)


def sparse_apply_proximal_gradient_descent(var, alpha, l1, l2, grad, indices, use_locking=False, name=None):
    """``apply_proximal_gradient_descent`` on the rows ``indices`` of ``var`` only."""
    return _sparse_apply("SparseApplyProximalGradientDescent", var, (), {"alpha": alpha, "l1": l1, "l2": l2}, grad,
                         indices, {"use_locking": bool(use_locking)}, name)


def sparse_apply_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, use_locking=False, name=None):
    """``apply_proximal_adagrad`` on the rows ``indices`` of ``var`` and ``accum`` only."""
    return _sparse_apply("SparseApplyProximalAdagrad", var, (accum,), {"lr": lr, "l1": l1, "l2": l2}, grad, indices,
                         {"use_locking": bool(use_locking)}, name)


def sparse_apply_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, l2_shrinkage=None, use_locking=False,
                      name=None):
    """``apply_ftrl`` on the rows ``indices`` of ``var``, ``accum`` and ``linear`` only."""
    scalars = {"lr": lr, "l1": l1, "l2": l2, "lr_power": lr_power}
    if l2_shrinkage is not None:
        scalars["l2_shrinkage"] = l2_shrinkage
    return _sparse_apply("SparseApplyFtrl" if l2_shrinkage is None else "SparseApplyFtrlV2", var, (accum, linear),
                         scalars, grad, indices, {"use_locking": bool(use_locking), "multiply_linear_by_lr": False},
                         name)


def apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step,
                     use_locking=False, name=None):
    """``ApplyAdagradDA``: ``gradient_accumulator += grad``, ``gradient_squared_accumulator += grad * grad``,
    then ``var`` the dual-averaging solution for ``global_step`` (see ``AdagradDAOptimizer``)."""
    return _apply("ApplyAdagradDA", var, (gradient_accumulator, gradient_squared_accumulator),
                  {"lr": lr, "l1": l1, "l2": l2, "global_step": global_step}, grad, {"use_locking": bool(use_locking)},
                  name)


def sparse_apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, indices, lr, l1, l2,
                            global_step, use_locking=False, name=None):
    """``apply_adagrad_da`` on the rows ``indices`` of ``var`` and its accumulators only."""
    return _sparse_apply("SparseApplyAdagradDA", var, (gradient_accumulator, gradient_squared_accumulator),
                         {"lr": lr, "l1": l1, "l2": l2, "global_step": global_step}, grad, indices,
                         {"use_locking": bool(use_locking)}, name)
