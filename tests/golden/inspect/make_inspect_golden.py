"""What TensorFlow's inspect_checkpoint prints, captured for tests/tools/test_inspect_checkpoint.py.

HOW TO REGENERATE (needs TensorFlow; the tests themselves never do)::

    /opt/tfenv/bin/python tests/golden/inspect/make_inspect_golden.py [CASE ...]

For every case in ``CASES`` it builds the case's checkpoint in a fresh directory (a copy of a
TF-written checkpoint from ``tests/golden/checkpoints``, or a damaged one made here), runs TF's
``print_tensors_in_checkpoint_file`` on it and writes what was printed to ``<case>.txt`` beside this
file, with the directory replaced by ``{DIR}``. ``CLI_CASES`` run TF's command line
(``python -m tensorflow.python.tools.inspect_checkpoint``) and store its stdout, then a last line
``exit status N``. Naming cases regenerates only those. The builders need only numpy and numflow,
so the tests build the same inputs.
"""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "checkpoints")
PLACEHOLDER = "{DIR}"
DATA = ".data-00000-of-00001"

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from numflow.checkpoint import table  # noqa: E402


def _copy(directory, name, prefix="model"):
    """Copy TF-written checkpoint ``name`` into ``directory``; return its prefix there."""
    src = os.path.join(GOLDEN, name)
    for filename in os.listdir(src):
        if filename != "values.npz":
            shutil.copy(os.path.join(src, filename), os.path.join(directory, filename))
    return os.path.join(directory, prefix)


def _dtypes(directory):
    return _copy(directory, "dtypes")


def _patch(path, offset, xor=0x01):
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ xor]))


def _truncate(path, size):
    with open(path, "r+b") as f:
        f.truncate(size)


def _tensor_flipped(directory):
    """The dtypes checkpoint with one bit of ``layer1/bias``'s bytes flipped."""
    prefix = _dtypes(directory)
    from numflow.checkpoint.bundle_reader import BundleReader

    with BundleReader(prefix) as reader:
        entry = reader.entry("layer1/bias")
    _patch(prefix + DATA, entry.offset + 1)
    return prefix


def _index_block_flipped(directory):
    prefix = _dtypes(directory)
    _patch(prefix + ".index", 20)
    return prefix


def _index_short(directory):
    prefix = _dtypes(directory)
    _truncate(prefix + ".index", 20)
    return prefix


def _index_bad_magic(directory):
    prefix = _dtypes(directory)
    _patch(prefix + ".index", os.path.getsize(prefix + ".index") - 1)
    return prefix


def _data_missing(directory):
    prefix = _dtypes(directory)
    os.remove(prefix + DATA)
    return prefix


def _data_truncated(directory):
    prefix = _dtypes(directory)
    _truncate(prefix + DATA, os.path.getsize(prefix + DATA) - 3)
    return prefix


def _snappy_literal(raw):
    """``raw`` as a valid Snappy stream made only of literals (what a Snappy block may hold)."""
    out = bytearray(table.encode_varint(len(raw)))
    for start in range(0, len(raw), 65536):
        chunk = raw[start:start + 65536]
        n = len(chunk) - 1
        if n < 60:
            out.append(n << 2)
        elif n < 256:
            out += bytes([60 << 2, n])
        else:
            out += bytes([61 << 2]) + n.to_bytes(2, "little")
        out += chunk
    return bytes(out)


def _with_block_type(block, block_type):
    trailer_crc = table.mask_crc(table.crc32c(block + bytes([block_type])))
    return block + bytes([block_type]) + table.encode_fixed32(trailer_crc)


def _snappy_index(prefix, contents_of):
    """Rewrite ``prefix.index`` with its data blocks stored as Snappy blocks (type 1)."""
    path = prefix + ".index"
    with open(path, "rb") as f:
        buf = f.read()
    out = bytearray()
    index = table.BlockBuilder(1)
    for key, handle in table.read_index(buf):
        raw = table.read_block_contents(buf, handle)
        stored = contents_of(raw)
        index.add(key, table.encode_varint(len(out)) + table.encode_varint(len(stored)))
        out += _with_block_type(stored, 1)
    meta = table.BlockBuilder(1).finish()
    meta_handle = table.encode_varint(len(out)) + table.encode_varint(len(meta))
    out += _with_block_type(meta, 0)
    index_block = index.finish()
    index_handle = table.encode_varint(len(out)) + table.encode_varint(len(index_block))
    out += _with_block_type(index_block, 0)
    footer = meta_handle + index_handle
    out += footer + bytes(40 - len(footer)) + table.MAGIC
    with open(path, "wb") as f:
        f.write(out)
    return prefix


def _snappy_valid(directory):
    return _snappy_index(_copy(directory, "sharded"), _snappy_literal)


def _snappy_corrupt(directory):
    return _snappy_index(_copy(directory, "sharded"), lambda raw: b"\xff\xff\xff\xff\xff\xff" + raw)


def _sstable_without_header(directory):
    path = os.path.join(directory, "other.table")
    with open(path, "wb") as f:
        f.write(table.build_table([(b"a", b"x")]))
    return path


def _garbage_file(directory):
    path = os.path.join(directory, "garbage.bin")
    with open(path, "wb") as f:
        f.write(bytes(range(256)) * 2)
    return path


def _empty_file(directory):
    path = os.path.join(directory, "empty.bin")
    open(path, "wb").close()
    return path


def _empty_checkpoint(directory):
    from numflow.checkpoint.bundle import write_bundle

    return write_bundle(os.path.join(directory, "empty"), {})


def _numflow_written(directory):
    """Values that exercise numpy's printing (summaries, bfloat16 NaN and -0), written by numflow."""
    import numpy as np

    from numflow.checkpoint.bundle import BundleWriter

    prefix = os.path.join(directory, "nf")
    with BundleWriter(prefix) as writer:
        writer.add("big", np.arange(2000, dtype=np.float32).reshape(40, 50) / 3)
        writer.add("bf16_2d", np.array([[0x3F80, 0xFFC0], [0x8000, 0x4049]], np.uint16), dtype="bfloat16")
        writer.add("i64", np.arange(1500, dtype=np.int64) - 700)
        writer.add("name with spaces", np.float64(-1.5e-7))
    return prefix


def _step_dir(directory):
    _copy(directory, "step", "model-7")
    return directory


# name -> (build(directory) -> file_name, tensor_name, all_tensors, all_tensor_names, count_exclude_pattern)
CASES = {
    "dtypes_list": (_dtypes, "", False, False, ""),
    "dtypes_all_tensors": (_dtypes, "", True, False, ""),
    "dtypes_all_tensor_names": (_dtypes, "", False, True, ""),
    "dtypes_both_flags": (_dtypes, "", True, True, ""),
    "dtypes_tensor_matrix": (_dtypes, "layer1/weights", False, False, ""),
    "dtypes_tensor_scalar_string": (_dtypes, "str_scalar", False, False, ""),
    "dtypes_tensor_scalar_bool": (_dtypes, "scalar_bool", False, False, ""),
    "dtypes_tensor_bfloat16": (_dtypes, "bf16", False, False, ""),
    "dtypes_tensor_unicode_name": (_dtypes, "ünï/çödé", False, False, ""),
    "dtypes_tensor_missing": (_dtypes, "nope", False, False, ""),
    "dtypes_tensor_colon_zero": (_dtypes, "f64:0", False, False, ""),
    "dtypes_exclude_pattern": (_dtypes, "", False, False, "^(layer1|str)"),
    "dtypes_exclude_bad_regex": (_dtypes, "", False, False, "("),
    "partitioned_list": (lambda d: _copy(d, "partitioned"), "", False, False, ""),
    "partitioned_all_tensors": (lambda d: _copy(d, "partitioned"), "", True, False, ""),
    "partitioned_tensor": (lambda d: _copy(d, "partitioned"), "pv", False, False, ""),
    "sharded_all_tensors": (lambda d: _copy(d, "sharded"), "", True, False, ""),
    "step_list": (lambda d: _copy(d, "step", "model-7"), "", False, False, ""),
    "step_directory": (_step_dir, "", False, False, ""),
    "tf2_all_tensors": (lambda d: _copy(d, "tf2", "ckpt-1"), "", True, False, ""),
    "empty_checkpoint": (_empty_checkpoint, "", True, False, ""),
    "missing_prefix": (lambda d: os.path.join(d, "nothing", "model"), "", False, False, ""),
    "index_file_given": (lambda d: _dtypes(d) + ".index", "", False, False, ""),
    "data_file_given": (lambda d: _dtypes(d) + DATA, "", False, False, ""),
    "sstable_without_header": (_sstable_without_header, "", False, False, ""),
    "garbage_file": (_garbage_file, "", False, False, ""),
    "empty_file": (_empty_file, "", False, False, ""),
    "tensor_flipped_all_tensors": (_tensor_flipped, "", True, False, ""),
    "tensor_flipped_one": (_tensor_flipped, "layer1/bias", False, False, ""),
    "tensor_flipped_list": (_tensor_flipped, "", False, False, ""),
    "index_block_flipped": (_index_block_flipped, "", False, False, ""),
    "index_too_short": (_index_short, "", False, False, ""),
    "index_bad_magic": (_index_bad_magic, "", False, False, ""),
    "data_missing_all_tensors": (_data_missing, "", True, False, ""),
    "data_truncated_one": (_data_truncated, "ünï/çödé", False, False, ""),
    "data_truncated_all_tensors": (_data_truncated, "", True, False, ""),
    "numflow_written_all_tensors": (_numflow_written, "", True, False, ""),
    "snappy_valid_all_tensors": (_snappy_valid, "", True, False, ""),
    "snappy_corrupt": (_snappy_corrupt, "", False, False, ""),
}

# name -> (build(directory) -> file_name or None, arguments after --file_name=...; None: no --file_name)
CLI_CASES = {
    "cli_no_file_name": (None, []),
    "cli_list": (_dtypes, []),
    "cli_tensor_printoptions": (_dtypes, ["--tensor_name=f64", "--printoptions", "precision=2", "threshold=3"]),
    "cli_all_tensors_true": (lambda d: _copy(d, "sharded"), ["--all_tensors"]),
    "cli_all_tensors_false_word": (lambda d: _copy(d, "sharded"), ["--all_tensors=false", "--tensor_name=a"]),
    "cli_all_tensors_one_is_false": (lambda d: _copy(d, "sharded"), ["--all_tensors=1"]),
    "cli_all_tensor_names": (lambda d: _copy(d, "sharded"), ["--all_tensor_names=True"]),
    "cli_exclude_pattern": (lambda d: _copy(d, "sharded"), ["--all_tensors", "--count_exclude_pattern=^d"]),
    "cli_missing": (lambda d: os.path.join(d, "nothing"), []),
}


def expected_text(case):
    """The captured output of ``case`` (``{DIR}`` left in)."""
    with open(os.path.join(HERE, case + ".txt"), encoding="utf-8", newline="") as f:
        return f.read()


def _write(case, text, directory):
    with open(os.path.join(HERE, case + ".txt"), "w", encoding="utf-8", newline="") as f:
        f.write(text.replace(directory, PLACEHOLDER))


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    from tensorflow.python.tools import inspect_checkpoint

    only = set(sys.argv[1:])
    if not only:
        for name in os.listdir(HERE):
            if name.endswith(".txt"):
                os.remove(os.path.join(HERE, name))
    for case, (build, tensor_name, all_tensors, all_names, pattern) in CASES.items():
        if only and case not in only:
            continue
        with tempfile.TemporaryDirectory() as directory:
            file_name = build(directory)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                inspect_checkpoint.print_tensors_in_checkpoint_file(
                    file_name, tensor_name, all_tensors, all_names, count_exclude_pattern=pattern)
            _write(case, out.getvalue(), directory)
        print(f"{case:36s} {len(out.getvalue()):6d} characters")
    for case, (build, args) in CLI_CASES.items():
        if only and case not in only:
            continue
        with tempfile.TemporaryDirectory() as directory:
            argv = [] if build is None else [f"--file_name={build(directory)}"]
            proc = subprocess.run([sys.executable, "-m", "tensorflow.python.tools.inspect_checkpoint", *argv, *args],
                                  capture_output=True, text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
            text = proc.stdout + f"exit status {proc.returncode}\n"
            _write(case, text, directory)
        print(f"{case:36s} {len(text):6d} characters")


if __name__ == "__main__":
    main()
