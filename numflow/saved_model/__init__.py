"""``tf.saved_model`` of TensorFlow 1: write a SavedModel (``simple_save``, ``builder``) and load one
(``loader.load``), with the signature and tag helpers and constants; re-exports only."""

from numflow.saved_model import (
    builder,
    constants,
    loader,
    signature_constants,
    signature_def_utils,
    tag_constants,
    utils,
)
from numflow.saved_model.builder import SavedModelBuilder as Builder
from numflow.saved_model.builder import simple_save
from numflow.saved_model.loader import load, maybe_saved_model_directory
from numflow.saved_model.loader import maybe_saved_model_directory as contains_saved_model
from numflow.saved_model.signature_constants import (
    CLASSIFY_INPUTS,
    CLASSIFY_METHOD_NAME,
    CLASSIFY_OUTPUT_CLASSES,
    CLASSIFY_OUTPUT_SCORES,
    DEFAULT_SERVING_SIGNATURE_DEF_KEY,
    PREDICT_INPUTS,
    PREDICT_METHOD_NAME,
    PREDICT_OUTPUTS,
    REGRESS_INPUTS,
    REGRESS_METHOD_NAME,
    REGRESS_OUTPUTS,
)
from numflow.saved_model.signature_def_utils import build_signature_def, is_valid_signature, predict_signature_def
from numflow.saved_model.tag_constants import GPU, SERVING, TPU, TRAINING
from numflow.saved_model.utils import build_tensor_info, get_tensor_from_tensor_info

__all__ = [
    "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
    "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "GPU", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS",
    "REGRESS_INPUTS", "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS", "SERVING", "TPU", "TRAINING", "Builder",
    "build_signature_def", "build_tensor_info", "builder", "constants", "contains_saved_model",
    "get_tensor_from_tensor_info", "is_valid_signature", "load", "loader", "maybe_saved_model_directory",
    "predict_signature_def", "signature_constants", "signature_def_utils", "simple_save", "tag_constants", "utils",
]
