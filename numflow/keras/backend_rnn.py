"""``tf.keras.backend.rnn``, which ``backend.py`` re-exports.

``rnn`` runs a step function over the time axis as tf-keras does in graph mode: the inputs go time-major
(a ``transpose``), the step is called once before the loop on the first time step (that call fixes the
outputs' structure and makes, outside the loop, what a cell caches such as its dropout masks), then a
``tf.while_loop`` reads each step from a TensorArray, writes each output into another and carries the
states. Under a mask, a masked step keeps the previous output and the previous states (``tf.where`` on the
mask tiled to each tensor). ``unroll=True`` calls the step once per time step instead, with no loop.
"""

from numflow.framework import dtypes, nest
from numflow.keras.backend_ops import reverse
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor
from numflow.ops.selection_ops import where_v2
from numflow.ops.tensor_array_ops import TensorArray
from numflow.ops.tile_pad_split_ops import tile
from numflow.ops.while_loop import while_loop


def _swap_batch_time(x):
    axes = list(range(x.shape.ndims))
    axes[0], axes[1] = 1, 0
    return array_ops.transpose(x, axes)


def _expand_mask(mask_t, x, fixed_dim=1):
    """``mask_t`` (``[batch]`` or ``[batch, 1]``, bools) tiled to ``x``'s shape."""
    for _ in range(x.shape.ndims - mask_t.shape.ndims):
        mask_t = array_ops.expand_dims(mask_t, -1)
    return tile(mask_t, [1] * fixed_dim + x.shape.as_list()[fixed_dim:])


def _masked(mask_t, new, old, fixed_dim=1):
    return tuple(where_v2(_expand_mask(mask_t, n, fixed_dim), n, o) for n, o in zip(new, old))


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None, unroll=False,
        input_length=None, time_major=False, zero_output_for_mask=False, return_all_outputs=True):
    """Iterate ``step_function`` over the time dimension of ``inputs``.

    Parameters
    ----------
    step_function : callable
        ``(inputs_t, states + constants) -> (output_t, new_states)``, ``inputs_t`` without the time axis.
    inputs : Tensor or nested structure of Tensors
        ``[batch, time, ...]`` (``[time, batch, ...]`` when ``time_major``), each of rank 3 at least.
    initial_states : list of Tensor
        The states at the first step.
    go_backwards : bool
        Iterate from the last step to the first (the outputs come out in that order).
    mask : Tensor, optional
        ``[batch, time]``: where false, a step keeps the previous output and states.
    constants : list of Tensor, optional
        Passed to every step after the states.
    unroll : bool
        One call of the step per time step (the number of steps must be known) instead of a while loop.
    input_length : int, optional
        The number of time steps (unused in graph mode, as in TensorFlow 1.x).
    time_major : bool
        Whether the time axis comes first in ``inputs`` and the outputs.
    zero_output_for_mask : bool
        Masked steps output zeros instead of the previous output.
    return_all_outputs : bool
        Always true in TensorFlow 1.x mode (all outputs are returned).

    Returns
    -------
    tuple
        ``(last_output, outputs, new_states)``: the last step's output ``[batch, ...]``, all outputs
        ``[batch, time, ...]`` and the last states.
    """
    del input_length, return_all_outputs  # TF1 always returns every output and has no XLA bound
    if not time_major:
        inputs = nest.map_structure(_swap_batch_time, inputs)
    flat_inputs = nest.flatten(inputs)
    time_steps, batch = flat_inputs[0].shape.as_list()[:2] if flat_inputs[0].shape.ndims else (None, None)
    time_steps_t = array_ops.shape(flat_inputs[0])[0]
    for x in flat_inputs:
        x.shape.with_rank_at_least(3)
    if mask is not None:
        mask = convert_to_tensor(mask)
        if mask.dtype.base_dtype != dtypes.bool:
            mask = math_ops.cast(mask, "bool")
        if mask.shape.ndims == 2:
            mask = array_ops.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_time(mask)
    constants = list(constants or [])
    states = tuple(initial_states)
    if unroll:
        if not time_steps:
            raise ValueError("Unrolling requires a fixed number of timesteps.")
        last_output, outputs, new_states = _unrolled(step_function, inputs, states, constants, mask, time_steps,
                                                     go_backwards, zero_output_for_mask)
    else:
        last_output, outputs, new_states = _looped(step_function, inputs, states, constants, mask, time_steps_t,
                                                   go_backwards, zero_output_for_mask)

    def set_shape(output):
        if is_tensor(output):
            shape = output.shape.as_list()
            shape[0], shape[1] = time_steps, batch
            output.set_shape(shape)
        return output

    outputs = nest.map_structure(set_shape, outputs)
    if not time_major:
        outputs = nest.map_structure(_swap_batch_time, outputs)
    return last_output, outputs, new_states


def _unrolled(step_function, inputs, states, constants, mask, time_steps, go_backwards, zero_output_for_mask):
    def steps_of(x):
        steps = array_ops.unstack(x)
        return steps[::-1] if go_backwards else steps

    per_input = [steps_of(x) for x in nest.flatten(inputs)]
    masks = None if mask is None else steps_of(mask)
    outputs = []
    for i in range(time_steps):
        step_input = nest.pack_sequence_as(inputs, [steps[i] for steps in per_input])
        output, new_states = step_function(step_input, tuple(states) + tuple(constants))
        if masks is not None:
            previous = outputs[-1] if outputs else array_ops.zeros_like(output)
            output = where_v2(_expand_mask(masks[i], output), output, previous)
            flat = _masked(masks[i], nest.flatten(new_states), nest.flatten(states))
            new_states = nest.pack_sequence_as(states, flat)
        outputs.append(output)
        states = new_states
    last_output, stacked = outputs[-1], array_ops.stack(outputs)
    if masks is not None and zero_output_for_mask:
        last_output = where_v2(_expand_mask(masks[-1], last_output), last_output, array_ops.zeros_like(last_output))
        stacked = where_v2(_expand_mask(mask, stacked, fixed_dim=2), stacked, array_ops.zeros_like(stacked))
    return last_output, stacked, states


def _looped(step_function, inputs, states, constants, mask, time_steps_t, go_backwards, zero_output_for_mask):
    flat_inputs = nest.flatten(inputs)
    input_ta = tuple(
        TensorArray(dtype=x.dtype, size=time_steps_t, tensor_array_name=f"input_ta_{i}").unstack(
            reverse(x, 0) if go_backwards else x)
        for i, x in enumerate(flat_inputs))
    first_input = nest.pack_sequence_as(inputs, [x[0] for x in flat_inputs])
    output_time_zero, _ = step_function(first_input, tuple(states) + tuple(constants))
    output_ta = tuple(TensorArray(dtype=out.dtype, size=time_steps_t, element_shape=out.shape,
                                  tensor_array_name=f"output_ta_{i}")
                      for i, out in enumerate(nest.flatten(output_time_zero)))
    time = constant(0, dtype="int32", name="time")
    loop = {"cond": lambda time, *_: time < time_steps_t, "parallel_iterations": 32, "swap_memory": True}

    def step_at(time, step_states):
        current = nest.pack_sequence_as(inputs, tuple(ta.read(time) for ta in input_ta))
        output, new_states = step_function(current, tuple(step_states) + tuple(constants))
        flat_new_states = nest.flatten(new_states)
        for state, new_state in zip(nest.flatten(step_states), flat_new_states):
            if is_tensor(new_state):
                new_state.set_shape(state.shape)
        return output, new_states, flat_new_states

    if mask is not None:
        mask_ta = TensorArray(dtype=dtypes.bool, size=time_steps_t, tensor_array_name="mask_ta").unstack(
            reverse(mask, 0) if go_backwards else mask)
        flat_zero_output = tuple(array_ops.zeros_like(o) for o in nest.flatten(output_time_zero))

        def masked_step(time, output_ta_t, previous_output, *step_states):
            mask_t = mask_ta.read(time)
            output, new_states, flat_new_states = step_at(time, step_states)
            keep = flat_zero_output if zero_output_for_mask else nest.flatten(previous_output)
            flat_output = _masked(mask_t, nest.flatten(output), keep, fixed_dim=mask_t.shape.ndims)
            flat_states = _masked(mask_t, flat_new_states, nest.flatten(step_states), fixed_dim=mask_t.shape.ndims)
            output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, flat_output))
            return (time + 1, output_ta_t, flat_output, *nest.pack_sequence_as(new_states, flat_states))

        final = while_loop(body=masked_step, loop_vars=(time, output_ta, flat_zero_output) + states, **loop)
        new_states = final[3:]
    else:
        def step(time, output_ta_t, *step_states):
            output, _, flat_new_states = step_at(time, step_states)
            output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, nest.flatten(output)))
            return (time + 1, output_ta_t, *nest.pack_sequence_as(states, flat_new_states))

        final = while_loop(body=step, loop_vars=(time, output_ta) + states, **loop)
        new_states = final[2:]
    outputs = tuple(ta.stack() for ta in final[1])
    last_output = tuple(o[-1] for o in outputs)
    return (nest.pack_sequence_as(output_time_zero, last_output), nest.pack_sequence_as(output_time_zero, outputs),
            new_states)
