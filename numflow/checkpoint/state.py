"""The ``checkpoint`` state file (text-format CheckpointState): writing, parsing, latest_checkpoint.

Format (spec section 6): one ``field: value`` per line; strings quoted with C escapes. This module
writes exactly what TF writes (``\\t \\n \\r \\" \\' \\\\`` escaped, other control bytes as octal,
UTF-8 raw) and reads any text format a CheckpointState can be given in: every string escape,
adjacent string literals, ``#`` comments, ``,``/``;`` separators; unknown fields are skipped.
"""

import glob
import logging
import os
import re
from dataclasses import dataclass, field

from numflow.checkpoint.files import index_filename, is_url, resolve, write_atomically
from numflow.framework import errors

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines
STATE_FILENAME = "checkpoint"
_FIELDS = {
    "model_checkpoint_path": "str",
    "all_model_checkpoint_paths": "strs",
    "all_model_checkpoint_timestamps": "floats",
    "last_preserved_timestamp": "float",
}


@dataclass
class CheckpointState:
    """``tensorflow.CheckpointState``: the newest checkpoint and the ones kept, oldest first."""

    model_checkpoint_path: str = ""
    all_model_checkpoint_paths: list = field(default_factory=list)
    all_model_checkpoint_timestamps: list = field(default_factory=list)
    last_preserved_timestamp: float = 0.0


class TextFormatError(ValueError):
    """A state file that is not valid protobuf text format."""


# ---------------------------------------------------------------------------------------------------
# writing


_ESCAPES = {9: "\\t", 10: "\\n", 13: "\\r", 34: '\\"', 39: "\\'", 92: "\\\\"}


def _quote(text):
    out = []
    for ch in text:
        code = ord(ch)
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
        elif code < 32 or code == 127:
            out.append(f"\\{code:03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def format_checkpoint_state(state):
    """The text TF's ``text_format.MessageToString`` gives for ``state``.

    >>> print(format_checkpoint_state(CheckpointState("model-4", ["model-3", "model-4"])), end="")
    model_checkpoint_path: "model-4"
    all_model_checkpoint_paths: "model-3"
    all_model_checkpoint_paths: "model-4"
    """
    lines = []
    if state.model_checkpoint_path:
        lines.append(f"model_checkpoint_path: {_quote(state.model_checkpoint_path)}")
    lines += [f"all_model_checkpoint_paths: {_quote(p)}" for p in state.all_model_checkpoint_paths]
    lines += [f"all_model_checkpoint_timestamps: {float(t)!r}" for t in state.all_model_checkpoint_timestamps]
    if state.last_preserved_timestamp:
        lines.append(f"last_preserved_timestamp: {float(state.last_preserved_timestamp)!r}")
    return "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------------------------------------------
# parsing

_TOKEN = re.compile(r"""
    (?P<space>\s+|\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<number>[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[fF]?)
  | (?P<ident>[-+]?[A-Za-z_][\w.]*)
  | (?P<punct>[:{}<>,;\[\]/])
""", re.VERBOSE)
_SIMPLE_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39,
                   '"': 34, "?": 63}


def _unescape(body):
    """Bytes of a text-format string literal's body: C escapes, octal, hex, \\u and \\U."""
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        if i + 1 >= n:
            raise TextFormatError("string ends with a backslash")
        esc = body[i + 1]
        i += 2
        if esc in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[esc])
        elif esc in "01234567":
            digits = esc
            while i < n and len(digits) < 3 and body[i] in "01234567":
                digits += body[i]
                i += 1
            out.append(int(digits, 8) & 0xFF)
        elif esc in "xX":
            digits = ""
            while i < n and len(digits) < 2 and body[i] in "0123456789abcdefABCDEF":
                digits += body[i]
                i += 1
            if not digits:
                raise TextFormatError("\\x with no hex digits")
            out.append(int(digits, 16))
        elif esc in "uU":
            width = 4 if esc == "u" else 8
            digits = body[i:i + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise TextFormatError(f"\\{esc} needs {width} hex digits")
            out += chr(int(digits, 16)).encode("utf-8", "surrogatepass")
            i += width
        else:
            raise TextFormatError(f"invalid escape \\{esc}")
    return bytes(out)


def _tokenize(text):
    pos, tokens = 0, []
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise TextFormatError(f"unexpected character {text[pos]!r} at offset {pos}")
        pos = match.end()
        if match.lastgroup != "space":
            tokens.append((match.lastgroup, match.group()))
    return tokens


def _skip_value(tokens, i):
    """Index after the value of an unknown field starting at ``tokens[i]``."""
    kind, text = tokens[i]
    if text in ("{", "<"):
        close = "}" if text == "{" else ">"
        i += 1
        while tokens[i][1] != close:
            i = _skip_field(tokens, i)
        return i + 1
    if text == "[":
        i += 1
        while tokens[i][1] != "]":
            i = _skip_value(tokens, i)
            if tokens[i][1] == ",":
                i += 1
        return i + 1
    if kind == "string":
        while i < len(tokens) and tokens[i][0] == "string":
            i += 1
        return i
    if kind in ("number", "ident"):
        return i + 1
    raise TextFormatError(f"unexpected {text!r}")


def _skip_field(tokens, i):
    if tokens[i][1] == "[":  # an extension or Any type URL: [pkg.ext] or [type.googleapis.com/pkg.T]
        while tokens[i][1] != "]":
            i += 1
    elif tokens[i][0] != "ident":
        raise TextFormatError(f"expected a field name, got {tokens[i][1]!r}")
    i += 1
    if tokens[i][1] == ":":
        i += 1
    i = _skip_value(tokens, i)
    if i < len(tokens) and tokens[i][1] in (",", ";"):
        i += 1
    return i


def _scalar(tokens, i, kind, name):
    tok_kind, text = tokens[i]
    if kind == "str":
        if tok_kind != "string":
            raise TextFormatError(f"{name} expects a string, got {text!r}")
        data = b""
        while i < len(tokens) and tokens[i][0] == "string":
            data += _unescape(tokens[i][1][1:-1])
            i += 1
        return data.decode("utf-8", "surrogateescape"), i
    special = {"inf": float("inf"), "infinity": float("inf"), "nan": float("nan")}
    word = text.lower().lstrip("+")
    if tok_kind == "number":
        return float(text.rstrip("fF")), i + 1
    if tok_kind == "ident" and word.lstrip("-") in special:
        value = special[word.lstrip("-")]
        return (-value if word.startswith("-") else value), i + 1
    raise TextFormatError(f"{name} expects a number, got {text!r}")


def parse_checkpoint_state(text):
    """Parse the text of a ``checkpoint`` file.

    Raises
    ------
    TextFormatError
        When ``text`` is not valid text format (a ValueError).
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    tokens = _tokenize(text)
    tokens.append(("end", ""))
    state = CheckpointState()
    i = 0
    try:
        while tokens[i][0] != "end":
            kind, name = tokens[i]
            if kind != "ident" or name not in _FIELDS:
                i = _skip_field(tokens, i)
                continue
            i += 1
            if tokens[i][1] == ":":
                i += 1
            ftype = _FIELDS[name]
            scalar = "str" if ftype in ("str", "strs") else "float"
            if tokens[i][1] == "[" and ftype in ("strs", "floats"):
                i += 1
                while tokens[i][1] != "]":
                    value, i = _scalar(tokens, i, scalar, name)
                    getattr(state, name).append(value)
                    if tokens[i][1] == ",":
                        i += 1
                i += 1
            else:
                value, i = _scalar(tokens, i, scalar, name)
                if ftype in ("strs", "floats"):
                    getattr(state, name).append(value)
                else:
                    setattr(state, name, value)
            if tokens[i][1] in (",", ";"):
                i += 1
    except IndexError:
        raise TextFormatError("unexpected end of text") from None
    return state


# ---------------------------------------------------------------------------------------------------
# the state file in a directory


def _state_path(directory, latest_filename):
    return os.path.join(directory, latest_filename or STATE_FILENAME)


def _is_absolute(path):
    return is_url(path) or os.path.isabs(path)


def _relative_to(path, directory):
    """``path`` relative to ``directory`` where it lies under it (a URL under a URL), else as it is."""
    if is_url(path) or is_url(directory):
        base = directory.rstrip("/") + "/"
        return path[len(base):] if path.startswith(base) else path
    return os.path.relpath(path, directory) if os.path.isabs(path) else path


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None, save_relative_paths=False):
    """Write ``save_dir/checkpoint`` atomically, as TF's Saver does after each save.

    Parameters
    ----------
    save_dir : str or path-like
        Directory of the state file.
    model_checkpoint_path : str
        The newest checkpoint prefix; appended to ``all_model_checkpoint_paths`` if not last there.
    all_model_checkpoint_paths : list of str, optional
        Prefixes kept, oldest first.
    latest_filename : str, optional
        Name of the state file (default ``checkpoint``).
    all_model_checkpoint_timestamps, last_preserved_timestamp : optional
        Seconds since the epoch (TF2's CheckpointManager writes them).
    save_relative_paths : bool
        Store absolute prefixes relative to ``save_dir``.

    Raises
    ------
    RuntimeError
        When the save path would overwrite the state file itself (TF's check).
    """
    save_dir = os.fspath(save_dir)
    model_checkpoint_path = os.fspath(model_checkpoint_path)
    paths = [os.fspath(p) for p in (all_model_checkpoint_paths or [])]
    if save_relative_paths:
        model_checkpoint_path = _relative_to(model_checkpoint_path, save_dir)
        paths = [_relative_to(p, save_dir) for p in paths]
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, paths, all_model_checkpoint_timestamps,
                                            last_preserved_timestamp)
    filename = _state_path(save_dir, latest_filename)
    if filename == state.model_checkpoint_path:
        raise RuntimeError(f"Save path '{state.model_checkpoint_path}' conflicts with path used for checkpoint "
                           "state.  Please use a different save path.")
    write_atomically(filename, format_checkpoint_state(state).encode("utf-8", "surrogateescape"))
    return state


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """The CheckpointState that ``update_checkpoint_state`` writes, without writing it.

    Parameters
    ----------
    save_dir : str or path-like
        The directory of the state file: with a relative ``save_dir``, relative prefixes are stored
        relative to it (``ckpts/model-4`` as ``model-4``).
    model_checkpoint_path : str
        The newest checkpoint prefix; appended to ``all_model_checkpoint_paths`` if not last there.
    all_model_checkpoint_paths : list of str, optional
        Prefixes kept, oldest first.
    all_model_checkpoint_timestamps, last_preserved_timestamp : optional
        Seconds since the epoch, one timestamp per kept prefix.

    Returns
    -------
    CheckpointState

    Raises
    ------
    ValueError
        When the timestamps are not one per prefix.
    """
    save_dir = os.fspath(save_dir)
    model_checkpoint_path = os.fspath(model_checkpoint_path)
    paths = [os.fspath(p) for p in (all_model_checkpoint_paths or [])]
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    timestamps = list(all_model_checkpoint_timestamps or [])
    if timestamps and len(timestamps) != len(paths):
        raise ValueError(f"Checkpoint timestamps, if provided, must match checkpoint paths (got paths "
                         f"{paths} and timestamps {timestamps})")
    if not _is_absolute(save_dir):
        def rel(p):
            return p if os.path.isabs(p) else os.path.relpath(p, save_dir)

        model_checkpoint_path, paths = rel(model_checkpoint_path), [rel(p) for p in paths]
    return CheckpointState(model_checkpoint_path, paths, timestamps, last_preserved_timestamp or 0.0)


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState in ``checkpoint_dir``, relative paths joined to the directory; or None.

    Returns None when there is no state file or it cannot be read or parsed (a warning is logged).

    Raises
    ------
    ValueError
        ``Invalid checkpoint state loaded from DIR`` when the file names no model_checkpoint_path.
    """
    checkpoint_dir = os.fspath(checkpoint_dir)
    filename = _state_path(checkpoint_dir, latest_filename)
    fs = resolve(filename)
    if not fs.isfile(filename):  # a filesystem's failure (credentials...) is raised, as in TF
        return None
    try:
        state = parse_checkpoint_state(fs.cat(filename))
    except errors.NotFoundError:
        return None
    except errors.OpError as exc:
        _log.warning("%s: %s; Checkpoint ignored", filename, exc)
        return None
    except TextFormatError as exc:
        _log.warning("%s: %s; Checkpoint ignored", filename, exc)
        return None
    if not state.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    join = lambda p: p if _is_absolute(p) else os.path.join(checkpoint_dir, p)
    state.model_checkpoint_path = join(state.model_checkpoint_path)
    state.all_model_checkpoint_paths = [join(p) for p in state.all_model_checkpoint_paths]
    return state


def checkpoint_exists(checkpoint_prefix):
    """Whether a V2 checkpoint ``prefix`` exists, i.e. ``prefix.index`` matches a file (glob allowed)."""
    path = index_filename(os.fspath(checkpoint_prefix))
    if is_url(path):
        fs = resolve(path)
        return fs.isfile(path) or (glob.has_magic(path) and bool(fs.glob(path)))
    return os.path.isfile(path) or bool(glob.glob(path))


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint named by the state file of ``checkpoint_dir``, or None.

    None also when the state file names a checkpoint whose files are gone (logged as an error).

    Examples
    --------
    >>> import tempfile
    >>> latest_checkpoint(tempfile.mkdtemp()) is None
    True
    """
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not state.model_checkpoint_path:
        return None
    if checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    _log.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
    return None


__all__ = ["CheckpointState", "TextFormatError", "format_checkpoint_state", "parse_checkpoint_state",
           "update_checkpoint_state", "get_checkpoint_state", "latest_checkpoint", "checkpoint_exists"]
