"""``depth_to_space``, ``space_to_depth`` (ops ``DepthToSpace``/``SpaceToDepth``, NHWC, each the other's
gradient) and ``extract_image_patches`` (op ``ExtractImagePatches``: every ``ksizes`` window of an NHWC image,
dilated by ``rates``, flattened into the depth; its gradient adds each patch back where it came from).
Kernels: ``numflow_kernels/reference_patches.py``."""

from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import REAL
from numflow.ops.op_util import _out, check_dtype, check_rank

_DATA_FORMATS = ("NHWC", "NCHW", "NCHW_VECT_C")


def _divisible(size, by, op):
    if size is not None and size % by:
        raise ValueError(f"Dimension size must be evenly divisible by {by} but is {size} for '{op.name}' "
                         f"({op.type}) with input shapes: {op.inputs[0].shape}.")


def _times(size, by):
    return None if size is None else size * by


def _over(size, by):
    return None if size is None else size // by


@declare("DepthToSpace")
@declare("SpaceToDepth")
def _depth_space_infer(op):
    x = op.inputs[0]
    check_rank(x.shape, 4)
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape([None] * 4))]
    block = op._attrs["block_size"]
    batch, height, width, depth = x.shape.dim_values
    if op.type == "DepthToSpace":
        _divisible(depth, block * block, op)
        return [(x.dtype, TensorShape([batch, _times(height, block), _times(width, block),
                                       _over(depth, block * block)]))]
    _divisible(height, block, op)
    _divisible(width, block, op)
    return [(x.dtype, TensorShape([batch, _over(height, block), _over(width, block), _times(depth, block * block)]))]


def _depth_space(op_type, input, block_size, name, data_format):  # noqa: A002 - TensorFlow's argument name
    if int(block_size) < 2:
        raise ValueError(f"Attr 'block_size' of '{op_type}' Op passed {int(block_size)} less than minimum 2.")
    if data_format not in _DATA_FORMATS:
        raise ValueError(f"Value for attr 'data_format' of \"{data_format}\" is not in the list of allowed values: "
                         "\"NHWC\", \"NCHW\", \"NCHW_VECT_C\"")
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(input, name="input")
        return _out(op_type, [x], {"block_size": int(block_size), "data_format": data_format}, name=scope)[0]


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """Rearrange blocks of ``block_size**2`` channels of an NHWC tensor into ``block_size`` x ``block_size``
    spatial blocks: ``[b, h, w, c]`` becomes ``[b, h*block, w*block, c/block**2]`` (op ``DepthToSpace``)."""
    return _depth_space("DepthToSpace", input, block_size, name, data_format)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """Move each ``block_size`` x ``block_size`` spatial block of an NHWC tensor into the channels:
    ``[b, h, w, c]`` becomes ``[b, h/block, w/block, c*block**2]`` (op ``SpaceToDepth``)."""
    return _depth_space("SpaceToDepth", input, block_size, name, data_format)


@gradient("DepthToSpace")
def _depth_to_space_grad(op, grad):
    return [space_to_depth(grad, op._attrs["block_size"], data_format=op._attrs["data_format"])]


@gradient("SpaceToDepth")
def _space_to_depth_grad(op, grad):
    return [depth_to_space(grad, op._attrs["block_size"], data_format=op._attrs["data_format"])]


def _patch_rows(size, k, stride, rate, padding):
    if size is None:
        return None
    if padding == "SAME":
        return (size + stride - 1) // stride
    rows = (size - (k - 1) * rate - 1 + stride) // stride
    if rows < 0:
        raise ValueError(f"Computed output size would be negative: {rows} [input_size: {size}, effective_filter_size: "
                         f"{(k - 1) * rate + 1}, stride: {stride}]")
    return rows


@declare("ExtractImagePatches")
def _extract_image_patches_infer(op):
    x = op.inputs[0]
    check_dtype(x, REAL, "images")
    check_rank(x.shape, 4)
    a = op._attrs
    dims = x.shape.dim_values if x.shape.ndims is not None else [None] * 4
    rows, cols = (_patch_rows(dims[i], a["ksizes"][i], a["strides"][i], a["rates"][i], a["padding"]) for i in (1, 2))
    return [(x.dtype, TensorShape([dims[0], rows, cols, _times(dims[3], a["ksizes"][1] * a["ksizes"][2])]))]


def _four(values, attr):
    values = [int(v) for v in values]
    if len(values) < 4:
        raise ValueError(f"Attr '{attr}' of 'ExtractImagePatches' Op passed list of length {len(values)} less than "
                         "minimum 4.")
    if len(values) > 4 or values[0] != 1 or values[3] != 1:
        raise ValueError(f"ExtractImagePatches only supports {attr} across space ([1, rows, cols, 1]); got {values}")
    return values


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None, sizes=None):
    """Every ``ksizes`` = ``[1, rows, cols, 1]`` window of the NHWC ``images``, taken every ``strides`` and
    spread by ``rates`` (one dilation per spatial axis), flattened row by row into the depth: output
    ``[batch, out_rows, out_cols, rows * cols * depth]``, zeros where ``"SAME"`` padding lies outside
    (op ``ExtractImagePatches``)."""
    ksizes = sizes if ksizes is None else ksizes
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: "
                         "\"SAME\", \"VALID\"")
    attrs = {"ksizes": _four(ksizes, "ksizes"), "strides": _four(strides, "strides"), "rates": _four(rates, "rates"),
             "padding": padding}
    with get_default_graph().name_scope(name or "ExtractImagePatches") as scope:
        x = convert_to_tensor(images, name="images")
        return _out("ExtractImagePatches", [x], attrs, name=scope)[0]


@declare("NfExtractImagePatchesGrad")
def _extract_image_patches_grad_infer(op):
    return [(op.inputs[0].dtype, TensorShape(op._attrs["images_shape"]))]


@gradient("ExtractImagePatches")
def _extract_image_patches_grad(op, grad):
    """Each patch's gradient added back at the pixels it was taken from: the images' static shape goes to the
    kernel as an attr, so it must be fully known when the gradient is built."""
    shape = op.inputs[0].shape
    if not shape.is_fully_defined():
        raise ValueError(f"The gradient of {op.name} needs the images' full shape when the graph is built; "
                         f"it is {shape}")
    attrs = {k: op._attrs[k] for k in ("ksizes", "strides", "rates", "padding")}
    with get_default_graph().name_scope("ExtractImagePatches_grad") as scope:
        return [_out("NfExtractImagePatchesGrad", [grad], {**attrs, "images_shape": shape.as_list()}, name=scope)[0]]
