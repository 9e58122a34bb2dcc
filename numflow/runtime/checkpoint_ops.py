"""Kernels of the checkpoint ops: variables stream to and from TensorFlow V2 bundles.

They read and write files through ``numflow.checkpoint``, so they live on the runtime's side of the
line (``numflow_kernels`` imports nothing from ``numflow``), registered for the CPU as any kernel
is, and reach variables through their handles (``numflow_kernels.handle``) as any kernel does.
"""

import os

import numpy as np

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle import BundleWriter
from numflow.checkpoint.bundle_reader import BundleReader
from numflow_kernels.context import compatible
from numflow_kernels.errors import dims_text
from numflow_kernels.registry import register


def _prefix(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


@register("SaveBundle")
def save(ctx, prefix, *refs):
    prefix = _prefix(prefix)
    for ref in refs:
        if not ref.initialized:
            raise ref.uninitialized_error()
    with BundleWriter(prefix) as writer:
        for name, ref in sorted(zip(ctx.attrs["names"], refs), key=lambda item: item[0].encode()):
            value = ref.read()  # a snapshot: no copy on the host, and updates meanwhile leave it alone
            writer.add(name, value if _on_host(ref) else ref.device.copy_out(value))
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
    with BundleReader(_prefix(prefix)) as reader:
        for name, dtype in zip(names, ctx.input_dtypes[1:]):
            entry = reader.entry(name)
            want = datatypes.enum_for(dtype)
            if entry.dtype != want:
                raise ValueError(
                    f"tensor_name = {name}; expected dtype {datatypes.tf_name(want)} does not equal original dtype "
                    f"{datatypes.tf_name(entry.dtype)}")
        for name, shape in zip(names, ctx.input_shapes[1:]):
            stored = tuple(reader.entry(name).shape)
            if not compatible(shape, stored):
                raise ValueError(f"Assign requires shapes of both tensors to match. lhs shape= {dims_text(shape)} "
                                 f"rhs shape= {dims_text(stored)}")
        held = [(name, ref) for name, ref in zip(names, refs) if _on_host(ref) and ref.initialized]
        for name, _ in held:
            reader.verify(name)
        fresh = [(ref, reader.get_tensor(name)) for name, ref in zip(names, refs)
                 if not (_on_host(ref) and ref.initialized)]
        _swap_in(reader, held)
    for ref, value in fresh:
        ref.assign(value if _on_host(ref) else ref.device.copy_in(value), donate=True)
    return ()


def _on_host(ref):
    return ref.device is None or ref.device.is_host


def _swap_in(reader, held):
    """Read each checked tensor into a spare buffer and make it its variable's value."""
    spare = None
    for name, ref in held:
        out = _spare_for(spare, reader.entry(name))
        value = reader.get_tensor(name, out=out, verified=True)
        spare = ref.assign(value, donate=True)


def _whole_tensors(op_name, shape_and_slices):
    if any(bytes(s) for s in np.ravel(shape_and_slices)):
        raise NotImplementedError(f"{op_name}: numflow saves and restores whole tensors only, "
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
        for name, dtype in zip(_names(tensor_names), ctx.attrs["dtypes"]):
            stored, want = reader.entry(name).dtype, datatypes.enum_for(dtype)
            if stored != want:
                raise ValueError(f"tensor_name = {name}; expected dtype {datatypes.tf_name(want)} does not equal "
                                 f"original dtype {datatypes.tf_name(stored)}")
            values.append(reader.get_tensor(name))
    return values[0] if len(values) == 1 else tuple(values)  # one tensor: the op's single output


@register("MergeV2Checkpoints")
def merge_v2_checkpoints(ctx, checkpoint_prefixes, destination_prefix):
    """One shard's bundle moved to the destination prefix (a sharded Saver of one device's variables)."""
    sources = [_prefix(p) for p in np.ravel(checkpoint_prefixes)]
    if len(sources) != 1:
        raise NotImplementedError(f"numflow merges the bundle of one shard only, not {len(sources)}")
    source, destination = sources[0], _prefix(destination_prefix)
    os.replace(f"{source}.index", f"{destination}.index")
    os.replace(f"{source}.data-00000-of-00001", f"{destination}.data-00000-of-00001")
    if ctx.attrs.get("delete_old_dirs", True):
        try:
            os.rmdir(os.path.dirname(source))
        except OSError:
            pass  # not empty, or already gone: TensorFlow leaves such a folder too
    return ()
