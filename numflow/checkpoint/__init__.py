"""TensorFlow V2 checkpoints: tensor bundles (index + data shards), the state file, readers.

``bundle`` writes and reads name -> numpy array bundles, ``state`` the ``checkpoint`` file,
``reader`` offers tf.train's ``load_checkpoint``/``list_variables``/``load_variable``; ``table`` and
``protos`` are the on-disk encodings, ``safetensors`` converts to and from .safetensors files.
Every prefix and directory may be a URL of an fsspec filesystem (``s3://bucket/run/model``).
"""

from numflow.checkpoint.bundle import BundleReader, BundleWriter, CheckpointVersionError, write_bundle
from numflow.checkpoint.reader import CheckpointReader, list_variables, load_checkpoint, load_variable
from numflow.checkpoint.state import (
    CheckpointState,
    checkpoint_exists,
    get_checkpoint_state,
    latest_checkpoint,
    update_checkpoint_state,
)

__all__ = [
    "BundleReader", "BundleWriter", "CheckpointVersionError", "write_bundle", "CheckpointReader",
    "list_variables", "load_checkpoint", "load_variable", "CheckpointState", "checkpoint_exists",
    "get_checkpoint_state", "latest_checkpoint", "update_checkpoint_state",
]
