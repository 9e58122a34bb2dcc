"""``tf.saved_model.signature_def_utils``: SignatureDefs, the named inputs and outputs of a model."""

from numflow.saved_model import signature_constants
from numflow.saved_model.utils import build_tensor_info


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """A ``SignatureDef`` of the TensorInfo maps ``inputs`` and ``outputs`` and ``method_name``.

    Parameters
    ----------
    inputs, outputs : dict, optional
        Key -> ``TensorInfo`` (from ``build_tensor_info``).
    method_name : str, optional
        What the signature does (``signature_constants.PREDICT_METHOD_NAME``...).
    defaults : dict, optional
        Not supported by numflow: must be empty.
    """
    from numflow.protos import meta_graph_pb2

    if defaults:
        raise NotImplementedError("numflow's build_signature_def writes no input defaults.")
    signature = meta_graph_pb2.SignatureDef()
    for key, info in (inputs or {}).items():
        signature.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        signature.outputs[key].CopyFrom(info)
    if method_name is not None:
        signature.method_name = method_name
    return signature


def predict_signature_def(inputs, outputs):
    """The predict ``SignatureDef`` of ``inputs`` and ``outputs`` (key -> Tensor).

    Raises
    ------
    ValueError
        ``inputs`` or ``outputs`` is None or empty.
    """
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               signature_constants.PREDICT_METHOD_NAME)


def is_valid_signature(signature_def):
    """Whether ``signature_def`` names a method and has inputs and outputs whose tensors are named."""
    if signature_def is None or not signature_def.method_name:
        return False
    if not signature_def.inputs or not signature_def.outputs:
        return False
    infos = list(signature_def.inputs.values()) + list(signature_def.outputs.values())
    return all(info.WhichOneof("encoding") is not None and info.dtype for info in infos)
