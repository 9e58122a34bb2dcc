"""Kernels of the image file ops: ``DecodePng``, ``DecodeJpeg``, ``DecodeBmp``, ``DecodeGif``,
``DecodeImage``, ``EncodePng``, ``EncodeJpeg`` and ``ExtractJpegShape``, on Pillow.

Spec: TensorFlow 2's ``decode_image_op.cc``: every decode op looks at the file's first bytes and
decodes whichever format it finds. Channels convert as libpng and libjpeg convert them for
TensorFlow: a gray image repeats into colour, an alpha channel is added as 255 or dropped, and
colour turns gray with libpng's fixed-point weights (truncated), or libjpeg's own luminance.
"""

import io

import numpy as np

from numflow_kernels.reference_math import kernel

_UNKNOWN = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."
# libpng's png_set_rgb_to_gray(0.299, 0.587) weights, in 1/32768ths.
_GRAY_WEIGHTS = np.array([9798, 19235, 3735], np.int64)


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise NotImplementedError("Image files need Pillow: pip install 'numflow[image]'") from None
    return Image


def _format(data):
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] in (b"GIF8",):
        return "GIF"
    if data[:2] == b"BM":
        return "BMP"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    raise ValueError(_UNKNOWN)


def _open(data, kind, gray=False):
    """The decoded image; ``gray``: a colour JPEG decoded straight to libjpeg's luminance."""
    Image = _pillow()
    try:
        image = Image.open(io.BytesIO(data))
        if gray and kind == "JPEG" and image.mode != "L":
            image.draft("L", image.size)
        image.load()
    except (OSError, SyntaxError, ValueError) as e:
        raise ValueError(f"Invalid {kind} data, size {len(data)}: {e}") from None
    return image


def _native(image, kind):
    """The image as ``[height, width, channels]`` with the file's own channels (a palette expanded)."""
    mode = image.mode
    if mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    elif mode in ("1", "CMYK", "YCbCr", "LAB", "HSV"):
        image = image.convert("L" if mode == "1" else "RGB")
    elif mode == "I;16B":
        image = image.convert("I;16")
    array = np.asarray(image)
    if mode == "I" or array.dtype == np.int32:
        array = array.astype(np.uint16)
    return array[..., None] if array.ndim == 2 else array


def _to_gray(rgb):
    return ((rgb.astype(np.int64) * _GRAY_WEIGHTS).sum(-1) >> 15).astype(rgb.dtype)[..., None]


def _convert_channels(array, channels):
    have = array.shape[-1]
    if channels == 0 or channels == have:
        return array
    full = np.iinfo(array.dtype).max
    color = array[..., :3] if have >= 3 else np.repeat(array[..., :1], 3, axis=-1)
    if channels == 1:
        return array[..., :1] if have <= 2 else _to_gray(color)
    if channels == 3:
        return np.ascontiguousarray(color)
    alpha = array[..., -1:] if have in (2, 4) else np.full(array.shape[:-1] + (1,), full, array.dtype)
    return np.concatenate([color, alpha], axis=-1)


def _as_dtype(array, dtype):
    dtype = np.dtype(dtype)
    if array.dtype == dtype:
        return array
    if dtype.kind == "f":
        return array.astype(dtype) * dtype.type(1.0 / np.iinfo(array.dtype).max)
    if dtype == np.uint16:
        return array.astype(np.uint16) * np.uint16(257)
    return (array >> 8).astype(np.uint8)


def _check_op(op_type, kind):
    """TensorFlow's refusals: DecodeBmp reads BMP files only, and only it and DecodeImage read them."""
    if op_type == "DecodeBmp" and kind != "BMP":
        raise ValueError(f"Trying to decode {kind} format using DecodeBmp op. Use `decode_{kind.lower()}` or "
                         "`decode_image` instead.")
    if kind == "BMP" and op_type not in ("DecodeBmp", "DecodeImage"):
        raise ValueError("Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. "
                         f"Op used: {op_type}")


def _frames(image):
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(np.asarray(image.convert("RGB")))
    return np.stack(frames)


def _decode(op_type, contents, channels, dtype, animations):
    """``animations``: True gives every frame of a GIF (4-D), False the first, None refuses several."""
    data = bytes(np.asarray(contents, dtype=object).item())
    kind = _format(data)
    _check_op(op_type, kind)
    image = _open(data, kind, gray=channels == 1)
    if op_type == "DecodeGif":
        return _frames(image.convert("RGB") if kind != "GIF" else image)
    if kind == "GIF":
        frames = _frames(image)
        if animations is None and len(frames) > 1:
            raise ValueError(f"Got {len(frames)} frames, but animated gifs can only be decoded by tf.io.decode_gif "
                             "or tf.io.decode_image")
        return _as_dtype(frames if animations else _convert_channels(frames[0], channels), dtype)
    array = _convert_channels(_native(image, kind), channels)
    if kind == "PNG" and np.dtype(dtype).kind == "f":
        array = _as_dtype(array, np.uint16)  # TensorFlow scales a PNG to floats from 16 bits
    return _as_dtype(array, dtype)


@kernel("DecodePng")
@kernel("DecodeJpeg")
@kernel("DecodeBmp")
@kernel("DecodeGif")
def decode(ctx, contents):
    a = ctx.attrs
    return _decode(ctx.op_type, contents, a.get("channels", 3), a.get("dtype", np.uint8), None)


@kernel("DecodeImage")
def decode_image(ctx, contents):
    a = ctx.attrs
    return _decode("DecodeImage", contents, a["channels"], a["dtype"], a["expand_animations"])


_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def _encode(image, kind, **options):
    array = np.asarray(image)
    channels = array.shape[-1]
    if channels not in _MODES or (kind == "JPEG" and channels not in (1, 3)):
        allowed = "1, 2, 3, or 4" if kind == "PNG" else "1 or 3"
        raise ValueError(f"image must have {allowed} channels, got {channels}")
    mode = "I;16" if array.dtype == np.uint16 and channels == 1 else _MODES[channels]
    if array.dtype == np.uint16 and channels != 1:
        raise NotImplementedError("numflow encodes 16-bit PNG images with one channel only")
    out = io.BytesIO()
    _pillow().fromarray(np.ascontiguousarray(array[..., 0] if channels == 1 else array), mode).save(
        out, kind, **options)
    return np.array(out.getvalue(), dtype=object)


@kernel("EncodePng")
def encode_png(ctx, image):
    level = ctx.attrs["compression"]
    return _encode(image, "PNG", compress_level=6 if level < 0 else level)


@kernel("EncodeJpeg")
def encode_jpeg(ctx, image):
    a = ctx.attrs
    return _encode(image, "JPEG", quality=a["quality"], progressive=a["progressive"], optimize=a["optimize_size"],
                   subsampling=2 if a["chroma_downsampling"] else 0)


@kernel("ExtractJpegShape")
def extract_jpeg_shape(ctx, contents):
    data = bytes(np.asarray(contents, dtype=object).item())
    if _format(data) != "JPEG":
        raise ValueError(_UNKNOWN)
    image = _open(data, "JPEG")
    channels = {"L": 1, "RGB": 3, "CMYK": 4}.get(image.mode, 3)
    return np.array([image.height, image.width, channels], dtype=ctx.attrs["output_type"])
