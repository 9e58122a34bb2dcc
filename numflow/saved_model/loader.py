"""``tf.saved_model.loader``: read a SavedModel's meta graph of given tags into a session, restore its
variables and run its init op, as TensorFlow 1's ``loader.load`` does. Only protobuf messages and a
checkpoint are read: nothing from the files is executed but the graph's own ops.
"""

import logging
import os

from numflow.saved_model import constants

_log = logging.getLogger("numflow")


def parse_saved_model(export_dir):
    """The ``SavedModel`` message of ``export_dir`` (``saved_model.pb``, else ``saved_model.pbtxt``).

    Raises
    ------
    OSError
        Neither file exists, or one cannot be parsed.
    """
    from google.protobuf import message, text_format

    from numflow.protos import saved_model_pb2

    export_dir = os.fspath(export_dir)
    saved_model = saved_model_pb2.SavedModel()
    binary = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    text = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    if os.path.exists(binary):
        try:
            with open(binary, "rb") as file:
                saved_model.ParseFromString(file.read())
        except message.DecodeError as e:
            raise OSError(f"Cannot parse file {binary}: {e}.") from e
    elif os.path.exists(text):
        try:
            with open(text, "rb") as file:
                text_format.Parse(file.read().decode("utf-8"), saved_model)
        except text_format.ParseError as e:
            raise OSError(f"Cannot parse file {text}: {e}.") from e
    else:
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.path.sep}"
                      f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|{constants.SAVED_MODEL_FILENAME_PB}}}")
    return saved_model


def maybe_saved_model_directory(export_dir):
    """Whether ``export_dir`` holds a ``saved_model.pb`` or ``saved_model.pbtxt``."""
    return any(os.path.exists(os.path.join(os.fspath(export_dir), name))
               for name in (constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


def _meta_graph_of(saved_model, tags):
    for meta in saved_model.meta_graphs:
        if set(meta.meta_info_def.tags) == set(tags):
            return meta
    available = [list(meta.meta_info_def.tags) for meta in saved_model.meta_graphs]
    raise RuntimeError(f"MetaGraphDef associated with tags {str(tags).strip('[]')} could not be found in "
                       f"SavedModel, with available tags '{available}'. To inspect available tag-sets in the "
                       "SavedModel, please use the SavedModel CLI: `saved_model_cli`.")


def _init_op(meta, graph, import_scope):
    """The op the SavedModel runs after its variables are restored, or None."""
    from numflow.framework.meta_graph import prepend_name_scope

    signature = meta.signature_def.get(constants.INIT_OP_SIGNATURE_KEY)
    if signature is not None:
        name = signature.outputs[constants.INIT_OP_SIGNATURE_KEY].name
        return graph.as_graph_element(prepend_name_scope(name, import_scope)).op
    for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
        ops = graph.get_collection(key)
        if len(ops) > 1:
            raise RuntimeError(f"Expected exactly one SavedModel init op. Found {len(ops)}: {ops}.")
        if ops:
            return ops[0]
    return None


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Load the meta graph of ``tags`` from the SavedModel in ``export_dir`` into ``sess``'s graph,
    restore its variables and run its init op.

    Parameters
    ----------
    sess : Session
    tags : list of str
        The meta graph's tags, matched as a set.
    export_dir : str
        The SavedModel's folder.
    import_scope : str, optional
        Prefix the loaded ops' names with this scope.

    Returns
    -------
    MetaGraphDef
        The meta graph loaded (its ``signature_def`` names the tensors to feed and fetch).

    Raises
    ------
    RuntimeError
        No meta graph has these tags.
    OSError
        There is no SavedModel in ``export_dir``.
    """
    from numflow.framework.meta_graph import import_meta_graph

    meta = _meta_graph_of(parse_saved_model(export_dir), tags)
    with sess.graph.as_default():
        saver = import_meta_graph(meta, import_scope=import_scope, **saver_kwargs)
        if saver is None:
            _log.info("The specified SavedModel has no variables; no checkpoints were restored.")
        else:
            saver.restore(sess, os.path.join(os.fspath(export_dir), constants.VARIABLES_DIRECTORY,
                                             constants.VARIABLES_FILENAME))
        init_op = _init_op(meta, sess.graph, import_scope)
        if init_op is not None:
            sess.run(init_op)
    return meta
