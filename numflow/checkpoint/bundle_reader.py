"""BundleReader: reads a V2 tensor bundle, checking the index, every size against the file, every crc.

Opening reads and checks the whole index (footer, block checksums, entry encoding, header, version)
with TF's error classes and texts. Reading a tensor validates its entry (shape, size, shard, range
within the data file) before anything is allocated, then reads the bytes straight into the result
array (or the caller's ``out`` array) and compares the crc32c, computed piece by piece right after
each read while the bytes are in the CPU cache. Large tensors are split between two helper threads
and their pieces' crcs combined.
"""

import concurrent.futures
import difflib
import math
import mmap
import os
import threading

import numpy as np

from numflow.checkpoint import datatypes, slices, table
from numflow.checkpoint.files import data_filename, index_filename, is_url, os_error, resolve
from numflow.checkpoint.protos import BIG_ENDIAN, LITTLE_ENDIAN, BundleEntry, BundleHeader, ProtoError
from numflow.framework import errors
from numflow.framework.shapes import dims_text

TF_VERSION = "2.21.0"  # the TensorFlow release whose format and messages numflow follows
BUNDLE_VERSION = 1  # kTensorBundleVersion: the producer version written, the consumer version checked
MIN_PRODUCER = 0
MAX_DIMS = 254
_STEP = 256 << 10  # bytes read, then checksummed while still in the CPU cache
_PIECE = 8 << 20  # large tensors are read in pieces of this size by two helper threads
_PARALLEL_MIN = 16 << 20
_MAX_ELEMENTS = (1 << 63) - 1

_pool = None
_pool_lock = threading.Lock()


class CheckpointVersionError(errors.InvalidArgumentError, ValueError):
    """A checkpoint this version refuses: InvalidArgumentError as in TF's C++, ValueError as in its Python."""


def name_key(name):
    """The index key (bytes) of a tensor name given as str or bytes."""
    if isinstance(name, bytes):
        return name
    if isinstance(name, str):
        return name.encode("utf-8", "surrogateescape")
    raise TypeError(f"A tensor name must be str or bytes, not {type(name).__name__}")


def key_name(key):
    """The tensor name (str) of an index key; bytes that are not UTF-8 survive the round trip."""
    return key.decode("utf-8", "surrogateescape")


def read_pool():
    """Two helper threads for the checksums and reads of large tensors (made on first need)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(2, "numflow-checkpoint")
        return _pool


def _forget_pool_in_child():
    # A forked child has the pool object but not its threads: work submitted there would never run.
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _pread_into(fd, view, offset, path):
    """Fill ``view`` from ``offset`` of ``fd``; OutOfRangeError if the file ends first."""
    got, size = 0, view.nbytes
    try:
        while got < size:
            if hasattr(os, "preadv"):
                n = os.preadv(fd, [view[got:]], offset + got)
            else:  # pragma: no cover - platforms without preadv
                chunk = os.pread(fd, size - got, offset + got)
                n = len(chunk)
                view[got:got + n] = chunk
            if n == 0:
                raise errors.OutOfRangeError(None, None, f"Read less bytes than requested (file {path})")
            got += n
    except OSError as exc:
        raise os_error(exc, path) from exc


class _LocalSource:
    """A data file on the local disk: positioned reads, safe from several threads."""

    piece = _STEP  # read, then checksummed while still in the CPU cache

    def __init__(self, path):
        self.path = path
        try:
            self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError as exc:
            raise os_error(exc, path) from exc
        self.size = os.fstat(self.fd).st_size

    def read_into(self, view, offset):
        _pread_into(self.fd, view, offset, self.path)

    def checksum(self, offset, size):
        """The crc32c of ``size`` bytes from ``offset``, computed on the page cache's own pages (mapped)."""
        start = offset - offset % mmap.ALLOCATIONGRANULARITY
        try:
            mapped = mmap.mmap(self.fd, offset + size - start, prot=mmap.PROT_READ, offset=start,
                               flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0))
        except (OSError, ValueError):
            return _checksum_span(self, offset, size)
        try:
            pages = np.frombuffer(mapped, np.uint8)
            return table.crc32c(pages[offset - start:], 0)
        finally:
            del pages
            mapped.close()

    def close(self):
        try:
            os.close(self.fd)
        except OSError:
            pass


class _RemoteSource:
    """A data file on a filesystem of fsspec: one ranged request per piece, from any thread."""

    piece = _PIECE

    def __init__(self, path):
        self.path = path
        self.fs = resolve(path)
        self.size = self.fs.stat(path)[0]

    def read_into(self, view, offset):
        data = self.fs.read_range(self.path, offset, view.nbytes)
        if len(data) < view.nbytes:
            raise errors.OutOfRangeError(None, None, f"Read less bytes than requested (file {self.path})")
        view[:] = data

    def checksum(self, offset, size):
        return _checksum_span(self, offset, size)

    def close(self):
        pass


def _read_span(source, offset, flat, crc=True):
    """Read ``flat.size`` bytes into the uint8 array ``flat`` piece by piece; their crc32c (0 without ``crc``)."""
    value = 0
    step = source.piece if crc else _PIECE
    for start in range(0, flat.size, step):
        piece = flat[start:start + step]
        source.read_into(memoryview(piece), offset + start)
        if crc:
            value = table.crc32c(piece, value)
    return value


def _checksum_span(source, offset, size):
    """The crc32c of ``size`` bytes of ``source`` from ``offset``, read through one small scratch buffer."""
    scratch = np.empty(min(size, source.piece), np.uint8)
    crc = 0
    for start in range(0, size, source.piece):
        piece = scratch[:min(source.piece, size - start)]
        source.read_into(memoryview(piece), offset + start)
        crc = table.crc32c(piece, crc)
    return crc


def _in_parallel(size, read_piece):
    """The crc32c of ``size`` bytes, ``read_piece(start, length)`` giving each piece's crc (reading or
    writing it); large spans are split between two helper threads and the pieces' crcs combined."""
    if size < _PARALLEL_MIN:
        return read_piece(0, size)
    starts = range(0, size, _PIECE)
    try:
        pool = read_pool()
        futures = [pool.submit(read_piece, s, min(_PIECE, size - s)) for s in starts]
    except RuntimeError:  # the interpreter is shutting down: no new threads
        return read_piece(0, size)
    crc = 0
    try:
        for start, future in zip(starts, futures, strict=True):
            crc = table.crc32c_combine(crc, future.result(), min(_PIECE, size - start))
    finally:
        for future in futures:
            future.cancel()
        concurrent.futures.wait(futures)
    return crc


def _read_with_crc(source, offset, flat):
    """Read into ``flat`` and return the crc32c of its bytes."""
    return _in_parallel(flat.size, lambda start, n: _read_span(source, offset + start, flat[start:start + n]))


def _corrupt_index(path, detail, cause=None):
    text = (f"Unable to read file ({path}). Perhaps the file is corrupt or was produced by a newer "
            f"version of TensorFlow with format changes ({detail})")
    if cause is None:
        return errors.DataLossError(None, None, text)
    return type(cause)(None, None, f"{text}: {cause.message}")


def _check_versions(header):
    if header.producer < MIN_PRODUCER:
        raise CheckpointVersionError(
            None, None, f"Checkpoint producer version {header.producer} below min producer {MIN_PRODUCER} "
            f"supported by TensorFlow {TF_VERSION}.  Please regenerate your checkpoint.")
    if header.min_consumer > BUNDLE_VERSION:
        raise CheckpointVersionError(
            None, None, f"Checkpoint min consumer version {header.min_consumer} above current version "
            f"{BUNDLE_VERSION} for TensorFlow {TF_VERSION}.  Please upgrade TensorFlow.")
    if BUNDLE_VERSION in header.bad_consumers:
        raise CheckpointVersionError(
            None, None, f"Checkpoint disallows consumer version {BUNDLE_VERSION}.  Please upgrade "
            "TensorFlow: this version is likely buggy.")


def _read_whole(path):
    if is_url(path):
        return resolve(path).cat(path)
    try:
        with open(path, "rb", buffering=0) as f:
            return f.readall()
    except OSError as exc:
        raise os_error(exc, path) from exc


class BundleReader:
    """Reads the checkpoint ``prefix`` (``P.index`` plus its ``P.data-*`` shards).

    Parameters
    ----------
    prefix : str or path-like
        The checkpoint prefix ``P``.

    Raises
    ------
    NotFoundError
        ``P.index; No such file or directory``.
    DataLossError
        When the index is not a valid table or its header does not parse (TF's texts).
    CheckpointVersionError
        When the header's ``min_consumer`` or ``bad_consumers`` exclude this reader.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from numflow.checkpoint.bundle import write_bundle
    >>> prefix = write_bundle(os.path.join(tempfile.mkdtemp(), "m"), {"w": np.eye(2, dtype=np.float32)})
    >>> with BundleReader(prefix) as reader:
    ...     reader.keys(), reader.shapes()["w"], reader.get_tensor("w").sum()
    (['w'], (2, 2), np.float32(2.0))
    """

    def __init__(self, prefix):
        self.prefix = os.fspath(prefix)
        self.index_path = index_filename(self.prefix)
        self._shards = {}
        self._lock = threading.Lock()
        buf = _read_whole(self.index_path)
        raw = []
        for i, (_, handle) in enumerate(table.read_index(buf)):
            detail = "failed to seek to header entry" if i == 0 else f"failed to read data block {i}"
            try:
                block = table.parse_block(table.read_block_contents(buf, handle))
            except errors.OpError as exc:
                raise _corrupt_index(self.index_path, detail, exc) from None
            if raw and block and block[0][0] <= raw[-1][0]:
                raise _corrupt_index(self.index_path, detail, errors.DataLossError(
                    None, None, "keys out of order across blocks"))
            raw.extend(block)
        if not raw or raw[0][0] != b"":
            raise _corrupt_index(self.index_path, "failed to seek to header entry")
        try:
            header = BundleHeader.decode(raw[0][1])
        except ProtoError:
            raise _corrupt_index(self.index_path, "unable to parse header", errors.DataLossError(
                None, None, "Entry for key  not parseable.")) from None
        _check_versions(header)
        self.num_shards = header.num_shards
        self.endianness = header.endianness
        self._swap = (header.endianness == BIG_ENDIAN and np.little_endian) or (
            header.endianness == LITTLE_ENDIAN and not np.little_endian)
        self._values = dict(raw[1:])
        self._entries = {}
        self._verified = set()

    # -- lifetime -------------------------------------------------------------------------------

    def close(self):
        """Close the data files opened so far (the reader reopens them if used again)."""
        with self._lock:
            shards, self._shards = self._shards, {}
        for source in shards.values():
            source.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_shards", None):
            self.close()

    # -- the index ------------------------------------------------------------------------------

    def keys(self):
        """Tensor names in index (bytewise) order; partition slices of partitioned variables excluded."""
        return [key_name(k) for k in self._values if not k.startswith(b"\x00")]

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self.keys())

    def has_tensor(self, name):
        """Whether the bundle has an entry called ``name``."""
        key = name_key(name)
        return key in self._values and not key.startswith(b"\x00")

    __contains__ = has_tensor

    def entry(self, name):
        """The parsed and checked :class:`BundleEntry` of ``name``.

        Raises
        ------
        NotFoundError
            ``Key NAME not found in checkpoint``, with the nearest names when there are some.
        DataLossError
            ``Entry for key NAME not parseable.`` or ``Invalid tensor shape: NAME ...``.
        """
        key = name_key(name)
        entry = self._entries.get(key)
        if entry is not None:
            return entry
        if not key or key not in self._values:
            name = key_name(key)
            message = f"Key {name} not found in checkpoint"
            near = difflib.get_close_matches(name, self.keys(), n=3)
            if near:
                message += ". Did you mean " + " or ".join(repr(n) for n in near) + "?"
            raise errors.NotFoundError(None, None, message)
        try:
            entry = BundleEntry.decode(self._values[key])
        except ProtoError:
            raise errors.DataLossError(None, None, f"Entry for key {key_name(key)} not parseable.") from None
        dims = entry.shape
        if (entry.unknown_rank or len(dims) > MAX_DIMS or any(d < 0 for d in dims)
                or math.prod(dims) > _MAX_ELEMENTS):
            raise errors.DataLossError(
                None, None, f"Invalid tensor shape: {key_name(key)} {entry.shape_debug_string()}")
        self._entries[key] = entry
        return entry

    def dtypes(self):
        """``{name: DType}`` for every tensor; TF's DataType number is ``as_datatype_enum``."""
        return {name: datatypes.as_dtype(self.entry(name).dtype) for name in self.keys()}

    def shapes(self):
        """``{name: shape tuple}`` for every tensor; partitioned variables have their full shape."""
        return {name: self.entry(name).shape for name in self.keys()}

    # -- tensors --------------------------------------------------------------------------------

    def get_tensor(self, name, out=None, verified=False):
        """The value of ``name`` as a numpy array with its stored shape (0-d for scalars).

        Parameters
        ----------
        name : str or bytes
            The tensor's key.
        out : numpy.ndarray, optional
            A writeable C-contiguous array of the stored dtype and shape; the bytes are read straight
            into it and it is returned. DT_STRING reads into an object array.
        verified : bool
            :meth:`verify` checked this tensor's bytes with this reader: they are not checked again
            (the reader's data files stay open, and checkpoint files are replaced, never rewritten).

        Returns
        -------
        numpy.ndarray
            Native byte order. DT_STRING gives an object array of ``bytes``; DT_BFLOAT16 gives
            ``ml_dtypes.bfloat16`` when that package is installed, else the raw bits as uint16.

        Raises
        ------
        NotFoundError
            Unknown key, or a missing data file (``P.data-00000-of-00001; No such file or directory``).
        DataLossError
            Checksum mismatch, bad size or shard in the entry, corrupt string lengths.
        OutOfRangeError
            ``Read less bytes than requested``: the data file is shorter than the entry says.
        InvalidArgumentError
            ``out`` has another dtype or shape.
        UnimplementedError
            Partitioned variables and types numpy cannot hold (resource, variant, quantized).
        """
        entry = self.entry(name)
        name = key_name(name_key(name))
        if entry.slices:
            return self._get_sliced(name, entry, out)
        if not datatypes.is_supported(entry.dtype):
            raise errors.UnimplementedError(
                None, None, f"Data type not supported: tensor {name} has dtype "
                f"{datatypes.tf_name(entry.dtype)}, which numflow cannot read")
        count = math.prod(entry.shape)
        if entry.dtype == datatypes.DT_STRING:
            return self._get_strings(name, entry, count, out)
        dtype = datatypes.numpy_dtype(entry.dtype)
        expected = count * dtype.itemsize
        if entry.size != expected:
            raise errors.DataLossError(
                None, None, f"Invalid size in bundle entry: key {name}; stored size {entry.size}; "
                f"expected size {expected}")
        self._check_out(name, entry, dtype, out)
        source = self._open_range(name, entry)
        result = np.empty(entry.shape, dtype) if out is None else out
        flat = result.reshape(-1).view(np.uint8)
        if verified and key_name(name_key(name)) in self._verified:
            _in_parallel(expected, lambda start, n: _read_span(source, entry.offset + start, flat[start:start + n],
                                                               crc=False))
        else:
            actual = _read_with_crc(source, entry.offset, flat) if expected else 0
            self._check_crc(name, entry, actual, source.path)
        if self._swap and dtype.itemsize > 1:
            part = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
            flat.view(f"u{part}").byteswap(inplace=True)
        if dtype.kind == "b":
            np.minimum(flat, 1, out=flat)
        return result

    def _get_sliced(self, name, entry, out):
        """A partitioned variable's full value, put together from its slices' entries."""
        full_shape = tuple(entry.shape)
        if not slices.covers(entry.slices, full_shape):
            raise errors.DataLossError(
                None, None, f"The slices of {name} in {self.prefix} do not cover its shape {list(full_shape)}")
        if entry.dtype == datatypes.DT_STRING or not datatypes.is_supported(entry.dtype):
            dtype = object
        else:
            dtype = datatypes.numpy_dtype(entry.dtype)
            self._check_out(name, entry, dtype, out)

        def read_slice(extents):
            key = slices.slice_key(name_key(name), extents)
            if key not in self._values:
                raise errors.DataLossError(None, None, f"Slice {list(extents)} of {name} is listed in "
                                           f"{self.index_path} but has no entry")
            part = self.get_tensor(key)
            if part.shape != slices.shape_of(extents, full_shape) or part.dtype != dtype:
                raise errors.DataLossError(None, None, f"Slice {list(extents)} of {name} in {self.prefix} has "
                                           f"shape {list(part.shape)}, not the shape of its extents")
            return part

        return slices.assemble(name, full_shape, dtype, entry.slices, read_slice, out)

    def _check_out(self, name, entry, dtype, out):
        shape = entry.shape
        if out is None:
            return
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
        if out.dtype != dtype:
            try:
                wanted = datatypes.tf_name(datatypes.enum_for(out.dtype))
            except TypeError:
                wanted = str(out.dtype)
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; expected dtype {wanted} does not equal original "
                f"dtype {datatypes.tf_name(entry.dtype)}")
        if out.shape != shape:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; shape of the out array {dims_text(out.shape)} does "
                f"not match the shape stored in checkpoint: {dims_text(shape)}")
        if not (out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"out for tensor {name} must be a writeable C-contiguous array")

    def verify(self, name):
        """Read the bytes of tensor ``name`` and check their crc32c, keeping none of them.

        Takes no more memory than a small buffer per reading thread: a restore checks every tensor
        this way before it changes any variable. The checks of :meth:`get_tensor` (entry, size,
        range in the file) come first, with its errors.
        """
        entry = self.entry(name)
        name = key_name(name_key(name))
        if entry.dtype == datatypes.DT_STRING or entry.slices or not datatypes.is_supported(entry.dtype):
            self.get_tensor(name)  # small or refused: read the usual way, with the usual errors
            return
        expected = math.prod(entry.shape) * datatypes.numpy_dtype(entry.dtype).itemsize
        if entry.size != expected:
            raise errors.DataLossError(
                None, None, f"Invalid size in bundle entry: key {name}; stored size {entry.size}; "
                f"expected size {expected}")
        source = self._open_range(name, entry)
        actual = _in_parallel(expected, lambda start, n: source.checksum(entry.offset + start, n))
        self._check_crc(name, entry, actual, source.path)
        self._verified.add(name)

    def _open_range(self, name, entry):
        """The open data file of ``entry`` after checking that its bytes lie inside it."""
        if not 0 <= entry.shard_id < self.num_shards:
            raise errors.DataLossError(
                None, None, f"Invalid shard_id in bundle entry: key {name}; shard_id {entry.shard_id}; "
                f"the bundle has {self.num_shards} shards")
        if entry.offset < 0 or entry.size < 0:
            raise errors.DataLossError(
                None, None, f"Invalid offset or size in bundle entry: key {name}; offset {entry.offset}; "
                f"size {entry.size}")
        with self._lock:
            if entry.shard_id not in self._shards:
                path = data_filename(self.prefix, entry.shard_id, self.num_shards)
                self._shards[entry.shard_id] = _RemoteSource(path) if is_url(path) else _LocalSource(path)
            source = self._shards[entry.shard_id]
        if entry.offset + entry.size > source.size:
            raise errors.OutOfRangeError(
                None, None, f"Read less bytes than requested (tensor {name} needs bytes "
                f"[{entry.offset}, {entry.offset + entry.size}) of {source.path}, which has {source.size})")
        return source

    def _check_crc(self, name, entry, actual, path):
        stored = table.unmask_crc(entry.crc32c)
        if stored != actual:
            raise errors.DataLossError(
                None, None, f"TensorBundle at {self.prefix} shard {entry.shard_id} ({entry.size} bytes): "
                f"Checksum does not match: stored {stored} vs. calculated on the restored bytes {actual} "
                f"(tensor {name} in {path})")

    def _get_strings(self, name, entry, count, out):
        if entry.size < count:
            raise errors.DataLossError(
                None, None, f"Invalid size in bundle entry: key {name}; stored size {entry.size}; "
                f"expected size is at least {count}")
        self._check_out(name, entry, np.dtype(object), out)
        source = self._open_range(name, entry)
        result = np.empty(entry.shape, object) if out is None else out
        buf = np.empty(entry.size, np.uint8)
        if entry.size:
            source.read_into(memoryview(buf), entry.offset)
        elements, actual = _decode_strings(memoryview(buf).toreadonly(), count, self._swap, name,
                                           entry.offset)
        self._check_crc(name, entry, actual, source.path)
        flat = result.reshape(-1)
        for i, element in enumerate(elements):
            flat[i] = element
        return result


def _decode_strings(buf, count, swap, name, offset):
    """Elements and crc of a DT_STRING payload (spec section 4); checks the length checksum."""
    size = len(buf)
    if size == 0:
        return [b""] * count, 0
    lengths, pos = [], 0
    try:
        for _ in range(count):
            length, pos = table.decode_varint(buf, pos, size)
            lengths.append(length)
    except ValueError:
        raise errors.DataLossError(
            None, None, f"String lengths longer than expected offset {offset + size} (tensor {name})"
        ) from None
    order = ">" if swap == np.little_endian else "<"
    if all(n < 1 << 32 for n in lengths):
        length_bytes = np.asarray(lengths, dtype=order + "u4").tobytes()
    else:
        length_bytes = b"".join(
            np.asarray(n, dtype=order + ("u4" if n < 1 << 32 else "u8")).tobytes() for n in lengths)
    actual = table.crc32c(length_bytes)
    if pos + 4 > size:
        raise errors.DataLossError(
            None, None, f"String lengths longer than expected offset {offset + size} (tensor {name})")
    raw = bytes(buf[pos:pos + 4])
    stored = table.unmask_crc(int.from_bytes(raw, "little" if order == "<" else "big"))
    if stored != actual:
        raise errors.DataLossError(
            None, None, f"The length checksum does not match: expected {stored:08d} but actual is "
            f"{actual:08d} (tensor {name})")
    actual = table.crc32c(raw, actual)
    pos += 4
    if pos + sum(lengths) > size:
        raise errors.DataLossError(
            None, None, f"Invalid size in bundle entry: key {name}; stored size {size}; the string "
            f"lengths need {pos + sum(lengths)}")
    elements = []
    for length in lengths:
        elements.append(bytes(buf[pos:pos + length]))
        pos += length
    return elements, table.crc32c(buf[pos - sum(lengths):pos], actual)
