"""``tf.nn.rnn_cell``: the recurrent cells of TensorFlow 1.x (BasicRNNCell, GRUCell, BasicLSTMCell, LSTMCell,
MultiRNNCell), with TensorFlow's variable names, so that checkpoints move both ways.

A cell is called as ``output, new_state = cell(inputs, state)``. As TensorFlow's (legacy ``tf.layers``
layers), a cell makes its variables on its first call, in a variable scope named after the cell
(``basic_lstm_cell``, made unique in the enclosing scope: ``rnn/basic_lstm_cell/kernel``), and every
later call reuses them, wherever it happens. A MultiRNNCell calls its cells in scopes ``cell_0``,
``cell_1``...: ``rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel``. The wrappers
(``rnn_cell_wrappers``) have no scope of their own.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     cell = tf.nn.rnn_cell.BasicLSTMCell(4)
...     x = tf.zeros([2, 3])
...     with tf.variable_scope("rnn"):
...         out, state = cell(x, cell.zero_state(2, tf.float32))
...     [v.name for v in cell.variables]
['rnn/basic_lstm_cell/kernel:0', 'rnn/basic_lstm_cell/bias:0']
"""

import collections

from numflow.framework import dtypes, nest
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.layers.base import capture_scope, to_snake_case, unique_layer_name
from numflow.ops import array_ops, init_ops, math_ops
from numflow.ops.clip_ops import clip_by_value
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.nn_ops import bias_add
from numflow.ops.op_util import static_value
from numflow.variables.scope import get_variable, get_variable_scope, variable_scope

_WEIGHTS_VARIABLE_NAME = "kernel"
_BIAS_VARIABLE_NAME = "bias"

def assert_like_rnncell(cell_name, cell):
    """TypeError unless ``cell`` has ``output_size``, ``state_size``, a zero state and can be called."""
    checks = [(hasattr(cell, "output_size"), "'output_size' property is missing"),
              (hasattr(cell, "state_size"), "'state_size' property is missing"),
              (hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
               "either 'zero_state' or 'get_initial_state' method is required"),
              (callable(cell), "is not callable")]
    problems = [message for ok, message in checks if not ok]
    if problems:
        raise TypeError(f"The argument {cell_name!r} ({cell}) is not an RNNCell: {', '.join(problems)}.")


def concat_shape(prefix, suffix, static=False):
    """``prefix`` (a batch size: int, TensorShape or tensor) followed by ``suffix`` (a size), as a shape:
    a list with None for unknown sizes (``static``), else an int32 tensor."""
    parts = []
    for value in (prefix, suffix):
        if isinstance(value, Tensor):
            known = static_value(value)
            vector = array_ops.expand_dims(value, 0) if value.shape.ndims == 0 else value
            parts.append((vector, None if known is None else [int(v) for v in known.reshape(-1)]))
        else:
            shape = TensorShape(value)
            dims = shape.dim_values
            parts.append((constant(dims, dtype=dtypes.int32) if shape.is_fully_defined() else None, dims))
    if static:
        (_, p), (_, s) = parts
        return None if p is None or s is None else p + s
    (p, _), (s, _) = parts
    if p is None or s is None:
        raise ValueError(f"Provided a prefix or suffix of None: {prefix} and {suffix}")
    return array_ops.concat([p, s], 0)


def zero_state_tensors(state_size, batch_size, dtype):
    """Zeros shaped ``[batch_size, size]`` for each size of the structure ``state_size``."""

    def zeros(size):
        z = array_ops.zeros(concat_shape(batch_size, size), dtype=dtype)
        static = concat_shape(batch_size, size, static=True)
        if static is not None:
            z.set_shape(static)
        return z

    return nest.map_structure(zeros, state_size)


def _check_floating(tensors):
    for t in nest.flatten(tensors):
        if not t.dtype.base_dtype.is_floating:
            raise ValueError(f"RNN cell only supports floating point inputs, but received dtype: "
                             f"<dtype: '{t.dtype.base_dtype.name}'>")


class RNNCell:
    """The base of the cells: ``output, new_state = cell(inputs, state)`` (see the module docstring).

    Subclasses define ``state_size``, ``output_size``, ``call(inputs, state)`` and, when they have
    variables, ``build(inputs_shape)`` (making them with ``add_weight``).
    """

    _layer = False  # a layer cell opens its own variable scope; the others call theirs in the current one

    def __init__(self, trainable=True, name=None, dtype=None, _reuse=None, **kwargs):
        self.trainable = trainable
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._reuse = _reuse
        self._base_name = name or to_snake_case(type(self).__name__)
        self._name = name or unique_layer_name(self._base_name)
        self._scope = None
        self._outer_scope = None
        self.built = False
        self._trainable_weights = []
        self._non_trainable_weights = []

    name = property(lambda self: self._name)
    dtype = property(lambda self: None if self._dtype is None else self._dtype.name)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        extra = [] if self.trainable else list(self._trainable_weights)
        return extra + list(self._non_trainable_weights)

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights

    def __call__(self, inputs, state, scope=None):
        """Run the cell on ``inputs`` and ``state``; returns ``(output, new_state)``."""
        if self._layer:
            return self._call_in_scope(inputs, state, scope)
        if scope is not None:
            with variable_scope(scope) as captured:
                return self._call_in_scope(inputs, state, captured)
        if self._outer_scope is None:
            self._outer_scope = get_variable_scope()
        with variable_scope(self._outer_scope):
            return self._call_in_scope(inputs, state, None)

    def _call_in_scope(self, inputs, state, scope):
        """TensorFlow's legacy layer call: take the cell's scope on the first call, reuse it ever after."""
        if self._scope is None:
            self._scope = capture_scope(scope, self._base_name, self._reuse)
        reuse = True if self.built else self._reuse
        graph = get_default_graph()
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as current:
            with graph.name_scope(current.original_name_scope):
                inputs = nest.map_structure(convert_to_tensor, inputs)
                if not self.built:
                    if self._dtype is None:
                        self._dtype = nest.flatten(inputs)[0].dtype.base_dtype
                    self.build(nest.map_structure(lambda t: t.shape, inputs))
                    self.built = True
                return self.call(inputs, state)

    def build(self, inputs_shape):
        """Make the cell's variables (nothing, here)."""

    def add_weight(self, name, shape, dtype=None, initializer=None, trainable=True, partitioner=None):
        """A variable of the cell, ``<cell scope>/<name>`` (shared by every later call)."""
        dtype = dtypes.as_dtype(dtype or self._dtype or dtypes.float32)
        variable = get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                trainable=trainable and self.trainable, partitioner=partitioner)
        weights = self._trainable_weights if trainable and self.trainable else self._non_trainable_weights
        if all(variable is not w for w in weights):
            weights.append(variable)
        return variable

    add_variable = add_weight

    def zero_state(self, batch_size, dtype):
        """Zeros of the shape of the state, for a batch of ``batch_size``."""
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            return zero_state_tensors(self.state_size, batch_size, dtype)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """``zero_state``, its batch size and dtype taken from ``inputs`` when given."""
        if inputs is not None:
            inputs = convert_to_tensor(inputs, name="inputs")
            static = inputs.shape.dim_values[0] if inputs.shape.ndims else None
            batch_size = static if static is not None else array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                             f"batch_size={batch_size}, dtype={dtype}")
        return self.zero_state(batch_size, dtype)


class LayerRNNCell(RNNCell):
    """A cell whose variables live in its own scope (every cell here but MultiRNNCell and the wrappers)."""

    _layer = True

    def _check_inputs(self, inputs_shape):
        if inputs_shape.ndims is not None and inputs_shape.ndims != 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected ndim=2, found '
                             f"ndim={inputs_shape.ndims}. Full shape received: {inputs_shape}")
        if inputs_shape.ndims is None or inputs_shape.dim_values[-1] is None:
            raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: {inputs_shape}")
        return inputs_shape.dim_values[-1]


class BasicRNNCell(LayerRNNCell):
    """``output = new_state = activation(W [inputs, state] + b)``."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = self._check_inputs(inputs_shape)
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, [depth + self._num_units, self._num_units])
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, [self._num_units], initializer=init_ops.zeros_initializer())

    def call(self, inputs, state):
        _check_floating([inputs, state])
        gate_inputs = bias_add(math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel), self._bias)
        output = self._activation(gate_inputs)
        return output, output


class GRUCell(LayerRNNCell):
    """Gated recurrent unit (Cho et al. 2014), with TensorFlow's ``gates/`` and ``candidate/`` variables."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = self._check_inputs(inputs_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight(f"gates/{_WEIGHTS_VARIABLE_NAME}", [depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(f"gates/{_BIAS_VARIABLE_NAME}", [2 * n],
                                          initializer=self._bias_initializer or init_ops.constant_initializer(1.0))
        self._candidate_kernel = self.add_weight(f"candidate/{_WEIGHTS_VARIABLE_NAME}", [depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(f"candidate/{_BIAS_VARIABLE_NAME}", [n],
                                               initializer=self._bias_initializer or init_ops.zeros_initializer())

    def call(self, inputs, state):
        _check_floating([inputs, state])
        gate_inputs = bias_add(math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel),
                               self._gate_bias)
        r, u = array_ops.split(value=math_ops.sigmoid(gate_inputs), num_or_size_splits=2, axis=1)
        candidate = bias_add(math_ops.matmul(array_ops.concat([inputs, r * state], 1), self._candidate_kernel),
                             self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's state: the cell state ``c`` and the output ``h``."""

    __slots__ = ()

    @property
    def dtype(self):
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent dtypes for internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


class BasicLSTMCell(LayerRNNCell):
    """Long short-term memory without peepholes or projection; ``forget_bias`` added to the forget gate."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or math_ops.tanh

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = self._check_inputs(inputs_shape)
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, [depth + self._num_units, 4 * self._num_units])
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, [4 * self._num_units],
                                     initializer=init_ops.zeros_initializer())

    def call(self, inputs, state):
        _check_floating([inputs, state])
        one = constant(1, dtype=dtypes.int32)
        c, h = state if self._state_is_tuple else array_ops.split(value=state, num_or_size_splits=2, axis=one)
        gate_inputs = bias_add(math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel), self._bias)
        i, j, f, o = array_ops.split(value=gate_inputs, num_or_size_splits=4, axis=one)
        forget_bias = constant(self._forget_bias, dtype=f.dtype)
        sigmoid = math_ops.sigmoid
        new_c = math_ops.add(math_ops.multiply(c, sigmoid(math_ops.add(f, forget_bias))),
                             math_ops.multiply(sigmoid(i), self._activation(j)))
        new_h = math_ops.multiply(self._activation(new_c), sigmoid(o))
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else array_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(LayerRNNCell):
    """Long short-term memory with optional peepholes (``use_peepholes``), cell clipping (``cell_clip``) and
    a projection of the output (``num_proj``, ``proj_clip``), as TensorFlow's."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or math_ops.tanh
        h = num_proj or num_units
        self._state_size = LSTMStateTuple(num_units, h) if state_is_tuple else num_units + h
        self._output_size = h

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def build(self, inputs_shape):
        depth = self._check_inputs(inputs_shape)
        n, h = self._num_units, self._num_proj or self._num_units
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, [depth + h, 4 * n], initializer=self._initializer)
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, [4 * n], initializer=init_ops.zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", [n], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", [n], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", [n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight(f"projection/{_WEIGHTS_VARIABLE_NAME}", [n, self._num_proj],
                                                initializer=self._initializer)

    def call(self, inputs, state):
        _check_floating([inputs, state])
        n, h = self._num_units, self._num_proj or self._num_units
        sigmoid = math_ops.sigmoid
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, n])
            m_prev = array_ops.slice(state, [0, n], [-1, h])
        if inputs.shape.with_rank(2).dim_values[1] is None:
            raise ValueError(f"Could not infer input size from inputs.get_shape()[-1].Received input shape: "
                             f"{inputs.shape}")
        lstm_matrix = bias_add(math_ops.matmul(array_ops.concat([inputs, m_prev], 1), self._kernel), self._bias)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, new_state


class MultiRNNCell(RNNCell):
    """Cells stacked: each one's output is the next one's input; the state is the tuple of their states."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError(f"cells must be a list or tuple, but received: {cells}.")
        self._cells = cells
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. State "
                             f"sizes are: {[c.state_size for c in cells]}")

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    output_size = property(lambda self: self._cells[-1].output_size)

    @property
    def trainable_weights(self):
        return [w for cell in self._cells for w in cell.trainable_weights] if self.trainable else []

    @property
    def non_trainable_weights(self):
        return [w for cell in self._cells for w in cell.non_trainable_weights]

    def zero_state(self, batch_size, dtype):
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return zero_state_tensors(self.state_size, batch_size, dtype)

    def call(self, inputs, state):
        position, current, new_states = 0, inputs, []
        for i, cell in enumerate(self._cells):
            with variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError(f"Expected state to be a tuple of length {len(self.state_size)}, but "
                                         f"received: {state}")
                    cell_state = state[i]
                else:
                    cell_state = array_ops.slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                current, new_state = cell(current, cell_state)
                new_states.append(new_state)
        return current, tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1)
