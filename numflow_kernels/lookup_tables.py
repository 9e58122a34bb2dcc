"""Kernels of TensorFlow's lookup tables (``lookup_table_op.cc``, ``lookup_util.cc``): the table ops
``HashTableV2``, ``MutableHashTableV2``, ``MutableHashTableOfTensorsV2`` and ``MutableDenseHashTableV2``,
and the ops that use a table (``LookupTableFindV2``, ``LookupTableImportV2``, ``InitializeTableV2``,
``InitializeTableFromTextFileV2``, ``LookupTableInsertV2``, ``LookupTableRemoveV2``,
``LookupTableSizeV2``, ``LookupTableExportV2``).

A table is a resource of the session's container, as a variable is: each session has its own, made
empty by the table op's first run. A static table (``HashTableV2``) is filled once by its initializer
and refuses lookups until then ("Table not initialized."); a mutable one starts empty and usable.
Keys are Python scalars (bytes for strings); each value is kept as an array of the table's value shape.
An export lists the keys in insertion order, so that it depends on nothing but the ops run.
"""

import re
import threading

import numpy as np

from numflow_kernels.errors import FailedPrecondition, dims_text
from numflow_kernels.reference_files import _filesystem, _local, _not_found
from numflow_kernels.reference_math import kernel

WHOLE_LINE = -2
LINE_NUMBER = -1


class Table:
    """One table of one container: its entries, whether it was initialized, and its lock."""

    def __init__(self, key_dtype, value_dtype, value_shape=(), static=False, empty_keys=()):
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype
        self.value_shape = tuple(value_shape)
        self.static = static
        self.empty_keys = empty_keys  # a dense table's empty and deleted keys, refused as keys
        self.entries = {}
        self.initialized = not static
        self.lock = threading.Lock()

    def _keys(self, keys):
        return np.asarray(keys).reshape(-1).tolist()  # Python scalars: bytes for strings

    def _check_values(self, keys, values):
        expected = (*np.shape(keys), *self.value_shape)
        if np.shape(values) != expected:
            raise ValueError(f"Expected shape {dims_text(expected)} for value, got {dims_text(np.shape(values))}")
        return np.asarray(values, dtype=self.value_dtype).reshape((-1, *self.value_shape)).tolist()

    def find(self, keys, default):
        """The values of ``keys`` (``default`` for those absent), shaped ``keys.shape + value_shape``."""
        default = np.asarray(default, dtype=self.value_dtype)
        if default.shape not in ((), self.value_shape):
            raise ValueError(f"Expected shape {dims_text(self.value_shape)} or [] for default value, got "
                             f"{dims_text(default.shape)}")
        default = np.broadcast_to(default, self.value_shape).tolist()
        flat = self._keys(keys)
        with self.lock:
            if not self.initialized:
                raise FailedPrecondition("Table not initialized.")
            get = self.entries.get
            found = [get(key, default) for key in flat]
        out = np.array(found, dtype=self.value_dtype) if found else np.empty(0, dtype=self.value_dtype)
        return out.reshape((*np.shape(keys), *self.value_shape))

    def insert(self, keys, values):
        """Add or replace the entries of ``keys``; a static table refuses a key's second, different value."""
        values = self._check_values(keys, values)
        flat = self._keys(keys)
        self._check_usable(flat)
        with self.lock:
            if not self.static:
                self.entries.update(zip(flat, values))
                return
            for key, value in zip(flat, values):
                known = self.entries.setdefault(key, value)
                if known != value:
                    raise FailedPrecondition(f"HashTable has different value for same key. Key {_text(key)} has "
                                             f"{_text(known)} and trying to add value {_text(value)}")

    def initialize(self, keys, values):
        """Fill a static table once: later initializations of an initialized table do nothing."""
        with self.lock:
            if self.initialized:
                return
        self.insert(keys, values)
        with self.lock:
            self.initialized = True

    def remove(self, keys):
        flat = self._keys(keys)
        self._check_usable(flat)
        with self.lock:
            for key in flat:
                self.entries.pop(key, None)

    def _check_usable(self, flat):
        for key in flat:
            if key in self.empty_keys:
                which = "empty_key" if key == self.empty_keys[0] else "deleted_key"
                raise ValueError(f"Using the {which} as a table key is not allowed")

    def size(self):
        with self.lock:
            return len(self.entries)

    def export(self):
        with self.lock:
            items = list(self.entries.items())
        keys = np.array([k for k, _ in items], dtype=self.key_dtype).reshape(len(items))
        values = np.array([v for _, v in items], dtype=self.value_dtype).reshape((len(items), *self.value_shape))
        return keys, values


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _table_kernel(op_type, static=False, tensors=False, dense=False):
    @kernel(op_type)
    def make(ctx, *empty_keys):
        attrs = ctx.attrs
        name = attrs.get("shared_name") or ctx.op_name
        value_shape = tuple(attrs.get("value_shape") or ()) if tensors or dense else ()
        keys = tuple(np.asarray(k).item() for k in empty_keys)
        return ctx.resources.get_or_create(
            ("table", name), lambda: Table(attrs["key_dtype"], attrs["value_dtype"], value_shape, static, keys))

    return make


_table_kernel("HashTableV2", static=True)
_table_kernel("MutableHashTableV2")
_table_kernel("MutableHashTableOfTensorsV2", tensors=True)
_table_kernel("MutableDenseHashTableV2", dense=True)


@kernel("LookupTableFindV2")
def find(ctx, table, keys, default_value):
    return table.find(keys, default_value)


@kernel("LookupTableImportV2")
@kernel("InitializeTableV2")
def import_values(ctx, table, keys, values):
    if table.static:
        table.initialize(keys, values)
    else:
        with table.lock:
            table.entries.clear()
        table.insert(keys, values)
    return ()


@kernel("LookupTableInsertV2")
def insert(ctx, table, keys, values):
    table.insert(keys, values)
    return ()


@kernel("LookupTableRemoveV2")
def remove(ctx, table, keys):
    table.remove(keys)
    return ()


@kernel("LookupTableSizeV2")
def size(ctx, table):
    return np.array(table.size(), dtype=np.int64)


@kernel("LookupTableExportV2")
def export(ctx, table):
    return table.export()


@kernel("InitializeTableFromTextFileV2")
def initialize_from_text_file(ctx, table, filename):
    attrs = ctx.attrs
    path = bytes(np.asarray(filename, dtype=object).item()).decode("utf-8", "surrogateescape")
    lines = _lines(path, attrs["vocab_size"])
    key_index, value_index = attrs["key_index"], attrs["value_index"]
    delimiter = attrs["delimiter"]
    splitter = re.compile("[" + re.escape(delimiter) + "]") if len(delimiter) > 1 else None
    keys, values = [], []
    for number, line in enumerate(lines):
        fields = None
        if max(key_index, value_index) >= 0:
            fields = splitter.split(line) if splitter else line.split(delimiter)
            if len(fields) < max(key_index, value_index) + 1:
                raise ValueError(f"Invalid number of columns in {path} line {number} ({line}) : expected at least "
                                 f"{max(key_index, value_index) + 1} got {len(fields)}")
        keys.append(_field(line, fields, number, key_index, table.key_dtype))
        value = _field(line, fields, number, value_index, table.value_dtype)
        values.append(value + attrs.get("offset", 0) if value_index == LINE_NUMBER else value)
    table.initialize(np.array(keys, dtype=table.key_dtype), np.array(values, dtype=table.value_dtype))
    return ()


def _lines(path, vocab_size):
    """The lines of ``path`` (the first ``vocab_size`` when it is not -1), without their line ends."""
    fs = _filesystem(path)
    try:
        if fs is None:
            with open(_local(path), "rb") as file:
                data = file.read()
        else:
            data = fs.cat_file(path)
    except FileNotFoundError:
        raise _not_found(path) from None
    lines = [line.rstrip(b"\r").decode("utf-8", "surrogateescape") for line in data.split(b"\n")]
    if lines and lines[-1] == "":
        lines.pop()
    if vocab_size != -1:
        if len(lines) < vocab_size:
            raise ValueError(f"Invalid vocab_size in {path}: expected {vocab_size} but got {len(lines)}")
        lines = lines[:vocab_size]
    return lines


_TYPE_NAMES = {np.dtype(np.int64): "int64", np.dtype(np.int32): "int32", np.dtype(np.float32): "float",
               np.dtype(np.float64): "double"}


def _field(line, fields, number, index, dtype):
    """The key or value of one line: its number, the whole line, or one of its fields, as ``dtype``."""
    if index == LINE_NUMBER:
        return number
    text = line if index == WHOLE_LINE else fields[index]
    if dtype.kind == "O":
        return text.encode("utf-8", "surrogateescape")
    try:
        return int(text) if dtype.kind in "iu" else float(text)
    except ValueError:
        raise ValueError(f"Field {text} in line {number} is not a valid {_TYPE_NAMES.get(dtype, dtype.name)}.") \
            from None
