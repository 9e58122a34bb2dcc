"""The Keras recurrent layers of TensorFlow 1.x mode (``tf.compat.v1.keras.layers``): ``RNN`` (any cell run by
``backend.rnn``), ``SimpleRNN``, ``LSTM`` and ``GRU`` (the v1 classes), and ``CuDNNLSTM``/``CuDNNGRU``, which
need a GPU.

An ``RNN`` layer builds its cell in ``<layer>/<cell>`` (``lstm/lstm_cell/kernel``, ``recurrent_kernel``,
``bias``), so that its weights are TensorFlow's names in checkpoints and HDF5-free ``save_weights`` files. It
takes a mask (``Embedding(mask_zero=True)``, ``Masking``) as the masked steps skipped, and gives it on with
``return_sequences``. Initial states passed as ``initial_state`` (or after the inputs in a list) are inputs of
the call, so a functional model finds the layers that made them.
"""

import numpy as np

from numflow.framework import dtypes, nest
from numflow.framework.errors import InvalidArgumentError
from numflow.framework.shapes import TensorShape
from numflow.keras import backend
from numflow.keras.engine.base_layer import Layer
from numflow.keras.layers.recurrent_cells import (
    DropoutRNNCellMixin,
    GRUCell,
    InnerWeights,
    LSTMCell,
    SimpleRNNCell,
    StackedRNNCells,
    build_cell,
    is_multiple_state,
    zero_state,
)
from numflow.ops import array_ops, math_ops, state_ops


class RNN(InnerWeights, Layer):
    """Run ``cell`` over the time axis of the inputs.

    Parameters
    ----------
    cell : Layer or list of Layer
        A cell (``call(inputs, states) -> (output, new_states)`` and ``state_size``), or cells to stack.
    return_sequences : bool
        Return every step's output (``[batch, time, units]``), not only the last.
    return_state : bool
        Return the last states after the output, as a list.
    go_backwards : bool
        Run from the last step to the first.
    stateful : bool
        Start each batch from the last batch's states (needs a fixed batch size).
    unroll : bool
        Build one step per time step (the number of steps must be known) instead of a while loop.
    time_major : bool
        The inputs and outputs are ``[time, batch, ...]``.
    """

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, **kwargs):
        if isinstance(cell, list | tuple):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError(f"Argument `cell` should have a `call` method. The RNN was passed: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError(f"The RNN cell should have a `state_size` attribute (tuple of integers, one integer "
                             f"per RNN state). Received: cell={cell}")
        self.zero_output_for_mask = kwargs.pop("zero_output_for_mask", False)
        input_length, input_dim = kwargs.pop("input_length", None), kwargs.pop("input_dim", None)
        if "input_shape" not in kwargs and (input_length is not None or input_dim is not None):
            kwargs["input_shape"] = (input_length, input_dim)
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.unroll, self.time_major = go_backwards, unroll, time_major
        self.stateful = stateful
        self.supports_masking = True
        self._states = None
        self._num_constants = 0

    # -- weights and states --------------------------------------------------------------------------
    def _inner_layers(self):
        return [self.cell]

    @property
    def states(self):
        """The state variables of a stateful layer (Nones before it is built)."""
        if self._states is None:
            state = nest.map_structure(lambda _: None, self.cell.state_size)
            return state if nest.is_nested(self.cell.state_size) else [state]
        return self._states

    @states.setter
    def states(self, states):
        self._states = states

    def _state_sizes(self):
        size = self.cell.state_size
        return list(size) if is_multiple_state(size) else [size]

    # -- shapes and masks ----------------------------------------------------------------------------
    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        batch, time = (dims[1], dims[0]) if self.time_major else (dims[0], dims[1])
        output_size = getattr(self.cell, "output_size", None)
        if output_size is None:
            output_size = self._state_sizes()[0]
        units = TensorShape(output_size).as_list()
        if self.return_sequences:
            output = TensorShape(([time, batch] if self.time_major else [batch, time]) + units)
        else:
            output = TensorShape([batch] + units)
        if not self.return_state:
            return output
        return [output] + [TensorShape([batch] + TensorShape(s).as_list()) for s in nest.flatten(self._state_sizes())]

    def compute_mask(self, inputs, mask):
        mask = nest.flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in nest.flatten(self.states)]
        return output_mask

    # -- building and calling ------------------------------------------------------------------------
    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        step_shape = TensorShape(dims[1:] if self.time_major else [dims[0]] + dims[2:])
        if isinstance(self.cell, Layer) and not self.cell.built:
            with backend.name_scope(self.cell.name):
                build_cell(self.cell, step_shape, self._dtype)
        if self.stateful:
            self._batch_size = dims[1] if self.time_major else dims[0]
            self.reset_states()
        self.built = True

    def get_initial_state(self, inputs):
        """The cell's initial states (zeros) for the batch of ``inputs``."""
        inputs = nest.flatten(inputs)[0]
        batch_size = array_ops.shape(inputs)[1 if self.time_major else 0]
        get = getattr(self.cell, "get_initial_state", None)
        if get:
            states = get(inputs=None, batch_size=batch_size, dtype=inputs.dtype)
        else:
            states = zero_state(batch_size, self.cell.state_size, inputs.dtype)
        return list(states) if nest.is_nested(states) else [states]

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        if isinstance(inputs, list) and initial_state is None and constants is None:
            inputs, rest = inputs[0], list(inputs[1:])
            if self._num_constants:
                initial_state, constants = rest[:-self._num_constants] or None, rest[-self._num_constants:]
            else:
                initial_state = rest or None
        if initial_state is None and constants is None:
            return super().__call__(inputs, **kwargs)
        initial_state = None if initial_state is None else nest.flatten(initial_state)
        if constants is not None:
            constants = nest.flatten(constants)
            self._num_constants = len(constants)
        return super().__call__([inputs] + (initial_state or []) + (constants or []), **kwargs)

    def _split_inputs(self, inputs):
        """``(inputs, initial_state, constants)`` of a call's inputs (a list after the first when there are states
        or constants)."""
        if not isinstance(inputs, list):
            return inputs, None, None
        rest = inputs[1:]
        constants = None
        if self._num_constants:
            rest, constants = rest[:-self._num_constants], rest[-self._num_constants:]
        return inputs[0], (rest or None), constants

    def call(self, inputs, mask=None, training=None, initial_state=None, constants=None):
        inputs, given_state, given_constants = self._split_inputs(inputs)
        initial_state = initial_state if initial_state is not None else given_state
        constants = constants if constants is not None else given_constants
        initial_state = self._initial_state(inputs, initial_state)
        for cell in [self.cell, *getattr(self.cell, "cells", [])]:
            if isinstance(cell, DropoutRNNCellMixin):
                cell.reset_dropout_mask()
        if mask is not None:
            mask = nest.flatten(mask)[0]
        time_steps = backend.int_shape(nest.flatten(inputs)[0])[0 if self.time_major else 1]
        if self.unroll and time_steps is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined. \n- If using a Sequential "
                             "model, specify the time dimension by passing an `input_shape` or `batch_input_shape` "
                             "argument to your first layer. If your first layer is an Embedding, you can also use "
                             "the `input_length` argument.\n- If using the functional API, specify the time "
                             "dimension by passing a `shape` or `batch_shape` argument to your Input layer.")
        step = self._step_function(training, constants)
        last_output, outputs, states = backend.rnn(
            step, inputs, initial_state, constants=constants, go_backwards=self.go_backwards, mask=mask,
            unroll=self.unroll, input_length=time_steps, time_major=self.time_major,
            zero_output_for_mask=self.zero_output_for_mask)
        if self.stateful:
            self.add_update([state_ops.assign(variable, math_ops.cast(state, variable.dtype))
                             for variable, state in zip(nest.flatten(self.states), nest.flatten(states))])
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            return [output] + list(states if isinstance(states, list | tuple) else [states])
        return output

    def _step_function(self, training, constants):
        kwargs = {"training": training} if getattr(self.cell, "_expects_training_arg", False) else {}
        call = self.cell.__call__ if callable(self.cell) else self.cell.call
        count = len(constants) if constants else 0

        def step(inputs, states):
            if count:
                step_constants, states = states[-count:], states[:-count]
                output, new_states = call(inputs, states, constants=step_constants, **kwargs)
            else:
                output, new_states = call(inputs, states, **kwargs)
            return output, new_states if nest.is_nested(new_states) else [new_states]

        return step

    def _initial_state(self, inputs, initial_state):
        if self.stateful:
            initial_state = [math_ops.cast(v, self._dtype or backend.floatx()) for v in nest.flatten(self.states)]
        elif initial_state is None:
            initial_state = self.get_initial_state(inputs)
        if len(initial_state) != len(self.states):
            raise ValueError(f"Layer has {len(self.states)} states but was passed "
                             f"{len(initial_state)} initial states.")
        return initial_state

    def reset_states(self, states=None):
        """Zero the states of a stateful layer (or set them to the arrays ``states``)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        batch_size = getattr(self, "_batch_size", None)
        if not batch_size:
            raise ValueError("If a RNN is stateful, it needs to know its batch size. Specify the batch size of your "
                             "input tensors: \n- If using a Sequential model, specify the batch size by passing a "
                             "`batch_input_shape` argument to your first layer.\n- If using the functional API, "
                             "specify the batch size by passing a `batch_shape` argument to your Input layer.")
        dtype = self._dtype or dtypes.as_dtype(backend.floatx())
        sizes = [[batch_size] + TensorShape(s).as_list() for s in nest.flatten(self.cell.state_size)]
        if self._states is None:
            self._states = [backend.variable(np.zeros(s), dtype=dtype) for s in sizes]
            return
        values = [np.zeros(s) for s in sizes] if states is None else [np.asarray(v) for v in nest.flatten(states)]
        if len(values) != len(self._states):
            raise ValueError(f"Layer {self.name} expects {len(self._states)} states, but it received "
                             f"{len(values)} state values.")
        for value, size in zip(values, sizes):
            if list(value.shape) != size:
                raise ValueError(f"State has shape {tuple(size)} but the value passed has shape {value.shape}.")
        backend.batch_set_value(list(zip(self._states, values)))

    _config_keys = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "time_major")

    def get_config(self):
        from numflow.keras.layers.layer_serialization import serialize

        return {**super().get_config(), "cell": serialize(self.cell)}

    @classmethod
    def from_config(cls, config):
        from numflow.keras.layers.layer_serialization import deserialize

        config = dict(config)
        return cls(deserialize(config.pop("cell")), **config)


_CELL_ARGUMENTS = ("activation", "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer",
                   "bias_initializer", "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
                   "bias_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                   "recurrent_dropout", "implementation", "reset_after")


def _recurrent_layer(name, cell_class, doc, defaults):
    def __init__(self, units, **kwargs):
        cell_kwargs = {**defaults, **{k: kwargs.pop(k) for k in _CELL_ARGUMENTS if k in kwargs}}
        kwargs.pop("enable_caching_device", None)
        cell = cell_class(units, dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True),
                          name=f"{name.lower().replace('simplernn', 'simple_rnn')}_cell", **cell_kwargs)
        RNN.__init__(self, cell, **kwargs)

    def call(self, inputs, mask=None, training=None, initial_state=None):
        return RNN.call(self, inputs, mask=mask, training=training, initial_state=initial_state)

    # Written as the cell's arguments, not as a cell.
    members = {"__init__": __init__, "call": call, "__doc__": doc, "get_config": Layer.get_config,
               "from_config": classmethod(Layer.from_config.__func__),
               "_config_keys": (*RNN._config_keys, *cell_class._config_keys, "activity_regularizer")}
    for argument in ("units", *_CELL_ARGUMENTS):
        members[argument] = property(lambda self, argument=argument: getattr(self.cell, argument))
    return type(name, (RNN,), members)


SimpleRNN = _recurrent_layer("SimpleRNN", SimpleRNNCell, "``RNN(SimpleRNNCell(units, ...))``: a fully connected "
                             "RNN whose output is fed back as its state.", {})
LSTM = _recurrent_layer("LSTM", LSTMCell, "``RNN(LSTMCell(units, ...))``: the long short-term memory layer "
                        "(TensorFlow 1.x's: ``hard_sigmoid`` gates, ``implementation=1``).", {"implementation": 1})
GRU = _recurrent_layer("GRU", GRUCell, "``RNN(GRUCell(units, ...))``: the gated recurrent unit layer (TensorFlow "
                       "1.x's: ``hard_sigmoid`` gates, ``reset_after=False``).", {"implementation": 1})


def _cudnn_layer(name, kernel_name):
    def __init__(self, units, *args, **kwargs):
        del units, args, kwargs
        raise InvalidArgumentError(None, None, f"No OpKernel was registered to support Op '{kernel_name}': numflow "
                                   f"has no cuDNN recurrent kernels; use tf.keras.layers.{name[5:]} (the same "
                                   "weights after conversion) instead.")

    return type(name, (Layer,), {"__init__": __init__, "__doc__": f"cuDNN's {name[5:]}: not available here."})


CuDNNLSTM = _cudnn_layer("CuDNNLSTM", "CudnnRNN")
CuDNNGRU = _cudnn_layer("CuDNNGRU", "CudnnRNN")
