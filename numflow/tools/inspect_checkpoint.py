"""inspect_checkpoint: print a checkpoint's tensor names, dtypes, shapes and values as TensorFlow's tool does.

As a module, ``print_tensors_in_checkpoint_file`` prints to stdout what
``tensorflow.python.tools.inspect_checkpoint`` prints for the same checkpoint; as a command line::

    python -m numflow.tools.inspect_checkpoint --file_name=PREFIX [--tensor_name=NAME] [--all_tensors]
        [--all_tensor_names] [--count_exclude_pattern=REGEX] [--printoptions k=v ...]

Like TF's ``CheckpointReader`` it reads a V2 checkpoint when ``PREFIX.index`` exists, and otherwise
treats ``file_name`` as TF's old V1 table reader would: no match is ``Unsuccessful
TensorSliceReader constructor``, a file that is not a table is ``Unable to open table file``, and a
V2 ``.index`` given by mistake lists nothing. Partitioned variables are listed and printed whole,
assembled from their slices. Errors are printed, never raised; numflow's reader may add a
parenthesized detail (the tensor and file) to TF's text.
"""

import argparse
import glob
import os
import re
import sys

import numpy as np

from numflow.checkpoint import datatypes, table
from numflow.checkpoint.files import index_filename, is_url, os_error, resolve
from numflow.checkpoint.protos import BundleEntry, is_v1_header
from numflow.checkpoint.reader import CheckpointReader
from numflow.framework import errors

__all__ = ["print_tensors_in_checkpoint_file", "parse_numpy_printoption", "main"]

_CODE_NAMES = {
    errors.CANCELLED: "CANCELLED", errors.UNKNOWN: "UNKNOWN", errors.INVALID_ARGUMENT: "INVALID_ARGUMENT",
    errors.DEADLINE_EXCEEDED: "DEADLINE_EXCEEDED", errors.NOT_FOUND: "NOT_FOUND",
    errors.ALREADY_EXISTS: "ALREADY_EXISTS", errors.PERMISSION_DENIED: "PERMISSION_DENIED",
    errors.RESOURCE_EXHAUSTED: "RESOURCE_EXHAUSTED", errors.FAILED_PRECONDITION: "FAILED_PRECONDITION",
    errors.ABORTED: "ABORTED", errors.OUT_OF_RANGE: "OUT_OF_RANGE", errors.UNIMPLEMENTED: "UNIMPLEMENTED",
    errors.INTERNAL: "INTERNAL", errors.UNAVAILABLE: "UNAVAILABLE", errors.DATA_LOSS: "DATA_LOSS",
    errors.UNAUTHENTICATED: "UNAUTHENTICATED",
}
_USAGE = ("Usage: inspect_checkpoint --file_name=checkpoint_file_name [--tensor_name=tensor_to_print] "
          "[--all_tensors] [--all_tensor_names] [--count_exclude_pattern] [--printoptions]")
_V2_FILE_HINT = """
It's likely that this is a V2 checkpoint and you need to provide the filename
*prefix*.  Try removing the '.' and extension.  Try:
inspect checkpoint --file_name = {}"""


# ---------------------------------------------------------------------------------------------------
# readers


class _Bfloat16Text:
    """A bfloat16 value printed as ml_dtypes prints it (C++ ``<<`` of the float: 6 significant digits)."""

    __slots__ = ("value",)

    def __init__(self, bits):
        self.value = float(np.array(int(bits) << 16, np.uint32).view(np.float32))

    def __repr__(self):
        return "nan" if self.value != self.value else f"{self.value:g}"

    __str__ = __repr__


def _printable(value, dtype_enum):
    """``value`` as TF's reader returns it; bfloat16 raw bits (no ml_dtypes) print as numbers too."""
    if dtype_enum == datatypes.DT_BFLOAT16 and np.asarray(value).dtype == np.uint16:
        bits = np.asarray(value)
        out = np.empty(bits.shape, dtype=object)
        for index, element in np.ndenumerate(bits):
            out[index] = _Bfloat16Text(element)
        return out[()] if out.ndim == 0 else out
    return value


def _signed_ordered_code(value):
    """TF's ``OrderedCode::WriteSignedNumIncreasing``: an order-preserving signed integer."""
    magnitude = ~value if value < 0 else value
    if magnitude < 64:
        return bytes([(0x80 ^ value) & 0xFF])
    length = magnitude.bit_length() // 7 + 1
    raw = bytearray(value.to_bytes(10, "big", signed=True)[10 - length:])
    header = [(0, 0), (0x80, 0), (0xC0, 0), (0xE0, 0), (0xF0, 0), (0xF8, 0), (0xFC, 0), (0xFE, 0),
              (0xFF, 0), (0xFF, 0x80), (0xFF, 0xC0)][length]
    raw[0] ^= header[0]
    raw[1] ^= header[1]
    return bytes(raw)


def slice_key(name, extents):
    """The index key of one slice of partitioned variable ``name`` (TF's ``EncodeTensorNameSlice``).

    ``extents`` holds (start, length) per dimension, length None for the whole dimension.

    >>> slice_key("pv", [(0, 4), (0, 3)]).hex(" ")
    '00 70 76 00 01 01 02 80 84 80 83'
    """
    escaped = re.sub(rb"[\x00\xff]", lambda m: b"\x00\xff" if m.group() == b"\x00" else b"\xff\x00",
                     name.encode("utf-8", "surrogateescape"))
    rank = len(extents)
    rank_bytes = rank.to_bytes((rank.bit_length() + 7) // 8, "big")
    key = b"\x00" + escaped + b"\x00\x01" + bytes([len(rank_bytes)]) + rank_bytes
    for start, length in extents:
        key += _signed_ordered_code(start) + _signed_ordered_code(-1 if length is None else length)
    return key


class _BundleCheckpoint:
    """What TF's ``CheckpointReader`` offers the tool, over numflow's reader of a V2 checkpoint."""

    def __init__(self, prefix):
        self._reader = CheckpointReader(prefix)
        self._bundle = self._reader.bundle

    def get_variable_to_shape_map(self):
        return self._reader.get_variable_to_shape_map()

    def get_variable_to_dtype_map(self):
        return self._reader.get_variable_to_dtype_map()

    def has_tensor(self, name):
        return self._reader.has_tensor(name)

    def get_tensor(self, name):
        entry = self._bundle.entry(name)
        if entry.slices:
            value = self._assemble(name, entry)
        else:
            value = self._reader.get_tensor(name)
        return _printable(value, entry.dtype)

    def _assemble(self, name, entry):
        """A partitioned variable's full value, from its slices' entries."""
        value = None
        for extents in entry.slices:
            part = self._bundle.get_tensor(slice_key(name, extents))
            if value is None:
                value = np.zeros(entry.shape, dtype=part.dtype)
            index = tuple(slice(None) if length is None else slice(start, start + length)
                          for start, length in extents)
            value[index] = part
        if value is None:
            value = np.zeros(entry.shape, dtype=datatypes.numpy_dtype(entry.dtype))
        return value[()] if value.ndim == 0 else value

    def debug_string(self):
        """TF's ``BundleReader::DebugString``: every entry but partitioned variables' own, slices included."""
        items = table.read_table(resolve(self._bundle.prefix).cat(index_filename(self._bundle.prefix)))
        lines = []
        for key, value in items[1:]:
            entry = BundleEntry.decode(value)
            if entry.slices:
                continue
            dims = "<unknown>" if entry.unknown_rank else "[" + ",".join(str(d) for d in entry.shape) + "]"
            lines.append(key + f" ({datatypes.proto_name(entry.dtype)}) {dims}\n".encode())
        return b"".join(lines)


class _EmptyCheckpoint:
    """A table TF's V1 reader opens but finds no tensors in (a V2 ``.index`` file given by mistake)."""

    def get_variable_to_shape_map(self):
        return {}

    def get_variable_to_dtype_map(self):
        return {}

    def has_tensor(self, name):
        return False

    def debug_string(self):
        return b""


def _v1_checkpoint(file_name):
    """What TF's V1 ``TensorSliceReader`` makes of ``file_name``: errors, or no tensors."""
    matches = sorted(glob.glob(file_name)) if glob.has_magic(file_name) else (
        [file_name] if os.path.lexists(file_name) else [])
    if not matches:
        raise errors.NotFoundError(
            None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for "
            f"{file_name}")
    for path in matches:
        try:
            try:
                with open(path, "rb") as f:
                    items = dict(table.read_table(f.read()))
            except OSError as exc:
                raise os_error(exc, path) from exc
        except errors.OpError as exc:
            raise errors.DataLossError(
                None, None, f"Unable to open table file {path}: {_CODE_NAMES[exc.error_code]}: {exc.message}: "
                f"perhaps your file is in a different file format and you need to use a different restore "
                f"operator?") from exc
        if b"" not in items:
            raise errors.InternalError(
                None, None, f"Failed to find the saved tensor slices at the beginning of the checkpoint file: "
                f"{path}")
        if is_v1_header(items[b""]):
            raise errors.UnimplementedError(
                None, None, f"{path} is a V1 checkpoint (SavedTensorSlices); numflow reads V2 checkpoints only")
    return _EmptyCheckpoint()


def _open_checkpoint(file_name):
    index = index_filename(file_name)
    if is_url(file_name):
        return _BundleCheckpoint(file_name)  # V1 checkpoints were never kept on other filesystems
    if os.path.lexists(index) or (glob.has_magic(index) and glob.glob(index)):
        return _BundleCheckpoint(file_name)
    return _v1_checkpoint(file_name)


# ---------------------------------------------------------------------------------------------------
# printing


def _count_total_params(reader, count_exclude_pattern=""):
    """Count total number of variables."""
    var_to_shape_map = reader.get_variable_to_shape_map()
    if count_exclude_pattern:
        regex_pattern = re.compile(count_exclude_pattern)
        new_var_to_shape_map = {}
        exclude_num_tensors = 0
        exclude_num_params = 0
        for v in var_to_shape_map:
            if regex_pattern.search(v):
                exclude_num_tensors += 1
                exclude_num_params += np.prod(var_to_shape_map[v])
            else:
                new_var_to_shape_map[v] = var_to_shape_map[v]
        var_to_shape_map = new_var_to_shape_map
        print(f"# Excluding {exclude_num_tensors} tensors ({int(exclude_num_params)} params) that match "
              f"{count_exclude_pattern} when counting.")
    var_sizes = [np.prod(var_to_shape_map[v]) for v in var_to_shape_map]
    return np.sum(var_sizes, dtype=int)


def _print_tensor(reader, key, caught=()):
    try:
        print(reader.get_tensor(key))
    except caught as exc:
        if "Data type not supported" not in str(exc):
            raise
        print("<not convertible to a numpy dtype>")


def print_tensors_in_checkpoint_file(file_name, tensor_name, all_tensors, all_tensor_names=False,
                                     count_exclude_pattern=""):
    """Print the tensors of a checkpoint, as TF's ``inspect_checkpoint`` does.

    Without ``tensor_name`` (and both flags False) it prints one ``name (DT_TYPE) [dims]`` line per
    tensor; with ``tensor_name``, that tensor's name, dtype, shape and value; with ``all_tensors``,
    every tensor's; with ``all_tensor_names``, every name, dtype and shape. It ends with the total
    number of parameters. Errors (a missing file or tensor, a corrupted checkpoint) are printed.

    Parameters
    ----------
    file_name : str
        The checkpoint prefix (``dir/model.ckpt-1000``, not one of its files).
    tensor_name : str
        The tensor to print, or ``""``.
    all_tensors : bool
        Print every tensor's value.
    all_tensor_names : bool
        Print every tensor's name, dtype and shape.
    count_exclude_pattern : str
        A regular expression: matching tensors are left out of the parameter count.

    Examples
    --------
    >>> import os, tempfile
    >>> from numflow.checkpoint.bundle import write_bundle
    >>> prefix = write_bundle(os.path.join(tempfile.mkdtemp(), "m"), {"w": np.eye(2, dtype=np.float32)})
    >>> print_tensors_in_checkpoint_file(prefix, "w", False)
    tensor: w (float32) [2, 2]
    [[1. 0.]
     [0. 1.]]
    # Total number of params: 4
    """
    try:
        reader = _open_checkpoint(file_name)
        if all_tensors or all_tensor_names:
            var_to_shape_map = reader.get_variable_to_shape_map()
            var_to_dtype_map = reader.get_variable_to_dtype_map()
            for key, value in sorted(var_to_shape_map.items()):
                print(f"tensor: {key} ({var_to_dtype_map[key].name}) {value}")
                if all_tensors:
                    _print_tensor(reader, key, errors.UnimplementedError)
        elif not tensor_name:
            print(reader.debug_string().decode("utf-8", errors="ignore"))
        else:
            if not reader.has_tensor(tensor_name):
                print(f"Tensor {tensor_name} not found in checkpoint")
                return
            var_to_shape_map = reader.get_variable_to_shape_map()
            var_to_dtype_map = reader.get_variable_to_dtype_map()
            print(f"tensor: {tensor_name} ({var_to_dtype_map[tensor_name].name}) {var_to_shape_map[tensor_name]}")
            _print_tensor(reader, tensor_name)
        total = _count_total_params(reader, count_exclude_pattern=count_exclude_pattern)
        print(f"# Total number of params: {int(total)}")
    except Exception as e:  # noqa: BLE001 - printed, as TF's tool does
        print(str(e))
        if "corrupted compressed block contents" in str(e) or "Snappy-compressed" in str(e):
            print("It's likely that your checkpoint file has been compressed with SNAPPY.")
        if "Data loss" in str(e) and any(ext in file_name for ext in [".index", ".meta", ".data"]):
            proposed_file = ".".join(file_name.split(".")[0:-1])
            print(_V2_FILE_HINT.format(proposed_file))


# ---------------------------------------------------------------------------------------------------
# command line


def _parse_bool(text):
    """absl's boolean flag parser: true/t/1/yes/y or false/f/0/no/n, any case."""
    word = text.lower()
    if word in ("true", "t", "1", "yes", "y"):
        return True
    if word in ("false", "f", "0", "no", "n"):
        return False
    raise ValueError("Non-boolean argument to boolean flag")


def parse_numpy_printoption(kv_str):
    """Set one numpy print option from ``"k=v"`` (``threshold=100000``); ``formatter`` cannot be set.

    Raises
    ------
    argparse.ArgumentTypeError
        When the text is not ``k=v``, ``k`` is no print option, or ``v`` does not convert.
    """
    k_v_str = kv_str.split("=", 1)
    if len(k_v_str) != 2 or not k_v_str[0]:
        raise argparse.ArgumentTypeError(f"'{kv_str}' is not in the form k=v.")
    k, v_str = k_v_str
    printoptions = np.get_printoptions()
    if k not in printoptions:
        raise argparse.ArgumentTypeError(f"'{k}' is not a valid printoption.")
    v_type = type(printoptions[k])
    if v_type is type(None):
        raise argparse.ArgumentTypeError(f"Setting '{k}' from the command line is not supported.")
    try:
        v = v_type(v_str) if v_type is not bool else _parse_bool(v_str)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    np.set_printoptions(**{k: v})


def _parser():
    parser = argparse.ArgumentParser(prog="inspect_checkpoint.py")
    parser.register("type", "bool", lambda v: v.lower() == "true")
    parser.add_argument("--file_name", type=str, default="",
                        help="Checkpoint filename. Note, if using Checkpoint V2 format, file_name is the "
                        "shared prefix between all files in the checkpoint.")
    parser.add_argument("--tensor_name", type=str, default="", help="Name of the tensor to inspect")
    parser.add_argument("--count_exclude_pattern", type=str, default="",
                        help="Pattern to exclude tensors, e.g., from optimizers, when counting.")
    parser.add_argument("--all_tensors", nargs="?", const=True, type="bool", default=False,
                        help="If True, print the names and values of all the tensors.")
    parser.add_argument("--all_tensor_names", nargs="?", const=True, type="bool", default=False,
                        help="If True, print the names of all the tensors.")
    parser.add_argument("--printoptions", nargs="*", type=parse_numpy_printoption,
                        help="Argument for numpy.set_printoptions(), in the form 'k=v'.")
    return parser


def main(argv=None):
    """The command line; returns the exit status (1 without ``--file_name`` or with an unknown flag)."""
    flags, unparsed = _parser().parse_known_args(argv)
    for arg in unparsed:
        if arg.startswith("-") and arg != "-":
            name = arg.lstrip("-").split("=", 1)[0]
            print(f"FATAL Flags parsing error: Unknown command line flag '{name}'\n"
                  "Pass --helpshort or --helpfull to see help on flags.", file=sys.stderr)
            return 1
    if not flags.file_name:
        print(_USAGE)
        return 1
    print_tensors_in_checkpoint_file(flags.file_name, flags.tensor_name, flags.all_tensors,
                                     flags.all_tensor_names, count_exclude_pattern=flags.count_exclude_pattern)
    return 0


if __name__ == "__main__":
    sys.exit(main())
