"""The kernel of ``tf.py_func`` and ``tf.numpy_function`` (ops ``PyFunc``, ``PyFuncStateless``): it calls
the Python function registered under the op's ``token`` and checks what it returns as TensorFlow's
``py_func.cc`` does (how many values, each one's dtype: no conversion)."""

import weakref

import numpy as np

from numflow_kernels.reference_math import kernel
from numflow_kernels.registry import list_results

# token -> the function to call; the graph that uses a function keeps it alive.
FUNCTIONS = weakref.WeakValueDictionary()

_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _type_name(dtype):
    """``dtype`` (a numpy dtype) as TensorFlow's messages name it: ``float``, ``double``, ``string``..."""
    return "string" if dtype.kind in "OSU" else _TF_TYPE_NAMES.get(dtype.name, dtype.name)


def _argument(array):
    """An input as TensorFlow passes it: a numpy scalar (bytes for a string) for a scalar, else an array of
    its own that the function may change."""
    return array[()] if array.ndim == 0 else np.array(array)


def _result(value, index, token, want):
    if isinstance(value, np.ndarray) and value.dtype.kind in "OSU" or isinstance(value, bytes | str):
        value = np.asarray(value, dtype=object)
        flat = value.reshape(-1)
        for i, item in enumerate(flat):
            flat[i] = item.encode() if isinstance(item, str) else item
        array = value
    else:
        array = np.asarray(value, order="C")
    if array.dtype.kind in "OSU" and want == np.dtype(object) or array.dtype == want:
        return array
    raise ValueError(f"{index}-th value returned by {token} is {_type_name(array.dtype)}, but expects "
                     f"{_type_name(want)}")


@kernel("PyFunc")
@kernel("PyFuncStateless")
@kernel("EagerPyFunc")
def py_func(ctx, *args):
    token = ctx.attrs["token"]
    func = FUNCTIONS.get(token)
    if func is None:
        raise ValueError(f"Could not find callback with key={token} in the registry.")
    result = func(*[_argument(a) for a in args])
    if result is None:
        values = []
    elif isinstance(result, list | tuple):
        values = list(result)
    else:
        values = [result]
    wants = list(ctx.attrs["Tout"])
    if len(values) != len(wants):
        raise ValueError(f"{token} returns {len(values)} values, but expects to see {len(wants)} values.")
    outputs = tuple(_result(v, i, token, want) for i, (v, want) in enumerate(zip(values, wants)))
    return list_results(outputs)
