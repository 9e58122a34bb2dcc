"""Python functions as ops: ``tf.py_func`` and ``tf.numpy_function`` (ops ``PyFunc``, ``PyFuncStateless``),
and ``tf.py_function`` (op ``EagerPyFunc``), whose function gets values with a ``.numpy()`` method.

The function runs when the op runs, on numpy values, and must return values of exactly the declared
dtypes (``np.float64(1.0)`` for a ``tf.float32`` output is an InvalidArgumentError, as in TensorFlow).
An exception it raises becomes TensorFlow's error class for it: ValueError and TypeError an
InvalidArgumentError, StopIteration an OutOfRangeError, anything else an UnknownError; a
``tf.errors`` error passes as it is. The ops have no gradient.
"""

import itertools
import traceback

import numpy as np

from numflow import errors
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow_kernels import reference_script

_tokens = itertools.count()

_ERROR_CLASSES = (
    ((ValueError, TypeError), errors.InvalidArgumentError), (StopIteration, errors.OutOfRangeError),
    (MemoryError, errors.ResourceExhaustedError), (NotImplementedError, errors.UnimplementedError),
)


def _py_func_infer(op):
    return [(dtype, TensorShape(None)) for dtype in op._attrs["Tout"]]


declare("PyFunc", stateful=True)(_py_func_infer)
declare("PyFuncStateless", stateful=True)(_py_func_infer)  # numflow never folds it: calls stay the user's
declare("EagerPyFunc", stateful=True)(_py_func_infer)
not_differentiable("PyFunc", "PyFuncStateless", "EagerPyFunc")


def _calling(func):
    """``func`` with its exceptions turned into TensorFlow's errors, their text and traceback kept."""

    def call(*args):
        try:
            return func(*args)
        except errors.OpError:
            raise
        except Exception as exc:
            cls = next((c for kinds, c in _ERROR_CLASSES if isinstance(exc, kinds)), errors.UnknownError)
            text = f"{type(exc).__name__}: {exc}\n{''.join(traceback.format_exception(exc))}"
            raise cls(None, None, text) from exc

    return call


def _add_py_func(op_type, default_name, call, inp, Tout, name):  # noqa: N803 - TensorFlow's argument name
    from numflow.framework import dtypes

    as_list = isinstance(Tout, list | tuple)
    touts = [dtypes.as_dtype(t) for t in (Tout if as_list else [Tout])]
    graph = get_default_graph()
    with graph.name_scope(name or default_name) as scope:
        inputs = [convert_to_tensor(x) for x in inp]
        token = f"pyfunc_{next(_tokens)}"
        reference_script.FUNCTIONS[token] = call
        graph.__dict__.setdefault("_py_funcs_used_in_graph", []).append(call)
        attrs = {"token": token, "Tin": [t.dtype.base_dtype for t in inputs], "Tout": touts}
        op = graph.create_op(op_type, inputs, attrs, name=scope)
    if not touts:
        return op
    return op.outputs if as_list else op.outputs[0]


class EagerValue(np.ndarray):
    """An input of a ``py_function``: a numpy array that also answers ``.numpy()``, as an eager tensor does."""

    def numpy(self):
        """The value as a plain numpy array (a numpy scalar for a scalar)."""
        array = np.asarray(self).view(np.ndarray)
        return array[()] if array.ndim == 0 else array.copy()


def _eager_call(func, touts):
    def call(*args):
        result = func(*[np.asarray(a).view(EagerValue) for a in args])
        values = list(result) if isinstance(result, list | tuple) else [] if result is None else [result]
        if len(values) != len(touts):
            return result  # the kernel reports the count
        converted = [np.asarray(v, dtype=t.as_numpy_dtype).view(np.ndarray) for v, t in zip(values, touts)]
        return converted if isinstance(result, list | tuple) else converted[0]

    return _calling(call)


def py_function(func, inp, Tout, name=None):  # noqa: N803 - TensorFlow's argument name
    """Run ``func`` when the op runs, on its inputs as arrays with a ``.numpy()`` method (TensorFlow passes
    eager tensors), and convert what it returns to the dtypes ``Tout`` (op ``EagerPyFunc``; no gradient).

    >>> import numflow as tf
    >>> total = tf.py_function(lambda x: x.numpy().sum(), [tf.constant([1, 2, 3])], tf.int64)
    >>> int(tf.Session().run(total))
    6
    """
    from numflow.framework import dtypes

    touts = [dtypes.as_dtype(t) for t in (Tout if isinstance(Tout, list | tuple) else [Tout])]
    return _add_py_func("EagerPyFunc", "EagerPyFunc", _eager_call(func, touts), inp, Tout, name)


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TensorFlow's argument name
    """Run ``func`` on the numpy values of ``inp`` as an op whose outputs have the dtypes ``Tout``.

    ``Tout`` is a dtype (one output, returned as a tensor) or a list of dtypes (a list of tensors;
    an empty one gives the op). Scalars reach ``func`` as numpy scalars (bytes for strings), other
    values as arrays; it returns one value, or a list or tuple of them. The outputs' shapes are
    unknown (``set_shape`` narrows them).

    >>> import numpy as np, numflow as tf
    >>> doubled = tf.py_func(lambda x: x * 2, [tf.constant([1.0, 2.0])], tf.float32)
    >>> tf.Session().run(doubled).tolist()
    [2.0, 4.0]
    """
    return _add_py_func("PyFunc" if stateful else "PyFuncStateless", "PyFunc", _calling(func), inp, Tout, name)


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TensorFlow's argument name
    """:func:`py_func` under its TensorFlow 2 name."""
    return py_func(func, inp, Tout, stateful=stateful, name=name)
