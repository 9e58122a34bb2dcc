"""Checkpoint ops: save variables to, and restore them from, a TensorFlow V2 bundle.

``SaveBundle`` and ``RestoreBundle`` take the variables as references, so the kernels stream each
buffer to or from disk under that variable's lock, with no copy of the whole model in between.
``SaveV2`` and ``RestoreV2`` are TensorFlow's ops of the same files, as graphs TensorFlow wrote hold
them: values in, tensors out (a restore assigns them with ``Assign`` ops).
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape


@declare("SaveBundle", stateful=True, ref_inputs=True)
def _save_infer(op):
    return [(dtypes.string, TensorShape([]))]


@declare("RestoreBundle", stateful=True, ref_inputs=True)
def _restore_infer(op):
    return []


def save_bundle(prefix, names, refs, name="save"):
    """An op writing ``refs`` (variable references) under checkpoint keys ``names`` to ``prefix``."""
    return get_default_graph().create_op("SaveBundle", [prefix, *refs], {"names": list(names)}, name=name)


def restore_bundle(prefix, names, refs, name="restore_all"):
    """An op reading checkpoint keys ``names`` from ``prefix`` into the variables ``refs``."""
    return get_default_graph().create_op("RestoreBundle", [prefix, *refs], {"names": list(names)}, name=name)


@declare("SaveV2", stateful=True)
def _save_v2_infer(op):
    return []


@declare("RestoreV2", stateful=True)
def _restore_v2_infer(op):
    return [(dtype, TensorShape(None)) for dtype in op._attrs["dtypes"]]


# A sharded Saver's ops, as graphs TensorFlow wrote (a SavedModel's) hold them: the shard's file name,
# and the merge of the shards' bundles into the checkpoint.
@declare("ShardedFilename")
def _sharded_filename_infer(op):
    return [(dtypes.string, TensorShape([]))]


@declare("MergeV2Checkpoints", stateful=True)
def _merge_infer(op):
    return []
