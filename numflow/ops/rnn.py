"""``tf.nn.dynamic_rnn``, ``bidirectional_dynamic_rnn``, ``raw_rnn``, ``static_rnn`` and
``static_bidirectional_rnn``: a cell run over a sequence, as TensorFlow 1.x builds them.

``dynamic_rnn`` unstacks the time-major inputs into a TensorArray, runs the cell in a ``tf.while_loop``
(named ``rnn/while``), writes each output into another TensorArray and stacks it; with
``sequence_length``, a finished sequence keeps its state and emits zeros. The loop's gradient is the
while loop's (``control_flow_grad``). ``static_rnn`` calls the cell once per time step instead.
Variables live under the scope given (``rnn`` by default): ``rnn/basic_lstm_cell/kernel``.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     cell = tf.nn.rnn_cell.GRUCell(3)
...     outputs, state = tf.nn.dynamic_rnn(cell, tf.ones([2, 5, 4]), dtype=tf.float32)
...     outputs.shape.as_list(), state.shape.as_list(), outputs.name
([2, 5, 3], [2, 3], 'rnn/transpose_1:0')
"""

from numflow.framework import dtypes, nest
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.check_ops import Assert
from numflow.ops.cond import cond
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import static_value
from numflow.ops.rnn_cell_impl import assert_like_rnncell, concat_shape
from numflow.ops.selection_ops import where
from numflow.ops.sequence_ops import reverse, reverse_sequence
from numflow.ops.tensor_array_ops import TensorArray
from numflow.ops.while_loop import while_loop
from numflow.variables.scope import variable_scope


def _transpose_batch_time(x):
    """``x`` with its first two axes swapped (batch-major to time-major and back)."""
    shape = x.shape
    if shape.ndims is not None and shape.ndims < 2:
        return x
    perm = array_ops.concat(([1, 0], math_ops.range(2, array_ops.rank(x))), axis=0)
    out = array_ops.transpose(x, perm)
    if shape.ndims is not None:
        first, second, *rest = shape.dim_values
        out.set_shape(TensorShape([second, first, *rest]))
    else:
        out.set_shape(TensorShape(None))
    return out


def _batch_size(flat_input):
    """The batch size of time-major inputs: static when some input's shape tells, else a tensor."""
    for x in flat_input:
        if x.shape.ndims is None:
            continue
        if x.shape.ndims < 2:
            raise ValueError(f"Input tensor should have rank >= 2. Received input={x} of rank {x.shape.ndims}")
        if x.shape.dim_values[1] is not None:
            return x.shape.dim_values[1]
    return array_ops.shape(flat_input[0])[1]


def _state_dtype(explicit, state):
    if explicit is not None:
        return explicit
    kinds = [s.dtype for s in nest.flatten(state)]
    if not kinds:
        raise ValueError(f"Unable to infer dtype from argument state={state}.")
    if any(k != kinds[0] for k in kinds):
        raise ValueError(f"Argument state={state} has tensors of different inferred dtypes. Unable to infer a "
                         f"single representative dtype. Dtypes received: {kinds}")
    return kinds[0]


def _initial_state(cell, initial_state, batch_size, dtype):
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
    if getattr(cell, "get_initial_state", None) is not None:
        return cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def _rnn_step(time, sequence_length, min_sequence_length, max_sequence_length, zero_output, state, call_cell,
              skip_conditionals=False):
    """One step of the cell with ``sequence_length``: a finished sequence emits zeros and keeps its state
    (TensorFlow's ``_rnn_step``)."""
    flat_state = nest.flatten(state)
    flat_zero_output = nest.flatten(zero_output)
    copy_cond = time >= sequence_length

    def copy_one_through(old, new):
        if hasattr(old, "_control_flow_components") or old.shape.ndims == 0:
            return new
        return where(copy_cond, old, new)

    def copy_some_through(new_output, new_state):
        return ([copy_one_through(z, o) for z, o in zip(flat_zero_output, new_output)]
                + [copy_one_through(s, n) for s, n in zip(flat_state, new_state)])

    def maybe_copy_some_through():
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        flat_new_state, flat_new_output = nest.flatten(new_state), nest.flatten(new_output)
        return cond(time < min_sequence_length, lambda: flat_new_output + flat_new_state,
                    lambda: copy_some_through(flat_new_output, flat_new_state))

    if skip_conditionals:
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        final = copy_some_through(nest.flatten(new_output), nest.flatten(new_state))
    else:
        final = cond(time >= max_sequence_length, lambda: flat_zero_output + flat_state, maybe_copy_some_through)
    outputs, states = final[:len(flat_zero_output)], final[len(flat_zero_output):]
    for t, like in zip(outputs, flat_zero_output):
        t.set_shape(like.shape)
    for t, like in zip(states, flat_state):
        if not hasattr(t, "_control_flow_components"):
            t.set_shape(like.shape)
    return nest.pack_sequence_as(zero_output, outputs), nest.pack_sequence_as(state, states)


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """Run ``cell`` over the time steps of ``inputs`` in a while loop; returns ``(outputs, final_state)``.

    Parameters
    ----------
    cell : RNNCell
    inputs : Tensor or structure of Tensors
        ``[batch, time, depth]`` (``[time, batch, depth]`` when ``time_major``).
    sequence_length : int32 vector, optional
        Each sequence's length: past it, the outputs are zeros and the state is kept.
    initial_state : optional
        The cell's initial state (default: its zero state, of ``dtype``).
    parallel_iterations, swap_memory : as tf.while_loop's
    scope : str or VariableScope
        The variable scope (default ``rnn``).
    """
    assert_like_rnncell("cell", cell)
    with variable_scope(scope or "rnn"):
        flat_input = nest.flatten(inputs)
        if not time_major:
            flat_input = tuple(_transpose_batch_time(convert_to_tensor(x)) for x in flat_input)
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError(f"Argument sequence_length must be a vector of length batch_size. Received "
                                 f"sequence_length={sequence_length} of shape: {sequence_length.shape}")
            sequence_length = array_ops.identity(sequence_length, name="sequence_length")
        batch_size = _batch_size(flat_input)
        state = _initial_state(cell, initial_state, batch_size, dtype)
        if sequence_length is not None:
            graph = get_default_graph()
            with graph.control_dependencies([_assert_has_shape(sequence_length, [batch_size])]):
                sequence_length = array_ops.identity(sequence_length, name="CheckSeqLen")
        inputs = nest.pack_sequence_as(inputs, flat_input)
        outputs, final_state = _dynamic_rnn_loop(cell, inputs, state, parallel_iterations, swap_memory,
                                                 sequence_length, dtype)
        if not time_major:
            outputs = nest.map_structure(_transpose_batch_time, outputs)
        return outputs, final_state


def _assert_has_shape(x, shape):
    x_shape = array_ops.shape(x)
    packed = array_ops.stack(shape)
    return Assert(math_ops.reduce_all(math_ops.equal(x_shape, packed)),
                  [f"Expected shape for Tensor {x.name} is ", packed, " but saw shape: ", x_shape])


def _dynamic_rnn_loop(cell, inputs, initial_state, parallel_iterations, swap_memory, sequence_length, dtype):
    state = initial_state
    flat_input = nest.flatten(inputs)
    flat_output_size = nest.flatten(cell.output_size)
    time_steps = array_ops.shape(flat_input[0])[0]
    batch_size = _batch_size(flat_input)
    got_shapes = tuple(x.shape.with_rank_at_least(3) if x.shape.ndims is not None else TensorShape([None] * 3)
                       for x in flat_input)
    const_time_steps, const_batch_size = got_shapes[0].as_list()[:2]
    for x, shape in zip(flat_input, got_shapes):
        if not shape[2:].is_fully_defined():
            raise ValueError(f"Input size (depth of inputs) must be accessible via shape inference, but saw value "
                             f"None for input={x}.")
        time_steps_x, batch_size_x = shape.as_list()[:2]
        if time_steps_x != const_time_steps:
            raise ValueError(f"Time steps is not the same for all the elements in the input in a batch. Received "
                             f"time steps={time_steps_x} for input={x}.")
        if batch_size_x != const_batch_size:
            raise ValueError(f"Batch_size is not the same for all the elements in the input. Received batch "
                             f"size={batch_size_x} for input={x}.")
    state_dtype = _state_dtype(dtype, state)
    zero_output = nest.pack_sequence_as(cell.output_size, tuple(
        array_ops.zeros(concat_shape(batch_size, size), state_dtype) for size in flat_output_size))
    if sequence_length is not None:
        min_sequence_length = math_ops.reduce_min(sequence_length)
        max_sequence_length = math_ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = constant(0, dtype=dtypes.int32, name="time")
    graph = get_default_graph()
    with graph.name_scope("dynamic_rnn") as base_name:
        pass
    output_ta = tuple(
        TensorArray(state_dtype, size=time_steps, tensor_array_name=f"{base_name}output_{i}",
                    element_shape=TensorShape([const_batch_size]).concatenate(_shape_of_size(size)))
        for i, size in enumerate(flat_output_size))
    input_ta = tuple(TensorArray(x.dtype, size=time_steps, tensor_array_name=f"{base_name}input_{i}",
                                 element_shape=x.shape[1:]).unstack(x) for i, x in enumerate(flat_input))

    def time_step(time, output_ta_t, state):
        input_t = tuple(ta.read(time) for ta in input_ta)
        for x, shape in zip(input_t, got_shapes):
            x.set_shape(shape[1:])
        input_t = nest.pack_sequence_as(inputs, input_t)

        def call_cell():
            return cell(input_t, state)

        if sequence_length is not None:
            output, new_state = _rnn_step(time, sequence_length, min_sequence_length, max_sequence_length,
                                          zero_output, state, call_cell, skip_conditionals=True)
        else:
            output, new_state = call_cell()
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, nest.flatten(output)))
        return time + 1, output_ta_t, new_state

    loop_bound = math_ops.minimum(time_steps, math_ops.maximum(1, max_sequence_length))
    _, output_final_ta, final_state = while_loop(lambda time, *_: time < loop_bound, time_step,
                                                 (time, output_ta, state), parallel_iterations=parallel_iterations,
                                                 maximum_iterations=time_steps, swap_memory=swap_memory)
    final_outputs = tuple(ta.stack() for ta in output_final_ta)
    for output, size in zip(final_outputs, flat_output_size):
        output.set_shape(TensorShape([const_time_steps, const_batch_size]).concatenate(_shape_of_size(size)))
    return nest.pack_sequence_as(cell.output_size, final_outputs), final_state


def _shape_of_size(size):
    if hasattr(size, "op"):
        known = static_value(size)
        return TensorShape(None if known is None else [int(v) for v in known.reshape(-1)])
    return TensorShape(size)


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    """``dynamic_rnn`` forwards (scope ``fw``) and over the reversed sequences (scope ``bw``, its outputs
    reversed back); returns ``((outputs_fw, outputs_bw), (state_fw, state_bw))``."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)

    def reversed_in_time(x):
        if sequence_length is not None:
            return reverse_sequence(x, sequence_length, seq_axis=time_axis, batch_axis=batch_axis)
        return reverse(x, axis=[time_axis])

    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw, dtype,
                                              parallel_iterations, swap_memory, time_major, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            backwards = nest.map_structure(reversed_in_time, inputs)
            tmp, state_bw = dynamic_rnn(cell_bw, backwards, sequence_length, initial_state_bw, dtype,
                                        parallel_iterations, swap_memory, time_major, scope=bw_scope)
    output_bw = reversed_in_time(tmp)
    return (output_fw, output_bw), (state_fw, state_bw)


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """The cell run in a while loop driven by ``loop_fn(time, cell_output, cell_state, loop_state)``, which
    returns ``(finished, next_input, next_cell_state, emit_output, next_loop_state)``; returns
    ``(emit_ta, final_state, final_loop_state)``, the emitted outputs in TensorArrays."""
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    parallel_iterations = parallel_iterations or 32
    with variable_scope(scope or "rnn"):
        time = constant(0, dtype=dtypes.int32)
        elements_finished, next_input, initial_state, emit_structure, init_loop_state = loop_fn(time, None, None,
                                                                                                None)
        flat_input = nest.flatten(next_input)
        loop_state = init_loop_state if init_loop_state is not None else constant(0, dtype=dtypes.int32)
        static_batch = flat_input[0].shape.dim_values[0] if flat_input[0].shape.ndims else None
        batch_size = static_batch if static_batch is not None else array_ops.shape(flat_input[0])[0]
        nest.assert_same_structure(initial_state, cell.state_size)
        state = nest.map_structure(convert_to_tensor, initial_state)
        if emit_structure is not None:
            flat_emit = nest.flatten(emit_structure)
            emit_sizes = [e.shape if e.shape.is_fully_defined() else array_ops.shape(e) for e in flat_emit]
            emit_dtypes = [e.dtype for e in flat_emit]
        else:
            emit_structure = cell.output_size
            emit_sizes = nest.flatten(emit_structure)
            emit_dtypes = [nest.flatten(state)[0].dtype] * len(emit_sizes)
        emit_ta = nest.pack_sequence_as(emit_structure, [
            TensorArray(d, dynamic_size=True, size=0, name=f"rnn_output_{i}",
                        element_shape=TensorShape([static_batch]).concatenate(_shape_of_size(s)))
            for i, (d, s) in enumerate(zip(emit_dtypes, emit_sizes))])
        zero_emit = nest.pack_sequence_as(emit_structure, [array_ops.zeros(concat_shape(batch_size, s), d)
                                                           for s, d in zip(emit_sizes, emit_dtypes)])

        def condition(unused_time, elements_finished, *_):
            return math_ops.logical_not(math_ops.reduce_all(elements_finished))

        def body(time, elements_finished, current_input, emit_ta, state, loop_state):
            next_output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            nest.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            next_finished, next_input, next_state, emit_output, next_loop_state = loop_fn(
                next_time, next_output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            nest.assert_same_structure(current_input, next_input)
            nest.assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current, candidate):
                def copy(cur, cand):
                    if hasattr(cur, "_control_flow_components") or cur.shape.ndims == 0:
                        return cand
                    return where(elements_finished, cur, cand)

                return nest.map_structure(copy, current, candidate)

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            emit_ta = nest.map_structure(lambda ta, emit: ta.write(time, emit), emit_ta, emit_output)
            elements_finished = math_ops.logical_or(elements_finished, next_finished)
            return next_time, elements_finished, next_input, emit_ta, next_state, loop_state

        returned = while_loop(condition, body, [time, elements_finished, next_input, emit_ta, state, loop_state],
                              parallel_iterations=parallel_iterations, swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        return emit_ta, final_state, None if init_loop_state is None else final_loop_state


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """The cell called once per element of the list ``inputs`` (each ``[batch, depth]``), its variables
    shared; returns ``(outputs, final_state)``, ``outputs`` a list."""
    assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    outputs = []
    with variable_scope(scope or "rnn") as varscope:
        first = inputs
        while nest.is_nested(first):
            first = first[0]
        first = convert_to_tensor(first)
        if first.shape.ndims != 1:
            fixed_batch = first.shape.with_rank_at_least(2).dim_values[0] if first.shape.ndims is not None else None
            for x in nest.flatten(inputs):
                shape = convert_to_tensor(x).shape
                for i, size in enumerate(shape[1:].dim_values or []):
                    if size is None:
                        raise ValueError(f"Input size (dimension {i} of input {x}) must be accessible via shape "
                                         "inference, but saw value None.")
        else:
            fixed_batch = first.shape.dim_values[0]
        batch_size = fixed_batch if fixed_batch is not None else array_ops.shape(first)[0]
        state = _initial_state(cell, initial_state, batch_size, dtype)
        if sequence_length is not None:
            sequence_length = convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError(f"Argument `sequence_length` must be a vector of length {batch_size}. Received "
                                 f"sequence_length={sequence_length}.")
            state_dtype = _state_dtype(dtype, state)

            def zero_output(size):
                out = array_ops.zeros(concat_shape(batch_size, size), state_dtype)
                static = concat_shape(fixed_batch, size, static=True)
                if static is not None:
                    out.set_shape(static)
                return out

            zeros = nest.map_structure(zero_output, cell.output_size)
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            min_length = math_ops.reduce_min(sequence_length)
            max_length = math_ops.reduce_max(sequence_length)
        for time, x in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()

            def call_cell(x=x, state=state):
                return cell(x, state)

            if sequence_length is not None:
                output, state = _rnn_step(time, sequence_length, min_length, max_length, zeros, state, call_cell)
            else:
                output, state = call_cell()
            outputs.append(output)
        return outputs, state


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    """``static_rnn`` forwards and backwards; returns ``(outputs, state_fw, state_bw)``, each output the
    concatenation of both directions'."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                             scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            tmp, state_bw = static_rnn(cell_bw, _reverse_seq(inputs, sequence_length), initial_state_bw, dtype,
                                       sequence_length, scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat = [array_ops.concat([fw, bw], 1) for fw, bw in zip(nest.flatten(output_fw), nest.flatten(output_bw))]
    return nest.pack_sequence_as(output_fw, flat), state_fw, state_bw


def _reverse_seq(input_seq, lengths):
    """The list ``input_seq`` reversed in time, each sequence of the batch up to its length."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_seq = [nest.flatten(x) for x in input_seq]
    results = [[] for _ in input_seq]
    for sequence in zip(*flat_seq):
        shape = TensorShape(None if sequence[0].shape.ndims is None else [None] * sequence[0].shape.ndims)
        for x in sequence:
            shape.assert_is_compatible_with(x.shape)
            x.set_shape(shape)
        flipped = array_ops.unstack(reverse_sequence(array_ops.stack(sequence), lengths, 0, 1))
        for r, out in zip(flipped, results):
            r.set_shape(shape)
            out.append(r)
    return [nest.pack_sequence_as(x, out) for x, out in zip(input_seq, results)]
