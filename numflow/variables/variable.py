"""Variable: persistent state in the graph, with its initializer, reads and assignments."""

import enum

from numflow.framework import dtypes, registry
from numflow.framework.graph import GraphKeys, Tensor, get_default_graph
from numflow.framework.shapes import unknown_shape
from numflow.ops import array_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are synchronized (TensorFlow's enum; numflow's variables
    have one copy, so only the values a custom getter receives depend on it)."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How a distributed variable's copies' updates are combined (TensorFlow's enum; see above)."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3  # TensorFlow 1's spelling, an alias


class Variable:
    """A tensor whose value lives across ``Session.run`` calls and changes only by assignment.

    Creating one adds three ops: the variable (``v``), its initializer (``v/Assign``, writing the
    initial value) and a read (``v/read``). It joins ``GLOBAL_VARIABLES``, and ``TRAINABLE_VARIABLES``
    when trainable.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     v = tf.Variable([1.0, 2.0], name="v")
    ...     with tf.Session() as sess:
    ...         _ = sess.run(v.initializer)
    ...         sess.run(v.assign_add([1.0, 1.0])).tolist()
    [2.0, 3.0]
    """

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None, synchronization=None,
                 aggregation=None, shape=None):
        if variable_def is not None:
            if initial_value is not None:
                raise ValueError("variable_def and initial_value are mutually exclusive.")
            self._init_from_proto(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if trainable is None:
            trainable = True
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, list | tuple | set):
            raise ValueError(f"collections argument to Variable constructor must be a list, tuple, or set. "
                             f"Got {collections} of type {type(collections)}")
        collections = list(collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        graph = get_default_graph()
        self._graph = graph
        self._trainable = bool(trainable)
        self._constraint = constraint
        self._caching_device = caching_device
        self._save_slice_info = None
        # As TF's init_scope: a variable never depends on the control_dependencies it is created in, and
        # is built outside any cond or loop (the name scope stays). (The graph's stacks are switched
        # directly: this is the hot path of building a model.)
        saved_controls, graph._control_stack = graph._control_stack, []
        saved_context, graph._control_flow_context = graph._control_flow_context, None
        try:
            with graph.name_scope(name or "Variable") as scope:
                var_name = scope[:-1]
                initial_group = None
                if callable(initial_value):
                    with graph.name_scope("Initializer"):
                        # As TF's ``_attr_scope({"_class": "loc:@<var>"})`` under ``device(None)``: the
                        # initial value is built on no device, in the variable's colocation group (or
                        # the enclosing ``colocate_with``'s, which overrides it), so it is computed where
                        # the variable lives (on its ps task, in a cluster).
                        saved = graph._colocation_stack, graph._device_stack
                        if not graph._colocation_stack:
                            initial_group = _PendingGroup(var_name)
                            graph._colocation_stack = [initial_group]
                        graph._device_stack = [None]
                        try:
                            self._initial_value = _initial_tensor(initial_value(), dtype)
                        finally:
                            graph._colocation_stack, graph._device_stack = saved
                else:
                    self._initial_value = _initial_tensor(initial_value, dtype)
                    if self._initial_value.op._control_flow_context is not None:
                        raise ValueError(
                            f"Initializer for variable {scope} is from inside a control-flow construct, such as a "
                            "loop or conditional. When creating a variable inside a loop or conditional, use a "
                            "lambda as the initializer.")
                if shape is None:
                    shape = self._initial_value.shape if validate_shape else unknown_shape()
                self._variable = state_ops.variable_op_v2(shape, self._initial_value.dtype.base_dtype, name=scope)
                if initial_group is not None:
                    self._variable.op._colocation = initial_group._colocation  # TF's op has the _class too
                if validate_shape and not self._initial_value.shape.is_fully_defined():
                    raise ValueError(f"initial_value must have a shape specified: {self._initial_value}")
                value = _guard_uninitialized_reads(var_name, self._initial_value)
                attrs = {"validate_shape": bool(validate_shape), "use_locking": True}  # state_ops.assign's
                self._initializer_op = _colocated(graph, self._variable.op, "Assign", [self._variable, value],
                                                  attrs, "Assign")
                if caching_device is not None:
                    with graph.device(caching_device):
                        self._snapshot = array_ops.identity(self._variable, name="read")
                else:
                    self._snapshot = _colocated(graph, self._variable.op, "Identity", [self._variable], None,
                                                "read").outputs[0]
        finally:
            graph._control_stack = saved_controls
            graph._control_flow_context = saved_context
        graph._variable_initializers[var_name] = self._initializer_op
        graph.add_to_collections(collections, self)

    # -- identity ----------------------------------------------------------------------------
    name = property(lambda self: self._variable.name)
    op = property(lambda self: self._variable.op)
    graph = property(lambda self: self._graph)
    device = property(lambda self: self._variable.device)
    dtype = property(lambda self: self._variable.dtype, doc="The reference dtype, e.g. ``float32_ref``.")
    initializer = property(lambda self: self._initializer_op, doc="The op that writes the initial value.")
    initial_value = property(lambda self: self._initial_value)
    trainable = property(lambda self: self._trainable)
    constraint = property(lambda self: self._constraint)

    @property
    def shape(self):
        return self._variable.shape

    def get_shape(self):
        return self.shape

    def __repr__(self):
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    # -- reading -----------------------------------------------------------------------------
    def value(self):
        """The tensor of the variable's value (``v/read``), what ``v`` means in an expression."""
        return self._snapshot

    def read_value(self):
        """A new read of the variable: put it under ``control_dependencies`` to read after updates."""
        return array_ops.identity(self._variable, name="read")

    def initialized_value(self):
        """The variable's value once initialized: its value when it is, else its initial value.

        As TF's ``cond(is_variable_initialized(v), v.read_value, lambda: v.initial_value)`` (whose
        ``Merge`` names the result, ``cond/Merge:0``): the initial value is computed either way, so
        ``Variable(v.initialized_value() * 2)`` gets twice v's first value in any initializer run.
        """
        from numflow.variables import ops as variable_ops

        graph = self._graph
        with graph.control_dependencies(None):
            initialized = state_ops.is_variable_initialized(self._variable)
            with graph.name_scope("cond") as scope:
                return variable_ops.initialized_value(initialized, self._variable, self._initial_value,
                                                      name=scope + "Merge/")

    def eval(self, session=None):
        """The variable's value in ``session`` (default: the default session)."""
        return self._variable.eval(session=session)

    def load(self, value, session=None):
        """Write ``value`` (a numpy value) into the variable in ``session`` without growing the graph."""
        from numflow.runtime.session import get_default_session

        session = session or get_default_session()
        if session is None:
            raise ValueError("Either session argument should be provided or default session should be established")
        session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

    def _ref(self):
        return self._variable

    def _as_graph_element(self):
        return self._variable

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype).base_dtype != self.dtype.base_dtype:
            raise ValueError(
                f"Incompatible type conversion requested to type '{dtypes.as_dtype(dtype).name}' for variable "
                f"of type '{self.dtype.name}'"
            )
        return self._snapshot

    def _init_from_proto(self, variable_def, import_scope):
        """Wrap the ops a ``VariableDef`` names (a graph read from a MetaGraphDef) in a Variable."""
        from numflow.framework.meta_graph import prepend_name_scope

        graph = get_default_graph()

        def element(name):
            return graph.as_graph_element(prepend_name_scope(name, import_scope))

        self._graph = graph
        self._variable = element(variable_def.variable_name)
        self._initializer_op = element(variable_def.initializer_name)
        self._snapshot = element(variable_def.snapshot_name)
        self._initial_value = element(variable_def.initial_value_name) if variable_def.initial_value_name else None
        self._trainable = bool(variable_def.trainable)
        self._constraint = self._caching_device = self._save_slice_info = None
        if variable_def.HasField("save_slice_info_def"):  # a part of a partitioned variable
            from numflow.variables.partitioned import SaveSliceInfo

            self._save_slice_info = SaveSliceInfo(save_slice_info_def=variable_def.save_slice_info_def,
                                                  import_scope=import_scope)
        graph._variable_initializers[self._variable.op.name] = self._initializer_op

    def to_proto(self, export_scope=None):
        """This variable's ``VariableDef`` (names without ``export_scope``), None when outside that scope."""
        from numflow.framework.meta_graph import strip_name_scope
        from numflow.protos import variable_pb2

        if export_scope and not self._variable.name.startswith(export_scope + "/"):
            return None
        names = {"variable_name": self._variable.name, "initializer_name": self._initializer_op.name,
                 "snapshot_name": self._snapshot.name}
        if self._initial_value is not None:
            names["initial_value_name"] = self._initial_value.name
        proto = variable_pb2.VariableDef(trainable=self._trainable,
                                         **{k: strip_name_scope(v, export_scope) for k, v in names.items()})
        slice_info = self._save_slice_info.to_proto(export_scope) if self._save_slice_info is not None else None
        if slice_info is not None:
            proto.save_slice_info_def.MergeFrom(slice_info)
        return proto

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        """The Variable whose ops ``variable_def`` names, in the default graph."""
        return Variable(variable_def=variable_def, import_scope=import_scope)

    # -- updating ----------------------------------------------------------------------------
    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Write ``value``; returns the updated variable's tensor (the op when ``read_value=False``)."""
        out = state_ops.assign(self, value, use_locking=use_locking, name=name)
        return out if read_value else out.op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        out = state_ops.assign_add(self, delta, use_locking=use_locking, name=name)
        return out if read_value else out.op

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        out = state_ops.assign_sub(self, delta, use_locking=use_locking, name=name)
        return out if read_value else out.op

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Write ``sparse_delta.values`` into the rows ``sparse_delta.indices`` (an IndexedSlices)."""
        return state_ops.scatter_update(self, sparse_delta.indices, sparse_delta.values, use_locking, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return state_ops.scatter_add(self, sparse_delta.indices, sparse_delta.values, use_locking, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return state_ops.scatter_sub(self, sparse_delta.indices, sparse_delta.values, use_locking, name)

    def __iter__(self):
        raise TypeError(
            "Iterating over a symbolic `tf.Tensor` is not allowed: use the variable's value in a session "
            f"(sess.run({self.op.name})) and iterate over the numpy array."
        )

    def count_up_to(self, limit):
        """An op incrementing this int variable and giving its value before; ``OutOfRangeError``
        once the value has reached ``limit``."""
        from numflow.ops.queue_ops import count_up_to

        return count_up_to(self, limit)


VariableV1 = RefVariable = Variable


class _PendingGroup:
    """A colocation stack entry for the group of an op not made yet (a variable, during its initial value)."""

    __slots__ = ("_colocation",)
    device = ""

    def __init__(self, name):
        self._colocation = (name,)


def _colocated(graph, op, op_type, inputs, attrs, name):
    """``graph.create_op(...)`` inside ``graph.colocate_with(op)``, without a generator context."""
    saved = graph._colocation_stack, graph._device_stack
    graph._colocation_stack, graph._device_stack = saved[0] + [op], []
    try:
        return graph.create_op(op_type, inputs, attrs, name=name)
    finally:
        graph._colocation_stack, graph._device_stack = saved


def _initial_tensor(value, dtype):
    """``value`` as the initial value tensor (``<name>/initial_value`` for a Python value)."""
    try:
        return convert_to_tensor(value, name="initial_value", dtype=dtype)
    except ValueError as e:
        if str(e).startswith("Tensor conversion requested"):
            raise ValueError(f"initial_value: {e}") from None
        raise


# Ops whose value is already safe to compute before the variables they read are initialized.
_GUARDED_TYPES = frozenset({"IsVariableInitialized", "InitializedValue"})


def _guard_uninitialized_reads(var_name, initial_value):
    """``initial_value`` with each read of another variable replaced by its ``initialized_value()``.

    TensorFlow's ``_try_guard_against_uninitialized_dependencies``: running ``w.initializer`` of
    ``w = Variable(v + 1)`` works before ``v`` is initialized (it uses v's initial value) and
    leaves ``v`` uninitialized. Ops on the way are copied as ``<op>_<var_name>``; the original
    ``initial_value`` is left as it was. Variables outside GLOBAL/LOCAL_VARIABLES are read as is.
    """
    if not initial_value.op._inputs:
        return initial_value  # a constant or a random op: nothing to guard (the common case)
    graph = initial_value.graph
    copies = {}

    def safe_op(op):
        if op in copies:
            return copies[op]
        new = op
        if op.type == "VariableV2":
            variable = _variable_of(graph, op)
            if variable is not None:
                new = variable.initialized_value().op
        elif op.type not in _GUARDED_TYPES and op._inputs:
            ref_inputs = registry.get(op.type).ref_inputs
            inputs = [t if ref_inputs is True or i in ref_inputs else safe_op(t.op)._outputs[t.value_index]
                      for i, t in enumerate(op._inputs)]
            if any(a is not b for a, b in zip(inputs, op._inputs)):
                new = graph.create_op(op.type, inputs, op._attrs, name=f"{op.name}_{var_name}/".replace(":", "_"))
        copies[op] = new
        return new

    return safe_op(initial_value.op)._outputs[initial_value.value_index]


def _variable_of(graph, op):
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
        for variable in graph.get_collection_ref(key):
            if getattr(variable, "op", None) is op:
                return variable
    return None


def _delegate(op_name):
    method = getattr(Tensor, op_name)

    def delegated(self, *args):
        return method(self._snapshot, *args)

    delegated.__name__ = op_name
    return delegated


for _op in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
            "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
            "__matmul__", "__rmatmul__", "__neg__", "__abs__", "__lt__", "__le__", "__gt__", "__ge__",
            "__getitem__", "__and__", "__rand__", "__or__", "__ror__", "__invert__"):
    setattr(Variable, _op, _delegate(_op))
Variable.__array_priority__ = 100


def global_variables(scope=None):
    """Variables of the ``GLOBAL_VARIABLES`` collection, filtered by the ``scope`` regex prefix."""
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


all_variables = global_variables


def trainable_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """An op running the initializers of ``var_list`` (a no-op when it is empty)."""
    from numflow.ops.control_flow_ops import group, no_op

    if var_list:
        return group(*[v.initializer for v in var_list], name=name)
    return no_op(name=name)


def tables_initializer(name="init_all_tables"):
    """An op running the initializers in ``TABLE_INITIALIZERS`` (a no-op when there are none)."""
    from numflow.ops.control_flow_ops import group, no_op

    initializers = get_default_graph().get_collection(GraphKeys.TABLE_INITIALIZERS)
    return group(*initializers, name=name) if initializers else no_op(name=name)


def global_variables_initializer():
    """An op initializing every variable of ``GLOBAL_VARIABLES``: run it once before using the model."""
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer


def local_variables_initializer():
    """An op initializing every variable of ``LOCAL_VARIABLES``."""
    return variables_initializer(local_variables())


# TensorFlow 1.0's names, still in old tutorials.
initialize_variables = variables_initializer
initialize_local_variables = local_variables_initializer
initialize_all_tables = tables_initializer


def is_variable_initialized(variable):
    return state_ops.is_variable_initialized(variable)


def _variables_or_refs(var_list):
    """``var_list``, by default the global and local variables, else (as TF) every variable op's ref."""
    if var_list is None:
        var_list = global_variables() + local_variables()
        if not var_list:
            var_list = [op.outputs[0] for op in get_default_graph().get_operations() if op.type == "VariableV2"]
    return var_list


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor: the names (as bytes) of the variables of ``var_list`` not yet initialized.

    ``var_list`` defaults to the global and local variables.
    """
    from numflow.variables import ops as variable_ops

    return variable_ops.report_uninitialized(_variables_or_refs(var_list), name)


def assert_variables_initialized(var_list=None):
    """A tensor (the variables' ranks) whose evaluation fails with FailedPreconditionError at the read of
    the first uninitialized variable of ``var_list``; None when there are no variables."""
    from numflow.variables import ops as variable_ops

    return variable_ops.assert_initialized(_variables_or_refs(var_list))
