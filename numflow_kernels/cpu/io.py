"""Kernels of the checkpoint ops: variables stream to and from TensorFlow V2 bundles."""

import numpy as np

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle import BundleWriter
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.framework import errors
from numflow_kernels.registry import register


def _prefix(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


def _host(ref, value):
    return value if ref.device is None or ref.device.is_host else ref.device.copy_out(value)


@register("SaveBundle")
def save(ctx, prefix, *refs):
    prefix = _prefix(prefix)
    for ref in refs:
        if ref.value is None:
            raise ref.uninitialized_error()
    with BundleWriter(prefix) as writer:
        for name, ref in sorted(zip(ctx.attrs["names"], refs), key=lambda item: item[0].encode()):
            with ref.lock:
                writer.add(name, _host(ref, ref.value))
    return np.array(prefix.encode(), dtype=object)


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


@register("RestoreBundle")
def restore(ctx, prefix, *refs):
    """Check every key, dtype and shape first; then read each variable into a fresh buffer and swap it in."""
    names = ctx.attrs["names"]
    declared = [t.shape for t in ctx.op._inputs[1:]]
    with BundleReader(_prefix(prefix)) as reader:
        for name, t in zip(names, ctx.op._inputs[1:]):
            entry = reader.entry(name)
            want = t.dtype.base_dtype
            if entry.dtype != want.as_datatype_enum:
                raise errors.InvalidArgumentError(
                    None, None,
                    f"tensor_name = {name}; expected dtype {datatypes.tf_name(want.as_datatype_enum)} does not "
                    f"equal original dtype "
                    f"{datatypes.tf_name(entry.dtype)}",
                )
        for name, shape in zip(names, declared):
            stored = tuple(reader.entry(name).shape)
            if shape.ndims is not None and not shape.is_compatible_with(stored):
                raise errors.InvalidArgumentError(
                    None, None,
                    f"Assign requires shapes of both tensors to match. lhs shape= {_shape_text(shape.as_list())} "
                    f"rhs shape= {_shape_text(stored)}",
                )
        for name, ref in zip(names, refs):
            value = reader.get_tensor(name)
            if ref.device is not None and not ref.device.is_host:
                value = ref.device.copy_in(value)
            with ref.lock:
                ref.value = value
    return ()
