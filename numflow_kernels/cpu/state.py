"""CPU kernels of the variable ops: every update runs under the variable's lock."""

import numpy as np

from numflow.framework import errors
from numflow_kernels.registry import register

# Below this many elements numpy's own loops beat a Numba call's dispatch.
_NUMBA_MIN_ELEMENTS = 1 << 15


@register("VariableV2")
def variable(ctx):
    return ctx.resources.variable(ctx.op_name, ctx.device)


@register("ReportUninitializedVariables")
def report_uninitialized(ctx, *refs):
    names = [name.encode() for ref, name in zip(refs, ctx.attrs["names"]) if ref.value is None]
    return np.array(names, dtype=object)


@register("IsVariableInitialized")
def is_initialized(ctx, ref):
    return np.array(ref.value is not None)


@register("InitializedValue")
def initialized_value(ctx, initialized, ref, initial_value):
    with ref.lock:
        if ref.value is not None:
            return ref.value.copy()
    return initial_value


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


@register("Assign")
def assign(ctx, ref, value):
    validate = ctx.attrs["validate_shape"]
    with ref.lock:
        current = ref.value
        if current is not None and current.shape == value.shape:
            _copy(current, value)
            return ref
        if validate:
            declared = ctx.op._inputs[0].shape
            lhs = current.shape if current is not None else declared
            if not declared.is_compatible_with(value.shape) or current is not None:
                raise errors.InvalidArgumentError(
                    None, None,
                    "Assign requires shapes of both tensors to match. "
                    f"lhs shape= {_shape_text(lhs)} rhs shape= {_shape_text(value.shape)}",
                )
        ref.value = np.array(value, dtype=value.dtype, order="C", copy=True)
    return ref


def _copy(dst, src):
    if dst.size >= _NUMBA_MIN_ELEMENTS:
        from numflow_kernels.cpu import update

        update.assign(dst.reshape(-1), np.ascontiguousarray(src).reshape(-1))
    else:
        np.copyto(dst, src)


def _in_place(name, numpy_fn):
    def kernel(ctx, ref, value):
        with ref.lock:
            current = ref.value
            if current is None:
                raise ref.uninitialized_error()
            if current.shape != value.shape:
                raise errors.InvalidArgumentError(
                    None, None,
                    f"Parameters and update must be the same size: {_shape_text(current.shape)} vs "
                    f"{_shape_text(value.shape)}",
                )
            if current.size >= _NUMBA_MIN_ELEMENTS:
                from numflow_kernels.cpu import update

                getattr(update, name)(current.reshape(-1), np.ascontiguousarray(value).reshape(-1))
            else:
                numpy_fn(current, value, out=current)
        return ref

    return kernel


register("AssignAdd")(_in_place("assign_add", np.add))
register("AssignSub")(_in_place("assign_sub", np.subtract))


def _scatter(name):
    def kernel(ctx, ref, indices, updates):
        with ref.lock:
            current = ref.value
            if current is None:
                raise ref.uninitialized_error()
            rows = current.shape[0] if current.ndim else 0
            expected = indices.shape + current.shape[1:]
            if updates.ndim == 0:  # a scalar goes to every row named, as in TF
                updates = np.broadcast_to(updates, expected)
            if updates.shape != expected:
                raise errors.InvalidArgumentError(
                    None, None,
                    f"Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got "
                    f"updates.shape {_shape_text(updates.shape)}, indices.shape {_shape_text(indices.shape)}, "
                    f"params.shape {_shape_text(current.shape)}",
                )
            from numflow_kernels.cpu import update

            flat_idx = np.ascontiguousarray(indices).reshape(-1)
            table = current.reshape(rows, -1)
            bad = getattr(update, name)(table, flat_idx,
                                        np.ascontiguousarray(updates).reshape(len(flat_idx), table.shape[1]))
            if bad >= 0:  # nothing was written
                where = ",".join(str(int(i)) for i in np.unravel_index(bad, indices.shape))
                raise errors.InvalidArgumentError(
                    None, None, f"indices[{where}] = {int(flat_idx[bad])} is not in [0, {rows})"
                )
        return ref

    return kernel


register("ScatterUpdate")(_scatter("scatter_update"))
register("ScatterAdd")(_scatter("scatter_add"))
register("ScatterSub")(_scatter("scatter_sub"))
