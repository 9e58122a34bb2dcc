"""Kernel of ``DrawBoundingBoxes``/``DrawBoundingBoxesV2``: TensorFlow's one-pixel outlines.

Spec: ``tensorflow/core/kernels/image/draw_bounding_box_op.cc``. A box's edges are at
``int(coordinate * (size - 1))`` (float32, truncated); an inverted box or one wholly outside the
image is skipped; edges outside the image are not drawn, and the others are clipped to it.
"""

import numpy as np

from numflow_kernels.reference_math import kernel

_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
                   [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


def _color_table(colors, depth):
    if colors is not None:
        colors = np.asarray(colors, np.float32)
        if colors.ndim != 2:
            raise ValueError(f"colors must be a 2-D matrix{list(colors.shape)}")
        if colors.shape[1] < depth:
            raise ValueError(f"colors must have equal or more channels than the image provided: "
                             f"{list(colors.shape)}")
        if colors.size:
            return colors[:, :depth]
    table = np.array(_DEFAULT_COLORS, np.float32)[:, :depth]
    if depth == 1:
        table[:, 0] = 1
    return table


def _edge(coordinate, size):
    return int(np.float32(coordinate) * np.float32(size - 1))


@kernel("DrawBoundingBoxes")
@kernel("DrawBoundingBoxesV2")
def draw_bounding_boxes(ctx, images, boxes, colors=None):
    if images.ndim != 4:
        raise ValueError("The rank of the images should be 4")
    if boxes.ndim != 3:
        raise ValueError("The rank of the boxes tensor should be 3")
    if images.shape[0] != boxes.shape[0]:
        raise ValueError("The batch sizes should be the same")
    batch, height, width, depth = images.shape
    if depth not in (1, 3, 4):
        raise ValueError("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.shape[2] != 4:
        raise ValueError(f"The size of the third dimension of the box must be 4. Received: {boxes.shape[2]}")
    table = _color_table(colors, depth).astype(images.dtype)
    canvas = images.copy()
    for b in range(batch):
        for index, (y0, x0, y1, x1) in enumerate(boxes[b]):
            color = table[index % len(table)]
            top, bottom, left, right = _edge(y0, height), _edge(y1, height), _edge(x0, width), _edge(x1, width)
            if top > bottom or left > right or top >= height or bottom < 0 or left >= width or right < 0:
                continue
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, cols] = color
            if bottom < height:
                canvas[b, bottom, cols] = color
            if left >= 0:
                canvas[b, rows, left] = color
            if right < width:
                canvas[b, rows, right] = color
    return canvas
