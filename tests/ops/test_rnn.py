"""tf.nn.rnn_cell and dynamic_rnn: variable scopes and reuse, names, and TensorFlow's errors (each checked
against TensorFlow 2.21 with its legacy Keras cells for the same program), and a finite-difference
check of the LSTM's gradient through the loop.

Values against TensorFlow are in ``test_rnn_golden.py``.
"""

import numpy as np
import pytest
from test_gradients import check_gradient

import numflow as tf

rnn_cell = tf.nn.rnn_cell


def test_a_second_rnn_in_the_same_scope_is_tensorflows_error():
    x = tf.placeholder(tf.float32, [2, 5, 4])
    tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32)
    with pytest.raises(ValueError, match="^Variable rnn/basic_lstm_cell/kernel already exists, disallowed. Did you "
                                         "mean to set reuse=True"):
        tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32)


def test_a_cell_keeps_its_variables_wherever_it_is_called_again():
    cell = rnn_cell.BasicLSTMCell(3)
    with tf.variable_scope("s1"):
        cell(tf.zeros([2, 4]), cell.zero_state(2, tf.float32))
    with tf.variable_scope("s2"):
        output, _ = cell(tf.zeros([2, 4]), cell.zero_state(2, tf.float32))
    assert [v.name for v in cell.variables] == ["s1/basic_lstm_cell/kernel:0", "s1/basic_lstm_cell/bias:0"]
    assert output.name.startswith("s1/basic_lstm_cell/")
    assert len(tf.global_variables()) == 2


def test_layer_names_and_zero_states_are_tensorflows():
    # Cells are layers: their names count from 1, per graph, beside the tf.layers layers' (as TensorFlow's).
    assert [rnn_cell.BasicLSTMCell(3).name, rnn_cell.BasicLSTMCell(3).name, rnn_cell.GRUCell(2).name,
            tf.layers.Dense(1).name, rnn_cell.GRUCell(2, name="g").name] == [
        "basic_lstm_cell_1", "basic_lstm_cell_2", "gru_cell_1", "dense_1", "g"]
    zero = rnn_cell.MultiRNNCell([rnn_cell.BasicLSTMCell(3), rnn_cell.GRUCell(2)]).zero_state(4, tf.float32)
    assert isinstance(zero[0], rnn_cell.LSTMStateTuple)
    scope = "MultiRNNCellZeroState/"
    assert [zero[0].c.name, zero[0].h.name, zero[1].name] == [
        scope + "BasicLSTMCellZeroState/zeros:0", scope + "BasicLSTMCellZeroState/zeros_1:0",
        scope + "GRUCellZeroState/zeros:0"]
    assert zero[1].shape.as_list() == [4, 2]


def test_bad_arguments_give_tensorflows_errors():
    x = tf.placeholder(tf.float32, [2, 5, 4])
    cases = [
        (lambda: tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, scope="a"), ValueError,
         "^If no initial_state is provided, argument `dtype` must be specified$"),
        (lambda: tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), tf.zeros([2, 5, 4], tf.int32), dtype=tf.float32,
                                   scope="b"), ValueError,
         "^RNN cell only supports floating point inputs, but received dtype: <dtype: 'int32'>$"),
        (lambda: tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), tf.zeros([2, 5]), dtype=tf.float32, scope="c"),
         ValueError, r"^Shape \(5, 2\) must have rank at least 3$"),
        (lambda: tf.nn.dynamic_rnn(3, x, dtype=tf.float32), TypeError,
         "^The argument 'cell' \\(3\\) is not an RNNCell: 'output_size' property is missing, 'state_size' property is "
         "missing, either 'zero_state' or 'get_initial_state' method is required, is not callable.$"),
        (lambda: tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, sequence_length=[[1]], dtype=tf.float32,
                                   scope="d"), ValueError,
         "^Argument sequence_length must be a vector of length batch_size. Received sequence_length="),
        (lambda: tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), tf.placeholder(tf.float32, [2, 5, None]),
                                   dtype=tf.float32, scope="e"), ValueError,
         r"^Input size \(depth of inputs\) must be accessible via shape inference, but saw value None for input="),
    ]
    for build, cls, message in cases:
        with pytest.raises(cls, match=message):
            build()
    cell = rnn_cell.BasicLSTMCell(3, name="lstm")
    with pytest.raises(ValueError, match='^Input 0 of layer "lstm" is incompatible with the layer: expected ndim=2, '
                                         'found ndim=3.'):
        cell(tf.zeros([2, 5, 4]), cell.zero_state(2, tf.float32))


def test_sequence_lengths_of_the_wrong_batch_size_fail_at_run_time():
    x = tf.placeholder(tf.float32, [2, 5, 4])
    lengths = tf.placeholder(tf.int32, [None])
    outputs, _ = tf.nn.dynamic_rnn(rnn_cell.GRUCell(2), x, sequence_length=lengths, dtype=tf.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"^assertion failed: \[Expected shape for Tensor rnn/sequence_length:0 is \] \[2\] "
                                 r"\[ but saw shape: \] \[3\]"):
            sess.run(outputs, {x: np.zeros([2, 5, 4]), lengths: [1, 2, 3]})


def test_lstm_gradient_through_the_loop_against_finite_differences():
    def build(x, h):
        cell = rnn_cell.LSTMCell(3, use_peepholes=True, initializer=tf.constant_initializer(0.3))
        state = rnn_cell.LSTMStateTuple(h * 0.5, h)
        outputs, final = tf.nn.dynamic_rnn(cell, x, sequence_length=[4, 2], initial_state=state)
        return [outputs, final.c]

    check_gradient(build, [(2, 4, 2), (2, 3)], low=-1.0, high=1.0)



def test_device_wrapper_places_the_cells_ops():
    cell = rnn_cell.DeviceWrapper(rnn_cell.BasicRNNCell(2), "/cpu:0")
    output, _ = cell(tf.zeros([1, 3]), cell.zero_state(1, tf.float32))
    assert output.op.device.endswith("CPU:0")
    assert [v.name for v in cell.trainable_weights] == ["basic_rnn_cell/kernel:0", "basic_rnn_cell/bias:0"]
