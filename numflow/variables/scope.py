"""variable_scope and get_variable: hierarchical variable names, defaults and reuse.

A graph keeps one variable store (full name -> Variable) and the current VariableScope. Opening a
scope resolves its settings (name, reuse, initializer, dtype...) into a new VariableScope object,
inherited from the enclosing one where not given; ``get_variable`` then does one thing: look the
full name up, and share the variable or create it.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     with tf.variable_scope("conv1"):
...         w = tf.get_variable("weights", [2, 2])
...     with tf.variable_scope("conv1", reuse=True):
...         assert tf.get_variable("weights") is w
...     w.name
'conv1/weights:0'

Trap: the current scope is kept per graph, not per thread; build a graph from one thread.
"""

import contextlib
import enum
import traceback

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, Tensor, get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import init_ops
from numflow.variables.variable import Variable


class _ReuseMode(enum.Enum):
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


class VariableScope:
    """The settings ``get_variable`` uses inside a ``variable_scope``: name prefix, reuse, defaults."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=dtypes.float32,
                 use_resource=None, constraint=None):
        self._reuse = reuse
        self._name = name
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtypes.as_dtype(dtype)
        self._use_resource = use_resource
        self._constraint = constraint

    name = property(lambda self: self._name)
    original_name_scope = property(lambda self: self._name_scope)
    reuse = property(lambda self: self._reuse)
    initializer = property(lambda self: self._initializer)
    regularizer = property(lambda self: self._regularizer)
    caching_device = property(lambda self: self._caching_device)
    partitioner = property(lambda self: self._partitioner)
    custom_getter = property(lambda self: self._custom_getter)
    dtype = property(lambda self: self._dtype)
    use_resource = property(lambda self: self._use_resource)
    constraint = property(lambda self: self._constraint)

    def reuse_variables(self):
        """From now on, ``get_variable`` in this scope shares existing variables."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtypes.as_dtype(dtype)

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def get_variable(self, name, shape=None, dtype=None, initializer=None, regularizer=None, reuse=None,
                     trainable=None, collections=None, caching_device=None, partitioner=None,
                     validate_shape=True, use_resource=None, custom_getter=None, constraint=None, **kwargs):
        """``get_variable`` with this scope's settings as the defaults."""
        graph = get_default_graph()
        full_name = f"{self._name}/{name}" if self._name else name
        if reuse is None or reuse is False:
            reuse = self._reuse
        request = dict(
            shape=shape, dtype=dtypes.as_dtype(dtype or self._dtype),
            initializer=initializer if initializer is not None else self._initializer,
            regularizer=regularizer if regularizer is not None else self._regularizer,
            reuse=reuse, trainable=trainable, collections=collections, validate_shape=validate_shape,
            constraint=constraint if constraint is not None else self._constraint,
            caching_device=caching_device or self._caching_device,
        )
        getter = _store_getter
        for outer in (self._custom_getter, custom_getter):
            if outer is not None:
                getter = _wrap_getter(outer, getter)
        with graph.name_scope(None):
            return getter(full_name, **request)


def _wrap_getter(custom, inner):
    def getter(name, *args, **kwargs):
        return custom(inner, name, *args, **kwargs)

    return getter


class _Store:
    """One graph's variables by full name, and how often each scope name has been opened."""

    def __init__(self):
        self.variables = {}
        self.scope_counts = {}
        self.current = VariableScope(False)


def _store(graph=None):
    graph = graph or get_default_graph()
    if graph._variable_store is None:
        graph._variable_store = _Store()
    return graph._variable_store


def get_variable_scope():
    """The current VariableScope of the default graph."""
    return _store().current


def _store_getter(name, shape=None, dtype=dtypes.float32, initializer=None, regularizer=None, reuse=None,
                  trainable=None, collections=None, validate_shape=True, constraint=None,
                  caching_device=None, **unused):
    """Share the variable ``name`` or create it; every reuse rule and its error lives here."""
    store = _store()
    found = store.variables.get(name)
    if found is not None:
        if reuse is not True and reuse is not AUTO_REUSE:
            raise ValueError(
                f"Variable {name} already exists, disallowed. Did you mean to set reuse=True or "
                f"reuse=tf.AUTO_REUSE in VarScope? Originally defined at:\n\n{_defined_at(found)}"
            )
        if shape is not None and not found.shape.is_compatible_with(shape):
            raise ValueError(
                f"Trying to share variable {name}, but specified shape {TensorShape(shape)} and found shape "
                f"{found.shape}."
            )
        if dtype is not None and dtype != found.dtype.base_dtype:
            raise ValueError(
                f"Trying to share variable {name}, but specified dtype {dtype.name} and found dtype "
                f"{found.dtype.name}."
            )
        return found
    if reuse is True:
        raise ValueError(
            f"Variable {name} does not exist, or was not created with tf.get_variable(). Did you mean to set "
            "reuse=tf.AUTO_REUSE in VarScope?"
        )
    initial_value = _initial_value(name, shape, dtype, initializer)
    variable = Variable(initial_value=initial_value, name=name, trainable=trainable, collections=collections,
                        dtype=dtype, validate_shape=validate_shape, constraint=constraint)
    store.variables[name] = variable
    if regularizer is not None:
        graph = get_default_graph()
        with graph.name_scope(f"{name}/Regularizer/"):
            loss = regularizer(variable)
        if loss is not None:
            graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return variable


def _initial_value(name, shape, dtype, initializer):
    """The Variable's initial value: a tensor or value as given, else a callable building it."""
    if isinstance(initializer, type) and issubclass(initializer, init_ops.Initializer):
        initializer = initializer(dtype=dtype)
    if initializer is not None and not callable(initializer):
        if shape is not None:
            raise ValueError("If initializer is a constant, do not specify shape.")
        if isinstance(initializer, Tensor) or hasattr(initializer, "_as_tensor"):
            return initializer
        return lambda: initializer
    if shape is None:
        raise ValueError(
            f"Shape of a new variable ({name}) must be fully defined, but instead was <unknown>."
        )
    shape = TensorShape(shape)
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new variable ({name}) must be fully defined, but instead was {shape}.")
    if initializer is None:
        if dtype.is_floating:
            initializer = init_ops.glorot_uniform_initializer()
        elif dtype.is_integer or dtype.is_bool or dtype == dtypes.string:
            initializer = init_ops.zeros_initializer()
        else:
            raise ValueError(f"An initializer for variable {name} of {dtype!r} is required")
    dims = shape.as_list()
    return lambda: initializer(dims, dtype=dtype, partition_info=None)


def _defined_at(variable):
    frames = [f for f in (variable.op.traceback or ()) if "/numflow/" not in f.filename.replace("\\", "/")]
    return "".join(traceback.format_list(frames[-3:]))


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None, **kwargs):
    """Get an existing variable of the current scope or create a new one.

    Parameters
    ----------
    name : str
        Joined to the current ``variable_scope`` (not to plain ``name_scope``s): ``conv1/weights``.
    shape : list of int, optional
        Required unless ``initializer`` is a tensor or value, whose shape is then used.
    dtype : DType, optional
        Default: the scope's dtype, float32.
    initializer : Initializer, class, tensor or value, optional
        Default: the scope's initializer, else glorot_uniform for floats and zeros for integers.

    Raises
    ------
    ValueError
        Creating an existing variable without reuse, reusing one that does not exist, or sharing
        with another shape or dtype (TensorFlow's messages).
    """
    return get_variable_scope().get_variable(
        name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer, trainable=trainable,
        collections=collections, caching_device=caching_device, partitioner=partitioner,
        validate_shape=validate_shape, use_resource=use_resource, custom_getter=custom_getter,
        constraint=constraint, **kwargs,
    )


def get_local_variable(name, shape=None, dtype=None, initializer=None, **kwargs):
    """``get_variable`` into ``LOCAL_VARIABLES``, not trainable."""
    kwargs.pop("trainable", None)
    collections = list(kwargs.pop("collections", None) or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, trainable=False, collections=collections, **kwargs)


def _unique_scope_name(store, prefix):
    current = store.current.name
    name = f"{current}/{prefix}" if current else prefix
    if store.scope_counts.get(name, 0) == 0:
        return prefix
    i = 1
    while store.scope_counts.get(f"{name}_{i}", 0) > 0:
        i += 1
    return f"{prefix}_{i}"


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                   use_resource=None, constraint=None, auxiliary_name_scope=True):
    """Open a variable scope (and a name scope for ops): names, reuse and defaults for get_variable.

    ``name_or_scope`` is a name (nested under the current scope) or a VariableScope (re-entered as it
    was, with its own name scope); with None, ``default_name`` is made unique. ``reuse=True`` is
    inherited by nested scopes; ``AUTO_REUSE`` creates what is missing and shares what exists.
    """
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    if reuse not in (None, True, False, AUTO_REUSE):
        raise ValueError("The reuse parameter must be True or False or None.")
    if name_or_scope is None and reuse is True:
        raise ValueError("reuse=True cannot be used without a name_or_scope")
    graph = get_default_graph()
    for v in values or ():
        g = getattr(v, "graph", None)
        if g is not None:
            graph = g
            break
    with graph.as_default():
        store = _store(graph)
        old = store.current
        if isinstance(name_or_scope, VariableScope):
            base = name_or_scope
            full_name = base.name
            name_scope_name = base.original_name_scope or None
            new_reuse = reuse if reuse else base.reuse
        else:
            short = name_or_scope if name_or_scope is not None else _unique_scope_name(store, default_name)
            base = old
            full_name = f"{old.name}/{short}" if old.name else short
            name_scope_name = short if name_or_scope is not None else default_name
            new_reuse = reuse or old.reuse  # reuse=True is inherited by every nested scope
        store.scope_counts[full_name] = store.scope_counts.get(full_name, 0) + 1
        for key in [k for k in store.scope_counts if k.startswith(full_name + "/")]:
            store.scope_counts[key] = 0
        with contextlib.ExitStack() as stack:
            if isinstance(name_or_scope, VariableScope):
                ns = stack.enter_context(graph.name_scope(name_scope_name)) if name_scope_name else ""
            elif auxiliary_name_scope:
                ns = stack.enter_context(graph.name_scope(name_scope_name))
            else:
                ns = old.original_name_scope
            store.current = VariableScope(
                new_reuse, name=full_name,
                initializer=initializer if initializer is not None else base.initializer,
                regularizer=regularizer if regularizer is not None else base.regularizer,
                caching_device=caching_device if caching_device is not None else base.caching_device,
                partitioner=partitioner if partitioner is not None else base.partitioner,
                custom_getter=_compose(custom_getter, base.custom_getter),
                name_scope=ns, dtype=dtype if dtype is not None else base.dtype,
                use_resource=use_resource if use_resource is not None else base.use_resource,
                constraint=constraint if constraint is not None else base.constraint,
            )
            try:
                yield store.current
            finally:
                store.current = old


def _compose(inner, outer):
    if inner is None or outer is None:
        return inner or outer

    def composed(getter, *args, **kwargs):
        return inner(lambda *a, **k: outer(getter, *a, **k), *args, **kwargs)

    return composed


variable_op_scope = variable_scope
