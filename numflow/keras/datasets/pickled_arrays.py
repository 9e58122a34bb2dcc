"""Read the python pickles CIFAR is shipped in, and the ``.npz`` files of arrays of lists IMDB and Reuters
are (``load_npz``), without running them: the opcodes are walked (``pickletools.genops``) and only plain
data is built (dicts, lists, tuples, numbers, strings, and numpy arrays rebuilt from their shape, dtype
and bytes, or from their items for arrays of objects). Any other object a pickle names is refused with a
ValueError: a file never chooses what code runs.

Python 2 strings (how CIFAR-10's batches were written), and bytes as Python 3's protocol 2 writes them
(``_codecs.encode(text, "latin1")``, the one call allowed), come back as bytes, as ``pickle.load(f,
encoding="bytes")`` gives them.
"""

import pickletools
import zipfile

import numpy as np

_RECONSTRUCT = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct")}
_NDARRAY, _DTYPE = ("numpy", "ndarray"), ("numpy", "dtype")
_MARK = object()


class _Pending:
    """An array or dtype named by the pickle, made when its state comes (BUILD)."""

    def __init__(self, kind, args):
        self.kind, self.args = kind, args


def _build(pending, state):
    if pending.kind == "dtype":
        dtype = np.dtype(pending.args[0])
        order = state[1] if isinstance(state, tuple) and len(state) > 1 else "|"
        return dtype.newbyteorder(">") if order == ">" else dtype
    _, shape, dtype, fortran, raw = state
    order = "F" if fortran else "C"
    if isinstance(dtype, np.dtype) and dtype.hasobject and isinstance(raw, list):
        array = np.empty(len(raw), dtype=object)  # items of plain data: all this reader builds
        array[:] = raw
        return array.reshape(shape, order=order)
    if isinstance(raw, str):
        raw = raw.encode("latin-1")
    if not isinstance(raw, bytes | bytearray) or not isinstance(dtype, np.dtype) or dtype.hasobject:
        raise ValueError("The pickle holds an array it does not describe as plain data, which is refused.")
    return np.frombuffer(raw, dtype=dtype).reshape(shape, order=order).copy()


def _global(module, name):
    if (module, name) == ("_codecs", "encode"):
        return "encode"
    if (module, name) in _RECONSTRUCT:
        return "reconstruct"
    if (module, name) == _NDARRAY:
        return "ndarray"
    if (module, name) == _DTYPE:
        return "dtype"
    raise ValueError(f"Refusing to load {module}.{name} from a pickle: only plain data and numpy arrays are read.")


def _pop_mark(stack):
    i = max(j for j, item in enumerate(stack) if item is _MARK)
    items = stack[i + 1:]
    del stack[i:]
    return items


def _pairs(items):
    return dict(zip(items[::2], items[1::2]))


_PUSH_ARG = {"BININT", "BININT1", "BININT2", "INT", "LONG", "LONG1", "LONG4", "BINFLOAT", "FLOAT", "BINUNICODE",
             "SHORT_BINUNICODE", "BINUNICODE8", "UNICODE", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8"}
_PUSH_CONSTANT = {"NONE": None, "NEWTRUE": True, "NEWFALSE": False, "EMPTY_DICT": dict, "EMPTY_LIST": list,
                  "EMPTY_TUPLE": tuple}


def loads(data):
    """The plain data pickled in ``data`` (bytes); a ValueError for anything else (see the module docstring)."""
    stack, memo = [], {}
    for opcode, arg, _ in pickletools.genops(data):
        name = opcode.name
        if name in ("PROTO", "FRAME"):
            continue
        if name == "STOP":
            break
        if name in _PUSH_ARG:
            stack.append(arg)
        elif name in ("BINSTRING", "SHORT_BINSTRING", "STRING"):
            stack.append(arg.encode("latin-1") if isinstance(arg, str) else arg)
        elif name in _PUSH_CONSTANT:
            value = _PUSH_CONSTANT[name]
            stack.append(value() if callable(value) else value)
        elif name == "MARK":
            stack.append(_MARK)
        elif name in ("PUT", "BINPUT", "LONG_BINPUT"):
            memo[arg] = stack[-1]
        elif name == "MEMOIZE":
            memo[len(memo)] = stack[-1]
        elif name in ("GET", "BINGET", "LONG_BINGET"):
            stack.append(memo[arg])
        elif name in ("TUPLE1", "TUPLE2", "TUPLE3"):
            count = int(name[-1])
            items = tuple(stack[-count:])
            del stack[-count:]
            stack.append(items)
        elif name == "TUPLE":
            stack.append(tuple(_pop_mark(stack)))
        elif name == "LIST":
            stack.append(_pop_mark(stack))
        elif name == "DICT":
            stack.append(_pairs(_pop_mark(stack)))
        elif name == "APPEND":
            value = stack.pop()
            stack[-1].append(value)
        elif name == "APPENDS":
            items = _pop_mark(stack)
            stack[-1].extend(items)
        elif name == "SETITEM":
            value, key = stack.pop(), stack.pop()
            stack[-1][key] = value
        elif name == "SETITEMS":
            items = _pop_mark(stack)
            stack[-1].update(_pairs(items))
        elif name == "GLOBAL":
            stack.append(_global(*arg.split(" ", 1)))
        elif name == "STACK_GLOBAL":
            attribute, module = stack.pop(), stack.pop()
            stack.append(_global(module, attribute))
        elif name == "REDUCE":
            args, function = stack.pop(), stack.pop()
            if function == "reconstruct" and args and args[0] == "ndarray":
                stack.append(_Pending("array", args))
            elif function == "dtype":
                stack.append(_Pending("dtype", args))
            elif function == "encode" and len(args) == 2 and isinstance(args[0], str) and args[1] == "latin1":
                stack.append(args[0].encode("latin-1"))  # how Python 3's protocol 2 writes bytes
            else:
                raise ValueError(f"Refusing to call {function} from a pickle.")
        elif name == "BUILD":
            state = stack.pop()
            if not isinstance(stack[-1], _Pending):
                raise ValueError("Refusing to set the state of an object from a pickle.")
            stack[-1] = _build(stack[-1], state)
        else:
            raise ValueError(f"Refusing the pickle opcode {name}: only plain data and numpy arrays are read.")
    if len(stack) != 1:
        raise ValueError("Malformed pickle.")
    return stack[0]


def load_npz(path):
    """The arrays of the ``.npz`` file ``path``, by name; an array of objects (``np.save`` pickles those)
    read as :func:`loads` reads a pickle, where ``np.load`` would need ``allow_pickle=True``."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            with archive.open(member) as f:
                version = np.lib.format.read_magic(f)
                read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                               else np.lib.format.read_array_header_2_0)
                shape, fortran, dtype = read_header(f)
                if dtype.hasobject:
                    array = loads(f.read())
                    if not isinstance(array, np.ndarray) or array.shape != shape:
                        raise ValueError(f"{path}: {member} is not the array of shape {shape} its header says.")
                else:
                    f.seek(0)
                    array = np.lib.format.read_array(f, allow_pickle=False)
            arrays[member.removesuffix(".npy")] = array
    return arrays
