"""``tf.keras.backend`` in TensorFlow 1.x mode: the Keras session, the learning phase, the float settings,
variables and placeholders (``placeholder``, ``variable``, ``get_value``...), and the tensor functions of
``backend_math.py``.

The Keras session is the default session when one is open (``with tf.Session() as sess``), else one session
of the default graph that Keras makes and keeps (``get_session``); before handing it out, Keras initializes
the variables it made (layers' weights, optimizers' variables, ``variable``) that are not yet initialized, as
TensorFlow does. ``clear_session`` forgets it, resets the default graph and the layers' name counts.
"""

import contextlib
import weakref

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph, reset_default_graph
from numflow.framework.shapes import TensorShape
from numflow.layers import core as _core
from numflow.layers.base import reset_layer_names
from numflow.ops import array_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.runtime.session import Session, get_default_session

_settings = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last", "manual_init": False}
_session = {"session": None}
_learning_phase_values = weakref.WeakKeyDictionary()  # graph -> the value set_learning_phase gave
_keras_variables = weakref.WeakKeyDictionary()  # graph -> the variables Keras made, to initialize
_uids = weakref.WeakKeyDictionary()  # graph -> {prefix: count} of get_uid


def floatx():
    """The default float type's name, ``"float32"``."""
    return _settings["floatx"]


def set_floatx(value):
    """Set the default float type (``"float16"``, ``"float32"``, ``"float64"``)."""
    if value not in ("float16", "float32", "float64", "bfloat16"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'float16', 'float32', 'float64'}}")
    _settings["floatx"] = str(value)


def epsilon():
    """The fuzz factor of Keras' numerics, 1e-7."""
    return _settings["epsilon"]


def set_epsilon(value):
    _settings["epsilon"] = value


def image_data_format():
    """``"channels_last"``."""
    return _settings["image_data_format"]


def set_image_data_format(data_format):
    """Set the default image layout, ``"channels_last"`` or ``"channels_first"``."""
    if data_format not in {"channels_last", "channels_first"}:
        raise ValueError(f"Unknown `data_format`: {data_format}. Expected one of {{'channels_last', "
                         "'channels_first'}")
    _settings["image_data_format"] = str(data_format)


def manual_variable_initialization(value):
    """Whether the Keras session leaves the variables to be initialized by hand (False: it initializes them)."""
    _settings["manual_init"] = bool(value)


def reset_uids():
    """Forget the counts of ``get_uid`` and of the layer names, in every graph."""
    for graph in list(_uids):
        reset_layer_names(graph)
    _uids.clear()
    reset_layer_names(get_default_graph())


def get_uid(prefix=""):
    """1, 2, 3...: how many times ``prefix`` was asked for in the default graph (``input_1``, ``input_2``)."""
    counts = _uids.setdefault(get_default_graph(), {})
    counts[prefix] = counts.get(prefix, 0) + 1
    return counts[prefix]


# -- the learning phase ------------------------------------------------------------------------------------
def learning_phase():
    """The value ``set_learning_phase`` gave (0 or 1), else the graph's ``keras_learning_phase`` placeholder
    (a bool defaulting to False: inference; feed 1 for training)."""
    graph = get_default_graph()
    if graph in _learning_phase_values:
        return _learning_phase_values[graph]
    return _core.learning_phase()


def set_learning_phase(value):
    """Fix the learning phase of the default graph to 0 (inference) or 1 (training)."""
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _learning_phase_values[get_default_graph()] = value


@contextlib.contextmanager
def learning_phase_scope(value):
    """Within the ``with`` block, the learning phase of the default graph is ``value`` (0 or 1); it is what
    it was again after."""
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    graph = get_default_graph()
    previous = _learning_phase_values.get(graph)
    _learning_phase_values[graph] = value
    try:
        yield
    finally:
        if previous is None:
            _learning_phase_values.pop(graph, None)
        else:
            _learning_phase_values[graph] = previous


def switch(condition, then_expression, else_expression):
    """``then_expression`` where ``condition`` holds, else ``else_expression``: a ``tf.cond`` of the two
    (tensors or callables) for a scalar condition, an element-wise ``tf.where`` (the condition broadcast by
    tiling) otherwise."""
    from numflow.ops import math_ops
    from numflow.ops.cond import cond
    from numflow.ops.selection_ops import where_v2 as where

    if condition.dtype != dtypes.bool:
        condition = math_ops.cast(condition, "bool")
    cond_ndim = ndim(condition)
    if not cond_ndim:
        return cond(condition, then_expression if callable(then_expression) else lambda: then_expression,
                    else_expression if callable(else_expression) else lambda: else_expression)
    then_expression = then_expression() if callable(then_expression) else then_expression
    else_expression = else_expression() if callable(else_expression) else else_expression
    expr_ndim = ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError(f"Rank of `condition` should be less than or equal to rank of `then_expression` and "
                         f"`else_expression`. ndim(condition)={cond_ndim}, ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        cond_shape = array_ops.concat([array_ops.shape(condition), [1] * (expr_ndim - cond_ndim)], axis=0)
        condition = array_ops.reshape(condition, cond_shape)
        expr_shape = array_ops.shape(then_expression)
        tile_shape = where(expr_shape - cond_shape > 0, expr_shape, array_ops.ones_like(expr_shape))
        condition = tile(condition, tile_shape)
    return where(condition, then_expression, else_expression)


def in_train_phase(x, alt, training=None):
    """``x`` in training, ``alt`` otherwise (each a tensor or a callable making one): chosen now when
    ``training`` (default: the learning phase) is a Python value, by ``switch`` when it is a tensor."""
    from numflow.ops.constant_op import is_tensor

    if training is None:
        training = learning_phase()
    if not is_tensor(training):
        if training == 1 or training is True:
            return x() if callable(x) else x
        if training == 0 or training is False:
            return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x, alt, training=None):
    """``x`` in inference, ``alt`` in training (``in_train_phase`` the other way round)."""
    return in_train_phase(alt, x, training=training)


# -- the session -------------------------------------------------------------------------------------------
def track_variable(variable):
    """Note ``variable`` as made by Keras: ``get_session`` initializes it."""
    _keras_variables.setdefault(variable.graph, []).append(variable)


def get_session(op_input_list=()):
    """The Keras session (see the module docstring), its Keras-made variables initialized."""
    del op_input_list
    session = get_default_session()
    if session is None:
        graph = get_default_graph()
        session = _session["session"]
        if session is None or session.graph is not graph:
            session = _session["session"] = Session(graph=graph)
    if not _settings["manual_init"]:
        _initialize_variables(session)
    return session


def set_session(session):
    """Make ``session`` the Keras session."""
    _session["session"] = session


def get_graph():
    """The default graph."""
    return get_default_graph()


def clear_session():
    """Forget the Keras session, the layer names and learning phase, and reset the default graph."""
    _session["session"] = None
    graph = get_default_graph()
    reset_layer_names(graph)
    for table in (_uids, _learning_phase_values, _keras_variables):
        table.pop(graph, None)
    reset_default_graph()


def _initialize_variables(session):
    """Initialize the graph's global variables and the Keras-made ones that are not yet (once each, as Keras)."""
    from numflow.variables.variable import global_variables

    with session.graph.as_default():
        candidates = global_variables() + _keras_variables.get(session.graph, [])
    seen = set()
    variables = [v for v in candidates if not getattr(v, "_keras_initialized", False)
                 and not (id(v) in seen or seen.add(id(v)))]
    if not variables:
        return
    from numflow.variables.variable import is_variable_initialized

    with session.graph.as_default():
        checks = [is_variable_initialized(v) for v in variables]
    flags = session.run(checks)
    pending = [v for v, done in zip(variables, flags) if not done]
    if pending:
        session.run([v.initializer for v in pending])
    for v in variables:
        v._keras_initialized = True


# -- tensors and variables ---------------------------------------------------------------------------------
def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None, ragged=False):
    """A placeholder of ``shape`` (or of ``ndim`` unknown dimensions), ``floatx`` by default."""
    del sparse, ragged
    if shape is None and ndim:
        shape = (None,) * ndim
    return array_ops.placeholder(dtype or floatx(), shape=shape, name=name)


def variable(value, dtype=None, name=None, constraint=None):
    """A variable holding ``value`` (an array or a tensor; ``floatx`` by default), initialized by the Keras
    session."""
    from numflow.ops.constant_op import is_tensor
    from numflow.variables.variable import Variable

    dtype = dtypes.as_dtype(dtype or floatx())
    if not is_tensor(value):
        value = np.asarray(value, dtype=dtype.as_numpy_dtype)
    made = Variable(value, dtype=dtype, name=name, constraint=constraint)
    track_variable(made)
    return made


def constant(value, dtype=None, shape=None, name=None):
    from numflow.ops.constant_op import constant as make

    return make(value, dtype=dtype or floatx(), shape=shape, name=name)


def eval(x):  # noqa: A001  (Keras' name)
    """The value of tensor or variable ``x`` in the Keras session."""
    return get_session().run(x)


def get_value(x):
    """The value of variable ``x``, as a numpy array (a Python number or array as it is)."""
    if isinstance(x, int | float | np.ndarray | np.generic):
        return x
    return get_session().run(x)


def batch_get_value(tensors):
    return get_session().run(list(tensors))


def set_value(x, value):
    """Assign ``value`` (a numpy array) to variable ``x`` in the Keras session."""
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Assign each ``(variable, value)`` pair in the Keras session, in one run."""
    tuples = list(tuples)
    if not tuples:
        return
    session = get_session()
    ops, feed = [], {}
    for x, value in tuples:
        value = np.asarray(value, dtype=dtypes.as_dtype(x.dtype).base_dtype.as_numpy_dtype)
        assign_placeholder, assign_op = _assigner(x)
        ops.append(assign_op)
        feed[assign_placeholder] = value
    session.run(ops, feed_dict=feed)


def _assigner(x):
    """The (placeholder, assign op) pair that sets ``x``, made once per variable as Keras does."""
    made = getattr(x, "_keras_assigner", None)
    if made is None:
        dtype = dtypes.as_dtype(x.dtype).base_dtype
        with x.graph.as_default():
            placeholder_ = array_ops.placeholder(dtype, shape=x.shape, name="Placeholder")
            made = (placeholder_, x.assign(placeholder_))
        x._keras_assigner = made
    return made


def int_shape(x):
    """The static shape of ``x`` as a tuple of ints and Nones (None if the rank is unknown)."""
    try:
        shape = x.shape if isinstance(x.shape, TensorShape) else TensorShape(x.shape)
        return None if shape.ndims is None else tuple(shape.as_list())
    except ValueError:
        return None


def ndim(x):
    """The rank of ``x``, None if unknown."""
    return convert_to_tensor(x).shape.ndims if not hasattr(x, "shape") else TensorShape(x.shape).ndims


def shape(x):
    """The dynamic shape of ``x``, a tensor."""
    return array_ops.shape(x)


def dtype(x):
    """The dtype's name of ``x`` (``"float32"``)."""
    return dtypes.as_dtype(x.dtype).base_dtype.name


def is_keras_tensor(x):
    """Whether ``x`` came out of a Keras layer or ``Input``."""
    from numflow.keras.engine.node import history_of

    return history_of(x) is not None


def name_scope(name):
    return get_default_graph().name_scope(name)


def zeros(shape, dtype=None, name=None):
    """A variable of zeros (initialized by the Keras session)."""
    return variable(np.zeros(shape), dtype=dtype, name=name)


def ones(shape, dtype=None, name=None):
    """A variable of ones (initialized by the Keras session)."""
    return variable(np.ones(shape), dtype=dtype, name=name)


from numflow.keras.backend_nn import (  # noqa: E402, F401, I001  (the neural-network functions, re-exported)
    batch_normalization, bias_add, conv1d, conv2d, conv2d_transpose, conv3d, depthwise_conv2d, dropout, elu,
    hard_sigmoid, local_conv1d, local_conv2d, moving_average_update, normalize_batch_in_training, pool2d, pool3d,
    relu, repeat, repeat_elements, resize_images, resize_volumes, separable_conv2d, softplus, softsign,
    spatial_2d_padding, spatial_3d_padding, temporal_padding,
)
from numflow.keras.backend_ops import (  # noqa: E402, F401, I001  (more tensor functions, re-exported)
    all, any, arange, argmin, backend, batch_dot, batch_flatten, cast_to_floatx, cos, count_params, ctc_batch_cost,
    ctc_decode, ctc_label_dense_to_sparse,
    cumprod, cumsum, eye, flatten, foldl, foldr, gather, greater, greater_equal, in_top_k, is_sparse, less,
    less_equal, map_fn, not_equal, one_hot, permute_dimensions, print_tensor, random_bernoulli, random_binomial,
    random_normal_variable, random_uniform_variable, reverse, round, sin, stack, std, tile, to_dense,
    truncated_normal, update, update_add, update_sub, var,
)
from numflow.keras.backend_math import (  # noqa: E402, F401, I001  (the tensor functions, re-exported)
    Function, abs, argmax, binary_crossentropy, binary_focal_crossentropy, cast, categorical_crossentropy,
    categorical_focal_crossentropy, clip, concatenate, dot, equal, exp, expand_dims, function, gradients,
    l2_normalize, log, max, maximum, mean, min, minimum, ones_like, pow, prod, random_normal, random_uniform, reshape,
    sigmoid, sign, softmax, sparse_categorical_crossentropy, sqrt, square, squeeze, stop_gradient, sum, tanh,
    transpose, zeros_like,
)
from numflow.keras.backend_rnn import rnn  # noqa: E402, F401, I001  (the recurrent loop, re-exported)
