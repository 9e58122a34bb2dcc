"""The recurrent Keras models behind ``data/tf_keras_recurrent_models_golden.json``, written once for both engines
and run by ``keras_model_cases.run_case``: a text classifier on padded word ids (Embedding with ``mask_zero``,
LSTM, sigmoid), a sequence-to-sequence tagger (LSTM with ``return_sequences``, TimeDistributed Dense), a
functional bidirectional GRU, a tagger trained on masked steps (their loss weighs 0), and an encoder-decoder
whose decoder starts from the encoder's last states."""

import numpy as np


def imdb_lstm(tf):
    keras = tf.keras
    lengths = np.random.randint(2, 12, 24)
    texts = [list(np.random.randint(1, 50, n)) for n in lengths]
    x = keras.preprocessing.sequence.pad_sequences(texts, maxlen=10)
    y = (x[:, -1] > 25).astype(np.float32)
    model = keras.Sequential([keras.layers.Embedding(50, 8, mask_zero=True, input_length=10),
                              keras.layers.LSTM(6), keras.layers.Dense(1, activation="sigmoid")])
    model.summary()
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=8, verbose=2, validation_split=0.25)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict(x[:3])}


def seq2seq_tagger(tf):
    keras = tf.keras
    x = np.random.rand(12, 5, 3).astype(np.float32)
    y = keras.utils.to_categorical(np.random.randint(0, 4, (12, 5)), 4)
    model = keras.Sequential([keras.layers.LSTM(8, return_sequences=True, input_shape=(5, 3)),
                              keras.layers.TimeDistributed(keras.layers.Dense(4, activation="softmax"))])
    model.summary()
    model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=4, verbose=2)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict(x[:2])}


def bidirectional_gru(tf):
    keras = tf.keras
    inputs = keras.Input(shape=(6,), dtype="int32")
    embedded = keras.layers.Embedding(20, 4, mask_zero=True)(inputs)
    encoded = keras.layers.Bidirectional(keras.layers.GRU(3, return_sequences=True), merge_mode="sum")(embedded)
    pooled = keras.layers.SimpleRNN(4, go_backwards=True)(encoded)
    outputs = keras.layers.Dense(3, activation="softmax")(pooled)
    model = keras.Model(inputs, outputs)
    model.summary()
    model.compile(optimizer=keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    x = keras.preprocessing.sequence.pad_sequences([list(np.random.randint(1, 20, n)) for n in
                                                    np.random.randint(1, 7, 10)], maxlen=6, padding="post")
    y = np.random.randint(0, 3, 10)
    history = model.fit(x, y, epochs=2, batch_size=5, verbose=2)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict(x[:2])}


def masked_tagger(tf):
    keras = tf.keras
    x = keras.preprocessing.sequence.pad_sequences([list(np.random.randint(1, 15, n)) for n in
                                                    np.random.randint(2, 7, 9)], maxlen=6, padding="post")
    y = np.random.randint(0, 3, (9, 6, 1))
    model = keras.Sequential([keras.layers.Embedding(15, 4, mask_zero=True),
                              keras.layers.GRU(5, return_sequences=True),
                              keras.layers.TimeDistributed(keras.layers.Dense(3, activation="softmax"))])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    history = model.fit(x, y, epochs=2, batch_size=3, verbose=2)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict(x[:2])}


def encoder_decoder(tf):
    keras = tf.keras
    encoder_inputs, decoder_inputs = keras.Input(shape=(None, 3)), keras.Input(shape=(None, 4))
    _, h, c = keras.layers.LSTM(5, return_state=True)(encoder_inputs)
    decoded = keras.layers.LSTM(5, return_sequences=True)(decoder_inputs, initial_state=[h, c])
    model = keras.Model([encoder_inputs, decoder_inputs], keras.layers.Dense(4, activation="softmax")(decoded))
    model.compile("rmsprop", "categorical_crossentropy")
    x = [np.random.rand(6, 5, 3).astype(np.float32), np.random.rand(6, 4, 4).astype(np.float32)]
    y = keras.utils.to_categorical(np.random.randint(0, 4, (6, 4)), 4)
    history = model.fit(x, y, epochs=2, batch_size=3, verbose=2)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict([a[:2] for a in x])}


CASES = {f.__name__: f for f in (imdb_lstm, seq2seq_tagger, bidirectional_gru, masked_tagger, encoder_decoder)}


def saved_weights(tf, directory):
    """A recurrent model trained one step and its weights saved to ``directory/weights``: ``(model, inputs)``."""
    keras = tf.keras
    tf.set_random_seed(3)
    model = keras.Sequential([keras.layers.Embedding(12, 3, mask_zero=True, input_length=5),
                              keras.layers.Bidirectional(keras.layers.LSTM(2, return_sequences=True)),
                              keras.layers.TimeDistributed(keras.layers.Dense(3)),
                              keras.layers.RNN([keras.layers.GRUCell(2), keras.layers.SimpleRNNCell(2)]),
                              keras.layers.Dense(1)])
    model.compile("adam", "mse")
    x = np.array([[1, 2, 3, 0, 0], [4, 5, 6, 7, 8]])
    model.fit(x, np.ones((2, 1)), verbose=0)
    model.save_weights(str(directory / "weights"))
    return model, x
