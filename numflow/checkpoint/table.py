"""LevelDB SSTables as TensorFlow writes them for checkpoint indexes: builder, reader, crc32c helpers.

Layout (spec section 2): ``[data block][trailer] ... [metaindex block][trailer] [index block][trailer]
[footer]``. Every block is ``entry* restart_offset* num_restarts`` with prefix-compressed keys; the
trailer is a type byte (0: uncompressed) and the masked crc32c of the block and that byte; the
48-byte footer holds the metaindex and index block handles and the magic number.

The builder reproduces TF's bytes exactly (262144-byte target blocks, restart interval 16 for data
blocks and 1 for the index block, shortened index keys). The reader checks the footer, every block's
bounds and checksum and every entry, and raises ``DataLossError`` with LevelDB's messages.
"""

import struct

import google_crc32c
import numpy as np

from numflow.framework import errors

MAGIC = b"\x57\xfb\x80\x8b\x24\x75\x47\xdb"
FOOTER_SIZE = 48
TRAILER_SIZE = 5
BLOCK_SIZE = 262144
DATA_RESTART_INTERVAL = 16
INDEX_RESTART_INTERVAL = 1
_MASK_DELTA = 0xA282EAD8
_U32 = 0xFFFFFFFF
_NO_COMPRESSION = 0
_SNAPPY_COMPRESSION = 1


# ---------------------------------------------------------------------------------------------------
# crc32c and integer encodings


def _native_extend():
    """google-crc32c's own C ``crc32c_extend`` through ctypes, which releases the GIL during the call.

    The package's Python binding keeps the GIL for anything but ``bytes``; calling the library it
    wraps lets a checksum run in parallel with file I/O on another thread. None when the library
    cannot be found or does not give the check value.
    """
    import ctypes
    import ctypes.util
    import glob
    import os

    base = os.path.dirname(os.path.abspath(google_crc32c.__file__))
    candidates = sorted(glob.glob(os.path.join(base, "..", "google_crc32c.libs", "libcrc32c*")))
    candidates += sorted(glob.glob(os.path.join(base, ".dylibs", "libcrc32c*")))
    candidates += [p for p in (ctypes.util.find_library("crc32c"),) if p]
    for path in candidates:
        try:
            func = ctypes.CDLL(path).crc32c_extend
        except (OSError, AttributeError):
            continue
        func.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_size_t]
        func.restype = ctypes.c_uint32
        if func(0, b"123456789", 9) == 0xE3069283:
            return func
    return None


_NATIVE_EXTEND = _native_extend()
_NATIVE_MIN = 1 << 16


def crc32c(data, crc=0):
    """CRC-32C of ``data`` continued from ``crc`` (0 starts a new one).

    Parameters
    ----------
    data : bytes-like
        bytes, bytearray, memoryview or a C-contiguous numpy array; read in place, never copied.
    crc : int
        The crc of the bytes that precede ``data``.

    Returns
    -------
    int
        The unmasked crc of the preceding bytes followed by ``data``.

    Examples
    --------
    >>> hex(crc32c(b"123456789"))
    '0xe3069283'
    """
    if not isinstance(data, (bytes, np.ndarray)):
        # The C extension accepts only objects without a buffer-release hook: bytes and ndarrays.
        data = np.frombuffer(data, dtype=np.uint8)
    if _NATIVE_EXTEND is not None and type(data) is np.ndarray and data.nbytes >= _NATIVE_MIN \
            and data.flags.c_contiguous:
        return _NATIVE_EXTEND(crc, data.ctypes.data, data.nbytes)
    return google_crc32c.extend(crc, data)


_POLY = 0x82F63B78  # CRC-32C, reflected


def _multmodp(a, b):
    """a(x) * b(x) modulo the CRC polynomial, in the reflected bit order crcs use (zlib's multmodp)."""
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if not a & (m - 1):
                return p
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1


def _x2n_table():
    table, p = [], 1 << 30  # x^1
    for _ in range(32):
        table.append(p)
        p = _multmodp(p, p)
    return table


_X2N = _x2n_table()


def crc32c_combine(crc1, crc2, len2):
    """The crc32c of A ++ B from crc32c(A), crc32c(B) and len(B), without the bytes (zlib's method).

    >>> crc32c_combine(crc32c(b"12345"), crc32c(b"6789"), 4) == crc32c(b"123456789")
    True
    """
    p, k, n = 1 << 31, 3, len2
    while n:
        if n & 1:
            p = _multmodp(_X2N[k & 31], p)
        n >>= 1
        k += 1
    return _multmodp(p, crc1) ^ crc2


def mask_crc(crc):
    """The masked form in which LevelDB and TF store a crc (rotate right by 15, add a constant)."""
    return ((((crc >> 15) | (crc << 17)) & _U32) + _MASK_DELTA) & _U32


def unmask_crc(masked):
    """Inverse of :func:`mask_crc`."""
    rot = (masked - _MASK_DELTA) & _U32
    return ((rot >> 17) | (rot << 15)) & _U32


_ONE_BYTE = [bytes([i]) for i in range(0x80)]


def encode_varint(value):
    """Unsigned LEB128 bytes of a non-negative int (negative ints: 64-bit two's complement)."""
    if 0 <= value < 0x80:
        return _ONE_BYTE[value]
    if value < 0:
        value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def decode_varint(buf, pos, limit, max_bytes=10):
    """Decode one varint of ``buf[pos:limit]``.

    Returns
    -------
    (int, int)
        The value and the position after it.

    Raises
    ------
    ValueError
        When the varint runs past ``limit`` or is longer than ``max_bytes``.
    """
    if pos < limit and buf[pos] < 0x80:
        return buf[pos], pos + 1
    result = 0
    shift = 0
    end = min(limit, pos + max_bytes)
    while pos < end:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
    raise ValueError("truncated or overlong varint")


def encode_fixed32(value):
    return struct.pack("<I", value & _U32)


def decode_fixed32(buf, pos):
    return struct.unpack_from("<I", buf, pos)[0]


# ---------------------------------------------------------------------------------------------------
# key shortening (LevelDB's BytewiseComparator)


def shortest_separator(start, limit):
    """A short key ``k`` with ``start <= k < limit`` as LevelDB chooses it for index entries.

    Examples
    --------
    >>> shortest_separator(b"c19e", b"c1a3")
    b'c1:'
    """
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n:
        byte = start[i]
        if byte < 0xFF and byte + 1 < limit[i]:
            return start[:i] + bytes([byte + 1])
    return start


def short_successor(key):
    """A short key ``>= key``: the first byte that is not 0xFF, incremented, and nothing after it."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


# ---------------------------------------------------------------------------------------------------
# writing


class BlockBuilder:
    """One block under construction: prefix-compressed entries and the restart array."""

    def __init__(self, restart_interval):
        self._interval = restart_interval
        self.reset()

    def reset(self):
        self._buf = bytearray()
        self._restarts = [0]
        self._counter = 0
        self._last_key = b""

    def empty(self):
        return not self._buf

    def add(self, key, value):
        shared = 0
        if self._counter < self._interval:
            last = self._last_key
            n = min(len(last), len(key))
            while shared < n and last[shared] == key[shared]:
                shared += 1
        else:
            self._restarts.append(len(self._buf))
            self._counter = 0
        buf = self._buf
        buf += encode_varint(shared)
        buf += encode_varint(len(key) - shared)
        buf += encode_varint(len(value))
        buf += key[shared:]
        buf += value
        self._last_key = key
        self._counter += 1

    def size_estimate(self):
        return len(self._buf) + 4 * len(self._restarts) + 4

    def finish(self):
        for offset in self._restarts:
            self._buf += encode_fixed32(offset)
        self._buf += encode_fixed32(len(self._restarts))
        return bytes(self._buf)


class TableBuilder:
    """Builds an SSTable in memory, byte for byte as TensorFlow's ``table::TableBuilder`` does.

    Parameters
    ----------
    block_size : int
        Target size of a data block before it is flushed.
    restart_interval : int
        Entries between restart points in data blocks (the index block always uses 1).

    Examples
    --------
    >>> builder = TableBuilder()
    >>> builder.add(b"a", b"1")
    >>> data = builder.finish()
    >>> [(k, v) for k, v in read_table(data)]
    [(b'a', b'1')]
    """

    def __init__(self, block_size=BLOCK_SIZE, restart_interval=DATA_RESTART_INTERVAL):
        self._block_size = block_size
        self._out = bytearray()
        self._data = BlockBuilder(restart_interval)
        self._index = BlockBuilder(INDEX_RESTART_INTERVAL)
        self._last_key = None
        self._pending = None

    def add(self, key, value):
        """Append one entry; keys must come in strictly increasing bytewise order."""
        key = bytes(key)
        value = bytes(value)
        if self._last_key is not None:
            if key <= self._last_key:
                raise ValueError(f"Table keys must be added in increasing order: {key!r} after "
                                 f"{self._last_key!r}")
            if len(key) + len(value) >= 2 * self._block_size:
                self._flush()
        if self._pending is not None:
            self._index.add(shortest_separator(self._last_key, key), self._pending)
            self._pending = None
        self._data.add(key, value)
        self._last_key = key
        if self._data.size_estimate() >= self._block_size:
            self._flush()

    def _write_block(self, contents):
        handle = encode_varint(len(self._out)) + encode_varint(len(contents))
        self._out += contents
        trailer_type = bytes([_NO_COMPRESSION])
        self._out += trailer_type
        self._out += encode_fixed32(mask_crc(crc32c(trailer_type, crc32c(contents))))
        return handle

    def _flush(self):
        if self._data.empty():
            return
        self._pending = self._write_block(self._data.finish())
        self._data.reset()

    def finish(self):
        """Write the remaining blocks and the footer; return the whole table's bytes."""
        self._flush()
        metaindex = self._write_block(BlockBuilder(DATA_RESTART_INTERVAL).finish())
        if self._pending is not None:
            self._index.add(short_successor(self._last_key), self._pending)
            self._pending = None
        index = self._write_block(self._index.finish())
        footer = metaindex + index
        self._out += footer + bytes(FOOTER_SIZE - len(MAGIC) - len(footer)) + MAGIC
        return bytes(self._out)


def build_table(items, block_size=BLOCK_SIZE, restart_interval=DATA_RESTART_INTERVAL):
    """The bytes of an SSTable holding ``items``, (key, value) pairs in increasing key order."""
    builder = TableBuilder(block_size, restart_interval)
    for key, value in items:
        builder.add(key, value)
    return builder.finish()


# ---------------------------------------------------------------------------------------------------
# reading


def _data_loss(message):
    return errors.DataLossError(None, None, message)


def _decode_handle(buf, pos, limit):
    try:
        offset, pos = decode_varint(buf, pos, limit)
        size, pos = decode_varint(buf, pos, limit)
    except ValueError:
        raise _data_loss("bad block handle") from None
    return (offset, size), pos


def read_footer(buf):
    """The (metaindex, index) block handles of the table in ``buf``, each (offset, size).

    Raises
    ------
    DataLossError
        ``file is too short to be an sstable``, ``not an sstable (bad magic number)`` or
        ``bad block handle``.
    """
    if len(buf) < FOOTER_SIZE:
        raise _data_loss("file is too short to be an sstable")
    start = len(buf) - FOOTER_SIZE
    if bytes(buf[-len(MAGIC):]) != MAGIC:
        raise _data_loss("not an sstable (bad magic number)")
    limit = len(buf) - len(MAGIC)
    metaindex, pos = _decode_handle(buf, start, limit)
    index, _ = _decode_handle(buf, pos, limit)
    return metaindex, index


def read_block_contents(buf, handle):
    """The checked contents of the block at ``handle`` (offset, size), trailer stripped.

    Raises
    ------
    DataLossError
        ``truncated block read``, ``block checksum mismatch`` or ``bad block type``.
    UnimplementedError
        For a Snappy-compressed block (TF never writes them).
    """
    offset, size = handle
    end = offset + size
    if end + TRAILER_SIZE > len(buf):
        raise _data_loss("truncated block read")
    view = memoryview(buf)
    stored = unmask_crc(decode_fixed32(buf, end + 1))
    if crc32c(view[offset:end + 1]) != stored:
        raise _data_loss("block checksum mismatch")
    block_type = buf[end]
    if block_type == _SNAPPY_COMPRESSION:
        raise errors.UnimplementedError(
            None, None, "Snappy-compressed table blocks are not supported; TensorFlow never writes them")
    if block_type != _NO_COMPRESSION:
        raise _data_loss("bad block type")
    return bytes(view[offset:end])


def parse_block(block):
    """All (key, value) entries of one block's contents, in stored order.

    Raises
    ------
    DataLossError
        ``bad block contents`` when the restart array does not fit, ``bad entry in block`` when an
        entry is malformed or keys are not strictly increasing.
    """
    size = len(block)
    if size < 4:
        raise _data_loss("bad block contents")
    num_restarts = decode_fixed32(block, size - 4)
    if num_restarts > (size - 4) // 4:
        raise _data_loss("bad block contents")
    limit = size - 4 - 4 * num_restarts
    entries = []
    pos = 0
    key = b""
    try:
        while pos < limit:
            shared, pos = decode_varint(block, pos, limit, 5)
            non_shared, pos = decode_varint(block, pos, limit, 5)
            value_len, pos = decode_varint(block, pos, limit, 5)
            if shared > len(key) or pos + non_shared + value_len > limit or (not entries and shared):
                raise ValueError
            new_key = key[:shared] + block[pos:pos + non_shared]
            pos += non_shared
            if entries and new_key <= key:
                raise ValueError
            entries.append((new_key, block[pos:pos + value_len]))
            pos += value_len
            key = new_key
    except ValueError:
        raise _data_loss("bad entry in block") from None
    return entries


def read_index(buf):
    """The index entries of the table in ``buf``: (separator key, data block handle) pairs.

    This is what TF's ``Table::Open`` checks before any lookup: footer, then the index block.
    """
    _, index_handle = read_footer(buf)
    handles = []
    for key, value in parse_block(read_block_contents(buf, index_handle)):
        handle, pos = _decode_handle(value, 0, len(value))
        handles.append((key, handle))
    return handles


def read_table(buf):
    """Every (key, value) entry of the table in ``buf``, in key order, all blocks checked."""
    entries = []
    for _, handle in read_index(buf):
        block_entries = parse_block(read_block_contents(buf, handle))
        if entries and block_entries and block_entries[0][0] <= entries[-1][0]:
            raise _data_loss("bad entry in block")
        entries.extend(block_entries)
    return entries
