"""The Optimizer base class: gradients, slot variables, and one update op per variable.

``minimize(loss)`` is ``compute_gradients`` (``tf.gradients`` of the loss for each trainable
variable) then ``apply_gradients`` (one ``Apply*`` op per variable, colocated with it, then the
global step's increment). The graph it builds reads as TensorFlow's::

    Adam/update_w/ApplyAdam      the update of variable w (w, w/Adam, w/Adam_1 updated in one kernel)
    Adam/update                  a NoOp after every update
    Adam                         global_step += 1 (or a NoOp named Adam without a global step)

Slots are variables named ``<variable>/<optimizer name>`` (``w/Adam``, then ``w/Adam_1``...), made
by :func:`create_slot` exactly as TensorFlow's ``slot_creator`` makes them: inside
``variable_scope(None, default_name=...)``, colocated with their variable, not trainable, in
``GLOBAL_VARIABLES``, so a Saver writes them under TensorFlow's checkpoint keys.

Trap: slots are created on the first ``apply_gradients`` inside the enclosing variable scope, so
calling ``minimize`` inside ``variable_scope("train")`` names them ``train/w/Adam``, as in
TensorFlow, and inside a ``reuse=True`` scope fails as TensorFlow fails.
"""

from numflow.framework import dtypes, nest
from numflow.framework.graph import GraphKeys, Tensor, get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.ops import control_flow_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor

_VALID_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _var_key(var):
    return (var.op.graph, var.op.name)


def create_slot_with_initializer(primary, initializer, shape, dtype, name, colocate_with_primary=True):
    """A slot variable of ``primary`` named ``<primary>/<name>`` (uniquified), set by ``initializer``."""
    from numflow.variables.partitioned import give_slot_slice_info
    from numflow.variables.scope import get_variable, get_variable_scope, variable_scope

    graph = primary.graph
    with graph.as_default(), graph.control_dependencies(None):
        scope = get_variable_scope()
        partitioner = scope.partitioner
        scope.set_partitioner(None)
        try:
            with variable_scope(None, default_name=f"{primary.op.name}/{name}"):
                if colocate_with_primary:
                    with graph.colocate_with(primary.op):
                        slot = get_variable("", shape=shape, dtype=dtype, initializer=initializer, trainable=False,
                                            validate_shape=shape.is_fully_defined())
                else:
                    slot = get_variable("", shape=shape, dtype=dtype, initializer=initializer, trainable=False,
                                        validate_shape=shape.is_fully_defined())
                return give_slot_slice_info(primary, slot)
        finally:
            scope.set_partitioner(partitioner)


def create_zeros_slot(primary, name, dtype=None, colocate_with_primary=True):
    """A slot of zeros shaped as ``primary`` (``w/Momentum``, ``w/Adam``...)."""
    from numflow.ops import init_ops

    dtype = dtypes.as_dtype(dtype or primary.dtype).base_dtype
    return create_slot_with_initializer(primary, init_ops.zeros_initializer(), primary.get_shape(), dtype, name,
                                        colocate_with_primary)



def summed_by_index(grad):
    """``grad`` (an IndexedSlices) with the rows of each index summed into one (``Unique``, then
    ``UnsortedSegmentSum``), as TensorFlow's optimizers sum them before a sparse update."""
    from numflow.ops import array_ops, math_ops, selection_ops

    unique_indices, positions = selection_ops.unique(grad.indices)
    summed = math_ops.unsorted_segment_sum(grad.values, positions, array_ops.shape(unique_indices)[0])
    return IndexedSlices(summed, unique_indices, grad.dense_shape)

class Optimizer:
    """Base class of the optimizers: subclasses say which slots they need and build one update op.

    Parameters
    ----------
    use_locking : bool
        Kept on the update ops as TensorFlow's ``use_locking`` attr. numflow's update kernels always
        hold the variable's lock (and its slots' locks) while they write.
    name : str
        Names the update ops' scope and the slot variables (``w/<name>``).
    """

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}
        self._non_slot_dict = {}

    def get_name(self):
        return self._name

    # -- the two halves of minimize ------------------------------------------------------------
    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """Add ops updating ``var_list`` (default: the trainable variables) to decrease ``loss``.

        Returns the op to run for one training step; with ``global_step`` it also adds one to it.

        Raises
        ------
        ValueError
            When no variable of ``var_list`` gets a gradient from ``loss``.
        """
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        if not [v for g, v in grads_and_vars if g is not None]:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not support "
                f"gradients, between variables {[str(v) for _, v in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """``[(gradient, variable), ...]`` of ``loss`` for ``var_list``; a gradient is None when ``loss``
        does not depend on its variable.

        ``var_list`` defaults to ``TRAINABLE_VARIABLES`` (plus ``TRAINABLE_RESOURCE_VARIABLES``).
        """
        from numflow.ops.gradients import gradients

        if callable(loss):
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients must be a Tensor in graph mode.")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             f"Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        loss = convert_to_tensor(loss)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([convert_to_tensor(grad_loss)])
        graph = loss.graph
        if var_list is None:
            var_list = (graph.get_collection(GraphKeys.TRAINABLE_VARIABLES)
                        + graph.get_collection(GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
        else:
            var_list = nest.flatten(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        for v in var_list:
            _check_variable(v)
        with graph.as_default():
            grads = gradients(loss, [v._ref() for v in var_list], grad_ys=grad_loss,
                              gate_gradients=gate_gradients == Optimizer.GATE_OP,
                              aggregation_method=aggregation_method,
                              colocate_gradients_with_ops=colocate_gradients_with_ops)
            if gate_gradients == Optimizer.GATE_GRAPH:
                grads = control_flow_ops.tuple(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Add one update op per ``(gradient, variable)`` pair whose gradient is not None.

        Slots are created first (on the first call). With ``global_step``, the returned op adds one
        to it once every update of the step has run; it joins the ``TRAIN_OP`` collection.

        Raises
        ------
        ValueError
            When ``grads_and_vars`` is empty or every gradient is None.
        TypeError
            When a gradient is not a Tensor (or IndexedSlices) or None.
        """
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None and not isinstance(g, IndexedSlices):
                try:
                    g = convert_to_tensor(g)
                except (TypeError, ValueError):
                    raise TypeError(f"Gradient must be convertible to a Tensor or IndexedSlices, or None: {g}") \
                        from None
            _check_variable(v)
            converted.append((g, v))
        var_list = [v for g, v in converted if g is not None]
        if not var_list:
            raise ValueError(f"No gradients provided for any variable: {[str(v) for _, v in converted]}.")
        graph = var_list[0].graph
        with graph.as_default():
            with graph.control_dependencies(None):
                self._create_slots(var_list)
            update_ops = []
            with graph.name_scope(name or self._name) as scope:
                self._prepare()
                for grad, var in converted:
                    if grad is None:
                        continue
                    with graph.name_scope("update_" + var.op.name), graph.colocate_with(var.op):
                        update_ops.append(self._update_op(grad, var))
                if global_step is None:
                    apply_updates = self._finish(update_ops, scope)
                else:
                    with graph.control_dependencies([self._finish(update_ops, "update")]):
                        step = global_step._ref() if hasattr(global_step, "_ref") else global_step
                        with graph.colocate_with(step.op):
                            apply_updates = state_ops.assign_add(global_step, 1, name=scope)
            if isinstance(apply_updates, Tensor):
                apply_updates = apply_updates.op
            train_ops = graph.get_collection_ref(GraphKeys.TRAIN_OP)
            if apply_updates not in train_ops:
                train_ops.append(apply_updates)
        return apply_updates

    def _update_op(self, grad, var):
        if isinstance(grad, IndexedSlices):
            if var.constraint is not None:
                raise RuntimeError("Cannot use a constraint function on a sparse variable.")
            return self._apply_sparse_duplicate_indices(grad, var)
        update = self._apply_dense(grad, var)
        if isinstance(update, Tensor):
            update = update.op
        if var.constraint is not None:
            with var.graph.control_dependencies([update]):
                # A fresh read: it runs after the update (TensorFlow's read aliases the buffer).
                return var.assign(var.constraint(var.read_value())).op
        return update

    # -- slots and other state -----------------------------------------------------------------
    def get_slot(self, var, name):
        """The slot variable ``name`` (one of :meth:`get_slot_names`) of ``var``, or None."""
        named = self._slots.get(name)
        if not named:
            return None
        return named.get(_var_key(var))

    def get_slot_names(self):
        """The names of the slots this optimizer creates, sorted (Adam: ``["m", "v"]``)."""
        return sorted(self._slots)

    def variables(self):
        """Every variable holding this optimizer's state in the default graph (slots and others), by name."""
        graph = get_default_graph()
        found = [v for (_, g), v in self._non_slot_dict.items() if g is graph]
        for named in self._slots.values():
            found.extend(v for v in named.values() if v.graph is graph)
        return sorted(found, key=lambda v: v.name)

    def _slot_dict(self, slot_name):
        return self._slots.setdefault(slot_name, {})

    def _zeros_slot(self, var, slot_name, op_name):
        """Find or create the slot ``slot_name`` of ``var``, initialized to zeros, named ``var/op_name``."""
        named = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named:
            named[key] = create_zeros_slot(var, op_name)
        return named[key]

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name, op_name):
        named = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named:
            named[key] = create_slot_with_initializer(var, initializer, shape, dtype, op_name)
        return named[key]

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        """A variable of the optimizer that belongs to no one variable (Adam's ``beta1_power``)."""
        from numflow.variables.variable import Variable

        graph = colocate_with.graph
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with graph.as_default(), graph.control_dependencies(None), graph.colocate_with(colocate_with.op):
                v = Variable(initial_value, name=name, trainable=False)
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name, graph=None):
        return self._non_slot_dict.get((name, graph or get_default_graph()))

    def _non_slot_variables(self):
        return list(self._non_slot_dict.values())

    # -- what subclasses provide ---------------------------------------------------------------
    def _create_slots(self, var_list):
        """Create the slots ``var_list`` needs (called once per apply_gradients, outside control deps)."""

    def _prepare(self):
        """Create the hyperparameter tensors, inside the apply_gradients name scope."""

    def _apply_dense(self, grad, var):
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad, var):
        """The update for an IndexedSlices gradient, whose indices may repeat: :meth:`_apply_sparse` of
        its rows summed by index."""
        return self._apply_sparse(summed_by_index(grad), var)

    def _apply_sparse(self, grad, var):
        """The update for an IndexedSlices gradient without repeated indices: the dense update of its
        dense tensor, where an optimizer has no sparse update of its own."""
        update = self._apply_dense(convert_to_tensor(grad), var)
        return update.op if isinstance(update, Tensor) else update

    def _finish(self, update_ops, name_scope):
        """The op that runs once every update has (a NoOp named ``name_scope``)."""
        return control_flow_ops.group(*update_ops, name=name_scope)

    def _valid_dtypes(self):
        return set(_VALID_DTYPES)

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError(f"Invalid type {dtype!r} for {t.name}, expected: {sorted(valid, key=str)}.")

    @staticmethod
    def _call_if_callable(param):
        return param() if callable(param) else param

    @staticmethod
    def _cast(value, var):
        """``value`` (a hyperparameter tensor) in ``var``'s dtype: TensorFlow's ``math_ops.cast``."""
        return math_ops.cast(value, var.dtype.base_dtype)


def _check_variable(v):
    from numflow.variables.variable import Variable

    if not isinstance(v, Variable):
        raise TypeError(f"Trying to optimize unsupported type {v!r}: optimizers update tf.Variable objects.")
