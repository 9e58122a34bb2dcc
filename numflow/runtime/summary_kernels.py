"""Kernels of the summary ops: each returns a serialized ``tensorflow.Summary``, as TensorFlow's do.

Spec: TensorFlow's ``summary_op.cc``, ``summary_image_op.cc``, ``summary_audio_op.cc``,
``summary_tensor_op.cc`` and ``lib/histogram/histogram.cc``:

- a histogram counts values into TensorFlow's default buckets (edges growing by 10% from 1e-12 to
  1e20, mirrored for negatives, with 0 and +-DBL_MAX) by upper bound, sums values and squares in
  flat order in doubles, and writes each run of empty buckets as one bucket at the run's last edge;
- an image is scaled to uint8 (``255 / max`` when no value is negative, else ``127 / max |x|`` around
  128, non-finite pixels in ``bad_color``) and written as a PNG;
- audio is written as 16-bit PCM WAV (samples times 32768, rounded half away from zero, clipped).

The messages are built with protobuf from the schema in ``numflow.protos``, so these kernels live on
the runtime's side of the line (``numflow_kernels`` imports nothing from ``numflow``), registered for
the CPU as any kernel is; the schema loads on a summary's first run.
"""

import functools
import struct
import sys
import zlib

import numpy as np

from numflow.framework import dtypes
from numflow_kernels.registry import register


@functools.cache
def _messages():
    from numflow.protos import summary_pb2

    return summary_pb2


def _text(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _scalar_tag(tag, what="Tags"):
    tag = np.asarray(tag)
    if tag.ndim:
        raise ValueError(f"{what} must be a scalar")
    return _text(tag)


def _serialized(summary):
    return np.array(summary.SerializeToString(), dtype=object)


def _dims_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


@register("ScalarSummary")
def scalar_summary(ctx, tags, values):
    tags, values = np.asarray(tags), np.asarray(values)
    if tags.shape != values.shape:
        single = f" (tag '{_text(tags)}')" if tags.ndim == 0 else ""
        raise ValueError(f"tags and values are not the same shape: {_dims_text(tags.shape)} != "
                         f"{_dims_text(values.shape)}{single}")
    summary = _messages().Summary()
    add = summary.value.add
    if values.ndim == 0:  # the common case, a step's loss: as little work as it can be
        add(tag=_text(tags), simple_value=values.astype(np.float32).item())
    else:
        for tag, value in zip(tags.ravel(), values.astype(np.float32).ravel().tolist()):
            add(tag=_text(tag), simple_value=value)
    return _serialized(summary)


# -- histograms -------------------------------------------------------------------------------
@functools.cache
def default_bucket_limits():
    """TensorFlow's default histogram bucket edges, computed in doubles as ``histogram.cc`` does."""
    positive, v = [], 1.0e-12
    while v < 1.0e20:
        positive.append(v)
        v *= 1.1
    positive.append(sys.float_info.max)
    return np.array([-x for x in reversed(positive)] + [0.0] + positive)


def histogram_proto(values, proto):
    """Fill HistogramProto ``proto`` from ``values`` as TensorFlow's HistogramSummary does.

    Raises ValueError naming the first NaN or infinity.
    """
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    finite = np.isfinite(flat)
    if not finite.all():
        first = flat[np.argmin(finite)]
        raise ValueError("Nan in summary histogram for: " if np.isnan(first) else "Infinity in Histogram for: ")
    limits = default_bucket_limits()
    # Each value counts in the bucket of the first edge above it (nothing is above DBL_MAX).
    counts = np.bincount(np.searchsorted(limits, flat, side="right"), minlength=len(limits))[:len(limits)]
    # One entry per non-empty bucket, and one per run of empty buckets, at the run's last edge.
    empty = counts == 0
    keep = ~empty | np.append(~empty[1:], True)
    proto.num = float(flat.size)
    if flat.size:
        # accumulate adds in flat order, as TensorFlow's loop does (np.sum's pairwise order differs).
        proto.min, proto.max = flat.min(), flat.max()
        proto.sum = np.add.accumulate(flat)[-1]
        proto.sum_squares = np.add.accumulate(flat * flat)[-1]
    else:
        proto.min, proto.max = limits[-1], -limits[-1]
    proto.bucket_limit.extend(limits[keep].tolist())
    proto.bucket.extend(counts[keep].astype(np.float64).tolist())


@register("HistogramSummary")
def histogram_summary(ctx, tag, values):
    summary = _messages().Summary()
    value = summary.value.add(tag=_scalar_tag(tag))
    try:
        histogram_proto(values, value.histo)
    except ValueError as exc:
        raise ValueError(f"{exc}{ctx.op_name}") from None
    return _serialized(summary)


# -- images -----------------------------------------------------------------------------------
def png(image):
    """PNG bytes of a ``[height, width, channels]`` uint8 image (1: gray, 3: RGB, 4: RGBA)."""
    height, width, depth = image.shape
    color_type = {1: 0, 3: 2, 4: 6}[depth]
    rows = np.zeros((height, 1 + width * depth), np.uint8)  # each row starts with filter type 0 (none)
    rows[:, 1:] = image.reshape(height, width * depth)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows.tobytes()))
            + chunk(b"IEND", b""))


def to_uint8(image, bad_color):
    """A float ``[h, w, depth]`` image as uint8, scaled as TensorFlow's ImageSummary scales it."""
    finite = np.isfinite(image).all(axis=-1)
    good = image[finite]
    lo = np.float32(good.min()) if good.size else np.float32(np.inf)
    hi = np.float32(good.max()) if good.size else np.float32(-np.inf)
    dtype = image.dtype.type
    if lo < 0:
        top = max(abs(lo), abs(hi))
        scale, offset = dtype(0.0 if top < 1e-6 else np.float32(127.0) / top), dtype(128.0)
    else:
        scale, offset = dtype(0.0 if hi < 1e-6 else np.float32(255.0) / hi), dtype(0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        out = (image * scale + offset).astype(np.uint8)
    out[~finite] = bad_color[:image.shape[-1]]
    return out


@register("ImageSummary")
def image_summary(ctx, tag, tensor):
    base = _scalar_tag(tag)
    tensor = np.asarray(tensor)
    if tensor.ndim != 4 or tensor.shape[3] not in (1, 3, 4):
        raise ValueError(f"Tensor must be 4-D with last dim 1, 3, or 4, not {_dims_text(tensor.shape)}")
    batch, height, width, depth = tensor.shape
    if height * width == 0:
        raise ValueError(f"input tensor must have non-zero dims. Found: [{batch}, {height}, {width}, {depth}].")
    bad_color = np.asarray(ctx.attrs["bad_color"], dtype=np.uint8).ravel()
    if tensor.dtype != np.uint8 and len(bad_color) < depth:
        raise ValueError(f"expected depth <= bad_color.size, got depth = {depth}, bad_color.size = {len(bad_color)}")
    max_images = ctx.attrs["max_images"]
    summary = _messages().Summary()
    for i in range(min(max_images, batch)):
        image = tensor[i] if tensor.dtype == np.uint8 else to_uint8(tensor[i], bad_color)
        value = summary.value.add(tag=f"{base}/image/{i}" if max_images > 1 else f"{base}/image")
        value.image.height, value.image.width, value.image.colorspace = height, width, depth
        value.image.encoded_image_string = png(image)
    return _serialized(summary)


# -- audio ------------------------------------------------------------------------------------
def wav(samples, sample_rate):
    """16-bit PCM WAV bytes of float ``samples`` ``[frames, channels]`` in [-1, 1]."""
    frames, channels = samples.shape
    scaled = np.asarray(samples, np.float32) * np.float32(32768.0)
    whole = np.trunc(scaled)
    rounded = whole + np.sign(scaled) * (np.abs(scaled - whole) >= 0.5)  # C's roundf: half away from zero
    pcm = np.clip(rounded, -32768, 32767).astype("<i2")
    data = pcm.tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, channels,
                         sample_rate, sample_rate * channels * 2, channels * 2, 16, b"data", len(data))
    return header + data


@register("AudioSummaryV2")
def audio_summary(ctx, tag, tensor, sample_rate):
    base = _scalar_tag(tag, "Tag")
    tensor = np.asarray(tensor, dtype=np.float32)
    if tensor.ndim not in (2, 3):
        raise ValueError(f"Tensor must be 3-D or 2-D, got: {_dims_text(tensor.shape)}")
    sample_rate = np.asarray(sample_rate)
    if sample_rate.size != 1:
        raise ValueError("sample_rate must be rank-0 or contain a single value")
    rate = np.float32(sample_rate.ravel()[0])
    if not rate > 0:
        raise ValueError("sample_rate must be > 0")
    clips = tensor if tensor.ndim == 3 else tensor[:, :, None]
    max_outputs = ctx.attrs["max_outputs"]
    whole_rate = max(int(np.rint(rate)), 1)
    summary = _messages().Summary()
    for i in range(min(max_outputs, clips.shape[0])):
        value = summary.value.add(tag=f"{base}/audio/{i}" if max_outputs > 1 else f"{base}/audio")
        audio = value.audio
        audio.sample_rate, audio.num_channels, audio.length_frames = float(rate), clips.shape[2], clips.shape[1]
        audio.content_type = "audio/wav"
        audio.encoded_audio_string = wav(clips[i], whole_rate)
    return _serialized(summary)


# -- tensors and merging ----------------------------------------------------------------------
def tensor_proto(value, datatype, proto):
    """Fill TensorProto ``proto`` as TensorFlow's summary does: strings one by one, anything else as
    raw little-endian ``tensor_content`` (a scalar too)."""
    value = np.asarray(value)
    proto.dtype = datatype
    proto.tensor_shape.SetInParent()
    for dim in value.shape:
        proto.tensor_shape.dim.add(size=dim)
    if value.dtype == object or value.dtype.kind in "SU":
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode() for v in value.ravel())
    else:
        proto.tensor_content = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<"), copy=False).tobytes()


@register("TensorSummaryV2")
def tensor_summary(ctx, tag, tensor, serialized_summary_metadata):
    if np.ndim(tag):
        raise ValueError("tag must be scalar")
    if np.ndim(serialized_summary_metadata):
        raise ValueError("serialized_summary_metadata must be scalar")
    messages = _messages()
    summary = messages.Summary()
    value = summary.value.add(tag=_text(tag))
    tensor_proto(tensor, dtypes.as_dtype(ctx.attrs["T"]).as_datatype_enum, value.tensor)
    metadata = np.asarray(serialized_summary_metadata).item()
    value.metadata.SetInParent()
    value.metadata.MergeFromString(metadata if isinstance(metadata, bytes) else str(metadata).encode())
    return _serialized(summary)


@register("MergeSummary")
def merge_summary(ctx, *inputs):
    from google.protobuf.message import DecodeError

    merged = _messages().Summary()
    for serialized in inputs:
        for item in np.asarray(serialized, dtype=object).ravel():
            try:
                merged.MergeFromString(item if isinstance(item, bytes) else str(item).encode())
            except DecodeError:
                raise ValueError("Could not parse one of the summary inputs") from None
    seen = set()
    for value in merged.value:
        if value.tag and value.tag in seen:
            raise ValueError(f"Duplicate tag {value.tag} found in summary inputs ")
        seen.add(value.tag)
    return _serialized(merged)
