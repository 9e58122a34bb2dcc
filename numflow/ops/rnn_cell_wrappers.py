"""The cell wrappers of ``tf.nn.rnn_cell``: DropoutWrapper, ResidualWrapper and DeviceWrapper, as TensorFlow
1.x builds them. A wrapper has no variable scope of its own: a wrapped cell's variables keep their names.

DropoutWrapper drops with the ops TensorFlow 2.21's ``tf.nn.dropout`` builds (the input scaled by
``1 / keep_prob``, a ``random_uniform`` of its shape compared with the rate, a ``SelectV2``), seeded per
input, state and output as TensorFlow seeds them, so that one seed gives TensorFlow's masks.
"""

import hashlib
import numbers

from numflow.framework import nest
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops, random_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import static_value
from numflow.ops.rnn_cell_impl import LSTMStateTuple, RNNCell, assert_like_rnncell
from numflow.ops.selection_ops import where_v2


def dropout(x, rate, seed=None, name=None):
    """``x`` with each element zeroed with probability ``rate``, the others scaled by ``1 / (1 - rate)``:
    TensorFlow 2.21's ``tf.nn.dropout`` (``rate`` a Python number or a float scalar tensor)."""
    with get_default_graph().name_scope(name or "dropout"):
        x = convert_to_tensor(x, name="x")
        if not x.dtype.base_dtype.is_floating:
            raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                             f"x_dtype={x.dtype.base_dtype!r}")
        if isinstance(rate, numbers.Real):
            if rate < 0 or rate >= 1:
                raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: "
                                 f"rate={rate}")
            if rate == 0:
                return x
            scaled = math_ops.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype.base_dtype))
        else:
            rate = math_ops.cast(rate, x.dtype.base_dtype, name="rate") if rate.dtype != x.dtype else rate
            scaled = math_ops.realdiv(x, math_ops.subtract(constant(1, dtype=x.dtype.base_dtype), rate))
        noise = random_ops.random_uniform(array_ops.shape(x), seed=seed, dtype=x.dtype.base_dtype)
        out = where_v2(math_ops.greater_equal(noise, rate), scaled, constant(0, dtype=x.dtype.base_dtype))
        out.set_shape(x.shape)
        return out


class _Wrapper(RNNCell):
    """A cell around ``cell``: the same sizes and zero state; calling it calls ``cell`` in the current scope."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        assert_like_rnncell("cell", cell)
        self.cell = cell

    state_size = property(lambda self: self.cell.state_size)
    output_size = property(lambda self: self.cell.output_size)
    trainable_weights = property(lambda self: self.cell.trainable_weights)
    non_trainable_weights = property(lambda self: self.cell.non_trainable_weights)
    wrapped_cell = property(lambda self: self.cell)

    def zero_state(self, batch_size, dtype):
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, self.cell.__call__, scope=scope)


def _default_state_filter(substate):
    """Which parts of a state DropoutWrapper drops: an LSTM's output, not its memory; no TensorArray."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return not hasattr(substate, "_control_flow_components")


class DropoutWrapper(_Wrapper):
    """Dropout on a cell's inputs, outputs and state (``input_keep_prob``, ``output_keep_prob``,
    ``state_keep_prob``); ``variational_recurrent`` keeps one mask for every time step."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError(f"dropout_state_filter_visitor must be callable. Received: {dropout_state_filter_visitor}")
        self._state_filter = dropout_state_filter_visitor or _default_state_filter
        with get_default_graph().name_scope("DropoutWrapperInit"):
            for prob, attr in ((input_keep_prob, "input_keep_prob"), (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")):
                tensor = convert_to_tensor(prob)
                known = static_value(tensor)
                if known is not None:
                    if known < 0 or known > 1:
                        raise ValueError(f"Parameter {attr} must be between 0 and 1. Received {float(known)}")
                    setattr(self, f"_{attr}", float(known))
                else:
                    setattr(self, f"_{attr}", tensor)
        self._variational = variational_recurrent
        self._seed = seed
        self._noise = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            if not isinstance(self._input_keep_prob, numbers.Real) or self._input_keep_prob < 1.0:
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                     "input_size must be provided")
                self._noise["input"] = self._batch_noise(input_size, "input", dtype)
            self._noise["state"] = self._batch_noise(cell.state_size, "state", dtype)
            self._noise["output"] = self._batch_noise(cell.output_size, "output", dtype)

    def _batch_noise(self, sizes, salt, dtype):
        """One uniform draw shaped ``[1, size]`` per size: the mask every time step shares."""
        noise = [random_ops.random_uniform(array_ops.concat(([1], TensorShape(size).as_list()), 0),
                                           seed=self._gen_seed(salt, i), dtype=dtype)
                 for i, size in enumerate(nest.flatten(sizes))]
        return nest.pack_sequence_as(sizes, noise)

    def _gen_seed(self, salt_prefix, index):
        if self._seed is None:
            return None
        text = (str(self._seed) + f"{salt_prefix}_{index}").encode("utf-8")
        return int(hashlib.md5(text).hexdigest()[:8], 16) & 0x7FFFFFFF

    def _dropout(self, values, salt, keep_prob, flags=None):
        leaves = nest.flatten(values)
        flags = [True] * len(leaves) if flags is None else flags
        noise = nest.flatten(self._noise[salt]) if self._variational else [None] * len(leaves)
        out = []
        for i, (flag, value, n) in enumerate(zip(flags, leaves, noise)):
            if not flag:
                out.append(value)
            elif self._variational:
                kept = math_ops.floor(keep_prob + n)
                dropped = math_ops.divide(value, keep_prob) * kept
                dropped.set_shape(value.shape)
                out.append(dropped)
            else:
                out.append(dropout(value, rate=1.0 - keep_prob, seed=self._gen_seed(salt, i)))
        return nest.pack_sequence_as(values, out)

    def _state_flags(self, state):
        """Per leaf of ``state``: whether the state filter lets it be dropped."""

        def visit(sub):
            decision = self._state_filter(sub)
            if isinstance(decision, bool):
                if decision and nest.is_nested(sub):
                    return [flag for child in _children(sub) for flag in visit(child)]
                return [decision] * len(nest.flatten(sub))
            return [bool(f) for f in nest.flatten(decision)]

        return visit(state)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        def should_drop(p):
            return not isinstance(p, float) or p < 1

        if should_drop(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if should_drop(self._state_keep_prob):
            new_state = self._dropout(new_state, "state", self._state_keep_prob, self._state_flags(new_state))
        if should_drop(self._output_keep_prob):
            output = self._dropout(output, "output", self._output_keep_prob)
        return output, new_state


def _children(structure):
    return [structure[k] for k in sorted(structure)] if isinstance(structure, dict) else list(structure)


class ResidualWrapper(_Wrapper):
    """The cell's output plus its input (or ``residual_fn(inputs, outputs)``)."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def default_residual_fn(inputs, outputs):
            nest.assert_same_structure(inputs, outputs)
            nest.map_structure(lambda i, o: i.shape.assert_is_compatible_with(o.shape), inputs, outputs)
            return nest.map_structure(lambda i, o: i + o, inputs, outputs)

        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_Wrapper):
    """The cell's ops placed on ``device``."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size, dtype):
        graph = get_default_graph()
        with graph.name_scope(type(self).__name__ + "ZeroState"), graph.device(self._device):
            return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with get_default_graph().device(self._device):
            return cell_call_fn(inputs, state, **kwargs)

