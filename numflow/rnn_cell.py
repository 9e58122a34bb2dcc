"""``tf.nn.rnn_cell``: the recurrent cells and their wrappers; re-exports only."""

from numflow.ops.rnn_cell_impl import (
    BasicLSTMCell,
    BasicRNNCell,
    GRUCell,
    LSTMCell,
    LSTMStateTuple,
    MultiRNNCell,
    RNNCell,
)
from numflow.ops.rnn_cell_wrappers import DeviceWrapper, DropoutWrapper, ResidualWrapper

__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell", "LSTMCell", "LSTMStateTuple",
           "MultiRNNCell", "RNNCell", "ResidualWrapper"]
