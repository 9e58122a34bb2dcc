"""TensorFlow's OpDefs of the op types numflow declares, read from ``tf_op_defs.pb`` on first use.

An OpDef gives an op type's inputs, outputs and attrs as TensorFlow writes them in a NodeDef: which
attrs hold the tensors' types (``T``, ``dtype``, ``Tidx``, ``SrcT``/``DstT``...), which count a list
of inputs (``N``), and the defaults of the rest. :func:`signature_attrs` derives the type and count
attrs of a node from its tensors' dtypes, so a new op needs no mapping code: regenerate the file
(``python -m numflow.framework.regenerate_op_defs``) once TensorFlow's op of that name exists.
"""

import functools
import pathlib

from numflow.framework import dtypes

# TensorFlow 2.21's GraphDef version: numflow writes graphs as that version writes them.
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

_FILE = pathlib.Path(__file__).with_name("tf_op_defs.pb")


@functools.cache
def _op_defs():
    from numflow.protos import op_def_pb2

    return {op.name: op for op in op_def_pb2.OpList.FromString(_FILE.read_bytes()).op}


def get(op_type):
    """TensorFlow's OpDef of ``op_type``, or None for an op type TensorFlow does not have."""
    return _op_defs().get(op_type)


def op_list(op_types):
    """An ``OpList`` of the OpDefs of ``op_types`` that TensorFlow has, sorted by name."""
    from numflow.protos import op_def_pb2

    defs = _op_defs()
    return op_def_pb2.OpList(op=[defs[t] for t in sorted(set(op_types)) if t in defs])


def _arg_counts(args, count, attrs):
    """How many tensors each of ``args`` takes of ``count``: one, or a list (``N`` of them, or the rest)."""
    sizes = [1 if not (a.number_attr or a.type_list_attr) else None for a in args]
    for i, arg in enumerate(args):
        if sizes[i] is None:
            known = attrs.get(arg.number_attr) if arg.number_attr else attrs.get(arg.type_list_attr)
            if isinstance(known, int) and not isinstance(known, bool):
                sizes[i] = known
            elif isinstance(known, list | tuple):
                sizes[i] = len(known)
    unknown = [i for i, s in enumerate(sizes) if s is None]
    rest = count - sum(s for s in sizes if s is not None)
    if len(unknown) > 1 or rest < 0:
        raise ValueError(f"cannot split {count} tensors among the arguments {[a.name for a in args]}")
    if unknown:
        sizes[unknown[0]] = rest
    elif rest:
        raise ValueError(f"{count} tensors for the arguments {[a.name for a in args]}")
    return sizes


def signature_attrs(op_def, input_dtypes, output_dtypes, attrs=None):
    """The type and count attrs of a node of ``op_def`` whose tensors have these dtypes.

    Parameters
    ----------
    op_def : OpDef
    input_dtypes, output_dtypes : list of DType
        The node's data inputs and outputs, in order.
    attrs : dict, optional
        Attrs known already (a list attr's length fixes how many tensors its argument takes).

    Returns
    -------
    dict
        ``{attr name: DType, list of DType or int}``.
    """
    attrs = attrs or {}
    derived = {}
    for args, dts in ((op_def.input_arg, input_dtypes), (op_def.output_arg, output_dtypes)):
        pos = 0
        for arg, size in zip(args, _arg_counts(args, len(dts), attrs)):
            chunk = [dtypes.as_dtype(d).base_dtype for d in dts[pos:pos + size]]
            pos += size
            if arg.number_attr:
                derived[arg.number_attr] = size
            if arg.type_list_attr:
                derived[arg.type_list_attr] = chunk
            elif arg.type_attr and chunk:
                derived[arg.type_attr] = chunk[0]
    return derived


def output_count(op_def, attrs):
    """How many outputs a node of ``op_def`` with ``attrs`` has."""
    total = 0
    for arg in op_def.output_arg:
        if arg.number_attr:
            total += int(attrs[arg.number_attr])
        elif arg.type_list_attr:
            total += len(attrs[arg.type_list_attr])
        else:
            total += 1
    return total
