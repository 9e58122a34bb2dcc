"""Graph, Operation and Tensor: the dataflow graph users build and sessions run.

A :class:`Graph` owns one ``networkx.DiGraph`` whose nodes are operation names; the node attribute
``op`` holds the :class:`Operation`. An edge producer -> consumer carries ``data``, a tuple of
``(output_index, input_slot)`` pairs, and ``control``, True when the consumer has the producer as a
control input. The graph also owns the construction state that TensorFlow keeps per graph: the name
stack and used names, the device, control-dependency and colocation stacks, collections, the graph
seed, and a version number bumped on every change so cached run plans know when they are stale.
Ops built inside a cond branch or a while loop carry that control-flow context
(``numflow.ops.control_flow_util``), and once a graph has one, every new op's inputs pass through it.

The layers above fill in what the graph only names: Python's operators on a Tensor (``+``, ``[]``...)
are set by the ops modules that build them (``math_ops``, ``slice_ops``), as TensorFlow's math_ops
overrides them; the rule for inputs inside a control-flow context is set by ``control_flow_util``
when a context is first entered; sessions register to hear of ``reset_default_graph``. Only
``Tensor.eval`` and ``Operation.run`` import the session module, when called.

Construction state is kept as TensorFlow's compat.v1 keeps it: name scopes per graph and per thread
(a scope opened in one thread is not seen from another), the device, control-dependency and
colocation stacks per graph, shared by every thread (and not thread-safe: enter them from one
thread). The variable scopes of ``numflow.variables.scope`` are per graph and per thread too. The
structure itself is guarded by the graph's lock, so sessions may run the graph, and build run plans
for it, while other threads add ops.
"""

import contextlib
import re
import sys
import threading
import traceback

import networkx as nx
import numpy as np

from numflow.framework import dtypes as _dtypes
from numflow.framework import registry as _registry
from numflow.framework.shapes import Dimension, TensorShape, as_shape, dimension_value, dims_text

_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class GraphKeys:
    """Standard collection names."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    VARIABLES = GLOBAL_VARIABLES


class Tensor:
    """One output of an Operation: a symbolic value computed when a session runs it.

    Tensors compare and hash by identity (``t == u`` builds no op), as in TensorFlow 1.x.
    """

    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "__weakref__")

    # Make numpy defer to Tensor's reflected operators: np.float32(2) * t builds an op.
    __array_priority__ = 100

    def __init__(self, op, value_index, dtype, shape):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = shape

    op = property(lambda self: self._op)
    value_index = property(lambda self: self._value_index)
    dtype = property(lambda self: self._dtype)
    graph = property(lambda self: self._op.graph)
    device = property(lambda self: self._op.device)
    shape = property(lambda self: self._shape)

    @property
    def name(self):
        return f"{self._op.name}:{self._value_index}"

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Narrow the static shape; ValueError when it contradicts what is known."""
        self._shape = self._shape.merge_with(as_shape(shape))

    def consumers(self):
        return self._op.graph._consumers(self)

    def eval(self, feed_dict=None, session=None):
        """Run this tensor in ``session`` (default: the default session) and return its value."""
        from numflow.runtime.session import _session_for

        return _session_for(self.graph, session).run(self, feed_dict)

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):
        shape = f", shape={self._shape}" if self._shape.ndims is not None else ""
        device = f", device={self.device}" if self.device else ""
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name}{device})'

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __bool__(self):
        raise TypeError(
            "Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not None:` instead of "
            "`if t:` to test if a tensor is defined, and use TensorFlow ops such as tf.cond to execute "
            "subgraphs conditioned on the value of a tensor."
        )

    def __iter__(self):
        first = dimension_value(self._shape[0])
        if first is None:
            raise TypeError(f"Cannot iterate over a tensor with unknown first dimension: {self.name}")
        return (self[i] for i in range(first))

    def __len__(self):
        raise TypeError(
            f"len is not well defined for a symbolic Tensor ({self.name}). Please call `x.shape` rather than "
            "`len(x)` for shape information."
        )


class Operation:
    """A node of the graph: an op type applied to input tensors, with attributes and outputs."""

    __slots__ = (
        "_graph", "_name", "_type", "_inputs", "_control_inputs", "_outputs", "_attrs",
        "_device", "_id", "_traceback", "_colocation", "_control_flow_context", "_gradient_override", "__weakref__",
    )

    def __init__(self, graph, op_type, name, inputs, attrs, control_inputs, op_id):
        self._graph = graph
        self._type = op_type
        self._name = name
        self._inputs = tuple(inputs)
        self._attrs = dict(attrs)
        self._control_inputs = tuple(control_inputs)  # a tuple: most ops have none, and () is one object
        self._outputs = []
        self._device = ""
        self._id = op_id
        self._traceback = None
        self._colocation = ()
        self._control_flow_context = None  # the cond branch or loop the op was built in (None: the graph)
        self._gradient_override = None  # the name of a gradient registered for this op alone (gradient_override_map)

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    graph = property(lambda self: self._graph)
    inputs = property(lambda self: list(self._inputs))
    outputs = property(lambda self: list(self._outputs))
    control_inputs = property(lambda self: list(self._control_inputs))
    device = property(lambda self: self._device)
    attrs = property(lambda self: dict(self._attrs))

    @property
    def traceback(self):
        """Where the op was created: a ``traceback.StackSummary``, outermost frame first."""
        tb = self._traceback
        if tb is not None and not isinstance(tb, traceback.StackSummary):
            # Captured as codes and bytecode offsets; line numbers are found now, source lines when asked.
            codes, offsets = tb
            tb = self._traceback = traceback.StackSummary.from_list(
                [(code.co_filename, _line_at(code, offset), code.co_name, None)
                 for code, offset in zip(codes[::-1], offsets[::-1])]
            )
        return tb

    @property
    def node_def(self):
        """A light stand-in for TF's NodeDef: ``name``, ``op``, ``device``, ``attr``."""
        return _NodeDef(self._name, self._type, self._device, self._attrs)

    def get_attr(self, name):
        if name == "_class":
            return [f"loc:@{g}".encode() for g in self._colocation]
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self._name}' has no attr named '{name}'.") from None

    def colocation_groups(self):
        return [f"loc:@{g}".encode() for g in (self._colocation or (self._name,))]

    def _get_control_flow_context(self):
        """The cond branch or while loop part the op belongs to, or None (TensorFlow's private accessor)."""
        return self._control_flow_context

    def _set_device(self, device):
        from numflow.framework.device_spec import canonical_device

        self._device = canonical_device(device)
        self._graph._bump_version()

    def _add_control_input(self, op):
        if op not in self._control_inputs:
            self._control_inputs += (op,)
            self._graph._add_control_edge(op, self)

    def run(self, feed_dict=None, session=None):
        """Run this operation in ``session`` (default: the default session)."""
        from numflow.runtime.session import _session_for

        _session_for(self._graph, session, operation=True).run(self, feed_dict)

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self):
        """The op's NodeDef in protobuf text, as TensorFlow prints an op (its repr when it has no NodeDef form)."""
        from numflow.framework.graph_export import graph_to_graph_def

        try:
            return str(graph_to_graph_def(self._graph, ops=[self]).node[0])
        except (ValueError, TypeError):
            return repr(self)


class _NodeDef:
    __slots__ = ("name", "op", "device", "attr")

    def __init__(self, name, op, device, attr):
        self.name, self.op, self.device, self.attr = name, op, device, attr


class Graph:
    """A dataflow graph: operations, their construction state and collections.

    >>> g = Graph()
    >>> with g.as_default():
    ...     with g.name_scope("layer"):
    ...         name = g.unique_name("w")
    >>> name
    'layer/w'
    """

    def __init__(self):
        self._nx = nx.DiGraph()
        self._version = 0
        self._next_id = 1
        self._lock = threading.RLock()
        self._finalized = False
        self._names_in_use = {}
        self._per_thread = _PerThread()
        self._device_stack = []
        self._control_stack = []
        self._colocation_stack = []
        self._gradient_override_map = {}
        self._collections = {}
        self.seed = None
        self._variable_store = None
        self._variable_scope = None
        self._variable_initializers = {}
        self._attr_scope = {}
        # The cond branch or loop part that new ops belong to (numflow.ops.control_flow_util), and,
        # once any was entered, how create_op sees inputs from there (the ops layer sets both:
        # ``control_flow_util.resolve_inputs``, for captures, exports, accumulators and errors).
        self._control_flow_context = None
        self._resolve_inputs = None

    @property
    def _name_stack(self):
        """The current name scope, of this thread: each thread opens its own, as in TensorFlow."""
        return self._per_thread.name_stack

    @_name_stack.setter
    def _name_stack(self, name_stack):
        self._per_thread.name_stack = name_stack

    # -- identity and state ------------------------------------------------------------------
    @property
    def version(self):
        """A number bumped by every change; run plans cached against an older number are stale."""
        return self._version

    @property
    def graph_def_versions(self):
        """The ``VersionDef`` this graph's GraphDef carries (TensorFlow 2.21's producer version)."""
        return self.as_graph_def(ops=()).versions

    def as_graph_def(self, from_version=None, add_shapes=False, ops=None):
        """This graph as a TensorFlow ``GraphDef`` message (``numflow.framework.graph_export``).

        ``add_shapes`` adds each node's ``_output_shapes``; ``from_version`` is accepted and ignored.
        """
        from numflow.framework.graph_export import graph_to_graph_def

        return graph_to_graph_def(self, add_shapes=add_shapes, ops=ops)

    @property
    def nx_graph(self):
        """The underlying ``networkx.DiGraph`` (read it; change the graph through its methods)."""
        return self._nx

    @property
    def finalized(self):
        return self._finalized

    def finalize(self):
        """Make the graph read-only: adding an op afterwards raises RuntimeError."""
        self._finalized = True

    def _check_not_finalized(self):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")

    def _unsafe_unfinalize(self):
        self._finalized = False

    def _bump_version(self):
        self._version += 1

    @property
    def _last_id(self):
        return self._next_id - 1

    def as_default(self):
        """Context manager making this the default graph of the current thread."""
        return _default_graph_stack.get_controller(self)

    # -- lookup ------------------------------------------------------------------------------
    def get_operations(self):
        """Every operation, in creation order."""
        with self._lock:
            return [data["op"] for _, data in self._nx.nodes(data=True)]

    def get_operation_by_name(self, name):
        """The operation called ``name``.

        Raises
        ------
        KeyError
            When no operation has that name.
        ValueError
            When ``name`` names a tensor (``"op:0"``).
        """
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def get_tensor_by_name(self, name):
        """The tensor called ``name`` (``"<op_name>:<output_index>"``).

        Raises
        ------
        KeyError
            When the operation is missing or has no such output.
        ValueError
            When ``name`` is not of that form (an operation's name, say).
        """
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """The Tensor or Operation that ``obj`` (an object or a name) denotes in this graph.

        Raises TensorFlow's errors with its messages: TypeError for an object of another kind,
        ValueError for a malformed name or an element of another graph, KeyError for a missing name.
        """
        kinds = " or ".join(k for k, ok in (("Tensor", allow_tensor), ("Operation", allow_operation)) if ok)
        if isinstance(obj, str):
            return self._element_by_name(obj, allow_tensor, allow_operation, kinds)
        conv = getattr(obj, "_as_graph_element", None)
        element = conv() if conv is not None else None
        if isinstance(element, Tensor) and allow_tensor or isinstance(element, Operation) and allow_operation:
            if element.graph is not self:
                kind = "Tensor" if isinstance(element, Tensor) else "Operation"
                raise ValueError(f"{kind} {element} is not an element of this graph.")
            return element
        raise TypeError(f"Can not convert a {type(obj).__name__} into a {kinds}.")

    def _element_by_name(self, name, allow_tensor, allow_operation, kinds):
        nodes = self._nx.nodes
        if ":" in name:
            if not allow_tensor:
                raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a {kinds}.")
            op_name, _, index = name.partition(":")
            if not index.isdigit():
                raise ValueError(
                    f"The name {name!r} looks a like a Tensor name, but is not a valid one. Tensor names must be "
                    'of the form "<op_name>:<output_index>".'
                )
            if op_name not in nodes:
                raise KeyError(
                    f"The name {name!r} refers to a Tensor which does not exist. The operation, {op_name!r}, "
                    "does not exist in the graph."
                )
            outputs = nodes[op_name]["op"]._outputs
            if int(index) >= len(outputs):
                raise KeyError(
                    f"The name {name!r} refers to a Tensor which does not exist. The operation, {op_name!r}, "
                    f"exists but only has {len(outputs)} outputs."
                )
            return outputs[int(index)]
        if allow_operation:
            if name not in nodes:
                raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
            return nodes[name]["op"]
        what = "refers to an Operation" if name in nodes else "looks like an (invalid) Operation name"
        raise ValueError(
            f'The name {name!r} {what}, not a {kinds}. Tensor names must be of the form "<op_name>:<output_index>".'
        )

    def _consumers(self, tensor):
        name = tensor.op.name
        with self._lock:
            return [
                self._nx.nodes[succ]["op"]
                for succ, data in self._nx.succ[name].items()
                if any(out == tensor.value_index for out, _ in data["data"])
            ]

    # -- names -------------------------------------------------------------------------------
    def get_name_scope(self):
        return self._per_thread.name_stack

    def unique_name(self, name, mark_as_used=True):
        """``name`` inside the current name scope, suffixed ``_1``, ``_2``... when already taken."""
        scope = self._per_thread.name_stack
        if scope:
            name = f"{scope}/{name}"
        key = name.lower()
        i = self._names_in_use.get(key, 0)
        if mark_as_used:
            self._names_in_use[key] = i + 1
        if i > 0:
            base = key
            while key in self._names_in_use:
                key = f"{base}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[key] = 1
            name = f"{name}_{i - 1}"
        return name

    def name_scope(self, name):
        """Open a name scope: ``"a"`` nests and uniquifies, ``"a/"`` re-enters as is, ``None``/``""`` resets.

        A context manager whose ``__enter__`` returns the scope (``"a/"``, or ``""`` at the root). A
        class rather than a generator: a model opens one or more per op it builds.
        """
        return _NameScope(self, name)

    # -- devices, control dependencies, colocation ---------------------------------------------
    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Place the ops created inside on a device: a string, a function of the op, or None to reset."""
        from numflow.framework.device_spec import device_function

        self._device_stack.append(device_function(device_name_or_function))
        try:
            yield
        finally:
            self._device_stack.pop()

    def _apply_device_functions(self, op):
        # Innermost first; each outer entry merges under what the inner ones set, as TensorFlow does.
        for fn in reversed(self._device_stack):
            if fn is None:
                break
            op._device = fn(op)

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created inside run after ``control_inputs``; ``None`` clears the outer ones.

        ``control_inputs`` are operations, tensors (their ops) or their names. As in TensorFlow, an op
        already required by an enclosing block is not repeated, an op's data inputs are not added as
        control inputs, and an op taking an input created inside a block skips that block's control
        inputs: the input already runs after them.
        """
        if control_inputs is None:
            saved, self._control_stack = self._control_stack, []
            try:
                yield
            finally:
                self._control_stack = saved
            return
        current = {c for level in self._control_stack for c in level.ops}
        ops = []
        for c in control_inputs:
            c = self.as_graph_element(c)
            if isinstance(c, Tensor):
                c = c.op
            if c not in current:
                ops.append(c)
                current.add(c)
        self._control_stack.append(_ControlLevel(ops))
        try:
            yield
        finally:
            self._control_stack.pop()

    def _control_inputs_for(self, input_ops):
        controls = []
        for level in self._control_stack:
            if level.seen.isdisjoint(input_ops):
                controls.extend(c for c in level.ops if c not in input_ops)
        return controls

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Ops of the types in ``op_type_map`` created inside take their gradient from the function registered
        (``tf.RegisterGradient``) under the name it maps them to."""
        if not isinstance(op_type_map, dict):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = self._gradient_override_map
        self._gradient_override_map = {**saved, **op_type_map}
        try:
            yield
        finally:
            self._gradient_override_map = saved

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Ops created inside share ``op``'s device and colocation group; device scopes are ignored."""
        if op is None:
            saved, self._colocation_stack = self._colocation_stack, []
            try:
                yield
            finally:
                self._colocation_stack = saved
            return
        if hasattr(op, "_as_graph_element") and not isinstance(op, Operation):
            op = op._as_graph_element()
        if isinstance(op, Tensor):
            op = op.op
        saved_colocation = self._colocation_stack
        saved_devices, self._device_stack = self._device_stack, []
        self._colocation_stack = ([] if ignore_existing else list(self._colocation_stack)) + [op]
        try:
            yield
        finally:
            self._colocation_stack = saved_colocation
            self._device_stack = saved_devices

    # -- building ----------------------------------------------------------------------------
    def create_op(self, op_type, inputs=(), attrs=None, name=None, control_inputs=(), creation_stack=None):
        """Add an operation of a declared type and return it.

        ``name`` defaults to the op type; it is made unique inside the current name scope, unless it
        ends with "/" (then it is used as is, without the slash). ``creation_stack``: where the op
        was made, as ``creation_stack()`` gives it, for many ops made by one call (default: the caller's).
        """
        if self._finalized:
            self._check_not_finalized()
        opdef = _registry.OP_DEFS.get(op_type) or _registry.get(op_type)
        input_ops = []
        for t in inputs:
            if not isinstance(t, Tensor):
                raise TypeError(f"Input to {op_type} must be a Tensor, got {type(t).__name__}")
            producer = t._op
            if producer._graph is not self:
                raise ValueError(_other_graph_message(t, inputs, self, op_type))
            input_ops.append(producer)
        if name and name.endswith("/"):
            name = name[:-1]
            valid = _VALID_OP_NAME.match(name) or name == self._name_stack  # the scope was checked on entry
        else:
            base = name or op_type
            # The name scope was checked when it was entered: checking the new part is enough.
            valid = (_VALID_SCOPE_NAME if self._per_thread.name_stack else _VALID_OP_NAME).match(base)
            name = self.unique_name(base)
        if not valid:
            raise ValueError(f"`{name}` is not a valid node name. Accepted names conform to Regex /{_VALID_OP_NAME}/")
        nxg = self._nx
        if name in nxg._node:
            raise ValueError(f"Duplicate node name in graph: '{name}'")
        context = self._control_flow_context
        if self._resolve_inputs is not None:
            inputs = self._resolve_inputs(self, inputs, name)
            input_ops = [t._op for t in inputs]
        controls = self._control_inputs_for(set(input_ops)) if self._control_stack else []
        if control_inputs:
            controls += [c for c in control_inputs if c not in controls]
        op = Operation(self, op_type, name, inputs, _int_attrs(attrs) if attrs else {},
                       _dedup(controls) if controls else (), self._next_id)
        if self._gradient_override_map:
            op._gradient_override = self._gradient_override_map.get(op_type)
        try:
            specs = opdef.infer(op)
        except TypeError:
            raise  # a dtype mismatch message is complete as TF words it ("Input 'y' of 'AddV2' Op has ...")
        except ValueError as e:
            raise ValueError(f"{e} for {_node_summary(op)}") from e
        op._outputs = _output_tensors(op, specs, opdef.ref_output)
        if self._colocation_stack:
            target = self._colocation_stack[-1]
            op._colocation = tuple(dict.fromkeys(g for c in self._colocation_stack for g in _groups(c)))
            op._device = target.device
        elif self._device_stack:
            self._apply_device_functions(op)
        op._traceback = _creation_stack() if creation_stack is None else creation_stack
        if context is not None:
            op._control_flow_context = context
            context.add_op(op)
        self._next_id += 1
        with self._lock:  # sessions of this graph may be building run plans on other threads
            # What DiGraph.add_node and add_edge do, written into its dicts: a node attribute dict
            # {"op": op}, and one dict {"data": ((output, slot)...), "control": bool} per edge, shared
            # by the producer's successors and the consumer's predecessors. Tuples, not lists: the
            # garbage collector stops tracking tuples of ints, and walks a large graph's lists every time.
            succ, pred = nxg._succ, nxg._pred
            nxg._node[name] = {"op": op}
            succ[name] = {}
            preds = pred[name] = {}
            for slot, (t, producer) in enumerate(zip(inputs, input_ops)):
                edge = preds.get(producer._name)
                if edge is None:
                    preds[producer._name] = succ[producer._name][name] = {"data": ((t._value_index, slot),),
                                                                          "control": False}
                else:
                    edge["data"] += ((t._value_index, slot),)
            _forget_networkx_caches(nxg)
            for c in op._control_inputs:
                self._add_control_edge(c, op)
            self._version += 1
        for level in self._control_stack:
            level.seen.add(op)
        return op

    def _add_control_edge(self, src, dst):
        with self._lock:
            nxg = self._nx
            edge = nxg._pred[dst._name].get(src._name)  # as in create_op: the DiGraph's dicts directly
            if edge is None:
                nxg._pred[dst._name][src._name] = nxg._succ[src._name][dst._name] = {"data": (), "control": True}
                _forget_networkx_caches(nxg)
            else:
                edge["control"] = True
            self._version += 1

    # -- collections -------------------------------------------------------------------------
    def add_to_collection(self, name, value):
        """Append ``value`` to collection ``name``; RuntimeError when the graph is finalized."""
        self._check_not_finalized()
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection_ref(self, key):
        """The live list behind collection ``key`` (created empty if missing)."""
        return self._collections.setdefault(key, [])

    def get_collection(self, key, scope=None):
        """A copy of collection ``key``; with ``scope``, the items whose name matches it from the start."""
        items = self._collections.get(key, [])
        if scope is None:
            return list(items)
        pattern = re.compile(scope)
        return [item for item in items if hasattr(item, "name") and pattern.match(item.name)]

    def get_all_collection_keys(self):
        return [k for k in self._collections if isinstance(k, str)]

    def clear_collection(self, name):
        self._check_not_finalized()
        self._collections.pop(name, None)

    def __contains__(self, name):
        return name in self._nx

    def __len__(self):
        return self._nx.number_of_nodes()

    def __bool__(self):
        # A graph is an object, not a container: an empty one is still true, so that
        # ``graph or get_default_graph()`` keeps a new graph (TensorFlow's Graph has no length).
        return True


def _node_summary(op):
    """TensorFlow 2.x's text for a node whose shapes do not fit, after the reason:
    ``'{{node Assign}} = Assign[T=DT_FLOAT, validate_shape=true](v, Assign/value)' with input
    shapes: [2], [3].`` Attrs that have no plain text form (arrays, objects) are left out."""
    attrs = {k: v for k, v in op._attrs.items() if not k.startswith("_")}
    if op._inputs and "T" not in attrs:
        attrs["T"] = op._inputs[0].dtype
    texts = [f"{k}={t}" for k, t in ((k, _attr_text(attrs[k])) for k in sorted(attrs)) if t is not None]
    inputs = [t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}" for t in op._inputs]
    inputs += [f"^{c.name}" for c in op._control_inputs]
    shapes = ", ".join(_shape_text(t.shape) for t in op._inputs)
    return (f"'{{{{node {op.name}}}}} = {op.type}[{', '.join(texts)}]({', '.join(inputs)})' "
            f"with input shapes: {shapes}.")


_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _shape_text(shape):
    if shape.ndims is None:
        return "?"
    return dims_text(shape.dim_values)


def _attr_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _dtypes.DType):
        name = value.base_dtype.name
        return "DT_" + _TF_TYPE_NAMES.get(name, name).upper()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return f'"{value}"'
    if type(value).__name__ == "TensorShape":
        return "<unknown>" if value.ndims is None else _shape_text(value)
    if isinstance(value, list | tuple):
        items = [_attr_text(v) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"
    return None


def _forget_networkx_caches(nxg):
    """Drop what networkx caches about a graph (3.3 and later) after writing into its dicts."""
    cache = getattr(nxg, "__networkx_cache__", None)
    if cache:
        cache.clear()


_INT64_MAX = (1 << 63) - 1


def _output_tensors(op, specs, is_ref):
    """The Tensors of ``op``'s outputs from its ``(dtype, shape)`` specs: base dtypes (or references,
    ``is_ref``), after TensorFlow's check that every size fits int64 (a tile or reshape of huge sizes
    overflows it: an error when the graph is built, never a shape that wrapped around)."""
    outputs = []
    for i, (dtype, shape) in enumerate(specs):
        base = (dtype if type(dtype) is _dtypes.DType else _dtypes.as_dtype(dtype))._base
        if type(shape) is not TensorShape:
            shape = as_shape(shape)
        for size in shape._dims or ():
            if size is not None and size > _INT64_MAX:
                raise ValueError(f"Dimension size {size} overflows int64 (at most 2**63 - 1) in the shape {shape} "
                                 f"computed for {_node_summary(op)}")
        outputs.append(Tensor(op, i, base._ref if is_ref else base, shape))
    return outputs


def _int_attrs(attrs):
    """``attrs`` with the Dimensions given for ints (a split count, strides) as ints, as TensorFlow's op
    builder reads them; TypeError for an unknown one."""
    for value in attrs.values():
        kind = type(value)
        if kind is Dimension or (kind is list or kind is tuple) and Dimension in map(type, value):
            return {key: _int_attr(value) for key, value in attrs.items()}
    return attrs


def _int_attr(value):
    if type(value) is Dimension:
        return int(value)
    if type(value) in (list, tuple):
        return type(value)(int(v) if type(v) is Dimension else v for v in value)
    return value


def _other_graph_message(tensor, inputs, graph, op_type):
    """TF's words for an input from another graph, naming an input that is in ``graph`` if any."""
    same = next((t for t in inputs if isinstance(t, Tensor) and t._op._graph is graph), None)
    if same is None:
        return f"{tensor} must be from the same graph as the op being created ({op_type}), graph {graph!r}."
    return (f"{tensor} must be from the same graph as {same} (graphs are {tensor.graph!r} and "
            f"{graph!r}).")


def creation_stack():
    """Where the caller was called from, as ``Operation._traceback`` keeps it (see ``_creation_stack``)."""
    return _creation_stack()


def _creation_stack():
    """Where create_op was called from: (codes, bytecode offsets) of its callers, innermost first.

    traceback.extract_stack() reads every frame's source line and stats its file, and even
    ``frame.f_lineno`` scans the code's line table: most of the cost of adding an op. The offsets
    (``f_lasti``) cost nothing to read; ``_line_at`` turns them into line numbers when a traceback is
    asked for. Two flat lists allocate little, and codes keep no frame (nor its locals) alive.
    """
    codes, offsets = [], []
    frame = sys._getframe(2)
    while frame is not None:
        codes.append(frame.f_code)
        offsets.append(frame.f_lasti)
        frame = frame.f_back
    return codes, offsets


def _line_at(code, offset):
    """The line number of the instruction at bytecode ``offset`` of ``code`` (as ``frame.f_lineno``)."""
    for start, end, line in code.co_lines():
        if start <= offset < end:
            return line
    return code.co_firstlineno


class _PerThread(threading.local):
    """A graph's construction state that each thread keeps its own of (TensorFlow's ``Graph._thread_local``)."""

    name_stack = ""


class _NameScope:
    """``Graph.name_scope(name)``: checks and enters the scope on ``__enter__``, restores it on exit."""

    __slots__ = ("_graph", "_name", "_old")

    def __init__(self, graph, name):
        self._graph = graph
        self._name = name

    def __enter__(self):
        graph, name = self._graph, self._name
        old = self._old = graph._per_thread.name_stack
        if name:
            # Inside a scope a name may start with '_', '-', '/' or '\'; at the root it must be an op name.
            pattern, kind = (_VALID_SCOPE_NAME, "scope") if old else (_VALID_OP_NAME, "root scope")
            if not pattern.match(name):
                raise ValueError(
                    f"'{name}' is not a valid {kind} name. A {kind} name has to match the following pattern: "
                    f"{pattern.pattern}"
                )
        if not name:
            new, scope = "", ""
        elif name.endswith("/"):
            new, scope = name[:-1], name
        else:
            new = graph.unique_name(name)
            scope = f"{new}/"
        graph._per_thread.name_stack = new
        return scope

    def __exit__(self, exc_type, exc, tb):
        self._graph._per_thread.name_stack = self._old
        return False


class _ControlLevel:
    """One ``control_dependencies`` block: its control ops and the ops created inside it."""

    __slots__ = ("ops", "seen")

    def __init__(self, ops):
        self.ops = ops
        self.seen = set()


def _groups(op):
    return op._colocation or (op.name,)


def _dedup(ops):
    return list(dict.fromkeys(ops))


class _DefaultGraphStack(threading.local):
    """Per-thread stack of default graphs over one global graph shared by all threads."""

    global_default = None

    def __init__(self):
        self.stack = []

    def get_default(self):
        if self.stack:
            return self.stack[-1]
        if _DefaultGraphStack.global_default is None:
            _DefaultGraphStack.global_default = Graph()
        return _DefaultGraphStack.global_default

    @contextlib.contextmanager
    def get_controller(self, graph):
        self.stack.append(graph)
        try:
            yield graph
        finally:
            self.stack.pop()

    def reset(self):
        if self.stack:
            raise AssertionError(
                "Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared graph, "
                "exit the nesting and create a new graph."
            )
        _DefaultGraphStack.global_default = Graph()


_default_graph_stack = _DefaultGraphStack()


def get_default_graph():
    """The graph that new operations go to in the current thread."""
    return _default_graph_stack.get_default()


_reset_hooks = []


def on_reset_default_graph(hook):
    """Have :func:`reset_default_graph` call ``hook()`` once it has replaced the graph (the session
    layer drops its default sessions, which ran the old graph)."""
    _reset_hooks.append(hook)


def reset_default_graph():
    """Replace the global default graph with a new, empty one."""
    _default_graph_stack.reset()
    for hook in _reset_hooks:
        hook()


def constant_value(tensor):
    """The value of ``tensor`` when it is a constant computable at graph-building time, else None."""
    op = tensor.op
    if op.type == "Const":
        return op._attrs["value"]
    if op.type == "Shape" and op.inputs[0].shape.is_fully_defined():
        return np.array(op.inputs[0].shape.as_list(), dtype=tensor.dtype.as_numpy_dtype)
    return None
