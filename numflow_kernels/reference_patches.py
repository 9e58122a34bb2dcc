"""Kernels of ``DepthToSpace``, ``SpaceToDepth``, ``ExtractImagePatches`` and its gradient
``NfExtractImagePatchesGrad``.

Spec: TensorFlow's ``depthtospace_op.cc``/``spacetodepth_op.cc`` (NHWC: channel ``(i * block + j) * depth + c``
of an input pixel is output pixel ``(i, j)`` of its block) and ``extract_image_patches_op.cc`` (patch depth
ordered rows, then columns, then channels; ``SAME`` pads ``(out - 1) * stride + effective - in`` with the
smaller half before).
"""

import numpy as np

from numflow_kernels.reference_math import kernel


def _nhwc_only(ctx):
    if ctx.attrs["data_format"] != "NHWC":
        raise NotImplementedError(f"{ctx.op_name}: only data_format NHWC is implemented, got "
                                  f"{ctx.attrs['data_format']}")


@kernel("DepthToSpace")
def depth_to_space(ctx, x):
    _nhwc_only(ctx)
    block = ctx.attrs["block_size"]
    batch, height, width, depth = x.shape
    if depth % (block * block):
        raise ValueError(f"Input depth dimension {depth} should be divisible by: {block * block}")
    out = x.reshape(batch, height, width, block, block, depth // (block * block)).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(out).reshape(batch, height * block, width * block, depth // (block * block))


@kernel("SpaceToDepth")
def space_to_depth(ctx, x):
    _nhwc_only(ctx)
    block = ctx.attrs["block_size"]
    batch, height, width, depth = x.shape
    if height % block or width % block:
        raise ValueError(f"Image width {width} and height {height} should be divisible by block_size: {block}")
    out = x.reshape(batch, height // block, block, width // block, block, depth).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(out).reshape(batch, height // block, width // block, block * block * depth)


def _patch_indices(attrs, rows_in, cols_in):
    """Per spatial axis: the input index of each (output position, kernel tap), -1 in the padding."""
    axes = []
    for axis, size in ((1, rows_in), (2, cols_in)):
        k, stride, rate = attrs["ksizes"][axis], attrs["strides"][axis], attrs["rates"][axis]
        effective = (k - 1) * rate + 1
        if attrs["padding"] == "SAME":
            out = (size + stride - 1) // stride
            before = max((out - 1) * stride + effective - size, 0) // 2
        else:
            out, before = max((size - effective + stride) // stride, 0), 0
        index = np.arange(out)[:, None] * stride - before + np.arange(k)[None, :] * rate
        axes.append(np.where((index >= 0) & (index < size), index, -1))
    return axes


@kernel("ExtractImagePatches")
def extract_image_patches(ctx, x):
    rows, cols = _patch_indices(ctx.attrs, x.shape[1], x.shape[2])
    padded = np.pad(x, [(0, 0), (0, 1), (0, 1), (0, 0)])  # index -1 reads the zero row/column
    patches = padded[:, rows[:, None, :, None], cols[None, :, None, :], :]  # [b, or, oc, kr, kc, d]
    batch, out_rows, out_cols = x.shape[0], rows.shape[0], cols.shape[0]
    return np.ascontiguousarray(patches).reshape(batch, out_rows, out_cols, -1)


@kernel("NfExtractImagePatchesGrad")
def extract_image_patches_grad(ctx, grad):
    shape = ctx.attrs["images_shape"]
    rows, cols = _patch_indices(ctx.attrs, shape[1], shape[2])
    batch, out_rows, out_cols = grad.shape[:3]
    taps = grad.reshape(batch, out_rows, out_cols, rows.shape[1], cols.shape[1], shape[3])
    out = np.zeros([shape[0], shape[1] + 1, shape[2] + 1, shape[3]], grad.dtype)
    # np.add.at adds in index order, one tap at a time: the sums do not depend on threads.
    np.add.at(out, (slice(None), rows[:, None, :, None], cols[None, :, None, :]), taps)
    return out[:, :-1, :-1, :]
