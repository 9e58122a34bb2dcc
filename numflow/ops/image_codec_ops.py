"""Image files as tensors: ``tf.image.decode_png``/``decode_jpeg``/``decode_bmp``/``decode_gif``/
``decode_image``, ``encode_png``/``encode_jpeg``, ``is_jpeg`` and ``extract_jpeg_shape``.

As in TensorFlow 2, every decode op reads any of the formats (it looks at the file's first bytes):
``decode_png`` of a JPEG file decodes it. Kernels: ``numflow_kernels/reference_image_codecs.py``,
on Pillow (``pip install numflow[image]``). JPEG files are decoded with libjpeg's accurate integer
IDCT whatever ``dct_method`` says; TensorFlow's default, the fast one, can differ from it by a few
levels per pixel.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.file_ops import _string_input
from numflow.ops.op_util import _out, check_rank

_CHANNELS = (0, 1, 3, 4)


def _channels_dim(op):
    channels = op._attrs.get("channels", 0)
    return channels if channels else None


def _decoded(op, rank=3):
    contents = op.inputs[0]
    check_rank(contents.shape, 0)
    dtype = op._attrs.get("dtype", dtypes.uint8)
    return [(dtype, TensorShape([None] * (rank - 1) + [_channels_dim(op)]))]


@declare("DecodePng")
@declare("DecodeJpeg")
@declare("DecodeBmp")
def _decode_infer(op):
    return _decoded(op)


@declare("DecodeGif")
def _decode_gif_infer(op):
    check_rank(op.inputs[0].shape, 0)
    return [(dtypes.uint8, TensorShape([None, None, None, 3]))]


@declare("DecodeImage")
def _decode_image_infer(op):
    if op._attrs["expand_animations"]:
        check_rank(op.inputs[0].shape, 0)
        return [(op._attrs["dtype"], TensorShape(None))]
    return _decoded(op)


def _decode(op_type, contents, attrs, name):
    if attrs.get("channels", 0) not in _CHANNELS:
        raise ValueError(f"`channels` must be 0, 1, 3 or 4 but got {attrs['channels']}")
    with get_default_graph().name_scope(name or op_type) as scope:
        return _out(op_type, [_string_input(contents, op_type, "contents")], attrs, name=scope)[0]


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """The image of the file bytes ``contents`` as a ``[height, width, channels]`` tensor of
    ``dtype`` (uint8 or uint16); ``channels`` 0 keeps the file's (op ``DecodePng``)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in list of allowed "
                        "values: uint8, uint16")
    return _decode("DecodePng", contents, {"channels": int(channels), "dtype": dtype}, name)


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """The image of the file bytes ``contents`` as a ``[height, width, channels]`` uint8 tensor
    (op ``DecodeJpeg``; see the module's note on ``dct_method``)."""
    attrs = {"channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
             "try_recover_truncated": bool(try_recover_truncated),
             "acceptable_fraction": float(acceptable_fraction), "dct_method": str(dct_method)}
    if attrs["ratio"] not in (1, 2, 4, 8):
        raise ValueError(f"ratio must be 1, 2, 4, or 8, got {ratio}")
    return _decode("DecodeJpeg", contents, attrs, name)


def decode_bmp(contents, channels=0, name=None):
    """The image of the file bytes ``contents`` as a ``[height, width, channels]`` uint8 tensor (op ``DecodeBmp``)."""
    return _decode("DecodeBmp", contents, {"channels": int(channels)}, name)


def decode_gif(contents, name=None):
    """Every frame of the file bytes ``contents`` as a ``[frames, height, width, 3]`` uint8 tensor
    (op ``DecodeGif``)."""
    return _decode("DecodeGif", contents, {}, name)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """The image of the file bytes ``contents``: ``[height, width, channels]``, or a GIF's
    ``[frames, height, width, 3]`` when ``expand_animations``; a float ``dtype`` scales to [0, 1]
    (op ``DecodeImage``)."""
    dtype = dtypes.as_dtype(dtype)
    with get_default_graph().name_scope(name or "decode_image"):
        return _decode("DecodeImage", contents, {"channels": int(channels or 0), "dtype": dtype,
                                                 "expand_animations": bool(expand_animations)}, None)


def _encode_infer(op):
    image = op.inputs[0]
    check_rank(image.shape, 3)
    return [(dtypes.string, TensorShape([]))]


declare("EncodePng")(_encode_infer)
declare("EncodeJpeg")(_encode_infer)


def encode_png(image, compression=-1, name=None):
    """The PNG file bytes of the ``[height, width, channels]`` uint8 or uint16 ``image`` (op ``EncodePng``)."""
    with get_default_graph().name_scope(name or "EncodePng") as scope:
        image = convert_to_tensor(image, name="image")
        return _out("EncodePng", [image], {"compression": int(compression)}, name=scope)[0]


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="",
                name=None):
    """The JPEG file bytes of the ``[height, width, 1 or 3]`` uint8 ``image`` (op ``EncodeJpeg``)."""
    with get_default_graph().name_scope(name or "EncodeJpeg") as scope:
        image = convert_to_tensor(image, dtype=dtypes.uint8, name="image")
        attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
                 "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
                 "density_unit": density_unit, "x_density": int(x_density), "y_density": int(y_density),
                 "xmp_metadata": xmp_metadata}
        return _out("EncodeJpeg", [image], attrs, name=scope)[0]


@declare("ExtractJpegShape")
def _extract_jpeg_shape_infer(op):
    check_rank(op.inputs[0].shape, 0)
    return [(op._attrs["output_type"], TensorShape([3]))]


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """``[height, width, channels]`` of the JPEG file bytes ``contents``, read from its header
    (op ``ExtractJpegShape``)."""
    with get_default_graph().name_scope(name or "ExtractJpegShape") as scope:
        contents = _string_input(contents, "ExtractJpegShape", "contents")
        return _out("ExtractJpegShape", [contents], {"output_type": dtypes.as_dtype(output_type)}, name=scope)[0]


def is_jpeg(contents, name=None):
    """Whether the file bytes ``contents`` start as a JPEG file does (``\\xff\\xd8\\xff``)."""
    from numflow.ops.math_ops import equal
    from numflow.ops.string_transform_ops import substr

    with get_default_graph().name_scope(name or "is_jpeg"):
        return equal(substr(contents, 0, 3), b"\xff\xd8\xff", name="is_jpeg")


not_differentiable("DecodePng", "DecodeJpeg", "DecodeBmp", "DecodeGif", "DecodeImage", "EncodePng", "EncodeJpeg",
                   "ExtractJpegShape")
