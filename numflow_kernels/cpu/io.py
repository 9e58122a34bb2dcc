"""Kernels of the checkpoint ops: variables stream to and from TensorFlow V2 bundles."""

import numpy as np

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle import BundleWriter
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.framework import errors
from numflow.framework.shapes import dims_text
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


def _spare_for(spare, entry):
    """``spare`` if its bytes can take ``entry``'s tensor (same dtype and shape), else None."""
    if spare is None or entry.dtype == datatypes.DT_STRING or not datatypes.is_supported(entry.dtype):
        return None
    if spare.dtype != datatypes.numpy_dtype(entry.dtype) or spare.shape != tuple(entry.shape):
        return None
    return spare if spare.flags.c_contiguous and spare.flags.writeable else None


@register("RestoreBundle")
def restore(ctx, prefix, *refs):
    """Restore every variable or none: check keys, dtypes and shapes, then every tensor's bytes, then assign.

    Uninitialized variables (and those on a device) get their values read and checked into new
    buffers, which become their values only once every tensor checked out. Initialized host
    variables keep their values until then: their tensors are first read only to check their crc
    (through a small buffer), then read again, each into a buffer no one else uses, and swapped
    in under the variable's lock. The buffer a variable gives up, when nothing else refers to
    it, takes the next variable of the same dtype and shape, so restoring into initialized
    variables needs one variable's worth of memory. The data files stay open between the two
    readings, and checkpoint files are replaced by renames, never rewritten: the second reading
    gets the bytes the first one checked.
    """
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
                    f"Assign requires shapes of both tensors to match. lhs shape= {dims_text(shape.as_list())} "
                    f"rhs shape= {dims_text(stored)}",
                )
        held = [(name, ref) for name, ref in zip(names, refs) if _on_host(ref) and ref.value is not None]
        for name, _ in held:
            reader.verify(name)
        fresh = [(ref, reader.get_tensor(name)) for name, ref in zip(names, refs)
                 if not (_on_host(ref) and ref.value is not None)]
        _swap_in(reader, held)
    for ref, value in fresh:
        if not _on_host(ref):
            value = ref.device.copy_in(value)
        with ref.lock:
            ref.value = value
    return ()


def _on_host(ref):
    return ref.device is None or ref.device.is_host


def _swap_in(reader, held):
    """Read each checked tensor into a spare buffer and make it its variable's value."""
    spare = None
    for name, ref in held:
        out = _spare_for(spare, reader.entry(name))
        spare = None
        value = reader.get_tensor(name, out=out, verified=True)
        with ref.lock:
            if isinstance(ref.value, np.ndarray) and not ref.in_use():
                spare = ref.value
            ref.value = value


def _whole_tensors(op_name, shape_and_slices):
    if any(bytes(s) for s in np.ravel(shape_and_slices)):
        raise errors.UnimplementedError(None, None, f"{op_name}: numflow saves and restores whole tensors only, "
                                        "not slices (shape_and_slices must be empty strings)")


def _names(tensor_names):
    return [n.decode() if isinstance(n, bytes) else str(n) for n in np.ravel(tensor_names)]


@register("SaveV2")
def save_v2(ctx, prefix, tensor_names, shape_and_slices, *tensors):
    _whole_tensors(ctx.op_name, shape_and_slices)
    with BundleWriter(_prefix(prefix)) as writer:
        for name, value in sorted(zip(_names(tensor_names), tensors), key=lambda item: item[0].encode()):
            writer.add(name, value)
    return ()


@register("RestoreV2")
def restore_v2(ctx, prefix, tensor_names, shape_and_slices):
    _whole_tensors(ctx.op_name, shape_and_slices)
    values = []
    with BundleReader(_prefix(prefix)) as reader:
        for name, want in zip(_names(tensor_names), ctx.attrs["dtypes"]):
            stored = reader.entry(name).dtype
            if stored != want.as_datatype_enum:
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {name}; expected dtype {datatypes.tf_name(want.as_datatype_enum)} "
                    f"does not equal original dtype {datatypes.tf_name(stored)}")
            values.append(reader.get_tensor(name))
    return values[0] if len(values) == 1 else tuple(values)  # one tensor: the op's single output


@register("MergeV2Checkpoints")
def merge_v2_checkpoints(ctx, checkpoint_prefixes, destination_prefix):
    """One shard's bundle moved to the destination prefix (a sharded Saver of one device's variables)."""
    import os

    sources = [_prefix(p) for p in np.ravel(checkpoint_prefixes)]
    if len(sources) != 1:
        raise errors.UnimplementedError(None, None, f"{ctx.op_name}: numflow merges the bundle of one shard only, "
                                        f"not {len(sources)}")
    source, destination = sources[0], _prefix(destination_prefix)
    os.replace(f"{source}.index", f"{destination}.index")
    os.replace(f"{source}.data-00000-of-00001", f"{destination}.data-00000-of-00001")
    if ctx.attrs.get("delete_old_dirs", True):
        try:
            os.rmdir(os.path.dirname(source))
        except OSError:
            pass  # not empty, or already gone: TensorFlow leaves such a folder too
    return ()
