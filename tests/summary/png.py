"""A small PNG reader for the tests: 8-bit gray, RGB and RGBA, every row filter, no interlacing.

Written from the PNG specification (section 9, filters), apart from numflow's writer, so that a
PNG numflow writes and one TensorFlow wrote are both decoded the same independent way.
"""

import struct
import zlib

import numpy as np

_CHANNELS = {0: 1, 2: 3, 6: 4}


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(data):
    """The ``[height, width, channels]`` uint8 pixels of PNG ``data``; checks each chunk's crc."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad crc in {kind}"
        chunks.append((kind, body))
        pos += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and interlace == 0 and color in _CHANNELS
    channels = _CHANNELS[color]
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = width * channels
    out = np.zeros((height, stride), np.int64)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], list(line[1:])
        for x in range(stride):
            a = out[y, x - channels] if x >= channels else 0
            b = out[y - 1, x] if y else 0
            c = out[y - 1, x - channels] if y and x >= channels else 0
            predictor = (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]
            out[y, x] = (row[x] + predictor) % 256
    return out.reshape(height, width, channels).astype(np.uint8)
