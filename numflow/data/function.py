"""The functions of tf.data (``map``, ``filter``, ``flat_map``, ``interleave``, ``scan``, ``reduce``,
``group_by_window``...): traced once into a graph of their own, run as a sub-plan per element. An
argument that is a dataset (a window, a group) is a ``Dataset`` in the function.

As in TensorFlow, a dataset function is not part of the graph that uses it: ``ds.map(lambda x: x * 2)``
adds no ``mul`` to the default graph (so the user's next ``mul`` keeps its name). It is traced into
a :class:`FunctionGraph`, on placeholders named ``args_0``, ``args_1``... standing for the
components of one element. A tensor of an enclosing graph used inside is *captured*: a placeholder
stands for it inside, and the dataset op takes the outer tensor as an extra input, evaluated when
the dataset op runs (when its iterator is initialized), as TensorFlow's ``other_arguments``.

At run time the dataset op, a functional op, receives a :class:`FunctionPlans` of the session
running it (``numflow.runtime.subplan``). Each run of the dataset op instantiates its functions:
a function with stateful ops (random ops) gets a plan over a resource container of its own, so
each new iterator draws the same numbers again, as a TensorFlow iterator's fresh function instance
does; a function without any shares one plan per session.
"""

import threading

from numflow.data import op_types, structure
from numflow.framework import registry
from numflow.framework.graph import Graph, Tensor, get_default_graph
from numflow.ops.constant_op import convert_to_tensor
from numflow.runtime import executor, subplan
from numflow.runtime import plan as _plan
from numflow.runtime.resources import ResourceContainer
from numflow_kernels import cpu_threads
from numflow_kernels.handle import VariableHandle


class FunctionGraph(Graph):
    """The graph a dataset function is traced into; tensors of ``outer`` used here are captured."""

    def __init__(self, outer, name):
        super().__init__()
        self.outer = outer
        self.name = name
        self.seed = outer.seed
        self.captures = {}  # a tensor of an enclosing graph -> the placeholder standing for it here
        self.captured = []  # (tensor of ``outer``, placeholder here), in order

    def create_op(self, op_type, inputs=(), attrs=None, name=None, control_inputs=(), creation_stack=None):
        inputs = [self.capture(t) for t in inputs]
        control_inputs = [c for c in control_inputs if c.graph is self]
        return super().create_op(op_type, inputs, attrs, name, control_inputs, creation_stack)

    def capture(self, tensor):
        """``tensor`` as this graph sees it: itself when built here, else the placeholder capturing it."""
        if not isinstance(tensor, Tensor) or tensor.graph is self:
            return tensor
        inner = self.captures.get(tensor)
        if inner is None:
            outer_tensor = tensor
            if tensor.graph is not self.outer:
                if not isinstance(self.outer, FunctionGraph):
                    raise ValueError(f"{tensor} must be from the same graph as the dataset function {self.name}.")
                outer_tensor = self.outer.capture(tensor)
            attrs = {"dtype": tensor.dtype.base_dtype, "shape": tensor.shape}
            with self.control_dependencies(None):
                inner = Graph.create_op(self, "Placeholder", [], attrs, name="Placeholder").outputs[0]
            self.captures[tensor] = inner
            self.captured.append((outer_tensor, inner))
        return inner


class Function:
    """A traced dataset function: its graph, argument and result tensors, and the result structure.

    ``captured``: the enclosing graph's tensors it uses, which the dataset op takes as inputs after
    its own; ``stateful``: whether it holds ops with state (random ops), which get fresh state in
    each instance.
    """

    __slots__ = ("graph", "args", "outputs", "output_specs", "captured", "placeholders", "stateful", "name")

    def __init__(self, graph, args, outputs, output_specs):
        self.graph = graph
        self.name = graph.name
        self.args = args
        self.outputs = outputs
        self.output_specs = output_specs
        self.captured = [outer for outer, _ in graph.captured]
        self.placeholders = [inner for _, inner in graph.captured]
        self.stateful = any(registry.get(op.type).stateful for op in graph.get_operations())


def trace(fn, input_specs, name, returns=None):
    """Trace ``fn`` over one element of structure ``input_specs`` into a :class:`Function`.

    A tuple element is passed as separate arguments, anything else as one, as TensorFlow passes them.
    ``returns``: a check of the raw result (a dataset for ``flat_map``); by default the result is a
    structure of tensors (a list becomes a tuple at the top, as TensorFlow does).
    """
    outer = get_default_graph()
    graph = FunctionGraph(outer, name)
    with graph.as_default():
        args = [graph.create_op("Placeholder", [], {"dtype": s.dtype, "shape": s.shape}, name=f"args_{i}").outputs[0]
                for i, s in enumerate(structure.flatten(input_specs))]
        element = structure.pack(input_specs, [_argument(t, s) for t, s in zip(args, structure.flatten(input_specs))])
        raw = fn(*element) if type(element) is tuple else fn(element)
        if returns is not None:
            outputs, specs = returns(raw)
        else:
            if isinstance(raw, list):
                raw = tuple(raw)
            leaves = [convert_to_tensor(leaf, name=f"component_{i}") for i, leaf in enumerate(structure.flatten(raw))]
            outputs = leaves
            specs = structure.pack(raw, [structure.Spec(t.dtype, t.shape) for t in leaves])
        outputs = [graph.capture(t) for t in outputs]  # a tensor of the enclosing graph returned as it is
    return Function(graph, args, outputs, specs)


def _argument(tensor, spec):
    """An argument as the function sees it: a dataset (a window) where the component is one."""
    if isinstance(spec, structure.DatasetSpec):
        from numflow.data.dataset_ops import Dataset

        return Dataset(tensor, spec.element)
    return tensor


class _SessionView:
    """A session as one function instance's plan sees it: its devices and config, with a container
    of the instance's own (``container``)."""

    def __init__(self, session, container):
        self._session = session
        self._container = container

    def _resources_for(self, device):
        return self._container

    def __getattr__(self, name):
        return getattr(self._session, name)


@subplan.builds(*op_types.FUNCTION_ATTRS)
class FunctionPlans:
    """What a dataset op with functions receives as ``ctx.subplans``: per function, its instances."""

    calls_blas = False  # its functions run when an iterator pulls elements, not in the dataset op's run

    def __init__(self, op, session, needed=None):
        self.functions = [Instantiator(f, session) for f in op._attrs["functions"]]

    def instances(self):
        """One instance of each function, for one run of the dataset op."""
        return [f.instance() for f in self.functions]


class Instantiator:
    """Makes instances of one function in one session (a stateless one is made once)."""

    def __init__(self, function, session):
        self.function = function
        self.session = session
        self._shared = None
        self._lock = threading.Lock()

    def instance(self):
        if self.function.stateful:
            return self._new()
        with self._lock:
            if self._shared is None:
                self._shared = self._new()
            return self._shared

    def _new(self):
        return Instance(self.function, _SessionView(self.session, ResourceContainer(self.function.name)))


def _value(x):
    return x.read() if isinstance(x, VariableHandle) else x


class Instance:
    """A function's plan in one session: ``instance(captured_values)(*components)`` runs it on one element."""

    __slots__ = ("plan", "feed_slots", "fetch_slots", "num_args", "calls_blas")

    def __init__(self, function, session):
        feeds = [*function.args, *function.placeholders]
        self.plan = _plan.build(function.graph, list(function.outputs), [], feeds, session)
        self.feed_slots = self.plan.feed_slots
        self.fetch_slots = self.plan.fetch_slots
        self.num_args = len(function.args)
        self.calls_blas = self.plan.calls_blas

    def bind(self, captured):
        """A callable running the function on one element's components, with ``captured`` given."""
        values = self.plan.slots.copy()
        for slot, value in zip(self.feed_slots[self.num_args:], captured):
            values[slot] = _value(value)
        arg_slots = self.feed_slots[:self.num_args]
        fetch_slots = self.fetch_slots
        steps = self.plan.alone_steps
        run = executor.steps_runner()

        def call(components):
            slots = values.copy()
            for slot, value in zip(arg_slots, components):
                slots[slot] = value
            if self.calls_blas:
                with cpu_threads.one_blas_thread():
                    run(steps, slots)
            else:
                run(steps, slots)
            return tuple(_value(slots[s]) for s in fetch_slots)

        return call
