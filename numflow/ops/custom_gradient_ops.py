"""``tf.custom_gradient`` and ``tf.init_scope`` for graphs: a function's outputs given the gradient its own
``grad_fn`` computes (through an ``IdentityN`` whose gradient is overridden, as TensorFlow builds it), and
ops built outside any control-flow context and control dependencies."""

import contextlib
import functools
import inspect
import itertools

from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.framework.nest import flatten, pack_sequence_as
from numflow.framework.registry import register_gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.manip_ops import identity_n

_names = itertools.count()


@contextlib.contextmanager
def init_scope():
    """Build ops outside any control-flow context and control dependencies, in the current name scope, as
    variables' initializers are built (``tf.init_scope``)."""
    graph = get_default_graph()
    saved_context = graph._control_flow_context
    graph._control_flow_context = None
    try:
        with graph.control_dependencies(None):
            yield
    finally:
        graph._control_flow_context = saved_context


def _dependent_variables(inputs, outputs):
    """The global and local variables read between ``inputs`` and ``outputs``: walked back from the
    outputs' ops, stopping at the inputs."""
    graph = get_default_graph()
    stop = {t.op for t in inputs}
    seen, pending = set(), [t.op for t in outputs]
    while pending:
        op = pending.pop()
        if op in seen or op in stop:
            continue
        seen.add(op)
        pending.extend(t.op for t in op.inputs)
    candidates = graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + graph.get_collection(GraphKeys.LOCAL_VARIABLES)
    return sorted({v for v in candidates if v.op in seen}, key=lambda v: v.name)


def custom_gradient(f=None):
    """Decorate ``f(*tensors) -> (outputs, grad_fn)`` so that the gradient of its outputs with respect to
    its inputs is ``grad_fn(*output_grads)`` (and, where ``f`` reads variables, ``grad_fn(*output_grads,
    variables=...)`` returns ``(input_grads, variable_grads)``).

    >>> import numflow as tf
    >>> @tf.custom_gradient
    ... def clipped_identity(x):
    ...     return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)
    >>> x = tf.constant([1.0, 2.0])
    >>> tf.Session().run(tf.gradients(clipped_identity(x) * 5.0, x)[0]).tolist()
    [1.0, 1.0]
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if kwargs:
            raise ValueError("The custom_gradient decorator currently supports keywords arguments only when "
                             "eager execution is enabled.")
        args = [convert_to_tensor(a) for a in args]
        result, grad_fn = f(*args)
        flat_result = [convert_to_tensor(t) for t in flatten(result)]
        variables = _dependent_variables(args, flat_result)
        spec = inspect.getfullargspec(grad_fn)
        takes_variables = "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw
        if variables and not takes_variables:
            raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                            f"uses variables: {variables}")
        n = len(flat_result)

        def tape_grad_fn(op, *result_grads):
            result_grads = list(result_grads[:n])
            if variables:
                input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
                if len(variable_grads) != len(variables):
                    raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
            else:
                input_grads, variable_grads = grad_fn(*result_grads), []
            return [None] * n + flatten(input_grads) + list(variable_grads)

        name = f"CustomGradient-{next(_names)}"
        register_gradient(name)(tape_grad_fn)
        graph = get_default_graph()
        with graph.gradient_override_map({"IdentityN": name}):
            all_tensors = identity_n(flat_result + args + [v.value() for v in variables])
        return pack_sequence_as(result, all_tensors[:n])

    return decorated
