"""TensorFlow's V2 tensor bundle: BundleWriter and BundleReader for P.index and P.data-SSSSS-of-NNNNN.

A bundle maps names to numpy arrays. ``P.index`` is an SSTable (``table.py``) whose empty key holds a
``BundleHeaderProto`` and whose other keys hold one ``BundleEntryProto`` each (``protos.py``):
dtype, shape, shard, offset, size and masked crc32c of the tensor's bytes in its data file. Data
files are plain concatenations of payloads (spec section 4).

Writing streams each tensor to a temporary data file as it is added, straight from the array's own
buffer, in pieces that are checksummed right after being written (still in the CPU cache); the disk
is asked to start writing every 8 MiB as soon as they are written, so that it works while the next
pieces are copied rather than all at the end. Finishing syncs every file to the disk, then renames
the data files and the index into place, the index last: an earlier checkpoint with the same prefix
stays readable until that last rename, and is put back if a rename fails. A prefix that is a URL
(``s3://bucket/run/model``) has no renames: each data file is uploaded under its own name, and only
once all of them are complete is the index written, so a reader never finds an index without its
data. Reading (``bundle_reader.py``) checks every size against the file before allocating, reads
straight into the destination array and verifies the crc of every tensor.
"""

import os
import queue
import struct
import threading

import numpy as np

from numflow.checkpoint import datatypes, table
from numflow.checkpoint.bundle_reader import (
    BUNDLE_VERSION,
    BundleReader,
    CheckpointVersionError,
    key_name,
    name_key,
    read_pool,
)
from numflow.checkpoint.files import (
    commit,
    create_exclusive,
    data_filename,
    index_filename,
    is_url,
    os_error,
    resolve,
    start_writeback,
    sync,
    sync_directory,
    temp_path,
    unlink_quietly,
    write_all,
)
from numflow.checkpoint.protos import BIG_ENDIAN, LITTLE_ENDIAN, BundleEntry, BundleHeader
from numflow.checkpoint.slices import shape_of, slice_key
from numflow.framework import errors
from numflow.io.filesystem import remote_error

__all__ = ["BundleWriter", "write_bundle", "BundleReader", "CheckpointVersionError", "encode_strings",
           "data_filename", "index_filename"]

_STEP = 256 << 10  # large payloads are written and checksummed in pieces that stay in the CPU cache
_SMALL = 1 << 20  # payloads below this are gathered and written in one call
_PARALLEL_MIN = 16 << 20  # payloads from this size on are checksummed by helper threads as they are written
_PIECE = 8 << 20
_WRITEBACK_STEP = 8 << 20  # the disk is asked to start writing each time this many more bytes are written


def _as_array(value):
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (bytes, str, bytearray)):
        arr = np.empty((), dtype=object)
        arr[()] = value
        return arr
    arr = np.asarray(value)
    if arr.dtype.kind in "SU":
        arr = np.array(value, dtype=object)
    return arr


def _native(dt):
    return dt if dt.byteorder in "=|" else dt.newbyteorder("=")


def _to_bfloat16_bits(arr):
    bits = np.ascontiguousarray(arr, dtype=np.float32).view(np.uint32)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(arr), np.uint16(0x7FC0), rounded)


def _string_elements(arr, name):
    out = []
    for element in arr.flat:
        if isinstance(element, bytes):
            out.append(element)
        elif isinstance(element, str):
            out.append(element.encode("utf-8"))
        elif isinstance(element, (bytearray, memoryview)):
            out.append(bytes(element))
        else:
            raise TypeError(f"Tensor {name}: a string tensor holds bytes or str, not "
                            f"{type(element).__name__}")
    return out


def encode_strings(elements, big_endian=False):
    """The payload and unmasked crc of a DT_STRING tensor (spec section 4).

    Returns
    -------
    (bytes, int)
        varint lengths ++ masked length checksum ++ element bytes, and the entry's crc.
    """
    lengths = [len(e) for e in elements]
    order = ">" if big_endian else "<"
    if all(n < 1 << 32 for n in lengths):
        length_bytes = np.asarray(lengths, dtype=order + "u4").tobytes()
    else:
        length_bytes = b"".join(struct.pack(order + ("I" if n < 1 << 32 else "Q"), n) for n in lengths)
    crc = table.crc32c(length_bytes)
    stored = struct.pack(order + "I", table.mask_crc(crc))
    data = b"".join(elements)
    crc = table.crc32c(data, table.crc32c(stored, crc))
    return b"".join(table.encode_varint(n) for n in lengths) + stored + data, crc


class _Writeback:
    """A thread asking the disk to start writing the ranges of ``fd`` handed to it, the ranges queued
    meanwhile merged into one request. The writer never waits for it: under other processes' syncs
    the request can wait for the filesystem's journal, and the copying goes on meanwhile."""

    def __init__(self, fd):
        self.fd = fd
        self.ranges = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="numflow-writeback", daemon=True)
        self.thread.start()

    def _run(self):
        while (item := self.ranges.get()) is not None:
            start, end = item
            while True:
                try:
                    item = self.ranges.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self.ranges.put(None)
                    break
                end = item[1]
            start_writeback(self.fd, start, end - start)

    def add(self, start, end):
        self.ranges.put((start, end))

    def stop(self):
        """Wait until the requests made are done (the file descriptor may be closed then)."""
        self.ranges.put(None)
        self.thread.join()


class _Shard:
    """One data file being written: under a temporary name on the local disk."""

    def __init__(self, final):
        self.final = final
        self.temp = temp_path(final)
        self.fd = create_exclusive(self.temp)
        self.pos = 0
        self.buffer = bytearray()
        self.written = self.handed_to_disk = 0
        self.writeback = None

    def write(self, data):
        write_all(self.fd, data, self.temp)
        self.written += memoryview(data).nbytes
        if self.written - self.handed_to_disk >= _WRITEBACK_STEP:
            if self.writeback is None:
                try:
                    self.writeback = _Writeback(self.fd)
                except RuntimeError:  # the interpreter is shutting down: no new threads, the final sync does it
                    return
            self.writeback.add(self.handed_to_disk, self.written)
            self.handed_to_disk = self.written

    def write_checksummed(self, flat):
        """Append the uint8 array ``flat`` and return its crc32c, computed by helper threads on the pieces
        already written while the next ones are (the file is written by this thread alone, in order)."""
        try:
            pool = read_pool()
        except RuntimeError:  # the interpreter is shutting down: no new threads
            return _Shard.write_checksummed_inline(self, flat)
        pieces = [flat[start:start + _PIECE] for start in range(0, flat.size, _PIECE)]
        futures = []
        try:
            for piece in pieces:
                self.write(piece)
                futures.append(pool.submit(table.crc32c, piece))
            crc = 0
            for piece, future in zip(pieces, futures, strict=True):
                crc = table.crc32c_combine(crc, future.result(), piece.size)
            return crc
        finally:
            for future in futures:
                future.cancel()

    def write_checksummed_inline(self, flat):
        """Append ``flat`` in pieces, each checksummed right after its write while still in the CPU cache."""
        crc = 0
        for start in range(0, flat.size, _STEP):
            piece = flat[start:start + _STEP]
            self.write(piece)
            crc = table.crc32c(piece, crc)
        return crc

    def flush(self):
        if self.buffer:
            self.write(self.buffer)
            self.buffer = bytearray()

    def finish(self):
        """Flush, sync to the disk and close; the caller renames it into place."""
        self.flush()
        sync(self.fd, self.temp)
        self.close()

    def close(self):
        if self.writeback is not None:
            writeback, self.writeback = self.writeback, None
            writeback.stop()
        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                os.close(fd)
            except OSError as exc:
                raise os_error(exc, self.temp) from exc

    def abort(self):
        try:
            self.close()
        except errors.OpError:
            pass
        unlink_quietly(self.temp)


class _RemoteShard(_Shard):
    """One data file being uploaded under its own name (an object store shows it once it is complete)."""

    def __init__(self, final, fs):
        self.final = self.temp = final
        self.fs = fs
        self.file = fs.open(final, "wb")
        self.pos = 0
        self.buffer = bytearray()

    def write(self, data):
        try:
            self.file.write(data)
        except Exception as exc:  # noqa: BLE001 - each filesystem library has its own exceptions
            raise remote_error(exc, self.final) from exc

    def write_checksummed(self, flat):
        return self.write_checksummed_inline(flat)

    def finish(self):
        self.flush()
        file, self.file = self.file, None
        try:
            file.close()
        except Exception as exc:  # noqa: BLE001
            raise remote_error(exc, self.final) from exc

    def abort(self):
        file, self.file = self.file, None
        if file is not None and hasattr(file, "discard"):
            try:
                file.discard()  # an upload in parts is abandoned, never completed
            except Exception:  # noqa: BLE001 - nothing more to do about a failed abandon
                pass
        try:
            if self.fs.exists(self.final):
                self.fs.remove(self.final)
        except errors.OpError:
            pass


class BundleWriter:
    """Writes one checkpoint ``prefix``: call :meth:`add` per tensor, then :meth:`finish`.

    Tensors land in the data file in the order added; the index is sorted. Used as a context
    manager, the bundle is finished on success and abandoned (temporary files removed, any earlier
    checkpoint with this prefix untouched) on an exception.

    Parameters
    ----------
    prefix : str or path-like
        The checkpoint prefix ``P``; its directory is created if needed.
    num_shards : int
        Number of data files ``P.data-SSSSS-of-NNNNN``; :meth:`add` picks one per tensor.
    big_endian : bool
        Write fixed-width payloads big-endian and say so in the header (TF on x86 never does).
    helper_threads : bool
        Checksum large tensors on two helper threads while they are written (False: all on the
        calling thread, leaving the other cores to work going on meanwhile, such as training).

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> prefix = os.path.join(tempfile.mkdtemp(), "model")
    >>> with BundleWriter(prefix) as writer:
    ...     writer.add("v", np.float32(1.0))
    >>> BundleReader(prefix).get_tensor("v")
    array(1., dtype=float32)
    """

    def __init__(self, prefix, num_shards=1, big_endian=False, helper_threads=True):
        self.prefix = os.fspath(prefix)
        self._helper_threads = helper_threads
        if num_shards < 1:
            raise ValueError(f"num_shards must be at least 1, got {num_shards}")
        self.num_shards = num_shards
        self._big = big_endian
        self._entries = {}
        self._shards = {}
        self._index_temp = None
        self._closed = False
        self._remote = resolve(self.prefix) if is_url(self.prefix) else None
        directory = os.path.dirname(self.prefix)
        if self._remote is not None:
            _make_remote_directory(self._remote, directory)
        elif directory:
            try:
                os.makedirs(directory, exist_ok=True)
            except OSError as exc:
                raise os_error(exc, directory) from exc

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.finish()
        else:
            self.abort()

    def _shard(self, shard_id):
        if shard_id not in self._shards:
            final = data_filename(self.prefix, shard_id, self.num_shards)
            self._shards[shard_id] = _Shard(final) if self._remote is None else _RemoteShard(final, self._remote)
        return self._shards[shard_id]

    def add(self, name, value, shard_id=0, dtype=None):
        """Write one tensor's bytes now and remember its index entry.

        The array may be changed again once this returns: its bytes are in the file.

        Parameters
        ----------
        name : str or bytes
            The key; any non-empty name not added before.
        value : array-like
            A numpy array (any shape, 0-d scalars keep shape []), a Python scalar, ``bytes``/``str``
            or an array of them for DT_STRING.
        shard_id : int
            Which data file.
        dtype : int, str, DType or numpy dtype, optional
            Store as this type (``"bfloat16"`` takes float arrays, rounded, or raw uint16 bits).
        """
        if self._closed:
            raise ValueError(f"BundleWriter for {self.prefix} is already finished")
        key = name_key(name)
        if not key:
            raise errors.InvalidArgumentError(None, None, "The empty key is reserved for the bundle header")
        if key in self._entries:
            raise errors.InvalidArgumentError(None, None, f"Adding duplicate key: {key_name(key)}")
        if not 0 <= shard_id < self.num_shards:
            raise ValueError(f"shard_id {shard_id} is outside [0, {self.num_shards})")
        arr = _as_array(value)
        enum = datatypes.enum_for(arr.dtype, dtype)
        shard = self._shard(shard_id)
        entry = BundleEntry(dtype=enum, shape=tuple(int(d) for d in arr.shape), shard_id=shard_id,
                            offset=shard.pos)
        if enum == datatypes.DT_STRING:
            payload, crc = encode_strings(_string_elements(arr, key_name(key)), self._big)
            self._append(shard, np.frombuffer(payload, dtype=np.uint8))
            entry.size = len(payload)
        else:
            entry.size, crc = self._append_array(shard, arr, enum)
        entry.crc32c = table.mask_crc(crc)
        self._entries[key] = entry

    def add_slice(self, name, full_shape, extents, value, shard_id=0):
        """Write one part of partitioned tensor ``name`` (see :mod:`numflow.checkpoint.slices`).

        The part's bytes go under its slice key; ``name``'s own entry, written with the index,
        holds the full shape and every part's extents.

        Raises
        ------
        InvalidArgumentError
            A part of another dtype or full shape than the parts before it, or the name of a whole tensor.
        """
        key = name_key(name)
        arr = _as_array(value)
        if shape_of(extents, full_shape) != tuple(arr.shape):
            raise errors.InvalidArgumentError(
                None, None, f"Slice {extents} of {key_name(key)} has shape {list(shape_of(extents, full_shape))}, "
                f"but its value has shape {list(arr.shape)}")
        self.add(slice_key(key, extents), arr, shard_id)
        enum = self._entries[slice_key(key, extents)].dtype
        whole = self._entries.get(key)
        if whole is None:
            whole = self._entries[key] = BundleEntry(dtype=enum, shape=tuple(full_shape))
        elif not whole.slices or whole.dtype != enum or whole.shape != tuple(full_shape):
            raise errors.InvalidArgumentError(
                None, None, f"Adding a slice of {key_name(key)} (dtype {datatypes.tf_name(enum)}, full shape "
                f"{list(full_shape)}) that does not match the tensor of that name already added")
        whole.slices += (tuple(extents),)

    def _append_array(self, shard, arr, enum):
        target = datatypes.numpy_dtype(enum)
        if enum == datatypes.DT_BFLOAT16 and arr.dtype.kind == "f" and arr.dtype != target:
            arr = _to_bfloat16_bits(arr)
        if _native(arr.dtype) != target:
            if arr.dtype.kind == "u" and arr.dtype.itemsize == target.itemsize == 2:
                arr = arr.astype(np.uint16, copy=False).view(target)  # raw bfloat16 bits
            else:
                arr = arr.astype(target)
        elif arr.dtype.byteorder not in "=|":
            arr = arr.astype(target)
        if not arr.flags.c_contiguous:
            arr = arr.copy(order="C")
        flat = arr.reshape(-1).view(np.uint8)
        if self._big and target.itemsize > 1:
            part = target.itemsize // 2 if target.kind == "c" else target.itemsize
            flat = flat.view(f"u{part}").byteswap().view(np.uint8)
        if flat.size == 0:
            return 0, 0
        return flat.size, self._append(shard, flat)

    def _append(self, shard, flat):
        """Append ``flat`` (a uint8 array) to ``shard`` and return its crc32c."""
        if flat.size < _SMALL:
            shard.buffer += memoryview(flat)
            if len(shard.buffer) >= _SMALL:
                shard.flush()
            crc = table.crc32c(flat)
        else:
            shard.flush()
            crc = (shard.write_checksummed(flat) if flat.size >= _PARALLEL_MIN and self._helper_threads
                   else shard.write_checksummed_inline(flat))
        shard.pos += flat.size
        return crc

    def finish(self):
        """Write the index, sync every file and put them in place, the index last."""
        if self._closed:
            raise ValueError(f"BundleWriter for {self.prefix} is already finished")
        try:
            for shard_id in range(self.num_shards):
                self._shard(shard_id).finish()
            self._write_index({key: entry.encode() for key, entry in self._entries.items()})
        except BaseException:
            self.abort()
            raise
        self._closed = True

    def finish_shard(self):
        """Put the data files written so far in place, without an index, and return their index entries.

        One task's part of a checkpoint that several tasks write, each its own ``shard_id`` of
        ``num_shards``: the task that writes the index merges every part's entries
        (:func:`write_index`), as TensorFlow's MergeV2Checkpoints does.

        Returns
        -------
        dict
            Key (bytes) -> the encoded BundleEntryProto.
        """
        if self._closed:
            raise ValueError(f"BundleWriter for {self.prefix} is already finished")
        try:
            for shard in self._shards.values():
                shard.finish()
            if self._remote is None and self._shards:
                commit([(s.temp, s.final) for _, s in sorted(self._shards.items())])
                sync_directory(os.path.dirname(self.prefix))
        except BaseException:
            self.abort()
            raise
        self._closed = True
        return {key: entry.encode() for key, entry in self._entries.items()}

    def _write_index(self, entries):
        header = BundleHeader(num_shards=self.num_shards, endianness=BIG_ENDIAN if self._big else LITTLE_ENDIAN,
                              producer=BUNDLE_VERSION)
        items = [(b"", header.encode())] + [(key, entries[key]) for key in sorted(entries)]
        index = table.build_table(items)
        index_final = index_filename(self.prefix)
        if self._remote is not None:
            self._remote.pipe(index_final, index)  # the data files are complete: now the index
        else:
            self._write_local_index(index, index_final)

    def _write_local_index(self, index, index_final):
        index_temp = self._index_temp = temp_path(index_final)
        fd = create_exclusive(index_temp)
        try:
            write_all(fd, index, index_temp)
            sync(fd, index_temp)
        finally:
            os.close(fd)
        commit([(s.temp, s.final) for _, s in sorted(self._shards.items())] + [(index_temp, index_final)])
        sync_directory(os.path.dirname(self.prefix))

    def abort(self):
        """Abandon the bundle: close and delete its temporary files; earlier files stay as they were."""
        self._closed = True
        for shard in self._shards.values():
            shard.abort()
        if self._index_temp:
            unlink_quietly(self._index_temp)


def _make_remote_directory(fs, directory):
    """Make the prefix's directory where its parent exists (an object store's bucket is never made)."""
    rest = directory.partition("://")[2]
    if "/" in rest.strip("/") and fs.isdir(directory.rsplit("/", 1)[0]):
        fs.makedirs(directory)


def write_index(prefix, num_shards, entries):
    """Write checkpoint ``prefix``'s index over data files already in place (see
    :meth:`BundleWriter.finish_shard`): ``entries`` maps each key (bytes) to its encoded entry."""
    writer = BundleWriter(prefix, num_shards=num_shards)
    try:
        writer._write_index(entries)
    except BaseException:
        writer.abort()
        raise
    writer._closed = True
    return prefix


def write_bundle(prefix, tensors, num_shards=1):
    """Write ``tensors`` as checkpoint ``prefix`` the way TF's Saver does: payloads in key order.

    Parameters
    ----------
    prefix : str or path-like
        The checkpoint prefix.
    tensors : mapping or iterable of (name, value)
        Values as :meth:`BundleWriter.add` takes them.
    num_shards : int
        Tensors are spread round-robin over this many data files.

    Returns
    -------
    str
        The prefix.
    """
    items = tensors.items() if hasattr(tensors, "items") else tensors
    items = sorted(items, key=lambda item: name_key(item[0]))
    with BundleWriter(prefix, num_shards=num_shards) as writer:
        for i, (name, value) in enumerate(items):
            writer.add(name, value, shard_id=i % num_shards)
    return writer.prefix

