"""The global step: an int64 scalar variable counting training steps, found through a collection.

``apply_gradients(..., global_step=gs)`` adds one to it after every variable update of the step,
under its lock, so steps run at once from several threads are all counted.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     gs = tf.train.get_or_create_global_step()
...     assert tf.train.get_global_step() is gs
...     gs.op.name, gs.dtype.name, gs in tf.trainable_variables()
('global_step', 'int64_ref', False)
"""

import logging

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, Tensor, get_default_graph

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines


def global_step(sess, global_step_tensor):
    """The value of ``global_step_tensor`` in ``sess``, as a Python int."""
    return int(sess.run(global_step_tensor))


def get_global_step(graph=None):
    """The global step of ``graph`` (default: the default graph), or None when it has none.

    Looked up in the ``GLOBAL_STEP`` collection, else as the tensor ``global_step:0``.
    """
    graph = graph or get_default_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(found) == 1:
        step = found[0]
    elif not found:
        try:
            step = graph.get_tensor_by_name("global_step:0")
        except (KeyError, ValueError):
            return None
    else:
        _log.error("Multiple tensors in global_step collection.")
        return None
    assert_global_step(step)
    return step


def create_global_step(graph=None):
    """Create the global step of ``graph``: ``global_step``, int64, zero, not trainable.

    It joins ``GLOBAL_VARIABLES`` (so a Saver saves it) and ``GLOBAL_STEP``.

    Raises
    ------
    ValueError
        When the graph already has a global step.
    """
    from numflow.ops import init_ops
    from numflow.variables.scope import get_variable

    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default(), graph.name_scope(None):
        return get_variable(
            GraphKeys.GLOBAL_STEP, shape=[], dtype=dtypes.int64, initializer=init_ops.zeros_initializer(),
            trainable=False, collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP],
        )


def get_or_create_global_step(graph=None):
    """The global step of ``graph``, created first when it has none."""
    graph = graph or get_default_graph()
    step = get_global_step(graph)
    if step is None:
        step = create_global_step(graph)
    return step


def assert_global_step(global_step_tensor):
    """Raise TypeError unless ``global_step_tensor`` is an integer scalar Variable or Tensor."""
    from numflow.variables.variable import Variable

    if not isinstance(global_step_tensor, Variable | Tensor):
        raise TypeError(f'Existing "global_step" must be a Variable or Tensor: {global_step_tensor}.')
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError(f'Existing "global_step" does not have integer type: {global_step_tensor.dtype}')
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')
