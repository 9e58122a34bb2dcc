"""MetaGraphDef (``.meta`` files): a graph with its collections and its Saver's names, both ways.

``export_meta_graph`` writes the GraphDef (with ``_output_shapes``, as TensorFlow does), the OpDefs
of the op types used, the SaverDef, and the collections: variables as ``VariableDef`` bytes,
tensors and ops by name, and Python ints, floats and strings as lists. Collections of other objects
(queue runners, control flow contexts...) are skipped with a warning, as TensorFlow skips what it
cannot serialize. ``import_meta_graph`` rebuilds all of it, Variable objects included, and returns
a Saver built from the SaverDef, so ``saver.restore`` works on a graph no Python code built.
"""

import logging
import os
import warnings

from numflow.checkpoint.files import resolve, write_atomically
from numflow.framework import errors, op_defs
from numflow.framework.graph import GraphKeys, Operation, Tensor, get_default_graph

_log = logging.getLogger(__name__)

# TensorFlow's version whose graphs numflow writes (graph semantics, op names and attrs).
TENSORFLOW_VERSION = "2.21.0"
VARIABLE_COLLECTIONS = frozenset([
    GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES, GraphKeys.LOCAL_VARIABLES,
    GraphKeys.MODEL_VARIABLES, GraphKeys.MOVING_AVERAGE_VARIABLES, GraphKeys.METRIC_VARIABLES,
    GraphKeys.GLOBAL_STEP, GraphKeys.CONCATENATED_VARIABLES,
])


def prepend_name_scope(name, import_scope):
    """``name`` (an op, tensor, ``^op`` or ``loc:@op`` name) under ``import_scope``."""
    if not import_scope:
        return name
    for marker in ("^", "loc:@"):
        if name.startswith(marker):
            return f"{marker}{import_scope}/{name[len(marker):]}"
    return f"{import_scope}/{name}"


def strip_name_scope(name, export_scope):
    """``name`` without a leading ``export_scope/`` (after a ``^`` or ``loc:@`` marker too)."""
    if not export_scope:
        return name
    for marker in ("^", "loc:@", ""):
        if name.startswith(marker + export_scope + "/"):
            return marker + name[len(marker) + len(export_scope) + 1:]
    return name


# -- writing ----------------------------------------------------------------------------------
def _scoped_graph_def(graph_def, export_scope, clear_devices):
    """``graph_def`` limited to the nodes under ``export_scope``, named without it."""
    from numflow.protos import graph_pb2

    if not export_scope and not clear_devices:
        return graph_def
    out = graph_pb2.GraphDef(versions=graph_def.versions)
    prefix = export_scope + "/" if export_scope else ""
    for node in graph_def.node:
        if not node.name.startswith(prefix):
            continue
        new = out.node.add()
        new.CopyFrom(node)
        if clear_devices:
            new.device = ""
        if export_scope:
            new.name = strip_name_scope(node.name, export_scope)
            new.input[:] = [strip_name_scope(i, export_scope) for i in node.input]
            if "_class" in new.attr:
                groups = new.attr["_class"].list.s
                groups[:] = [strip_name_scope(g.decode(), export_scope).encode() for g in groups]
    return out


def _strip_default_attrs(graph_def):
    for node in graph_def.node:
        op_def = op_defs.get(node.op)
        if op_def is None:
            continue
        for attr_def in op_def.attr:
            if (attr_def.HasField("default_value") and attr_def.name in node.attr
                    and node.attr[attr_def.name] == attr_def.default_value):
                del node.attr[attr_def.name]


def _element_name(item):
    if isinstance(item, Tensor | Operation):
        return item.name
    as_element = getattr(item, "_as_graph_element", None)
    return as_element().name if as_element is not None else None


def _add_collection(meta_graph_def, key, items, export_scope):
    """Write collection ``key`` if its items have a form TensorFlow reads; else log and skip it."""
    if not items:
        return
    prefix = export_scope + "/" if export_scope else ""
    if key in VARIABLE_COLLECTIONS and all(hasattr(v, "to_proto") and hasattr(v, "_ref") for v in items):
        protos = [p for p in (v.to_proto(export_scope) for v in items) if p is not None]
        if protos:
            meta_graph_def.collection_def[key].bytes_list.value.extend(p.SerializeToString() for p in protos)
        return
    if all(isinstance(v, Tensor | Operation) for v in items):
        names = [strip_name_scope(v.name, export_scope) for v in items if v.name.startswith(prefix)]
        if names:
            meta_graph_def.collection_def[key].node_list.value.extend(names)
        return
    if all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        meta_graph_def.collection_def[key].int64_list.value.extend(items)
    elif all(isinstance(v, float) for v in items):
        meta_graph_def.collection_def[key].float_list.value.extend(items)
    elif all(isinstance(v, str | bytes) for v in items):
        meta_graph_def.collection_def[key].bytes_list.value.extend(
            v.encode() if isinstance(v, str) else v for v in items)
    else:
        kinds = sorted({type(v).__name__ for v in items})
        _log.warning("Issue encountered when serializing %s: numflow writes no %s to a MetaGraphDef; the "
                     "collection is left out.", key, ", ".join(kinds))


def _saver_def_proto(saver_def, export_scope):
    from numflow.protos import saver_pb2

    if isinstance(saver_def, saver_pb2.SaverDef):
        proto = saver_pb2.SaverDef()
        proto.CopyFrom(saver_def)
    else:
        proto = saver_pb2.SaverDef(
            filename_tensor_name=saver_def.filename_tensor_name, save_tensor_name=saver_def.save_tensor_name,
            restore_op_name=saver_def.restore_op_name, max_to_keep=saver_def.max_to_keep,
            sharded=saver_def.sharded, keep_checkpoint_every_n_hours=saver_def.keep_checkpoint_every_n_hours,
            version=saver_def.version)
    for field in ("filename_tensor_name", "save_tensor_name", "restore_op_name"):
        setattr(proto, field, strip_name_scope(getattr(proto, field), export_scope))
    return proto


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None, collection_list=None,
                      as_text=False, graph=None, export_scope=None, clear_devices=False,
                      clear_extraneous_savers=False, strip_default_attrs=False, save_debug_info=False, **kwargs):
    """The MetaGraphDef of ``graph`` (default: the default graph), written to ``filename`` when given.

    Parameters
    ----------
    filename : str, optional
        Where to write it (binary, or text with ``as_text``).
    saver_def : SaverDef, optional
        The names of a Saver's ops (``Saver.as_saver_def()``).
    collection_list : list of str, optional
        The collections to write (default: all).
    export_scope : str, optional
        Write only the ops under this name scope, named without it.
    clear_devices : bool
        Write no devices.
    strip_default_attrs : bool
        Leave out attrs whose value is their OpDef's default.

    Returns
    -------
    MetaGraphDef
    """
    del meta_info_def, clear_extraneous_savers, save_debug_info, kwargs
    from numflow.framework.graph_export import write_nodes
    from numflow.protos import meta_graph_pb2

    graph = graph or get_default_graph()
    meta = meta_graph_pb2.MetaGraphDef()
    if graph_def is None and not export_scope and not clear_devices:
        op_types = write_nodes(graph, meta.graph_def, add_shapes=True)  # written in place: no copy of a large graph
    else:
        full = graph_def if graph_def is not None else graph.as_graph_def(add_shapes=True)
        meta.graph_def.CopyFrom(_scoped_graph_def(full, export_scope, clear_devices))
        op_types = {node.op for node in meta.graph_def.node}
    if strip_default_attrs:
        _strip_default_attrs(meta.graph_def)
        meta.meta_info_def.stripped_default_attrs = True
    info = meta.meta_info_def
    info.stripped_op_list.CopyFrom(op_defs.op_list(op_types))
    info.tensorflow_version = TENSORFLOW_VERSION
    info.tensorflow_git_version = "numflow"
    if saver_def is not None:
        meta.saver_def.CopyFrom(_saver_def_proto(saver_def, export_scope))
    keys = graph.get_all_collection_keys() if collection_list is None else collection_list
    for key in sorted(keys):
        _add_collection(meta, key, graph.get_collection(key), export_scope)
    if filename:
        write_proto(filename, meta, as_text)
    return meta


def write_proto(path, message, as_text=False):
    """Write ``message`` to ``path`` (binary, or protobuf text) atomically; ``path`` may be an fsspec URL."""
    path = os.fsdecode(path)
    if as_text:
        from google.protobuf import text_format

        data = text_format.MessageToString(message).encode()
    else:
        data = message.SerializeToString()
    directory = os.path.dirname(path)
    if directory:
        resolve(directory).makedirs(directory)
    write_atomically(path, data)


# -- reading ----------------------------------------------------------------------------------
def read_proto_file(filename, message_class):
    """Parse ``filename`` as ``message_class``: binary first, then protobuf text.

    Raises
    ------
    OSError
        The file does not exist (TensorFlow's message).
    DataLossError
        The file is neither form of the message (truncated, corrupt, or another kind of file).
    """
    from google.protobuf import text_format
    from google.protobuf.message import DecodeError

    filename = os.fsdecode(filename)
    filesystem = resolve(filename)
    if not filesystem.exists(filename):
        raise OSError(f"File does not exist. Received: {filename}.")
    data = filesystem.cat(filename)
    try:
        return message_class.FromString(data)
    except DecodeError as binary_error:
        try:
            return text_format.Parse(data.decode("utf-8"), message_class())
        except (text_format.ParseError, UnicodeDecodeError) as text_error:
            raise errors.DataLossError(
                None, None, f"Cannot parse file {filename}: it is not a {message_class.DESCRIPTOR.name}, binary "
                f"({binary_error}) or text ({str(text_error).splitlines()[0][:200]}); the file may be truncated "
                "or corrupt.") from None


def read_meta_graph_file(filename):
    """The MetaGraphDef in ``filename`` (binary or text)."""
    from numflow.protos import meta_graph_pb2

    return read_proto_file(filename, meta_graph_pb2.MetaGraphDef)


def _as_meta_graph_def(meta_graph_or_file):
    from numflow.protos import meta_graph_pb2

    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        return meta_graph_or_file
    if getattr(getattr(meta_graph_or_file, "DESCRIPTOR", None), "full_name", "") == "tensorflow.MetaGraphDef":
        return meta_graph_pb2.MetaGraphDef.FromString(meta_graph_or_file.SerializeToString())
    return read_meta_graph_file(meta_graph_or_file)


def _restore_collection(graph, key, collection_def, import_scope, variables):
    from numflow.protos import variable_pb2

    kind = collection_def.WhichOneof("kind")
    if kind == "node_list":
        values = [graph.as_graph_element(prepend_name_scope(n, import_scope)) for n in collection_def.node_list.value]
    elif kind == "bytes_list" and key in VARIABLE_COLLECTIONS:
        from numflow.variables.variable import Variable

        values = []
        for raw in collection_def.bytes_list.value:
            proto = variable_pb2.VariableDef.FromString(raw)
            if proto.variable_name not in variables:
                variables[proto.variable_name] = Variable.from_proto(proto, import_scope)
            values.append(variables[proto.variable_name])
    elif kind == "bytes_list":
        values = list(collection_def.bytes_list.value)
    elif kind == "int64_list":
        values = list(collection_def.int64_list.value)
    elif kind == "float_list":
        values = list(collection_def.float_list.value)
    else:
        _log.warning("Collection %s holds values numflow does not read (Any protos); it is left out.", key)
        return
    for value in values:
        graph.add_to_collection(key, value)


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, graph=None, import_scope=None,
                             input_map=None):
    """Add a MetaGraphDef's graph and collections to ``graph``; returns ``(meta_graph_def, {name: Variable})``."""
    from numflow.framework.frames_import import cond_contexts
    from numflow.framework.graph_import import Importer, check_versions, current_nodes

    meta = _as_meta_graph_def(meta_graph_or_file)
    graph = graph or get_default_graph()
    check_versions(meta.graph_def.versions)
    with graph.as_default():
        prefix = f"{import_scope}/" if import_scope else ""
        Importer(graph, prefix, input_map, clear_devices, meta.graph_def.library,
                 cond_contexts(meta)).build(current_nodes(meta.graph_def))
        variables = {}
        for key in sorted(meta.collection_def):
            _restore_collection(graph, key, meta.collection_def[key], import_scope, variables)
    return meta, variables


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, input_map=None, **kwargs):
    """Recreate a saved graph in the default graph; returns its Saver (None when it has no variables).

    Parameters
    ----------
    meta_graph_or_file : str or MetaGraphDef
        A ``.meta`` file (binary or text) or the message.
    clear_devices : bool
        Ignore the devices the file names.
    import_scope : str, optional
        Prefix the new ops' names with this scope.
    input_map : dict, optional
        ``{tensor name in the file: Tensor}`` to take those inputs from.

    Raises
    ------
    OSError
        The file does not exist.
    DataLossError
        The file is truncated or corrupt (nothing is added to the graph).
    NotFoundError
        The graph uses an op type numflow does not declare.
    """
    from numflow.train.saver import Saver

    del kwargs
    meta, variables = import_scoped_meta_graph(meta_graph_or_file, clear_devices=clear_devices,
                                               import_scope=import_scope, input_map=input_map)
    if meta.HasField("saver_def"):
        return Saver(saver_def=meta.saver_def, name=import_scope)
    if variables:
        return Saver()
    _log.info("Saver not created because there are no variables in the graph to restore")
    return None


# -- the Saver's side -------------------------------------------------------------------------
def adopt_saver_def(saver, saver_def, import_scope=None):
    """Point ``saver`` at the ops a SaverDef names (a graph read from a MetaGraphDef)."""
    graph = get_default_graph()
    saver._filename = graph.as_graph_element(prepend_name_scope(saver_def.filename_tensor_name, import_scope))
    saver._save_op = graph.as_graph_element(prepend_name_scope(saver_def.save_tensor_name, import_scope)).op
    saver._restore_op = graph.as_graph_element(prepend_name_scope(saver_def.restore_op_name, import_scope))
    saver._max_to_keep = saver_def.max_to_keep
    saver._keep_every = saver_def.keep_checkpoint_every_n_hours
    saver._sharded = saver_def.sharded
    saver._var_list = {}
    saver._is_built, saver._is_empty = True, False


def checkpoint_meta_graph(saver, sess, strip_default_attrs=False):
    """The MetaGraphDef ``Saver.save`` writes beside a checkpoint: the session's graph with the Saver's names.

    None, with a warning, for a graph that has no GraphDef form yet: the checkpoint is still
    written (a TensorFlow Saver never fails a save over its meta graph).
    """
    from numflow.framework.attr_values import AttrError

    graph = sess.graph
    with graph.as_default():
        try:
            return export_meta_graph(saver_def=saver.as_saver_def(), graph=graph,
                                     strip_default_attrs=strip_default_attrs)
        except AttrError as exc:
            warnings.warn(f"The checkpoint is saved without its .meta file: {exc}", RuntimeWarning, stacklevel=3)
            return None
