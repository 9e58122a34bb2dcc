"""``tf.saved_model.builder.SavedModelBuilder`` and ``simple_save``: write a SavedModel as TensorFlow 1
does, ``saved_model.pb`` holding one MetaGraphDef per set of tags (the graph, its Saver's names, its
collections and signatures) and ``variables/variables.{index,data-00000-of-00001}`` the checkpoint
of the variables, so that TensorFlow's ``loader.load`` reads it.
"""

import os

from numflow.framework.graph import Operation
from numflow.saved_model import constants, signature_constants, tag_constants
from numflow.saved_model.signature_def_utils import predict_signature_def


class SavedModelBuilder:
    """Builds a SavedModel in ``export_dir``: the first meta graph with the variables
    (:meth:`add_meta_graph_and_variables`), more with :meth:`add_meta_graph`, then :meth:`save`.

    Raises
    ------
    AssertionError
        ``export_dir`` exists and is not empty.
    """

    def __init__(self, export_dir):
        from numflow.protos import saved_model_pb2
        from numflow.records import make_dirs

        self._export_dir = os.fspath(export_dir)
        if os.path.exists(self._export_dir) and os.listdir(self._export_dir):
            raise AssertionError(f"Export directory {self._export_dir} already exists, and isn't empty. Please "
                                 "choose a different export directory, or delete all the contents of the specified "
                                 "directory.")
        make_dirs(self._export_dir)
        self._saved_model = saved_model_pb2.SavedModel(
            saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._has_saved_variables = False

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None, assets_collection=None,
                                     legacy_init_op=None, clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Save the variables of ``sess`` and add its graph as the meta graph of ``tags``.

        Parameters
        ----------
        sess : Session
            The session holding the variables' values.
        tags : list of str
            The meta graph's tags (``[tag_constants.SERVING]``...).
        signature_def_map : dict, optional
            Key -> ``SignatureDef``.
        legacy_init_op, main_op : Operation, optional
            An op the loader runs after restoring the variables.
        clear_devices : bool
            Write no devices.
        saver : Saver, optional
            The Saver to save with (default: a new sharded Saver of every variable).
        """
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. Please invoke "
                                 "`add_meta_graph()` instead.")
        self._check_signatures(signature_def_map)
        self._check_assets(assets_collection)
        with sess.graph.as_default():
            self._add_main_op(legacy_init_op if main_op is None else main_op)
            saver = saver or self._saver()
            variables_dir = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY)
            os.makedirs(variables_dir, exist_ok=True)
            saver.save(sess, os.path.join(variables_dir, constants.VARIABLES_FILENAME), write_meta_graph=False,
                       write_state=False)
            self._add_meta_graph(saver, tags, signature_def_map, clear_devices, strip_default_attrs)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None, legacy_init_op=None,
                       clear_devices=False, main_op=None, strip_default_attrs=False, saver=None):
        """Add the default graph as the meta graph of ``tags``, restoring the variables saved before."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. Please invoke "
                                 "`add_meta_graph_and_variables()` first.")
        self._check_signatures(signature_def_map)
        self._check_assets(assets_collection)
        self._add_main_op(legacy_init_op if main_op is None else main_op)
        self._add_meta_graph(saver or self._saver(), tags, signature_def_map, clear_devices, strip_default_attrs)

    def save(self, as_text=False):
        """Write ``saved_model.pb`` (``saved_model.pbtxt`` with ``as_text``); returns its path as bytes."""
        from numflow.framework.meta_graph import write_proto

        name = constants.SAVED_MODEL_FILENAME_PBTXT if as_text else constants.SAVED_MODEL_FILENAME_PB
        path = os.path.join(self._export_dir, name)
        write_proto(path, self._saved_model, as_text)
        return path.encode()

    @staticmethod
    def _saver():
        from numflow.train.saver import Saver

        return Saver(sharded=True, allow_empty=True)

    def _add_meta_graph(self, saver, tags, signature_def_map, clear_devices, strip_default_attrs):
        meta = saver.export_meta_graph(clear_devices=clear_devices, strip_default_attrs=strip_default_attrs)
        meta.meta_info_def.tags.extend(tags)
        for key, signature in (signature_def_map or {}).items():
            meta.signature_def[key].CopyFrom(signature)
        self._saved_model.meta_graphs.add().CopyFrom(meta)

    @staticmethod
    def _check_signatures(signature_def_map):
        for signature in (signature_def_map or {}).values():
            for info in list(signature.inputs.values()) + list(signature.outputs.values()):
                if info.WhichOneof("encoding") is None:
                    raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used in the "
                                         "SignatureDefs must have one of the 'encoding' fields (e.g., name or "
                                         "coo_sparse) set.")
                if not info.dtype:
                    raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used in the "
                                         "SignatureDefs must have the dtype field set.")

    @staticmethod
    def _check_assets(assets_collection):
        if assets_collection:
            raise NotImplementedError("numflow's SavedModelBuilder writes no assets.")

    @staticmethod
    def _add_main_op(main_op):
        from numflow.framework.graph import get_default_graph

        if main_op is None:
            return
        if not isinstance(main_op, Operation):
            raise TypeError(f"Expected {main_op} to be an Operation but got type {type(main_op)} instead.")
        graph = get_default_graph()
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            if graph.get_collection(key):
                raise ValueError(f"Graph already contains one or more main ops under the collection {key}.")
        graph.add_to_collection(constants.MAIN_OP_KEY, main_op)


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Save ``session``'s graph and variables as a SavedModel for serving: the tag ``serve`` and one
    predict signature, ``serving_default``, of ``inputs`` and ``outputs`` (key -> Tensor).

    >>> import numflow as tf, tempfile, os
    >>> export_dir = os.path.join(tempfile.mkdtemp(), "model")
    >>> with tf.Graph().as_default(), tf.Session() as sess:
    ...     x = tf.placeholder(tf.float32, [None], name="x")
    ...     y = tf.identity(2 * x + tf.Variable(1.0, name="b"), name="y")
    ...     sess.run(tf.global_variables_initializer())
    ...     tf.saved_model.simple_save(sess, export_dir, {"x": x}, {"y": y})
    >>> with tf.Graph().as_default(), tf.Session() as sess:
    ...     meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
    ...     signature = meta.signature_def["serving_default"]
    ...     sess.run(signature.outputs["y"].name, {signature.inputs["x"].name: [1.0, 2.0]}).tolist()
    [3.0, 5.0]
    """
    signature_def_map = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs, outputs)}
    builder = SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(session, tags=[tag_constants.SERVING], signature_def_map=signature_def_map,
                                         main_op=legacy_init_op, clear_devices=True)
    builder.save()
