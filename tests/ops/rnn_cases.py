"""The recurrent graphs behind ``data/tf_rnn_golden.npz`` and ``.json``, written once for both engines: each
case takes the ``tf`` module (TensorFlow's compat.v1 with its legacy Keras cells when the golden files
are made, numflow in the tests) and the inputs, and returns the named tensors to fetch. ``run_case``
runs one with the variables set to given values (TensorFlow's initial values, from the golden file),
and gives back its variables' names, values and its results, the gradients of a loss of the results
(each one's sum plus a multiple of its sum of squares) with respect to every variable and to the
inputs included.
"""

import numpy as np

BATCH, TIME, DEPTH = 3, 5, 2


def inputs():
    rng = np.random.RandomState(5)
    return {"x": rng.uniform(-1.0, 1.0, (BATCH, TIME, DEPTH)).astype(np.float32),
            "lengths": np.array([5, 2, 0], np.int32)}


def _x(tf):
    return tf.placeholder(tf.float32, [BATCH, TIME, DEPTH], name="x")


def lstm(tf, x, a):
    outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32)
    return {"outputs": outputs, "c": state.c, "h": state.h}


def lstm_peepholes_lengths(tf, x, a):
    cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True, cell_clip=0.5, num_proj=3, proj_clip=0.4)
    outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=a["lengths"], dtype=tf.float32)
    return {"outputs": outputs, "c": state.c, "h": state.h}


def multi_layer_time_major(tf, x, a):
    cells = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(4), tf.nn.rnn_cell.BasicRNNCell(3),
                                         tf.nn.rnn_cell.BasicLSTMCell(2)])
    initial = cells.zero_state(BATCH, tf.float32)
    initial = (initial[0] + 0.1, initial[1] - 0.2, initial[2])
    with tf.variable_scope("model"):
        outputs, state = tf.nn.dynamic_rnn(cells, tf.transpose(x, [1, 0, 2]), initial_state=initial,
                                           time_major=True)
    return {"outputs": outputs, "gru": state[0], "rnn": state[1], "lstm_h": state[2].h}


def bidirectional(tf, x, a):
    (fw, bw), (state_fw, state_bw) = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.LSTMCell(3), tf.nn.rnn_cell.GRUCell(2), x, sequence_length=a["lengths"], dtype=tf.float32)
    return {"fw": fw, "bw": bw, "state_fw_c": state_fw.c, "state_bw": state_bw}


def static(tf, x, a):
    steps = tf.unstack(x, axis=1)
    outputs, state = tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), steps, dtype=tf.float32,
                                      sequence_length=a["lengths"])
    both, _, state_bw = tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.GRUCell(2), steps,
                                                       dtype=tf.float32, sequence_length=a["lengths"])
    return {"outputs": tf.stack(outputs), "h": state.h, "both": tf.stack(both), "state_bw": state_bw}


def wrappers(tf, x, a):
    tf.set_random_seed(3)
    cells = tf.nn.rnn_cell.MultiRNNCell([
        tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(3), input_keep_prob=0.7, output_keep_prob=0.8,
                                      state_keep_prob=0.9, seed=5),
        tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.GRUCell(3)),
        tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(3), output_keep_prob=0.6, state_keep_prob=0.75,
                                      variational_recurrent=True, dtype=tf.float32, seed=9)])
    # One iteration at a time: TensorFlow's loop would otherwise draw the masks of several time steps in
    # whatever order its threads run them (numflow's draws are in time order always).
    outputs, state = tf.nn.dynamic_rnn(cells, x, dtype=tf.float32, parallel_iterations=1)
    return {"outputs": outputs, "last": state[2]}


def raw(tf, x, a):
    time_major = tf.transpose(x, [1, 0, 2])
    lengths = tf.constant(a["lengths"])
    inputs_ta = tf.TensorArray(tf.float32, size=TIME).unstack(time_major)
    cell = tf.nn.rnn_cell.GRUCell(3)

    def loop_fn(time, cell_output, cell_state, loop_state):
        emit = cell_output
        state = cell.zero_state(BATCH, tf.float32) if cell_output is None else cell_state
        finished = time >= lengths
        next_input = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([BATCH, DEPTH]),
                             lambda: inputs_ta.read(time))
        return finished, next_input, state, emit, None

    emit_ta, state, _ = tf.nn.raw_rnn(cell, loop_fn)
    return {"outputs": emit_ta.stack(), "state": state}


CASES = {f.__name__: f for f in (lstm, lstm_peepholes_lengths, multi_layer_time_major, bidirectional, static,
                                 wrappers, raw)}


def run_case(tf, name, a, initial=None, restore_from=None, save_to=None):
    """``(variable names, {name: initial value}, {result: value})`` of case ``name`` in ``tf``; the
    variables are set to ``initial`` when given (else kept at their own initial values), or restored
    from the checkpoint ``restore_from`` by a Saver; with ``save_to``, a Saver writes them there."""
    with tf.Graph().as_default():
        x = _x(tf)
        fetches = CASES[name](tf, x, a)
        variables = tf.trainable_variables()
        loss = tf.add_n([tf.reduce_sum(t + tf.square(t) * (k + 1.0)) for k, t in enumerate(fetches.values())])
        grads = tf.gradients(loss, variables + [x])
        names = [v.op.name for v in variables]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if initial is not None:
                for v in variables:
                    v.load(initial[v.op.name], sess)
            if restore_from is not None:
                tf.train.Saver().restore(sess, restore_from)
            if save_to is not None:
                tf.train.Saver().save(sess, save_to, write_meta_graph=False, write_state=False)
            values = dict(zip(names, sess.run(variables)))
            results = sess.run(fetches, {x: a["x"]})
            grad_values = sess.run(grads, {x: a["x"]})
    results.update({f"d/{n}": g for n, g in zip(names + ["x"], grad_values)})
    return names, values, results
