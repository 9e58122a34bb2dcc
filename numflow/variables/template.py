"""``tf.make_template``: a function whose variables are created on its first call and shared on every later one,
under one variable scope (``name_/...``), as TensorFlow 1's ``Template`` does."""

import functools
import logging
import traceback

from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.variables import scope as vs


def make_template(name_, func_, create_scope_now_=False, unique_name_=None, custom_getter_=None, **kwargs):
    """``func_`` wrapped so that its ``tf.get_variable`` variables are shared between calls.

    Parameters
    ----------
    name_ : str
        The variable scope's name; made unique (``name__1``...) unless ``unique_name_`` is given.
    func_ : callable
        Builds the graph; must create variables with ``tf.get_variable``.
    create_scope_now_ : bool
        Open the variable scope now rather than at the first call.
    unique_name_ : str, optional
        The scope's name as it is, not made unique.
    custom_getter_ : callable, optional
        The scope's custom getter.
    **kwargs
        Bound to ``func_``'s keyword arguments.

    Examples
    --------
    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     scale = tf.make_template("scale", lambda x: x * tf.get_variable("w", []))
    ...     a, b = scale(1.0), scale(2.0)
    ...     assert [v.name for v in tf.global_variables()] == ["scale/w:0"]
    ...     assert (a.op.name, b.op.name) == ("scale/mul", "scale_1/mul")
    """
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)


def _skip_common_stack_elements(stacktrace, base_case):
    for i, (trace, base) in enumerate(zip(stacktrace, base_case)):
        if trace != base:
            return stacktrace[i:]
    return stacktrace[-1:]


class Template:
    """A function sharing its variables between calls (see :func:`make_template`)."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None):
        self._func = func
        self._stacktrace = traceback.format_stack()[:-2]
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        if name is None:
            raise ValueError("name cannot be None.")
        self._variable_scope = None
        if create_scope_now:
            graph = get_default_graph()
            pure_name = unique_name or vs._unique_scope_name(vs._store(graph), name)
            with vs._pure_scope(graph, pure_name, None, None, None, None, None, None, custom_getter, None, None,
                                None) as scope:
                self._variable_scope = scope
        self._variables_created = False
        self._first_call = True

    def __call__(self, *args, **kwargs):
        if self._variable_scope is not None:
            with vs.variable_scope(self._variable_scope, reuse=not self._first_call):
                return self._call_func(args, kwargs)
        with vs.variable_scope(self._unique_name, self._name, custom_getter=self._custom_getter) as scope:
            self._variable_scope = scope
            return self._call_func(args, kwargs)

    def _call_func(self, args, kwargs):
        try:
            if self._variables_created:
                return self._call_again(args, kwargs)
            if not self._first_call:  # the first call still runs in another thread
                return self._func(*args, **kwargs)
            self._first_call = False
            try:
                result = self._func(*args, **kwargs)
            except BaseException:
                self._first_call = True
                raise
            self._variables_created = True
            return result
        except Exception as exc:
            trace = "".join(_skip_common_stack_elements(self._stacktrace, traceback.format_stack()))
            first = exc.args[0] if exc.args else ""
            exc.args = (f"{first}\n\noriginally defined at:\n{trace}", *exc.args[1:])
            raise

    def _call_again(self, args, kwargs):
        """Run the function once more: it must find every trainable variable it creates."""
        graph = get_default_graph()
        trainable = graph.get_collection_ref(GraphKeys.TRAINABLE_VARIABLES)
        every = graph.get_collection_ref(GraphKeys.GLOBAL_VARIABLES)
        trainable_at_start, every_at_start = len(trainable), len(every)
        result = self._func(*args, **kwargs)
        if len(trainable) != trainable_at_start:
            raise ValueError("Trainable variable created when calling a template after the first time, perhaps "
                             f"you used tf.Variable when you meant tf.get_variable: {trainable[trainable_at_start:]}")
        if len(every) != every_at_start:
            logging.getLogger("tensorflow").info(
                "New variables created when calling a template after the first time, perhaps you used "
                "tf.Variable when you meant tf.get_variable: %s", every[every_at_start:])
        return result

    name = property(lambda self: self._name, doc="The name given to :func:`make_template`.")
    func = property(lambda self: self._func, doc="The wrapped function.")
    variable_scope = property(lambda self: self._variable_scope, doc="The template's VariableScope, once opened.")

    @property
    def variable_scope_name(self):
        """The variable scope's name with a trailing ``/``, or None before it is opened."""
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name if not name or name.endswith("/") else name + "/"

    def _collection(self, key):
        return get_default_graph().get_collection(key, self.variable_scope_name) if self._variables_created else []

    @property
    def trainable_variables(self):
        """The trainable variables created in the template's scope."""
        return self._collection(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def global_variables(self):
        """The global variables created in the template's scope."""
        return self._collection(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self):
        """The local variables created in the template's scope."""
        return self._collection(GraphKeys.LOCAL_VARIABLES)

    @property
    def variables(self):
        """The global and local variables created in the template's scope."""
        return self.global_variables + self.local_variables

    @property
    def non_trainable_variables(self):
        """The global variables of the template's scope that are not trainable."""
        trainable = set(self.trainable_variables)
        return [v for v in self.global_variables if v not in trainable]

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables
