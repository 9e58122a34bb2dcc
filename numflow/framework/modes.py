"""Graph mode is numflow's only mode: the switches TensorFlow 1.x programs call to choose it (after
``import tensorflow.compat.v1 as tf``) are no-ops here, and the ones that would leave it fail clearly."""

from numflow.framework.shapes import disable_v2_tensorshape


def executing_eagerly():
    """False: numflow builds graphs and runs them in sessions."""
    return False


def _graph_mode_already(*args, **kwargs):
    """Nothing to do: numflow already behaves as TensorFlow 1.x does."""


def disable_v2_behavior():
    """What TensorFlow 1.x behaviour needs beyond graph mode: shapes index to Dimensions again."""
    disable_v2_tensorshape()


def _same_results(*args, **kwargs):
    """Nothing to change: numflow's variables and control flow already give what this asks for (a
    variable read is a snapshot no later update changes; tf.cond and tf.while_loop give TensorFlow 2's
    values), so a program runs the same with or without the call."""


disable_eager_execution = _graph_mode_already
disable_resource_variables = disable_control_flow_v2 = disable_tensor_equality = _graph_mode_already
enable_resource_variables = enable_control_flow_v2 = _same_results


def resource_variables_enabled():
    """False: numflow's variables are TensorFlow 1.x's reference variables."""
    return False


def control_flow_v2_enabled():
    """False: ``tf.cond`` and ``tf.while_loop`` build TensorFlow 1.x's control flow."""
    return False


def _no_eager(name):
    def unsupported(*args, **kwargs):
        raise ValueError(f"tf.{name} is not supported: numflow runs TensorFlow 1.x graphs in sessions, "
                         "not eagerly. Remove the call and build the graph as TensorFlow 1.x does.")

    unsupported.__name__ = name
    unsupported.__doc__ = f"Raises ValueError: ``tf.{name}`` asks for eager execution, which numflow does not have."
    return unsupported


enable_eager_execution = _no_eager("enable_eager_execution")
enable_v2_behavior = _no_eager("enable_v2_behavior")
