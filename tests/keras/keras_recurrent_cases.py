"""The recurrent ``tf.keras.layers`` graphs behind ``data/tf_keras_recurrent_golden.npz`` and ``.json``, written
once for both engines and run by ``keras_layer_cases.run_case`` (its inputs: ``vec`` ``[4, 5]``, ``seq`` ``[2, 7,
3]``, ``ids`` ``[3, 4]`` with some zeros)."""

from keras_layer_cases import _names


def _minimal_cell(tf):
    """A custom cell: ``output = h = inputs @ kernel + h_tm1 @ recurrent_kernel``."""

    class MinimalRNNCell(tf.keras.layers.Layer):
        def __init__(self, units, **kwargs):
            self.units = units
            self.state_size = units
            super().__init__(**kwargs)

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(int(input_shape[-1]), self.units), initializer="uniform",
                                          name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                    name="recurrent_kernel")
            self.built = True

        def call(self, inputs, states):
            output = tf.keras.backend.dot(inputs, self.kernel) + tf.keras.backend.dot(states[0],
                                                                                     self.recurrent_kernel)
            return output, [output]

    return MinimalRNNCell


def recurrent_layers(tf, x):
    tf.set_random_seed(11)
    layers = tf.keras.layers
    seq = x["seq"]
    lstm = layers.LSTM(4)
    simple = layers.SimpleRNN(3, activation="relu", return_sequences=True)(seq)
    last = lstm(seq)
    gru = layers.GRU(3, return_sequences=True, go_backwards=True)(seq)
    full, h, c = layers.LSTM(2, return_sequences=True, return_state=True, unit_forget_bias=False,
                             bias_initializer="ones")(seq)
    after = layers.GRU(2, reset_after=True, implementation=2, recurrent_activation="sigmoid")(seq)
    fused = layers.LSTM(3, implementation=2, unroll=True)(seq)
    major = layers.SimpleRNN(2, time_major=True, return_sequences=True, use_bias=False)(seq)
    return ({"simple": simple, "last": last, "gru": gru, "full": full, "h": h, "c": c, "after": after,
             "fused": fused, "major": major}, {"lstm": _names(lstm)})


def masked_and_stacked(tf, x):
    tf.set_random_seed(12)
    layers = tf.keras.layers
    embedded = layers.Embedding(10, 3, mask_zero=True)(x["ids"])
    masked_seq = layers.LSTM(3, return_sequences=True)(embedded)
    masked_last = layers.GRU(2)(masked_seq)
    projected = layers.Dense(2)(masked_seq)
    backwards = layers.SimpleRNN(2, go_backwards=True, unroll=True)(embedded)
    stacked = layers.RNN([layers.LSTMCell(3), layers.GRUCell(2), layers.SimpleRNNCell(2)],
                         return_state=True)(x["seq"])
    custom = layers.RNN(_minimal_cell(tf)(2), return_sequences=True)(x["seq"])
    h0 = layers.Dense(3)(x["seq"][:, 0, :])
    started = layers.GRU(3)(x["seq"], initial_state=h0)
    return ({"masked_seq": masked_seq, "masked_last": masked_last, "projected": projected, "backwards": backwards,
             "stacked": stacked[0], "stacked_h": stacked[1][0], "stacked_c": stacked[1][1],
             "stacked_gru": stacked[2], "custom": custom, "started": started}, {})


def wrappers(tf, x):
    tf.set_random_seed(13)
    layers = tf.keras.layers
    seq = x["seq"]
    both = layers.Bidirectional(layers.LSTM(2))
    concat = both(seq)
    summed = layers.Bidirectional(layers.GRU(2, return_sequences=True), merge_mode="sum")(seq)
    averaged = layers.Bidirectional(layers.SimpleRNN(2, return_sequences=True), merge_mode="ave")(seq)
    multiplied = layers.Bidirectional(layers.SimpleRNN(2), merge_mode="mul")(seq)
    pair = layers.Bidirectional(layers.GRU(2, return_sequences=True), merge_mode=None)(seq)
    stated = layers.Bidirectional(layers.LSTM(2, return_state=True))(seq)
    distributed = layers.TimeDistributed(layers.Dense(4, activation="tanh"))
    dense_steps = distributed(seq)
    masked = layers.Masking(mask_value=0.0)(seq * tf.cast(seq > -0.5, tf.float32)[:, :, :1])
    masked_rnn = layers.Bidirectional(layers.LSTM(2, return_sequences=True))(masked)
    masked_steps = layers.TimeDistributed(layers.Dense(2))(masked_rnn)
    masked_last = layers.GRU(2)(masked_steps)
    embedded = layers.Embedding(10, 3, mask_zero=True)(x["ids"])
    masked_both = layers.Bidirectional(layers.LSTM(2))(embedded)
    return ({"concat": concat, "summed": summed, "averaged": averaged, "multiplied": multiplied,
             "pair_forward": pair[0], "pair_backward": pair[1], "stated": stated[0], "stated_h": stated[1],
             "stated_back_c": stated[4], "dense_steps": dense_steps, "masked": masked, "masked_rnn": masked_rnn,
             "masked_steps": masked_steps, "masked_last": masked_last, "masked_both": masked_both},
            {"bidirectional": _names(both), "time_distributed": _names(distributed)})


CASES = {f.__name__: f for f in (recurrent_layers, masked_and_stacked, wrappers)}
