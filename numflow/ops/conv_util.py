"""What the convolution and pooling ops share: their attrs in TensorFlow's forms and words, and the
static shapes of sliding-window outputs.

The attrs are written in the op's layout: ``strides=[1, 2, 2, 1]`` for NHWC, ``[1, 1, 2, 2]`` for
NCHW. ``get_sequence`` and ``convert_padding`` are TensorFlow's ``_get_sequence`` and
``convert_padding``, which turn what a user passes (an int, 1, n or n + 2 values; a padding string
or [before, after] pairs) into them.
"""

import numbers

from numflow.framework.shapes import TensorShape
from numflow.ops.op_util import check_rank

FORMATS = {4: ("NHWC", "NCHW"), 5: ("NDHWC", "NCDHW")}


def channels_first(data_format):
    return data_format is not None and data_format.startswith("NC")


def argument_lookup(new_name, new_value, old_name, old_value):
    """TensorFlow's ``deprecated_argument_lookup``: whichever of two spellings of an argument was given."""
    if new_value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'")
    return old_value if new_value is None else new_value


def check_choice(value, allowed, attr, op_type):
    """TensorFlow's ValueError for a string attr outside ``allowed``."""
    if value not in allowed:
        choices = ", ".join(f'"{a}"' for a in allowed)
        raise ValueError(f"Attr '{attr}' of '{op_type}' Op passed string '{value}' not in: {choices}.")
    return value


def get_sequence(value, n, channel_index, name):
    """``value`` (None, an int, or 1, ``n`` or ``n + 2`` values) as the ``n + 2`` values of an attr."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, numbers.Integral):
        value = [int(value)]
    else:
        value = [int(v) for v in value]
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length "
                         f"{len(value)}")
    return [1, 1, *value] if channel_index == 1 else [1, *value, 1]


def convert_padding(padding, expected_length=4):
    """``(padding, explicit_paddings)``: a padding string as is, or a list of [before, after] pairs as EXPLICIT."""
    if isinstance(padding, bytes):
        padding = padding.decode()
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` must "
                         "be a list.")
    if not isinstance(padding, list | tuple):
        return padding, []
    explicit = []
    for i, pair in enumerate(padding):
        if not isinstance(pair, list | tuple):
            raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                             f"Received: padding={padding} with element at index {i} of type {type(pair)}")
        if len(pair) != 2:
            raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                             f"Received: padding={padding} with element at index {i} of size {len(pair)}")
        explicit.extend(int(p) for p in pair)
    if len(padding) != expected_length:
        raise ValueError(f"When padding is a list, it must be of size {expected_length}. Received: padding={padding} "
                         f"of size {len(padding)}")
    return "EXPLICIT", explicit


def spatial(values, data_format):
    """The spatial entries of a per-dimension list written in ``data_format``'s order."""
    values = list(values)
    return values[2:] if channels_first(data_format) else values[1:-1]


def batch_and_channels(values, data_format):
    return (values[0], values[1]) if channels_first(data_format) else (values[0], values[-1])


def join(batch, spatial_dims, channels, data_format):
    """A shape in ``data_format``'s order from its parts."""
    if channels_first(data_format):
        return [batch, channels, *spatial_dims]
    return [batch, *spatial_dims, channels]


def check_window_attrs(op, rank, lists=("strides", "dilations")):
    """TensorFlow's shape-function checks of the per-dimension attrs (``strides``, ``dilations``,
    ``ksize``) and of ``explicit_paddings``: lengths and signs."""
    a = op._attrs
    for attr in lists:
        values = a.get(attr)
        if values is None:
            continue
        if len(values) != rank:
            word = {"strides": "stride", "dilations": "dilation"}.get(attr, attr)
            op_type = "DepthwiseConv2D" if op.type.startswith("Depthwise") else op.type
            raise ValueError(f"{op_type} requires the {word} attribute to contain {rank} values, but got: "
                             f"{len(values)}")
        if attr == "dilations" and min(values) < 1:
            raise ValueError(f"Dilation rate must be >= 1, but got {min(values)}")
        if attr == "strides" and min(values) < 1:
            raise ValueError(f"Stride must be > 0, but got {min(values)}")
    if a.get("padding") == "EXPLICIT":
        pads = list(a.get("explicit_paddings") or [])
        if len(pads) != 2 * rank:
            raise ValueError(f"explicit_paddings attribute must contain {2 * rank} values, but got: {len(pads)}")
        if min(pads) < 0:
            raise ValueError(f"All elements of explicit_paddings must be nonnegative, got {pads}")
        if any(batch_and_channels([pads[i:i + 2] for i in range(0, len(pads), 2)], a.get("data_format"))[k][j]
               for k in (0, 1) for j in (0, 1)):
            raise ValueError("Nonzero explicit padding in the batch or depth dimensions is not supported")


def output_size(size, k, stride, dilation, padding, pair=(0, 0)):
    """One spatial output size by TensorFlow's rules; None when unknown. ValueError when negative."""
    if size is None or k is None:
        return None
    effective = (k - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    padded = size + pair[0] + pair[1]
    if padded < effective:
        raise ValueError(f"Negative dimension size caused by subtracting {effective} from {padded}")
    return (padded - effective) // stride + 1


def dims(shape, rank):
    """``shape``'s dims, or ``rank`` unknowns for an unknown rank."""
    return shape.dim_values if shape.ndims is not None else [None] * rank


def window_output(op, x_dims, kernel):
    """The spatial output sizes of ``op`` (its strides, dilations, padding) over ``x_dims`` with window ``kernel``."""
    a = op._attrs
    fmt = a.get("data_format", "NHWC")
    strides = spatial(a["strides"], fmt)
    dilations = spatial(a["dilations"], fmt) if a.get("dilations") else [1] * len(strides)
    pads = a.get("explicit_paddings") or []
    pairs = spatial([pads[i:i + 2] for i in range(0, len(pads), 2)], fmt) if a["padding"] == "EXPLICIT" \
        else [(0, 0)] * len(strides)
    return [output_size(s, k, st, d, a["padding"], p)
            for s, k, st, d, p in zip(spatial(x_dims, fmt), kernel, strides, dilations, pairs)]


def checked_input(op, x, rank):
    check_rank(x.shape, rank)
    return dims(x.shape, rank)


def shape(batch, spatial_dims, channels, data_format):
    return TensorShape(join(batch, spatial_dims, channels, data_format))
