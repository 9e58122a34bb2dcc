"""variable_scope and get_variable: hierarchical variable names, defaults and reuse.

A graph keeps one variable store (full name -> Variable) and the current VariableScope. Opening a
scope resolves its settings (name, reuse, initializer, dtype...) into a new VariableScope object,
inherited from the enclosing one where not given. ``get_variable`` resolves its own arguments over
the scope's into one frozen :class:`VariableSettings`, then one function, ``_get_or_create``, looks
the full name up and shares the variable or creates it. A custom getter sits between the two: it is
called as TensorFlow calls it, ``custom_getter(getter=..., name=..., shape=..., ...)`` with TF's
keyword arguments (the settings' fields), and the ``getter`` it is handed takes TF's arguments too.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     with tf.variable_scope("conv1"):
...         w = tf.get_variable("weights", [2, 2])
...     with tf.variable_scope("conv1", reuse=True):
...         assert tf.get_variable("weights") is w
...     w.name
'conv1/weights:0'

Trap: the current variable scope (and the counts that make default names unique) is kept per graph
and per thread, as in TensorFlow, and so is the graph's name scope: a thread starts at the root
scope of each graph, whatever another thread has open. The variables themselves are per graph,
shared by every thread: a thread may reuse, under its own scopes, what another created.

>>> import threading
>>> with tf.Graph().as_default() as g, tf.variable_scope("outer"):
...     seen = []
...     def build():
...         with g.as_default():
...             seen.append(tf.get_variable("w", [1]).name)
...     thread = threading.Thread(target=build)
...     thread.start(); thread.join()
...     seen, tf.get_variable("w", [1]).name
(['w:0'], 'outer/w:0')
"""

import collections.abc
import contextlib
import functools
import inspect
import threading
import traceback
import typing

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.framework.shapes import as_shape
from numflow.ops import init_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.variables import partitioned
from numflow.variables.variable import Variable, VariableAggregation, VariableSynchronization


class _ReuseMode:
    """The type of AUTO_REUSE: create what is missing, share what exists."""

    def __repr__(self):
        return "_ReuseMode.AUTO_REUSE"


AUTO_REUSE = _ReuseMode()


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

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def get_collection(self, name):
        """The items of collection ``name`` under this scope's name (``scope.name + "/"``)."""
        scope = self._name + "/" if self._name else ""
        return get_default_graph().get_collection(name, scope)

    def global_variables(self):
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def trainable_variables(self):
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def local_variables(self):
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    def get_variable(self, name, shape=None, dtype=None, initializer=None, regularizer=None, reuse=None,
                     trainable=None, collections=None, caching_device=None, partitioner=None,
                     validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                     synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE):
        """``get_variable`` with this scope's settings as the defaults.

        The defaults resolve here, in TF's order, into one :class:`VariableSettings`, which
        ``_get_or_create`` shares or creates. A ``custom_getter`` given here replaces the scope's
        (it is not composed with it).
        """
        graph = get_default_graph()
        with graph.name_scope(None):  # the variable's ops are named after variable scopes only
            if dtype is not None and initializer is not None and not callable(initializer):
                dtype = dtypes.as_dtype(dtype)
                init_dtype = convert_to_tensor(initializer).dtype.base_dtype
                if init_dtype != dtype:
                    raise ValueError(f"Initializer type '{_dtype_text(init_dtype)}' and explicit dtype "
                                     f"'{_dtype_text(dtype)}' don't match.")
            settings = VariableSettings(
                f"{self._name}/{name}" if self._name else name, shape,
                dtypes.as_dtype(self._dtype if dtype is None else dtype).base_dtype,
                self._initializer if initializer is None else initializer,
                self._regularizer if regularizer is None else regularizer,
                self._reuse if reuse is None else reuse,
                True if trainable is None else trainable,
                collections,
                self._caching_device if caching_device is None else caching_device,
                self._partitioner if partitioner is None else partitioner,
                validate_shape,
                self._use_resource if use_resource is None else use_resource,
                self._constraint if constraint is None else constraint,
                synchronization, aggregation,
            )
            custom_getter = self._custom_getter if custom_getter is None else custom_getter
            if custom_getter is None:
                return _get_or_create(settings)
            return _call_custom_getter(custom_getter, settings)


class VariableSettings(typing.NamedTuple):
    """One ``get_variable`` call's arguments, the scope's defaults applied: what the store shares or
    creates (``name`` is the full name).

    The fields are the arguments of TensorFlow's own getter, in its order and with its defaults, so
    the getter handed to a custom getter is this class's constructor followed by ``_get_or_create``,
    and a custom getter receives the fields as its keyword arguments. A named tuple: immutable, and
    made in a fraction of a frozen dataclass's time, which counts in a model of thousands of variables.
    """

    name: str
    shape: object = None
    dtype: object = dtypes.float32
    initializer: object = None
    regularizer: object = None
    reuse: object = None
    trainable: object = None
    collections: object = None
    caching_device: object = None
    partitioner: object = None
    validate_shape: bool = True
    use_resource: object = None
    constraint: object = None
    synchronization: object = VariableSynchronization.AUTO
    aggregation: object = VariableAggregation.NONE


def _true_getter(*args, **kwargs):
    """The getter a custom getter receives: TensorFlow's arguments (``name, shape=None, dtype=float32,
    ...``), as a custom getter may have changed them."""
    return _get_or_create(VariableSettings(*args, **kwargs))


def _call_custom_getter(custom_getter, settings):
    """``custom_getter`` called as TensorFlow calls it: the keyword arguments in TF's order, with
    ``constraint`` last and only when the getter takes it (or takes ``**kwargs``)."""
    kwargs = {"getter": _true_getter, **settings._asdict()}
    constraint = kwargs.pop("constraint")
    if _accepts(custom_getter, "constraint"):
        kwargs["constraint"] = constraint
    return custom_getter(**kwargs)


def _dtype_text(dtype):
    return f"<dtype: '{dtype.name}'>"  # how TF prints a DType inside its messages


class _ScopeState(threading.local):
    """The current scope and the open-scope counts: per graph and per thread, as in TF."""

    def __init__(self):
        self.current = VariableScope(False)
        self.counts = {}


class _Store:
    """One graph's variables by full name (shared by all threads) and each thread's scope state."""

    def __init__(self):
        self.variables = {}
        self.partitioned = {}  # full name -> PartitionedVariable (its parts are in ``variables``)
        self._state = _ScopeState()

    current = property(lambda self: self._state.current)

    @current.setter
    def current(self, scope):
        self._state.current = scope

    @property
    def scope_counts(self):
        return self._state.counts

    @scope_counts.setter
    def scope_counts(self, counts):
        self._state.counts = counts


def _store(graph=None):
    graph = graph or get_default_graph()
    if graph._variable_store is None:
        graph._variable_store = _Store()
    return graph._variable_store


def get_variable_scope():
    """The current VariableScope of the default graph (in this thread)."""
    return _store().current


def _parameters(fn):
    """``fn``'s parameters, cached by its code or class (inspect.signature costs more than an op).

    None when they cannot be read (a builtin, say).
    """
    if inspect.isfunction(fn):
        key = fn.__code__
    elif inspect.ismethod(fn):
        key = (getattr(fn.__func__, "__code__", None), "method")
    else:
        key = type(fn)  # an Initializer instance, a functools.partial...
    if key in _PARAMETERS and type(fn) is not functools.partial:
        return _PARAMETERS[key]
    try:
        params = tuple(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = None
    _PARAMETERS[key] = params
    return params


_PARAMETERS = {}


def _accepts(fn, arg):
    params = _parameters(fn)
    return params is None or any(p.name == arg or p.kind is p.VAR_KEYWORD for p in params)


def _get_or_create(settings):
    """Share the variable ``settings.name`` or create it: partitioned when a partitioner is given for a
    shape that is not a scalar, or when reusing a partitioned variable without one (as TF)."""
    partitioner, shape = settings.partitioner, settings.shape
    is_scalar = shape is not None and isinstance(shape, collections.abc.Sequence) and not shape
    if partitioner is not None and not is_scalar:
        if not callable(partitioner):
            raise ValueError(f"Partitioner must be callable, but received: {partitioner}")
        return partitioned.get_or_create(settings, _store(), _get_or_create_single)
    if settings.reuse is True and partitioner is None and settings.name in _store().partitioned:
        return partitioned.get_or_create(settings, _store(), _get_or_create_single)
    return _get_or_create_single(settings)


def _get_or_create_single(settings, partition_info=None):
    """Share the variable ``settings.name`` or create it; every reuse rule and its error lives here."""
    name, shape, initializer, reuse = settings.name, settings.shape, settings.initializer, settings.reuse
    from_value = initializer is not None and not callable(initializer)
    if shape is not None and from_value:
        raise ValueError("If initializer is a constant, do not specify shape.")
    dtype = dtypes.as_dtype(settings.dtype)
    if shape is not None:
        shape = as_shape(shape)
    store = _store()
    found = store.variables.get(name)
    if found is not None:
        if reuse is False:
            raise ValueError(
                f"Variable {name} already exists, disallowed. Did you mean to set reuse=True or "
                f"reuse=tf.AUTO_REUSE in VarScope? Originally defined at:\n\n{_defined_at(found)}"
            )
        if shape is not None and not shape.is_compatible_with(found.get_shape()):
            raise ValueError(f"Trying to share variable {name}, but specified shape {shape} and found shape "
                             f"{found.get_shape()}.")
        if dtype != found.dtype.base_dtype:
            raise ValueError(f"Trying to share variable {name}, but specified dtype {dtype.name} and found dtype "
                             f"{found.dtype.name}.")
        return found
    if reuse is True:
        raise ValueError(
            f"Variable {name} does not exist, or was not created with tf.get_variable(). Did you mean to set "
            "reuse=tf.AUTO_REUSE in VarScope?"
        )
    initial_value, variable_dtype = _initial_value(name, shape, dtype, initializer, from_value, partition_info)
    variable = Variable(initial_value=initial_value, name=name, trainable=settings.trainable,
                        collections=settings.collections, caching_device=settings.caching_device,
                        dtype=variable_dtype, validate_shape=settings.validate_shape, constraint=settings.constraint,
                        shape=shape)
    store.variables[name] = variable
    if settings.regularizer is not None:
        graph = get_default_graph()
        with graph.colocate_with(variable.op), graph.name_scope(f"{name}/Regularizer/"):
            loss = settings.regularizer(variable)
        if loss is not None:
            graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return variable


def _initial_value(name, shape, dtype, initializer, from_value, partition_info=None):
    """``(initial_value, dtype)`` for the new Variable, as TF's ``_get_single_variable`` makes them.

    A value or tensor initializer gives its own dtype (None here); an Initializer is called with
    the variable's shape, ``dtype`` and ``partition_info`` (a part's place in its partitioned
    variable, else None); a callable of no arguments builds the value itself.
    """
    if initializer is None:
        if shape is None:
            raise ValueError(f"Variable {name} did not get an initializer, so its `shape` argument must be specified.")
        if dtype.is_floating:
            initializer = init_ops.glorot_uniform_initializer()
        elif dtype.is_integer or dtype.is_bool or dtype == dtypes.string:
            initializer = init_ops.zeros_initializer()
        else:
            raise ValueError(f"An initializer for variable {name} of {_dtype_text(dtype)} is required")
    if from_value:
        return initializer, None
    if isinstance(initializer, type):
        initializer = initializer()
    if shape is not None and shape.is_fully_defined():
        dims = shape.as_list()
        if _accepts(initializer, "partition_info"):
            return functools.partial(initializer, dims, dtype=dtype, partition_info=partition_info), dtype
        return functools.partial(initializer, dims, dtype=dtype), dtype
    if _needs_no_arguments(initializer):
        return initializer, None
    raise ValueError("The initializer passed is not valid. It should be a callable with no arguments and the shape "
                     "should not be provided or an instance of `tf.keras.initializers.*' and `shape` should be "
                     "fully defined.")


def _needs_no_arguments(fn):
    params = _parameters(fn)
    return params is not None and all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                                      for p in params)


def _defined_at(variable):
    """Where ``variable`` was made, innermost frame first, numflow's own frames left out (as TF)."""
    frames = [f for f in reversed(variable.op.traceback or ())
              if "/numflow/" not in f.filename.replace("\\", "/")][:5]
    return "".join(traceback.format_list(frames))


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE):
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
        constraint=constraint, synchronization=synchronization, aggregation=aggregation,
    )


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=False,
                       collections=None, caching_device=None, partitioner=None, validate_shape=True,
                       use_resource=None, custom_getter=None, constraint=None,
                       synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE):
    """``get_variable`` into ``LOCAL_VARIABLES``, never trainable."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, regularizer, trainable=False, collections=collections,
                        caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
                        use_resource=use_resource, custom_getter=custom_getter, constraint=constraint,
                        synchronization=synchronization, aggregation=aggregation)


def _unique_scope_name(store, prefix):
    """``prefix``, or ``prefix_1``, ``prefix_2``...: the first not open in the current scope."""
    current = store.current.name
    name = f"{current}/{prefix}" if current else prefix
    counts = store.scope_counts
    if counts.get(name, 0) == 0:
        return prefix
    i = 1
    while counts.get(f"{name}_{i}", 0) > 0:
        i += 1
    return f"{prefix}_{i}"


class variable_scope:  # noqa: N801 - TensorFlow's public name
    """Open a variable scope (and a name scope for ops): names, reuse and defaults for get_variable.

    ``name_or_scope`` is a name (nested under the current scope) or a VariableScope, re-entered
    with its name, settings and ``original_name_scope`` (its ops go to a new name scope named
    after its last component, as in TF). With None, ``default_name`` is made unique.
    ``reuse=True`` is inherited by nested scopes (``reuse=False`` means "inherit");
    ``AUTO_REUSE`` creates what is missing and shares what exists. As in TF, one
    ``variable_scope(...)`` object may be entered again: it keeps the scope name (and unique
    default name) of its first entry, and opens a new name scope for ops each time.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     with tf.variable_scope("model") as scope:
    ...         pass
    ...     with tf.variable_scope(scope), tf.variable_scope("layer"):
    ...         assert tf.get_variable("w", [1]).name == "model/layer/w:0"
    ...         assert tf.constant(1.0, name="c").name == "model_1/layer/c:0"
    """

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                 caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                 use_resource=None, constraint=None, auxiliary_name_scope=True):
        if name_or_scope is None and default_name is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if reuse is False:
            reuse = None  # False does not stop inheriting, as in TF
        if not (reuse is None or reuse is True or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError(f"The auxiliary_name_scope must be `True` or `False`, while get {auxiliary_name_scope}")
        self._name_or_scope, self._default_name, self._reuse = name_or_scope, default_name, reuse
        self._settings = (initializer, regularizer, caching_device, partitioner, custom_getter, dtype, use_resource,
                          constraint)
        self._auxiliary_name_scope = auxiliary_name_scope
        graph = get_default_graph()
        for v in values or ():
            g = getattr(v, "graph", None)
            if g is not None:
                graph = g
                break
        self._graph = graph
        self._first_entry = None  # (the pure scope's name or scope, its original name scope)
        self._open = []

    def __enter__(self):
        graph = self._graph
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(graph.as_default())
            scope = self._enter(graph, stack)
        except BaseException:
            stack.close()
            raise
        self._open.append(stack)
        return scope

    def __exit__(self, exc_type, exc, tb):
        return self._open.pop().__exit__(exc_type, exc, tb)

    def _enter(self, graph, stack):
        name_or_scope, reuse = self._name_or_scope, self._reuse
        if not self._auxiliary_name_scope:
            current = graph.get_name_scope()
            stack.enter_context(graph.name_scope(current + "/" if current else ""))
            entered = current + "/" if current else ""
        if name_or_scope is not None:
            if not isinstance(name_or_scope, VariableScope | str):
                raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
            is_scope = isinstance(name_or_scope, VariableScope)
            ns_name = name_or_scope.name.split("/")[-1] if is_scope else name_or_scope
            if self._auxiliary_name_scope and ns_name:
                entered = stack.enter_context(graph.name_scope(ns_name))
            elif self._auxiliary_name_scope:
                entered = None  # the root scope, or "": no name scope of its own
            pure = (name_or_scope, name_or_scope.original_name_scope if is_scope else entered)
        else:
            if reuse is True:
                raise ValueError("reuse=True cannot be used without a name_or_scope")
            if self._auxiliary_name_scope:
                entered = stack.enter_context(graph.name_scope(self._default_name))
            pure = None if self._first_entry else (_unique_scope_name(_store(graph), self._default_name), entered)
            reuse = None  # a default-name scope inherits reuse, as in TF
        if self._first_entry is None:
            self._first_entry = pure
        pure_name, old_name_scope = self._first_entry
        return stack.enter_context(_pure_scope(graph, pure_name, reuse, old_name_scope, *self._settings))


@contextlib.contextmanager
def _pure_scope(graph, name_or_scope, reuse, old_name_scope, initializer, regularizer, caching_device, partitioner,
                custom_getter, dtype, use_resource, constraint):
    """Make the new VariableScope current for the block; opens no name scope."""
    store = _store(graph)
    old = store.current
    if isinstance(name_or_scope, VariableScope):
        base, new_name = name_or_scope, name_or_scope.name
        new_reuse = reuse if reuse else base.reuse
        name_scope = base.original_name_scope
        store.scope_counts[new_name] = store.scope_counts.get(new_name, 0) + 1
        saved_counts = dict(store.scope_counts)
    else:
        base = old
        new_name = f"{old.name}/{name_or_scope}" if old.name else name_or_scope
        new_reuse = reuse or old.reuse  # reuse=True is inherited by every nested scope
        name_scope = name_or_scope if old_name_scope is None else old_name_scope
    scope = VariableScope(
        new_reuse, name=new_name,
        initializer=base.initializer if initializer is None else initializer,
        regularizer=base.regularizer if regularizer is None else regularizer,
        caching_device=base.caching_device if caching_device is None else caching_device,
        partitioner=base.partitioner if partitioner is None else partitioner,
        custom_getter=_wrap_custom_getter(custom_getter, base.custom_getter),
        name_scope=name_scope, dtype=base.dtype if dtype is None else dtype,
        use_resource=base.use_resource if use_resource is None else use_resource,
        constraint=constraint,  # not inherited, as in TF
    )
    if not isinstance(name_or_scope, VariableScope):
        store.scope_counts[new_name] = store.scope_counts.get(new_name, 0) + 1
    store.current = scope
    try:
        yield scope
    finally:
        if store.current is not scope:
            raise RuntimeError("Improper nesting of variable_scope.")
        if isinstance(name_or_scope, VariableScope):
            store.scope_counts = saved_counts
        else:  # scopes opened inside may be opened again with the same names
            prefix = new_name + "/"
            for key in store.scope_counts:
                if key.startswith(prefix):
                    store.scope_counts[key] = 0
        store.current = old


def _wrap_custom_getter(custom_getter, old_getter):
    """``custom_getter`` calling ``old_getter`` (the enclosing scope's) as its getter, as TF nests them."""
    if custom_getter is None or old_getter is None:
        return custom_getter if custom_getter is not None else old_getter

    def wrapped(getter, *args, **kwargs):
        return custom_getter(lambda *a, **k: old_getter(getter, *a, **k), *args, **kwargs)

    return wrapped


variable_op_scope = variable_scope
