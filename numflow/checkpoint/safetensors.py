"""Conversion between TF checkpoints and .safetensors files (needs the optional ``safetensors`` package)."""

import os

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle import BundleWriter
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.checkpoint.files import replace_with, temp_path

# safetensors has no string or complex128 type; bfloat16 needs ml_dtypes for numpy to name it.
_UNSUPPORTED = {datatypes.DT_STRING, 18} | (set() if datatypes.BFLOAT16 is not None else {datatypes.DT_BFLOAT16})


def _safetensors_numpy():
    try:
        import safetensors.numpy
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("Converting to or from .safetensors needs the safetensors package: "
                          "pip install 'numflow[safetensors]'") from exc
    return safetensors.numpy


def export_safetensors(prefix, path, metadata=None, skip_unsupported=False):
    """Write every tensor of checkpoint ``prefix`` to the .safetensors file ``path``.

    Parameters
    ----------
    prefix : str or path-like
        The checkpoint prefix.
    path : str or path-like
        The file to write; replaced atomically.
    metadata : dict of str to str, optional
        Stored in the safetensors header.
    skip_unsupported : bool
        Leave out tensors safetensors cannot hold (DT_STRING, complex128, and bfloat16 without
        ``ml_dtypes``) instead of raising.

    Returns
    -------
    list of str
        The names that were left out.

    Raises
    ------
    ValueError
        When a tensor has a type safetensors cannot hold and ``skip_unsupported`` is false.
    """
    st = _safetensors_numpy()
    path = os.fspath(path)
    tensors, skipped = {}, []
    with BundleReader(prefix) as reader:
        for name in reader.keys():
            enum = reader.entry(name).dtype
            if enum in _UNSUPPORTED or not datatypes.is_supported(enum):
                if not skip_unsupported:
                    raise ValueError(f"Tensor {name} has dtype {datatypes.tf_name(enum)}, which .safetensors "
                                     "cannot hold; pass skip_unsupported=True to leave it out")
                skipped.append(name)
                continue
            tensors[name] = reader.get_tensor(name)
    temp = temp_path(path, "tmp")
    replace_with(temp, path, lambda: st.save_file(tensors, temp, metadata=metadata))
    return skipped


def import_safetensors(path, prefix):
    """Write the tensors of the .safetensors file ``path`` as checkpoint ``prefix``.

    Tensors are read one at a time and added in name order, as TF's Saver orders them.

    Returns
    -------
    str
        The prefix.
    """
    st = _safetensors_numpy()
    with st.safe_open(os.fspath(path), framework="np") as source:
        names = sorted(source.keys(), key=lambda n: n.encode("utf-8"))
        with BundleWriter(prefix) as writer:
            for name in names:
                writer.add(name, source.get_tensor(name))
    return writer.prefix
