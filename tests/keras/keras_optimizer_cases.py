"""The Keras optimizers behind ``data/tf_keras_optimizers_golden.json``, written once for both engines
(TensorFlow 2.21's compat.v1 with tf-keras when the golden file is made, numflow in the tests).

Each case compiles a small regression model with one optimizer in a fresh graph (fixed seeds), fits it for
three epochs of three batches and gives back the losses, the names of the graph's variables and the values of
the optimizer's variables and the model's weights afterwards. The ``EMBEDDINGS`` cases put an Embedding
first, whose gradient holds the rows of the ids a batch has (repeated ids included), some ids in no batch.
"""

import numpy as np

OPTIMIZERS = {
    "adadelta": lambda o: o.Adadelta(learning_rate=1.0),
    "adadelta_decay": lambda o: o.Adadelta(learning_rate=0.5, rho=0.9, decay=0.1),
    "adamax": lambda o: o.Adamax(learning_rate=0.05),
    "adamax_decay": lambda o: o.Adamax(lr=0.05, beta_1=0.8, decay=0.2, epsilon=1e-3),
    "ftrl": lambda o: o.Ftrl(learning_rate=0.2),
    "ftrl_regularized": lambda o: o.Ftrl(learning_rate=0.2, l1_regularization_strength=0.01,
                                         l2_regularization_strength=0.02, beta=0.1, learning_rate_power=-0.7),
    "ftrl_shrinkage": lambda o: o.Ftrl(learning_rate=0.2, l2_shrinkage_regularization_strength=0.05,
                                       initial_accumulator_value=0.5),
    "nadam": lambda o: o.Nadam(learning_rate=0.05),
    "nadam_schedule_decay": lambda o: o.Nadam(learning_rate=0.05, beta_2=0.99, schedule_decay=0.1),
    "nadam_by_name": lambda o: "nadam",
    "adam_exponential": lambda o: o.Adam(o.schedules.ExponentialDecay(0.1, 2, 0.5, staircase=True)),
    "sgd_piecewise": lambda o: o.SGD(o.schedules.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01]), momentum=0.5),
    "rmsprop_polynomial": lambda o: o.RMSprop(o.schedules.PolynomialDecay(0.05, 4, power=2.0, cycle=True)),
    "adagrad_inverse_time": lambda o: o.Adagrad(o.schedules.InverseTimeDecay(0.5, 3, 0.7), decay=0.1),
    "sgd_cosine_warmup": lambda o: o.SGD(o.schedules.CosineDecay(0.01, 5, alpha=0.1, warmup_target=0.2,
                                                                 warmup_steps=3)),
    "adamax_cosine_restarts": lambda o: o.Adamax(o.schedules.CosineDecayRestarts(0.1, 2, t_mul=1.5, m_mul=0.8)),
    "adadelta_cosine_restarts": lambda o: o.Adadelta(o.schedules.CosineDecayRestarts(1.0, 3, t_mul=1.0)),
}

EMBEDDINGS = {
    "sgd_embedding": lambda o: o.SGD(0.1),
    "sgd_momentum_embedding": lambda o: o.SGD(0.05, momentum=0.9),
    "sgd_nesterov_embedding": lambda o: o.SGD(0.05, momentum=0.8, nesterov=True),
    "adam_embedding": lambda o: o.Adam(0.05),
    "rmsprop_embedding": lambda o: o.RMSprop(0.05),
    "rmsprop_momentum_embedding": lambda o: o.RMSprop(0.05, momentum=0.5),
    "adagrad_embedding": lambda o: o.Adagrad(0.2),
    "adadelta_embedding": lambda o: o.Adadelta(1.0),
    "adamax_embedding": lambda o: o.Adamax(0.05),
    "ftrl_embedding": lambda o: o.Ftrl(0.2, l1_regularization_strength=0.01),
    "nadam_embedding": lambda o: o.Nadam(0.05),
}


def run_case(tf, case):
    keras = tf.keras
    if case in EMBEDDINGS:
        rng = np.random.RandomState(0)
        x = rng.randint(0, 6, size=(12, 3))  # ids 6 to 9 are in no batch
        y = rng.rand(12, 1).astype(np.float32)
        make, layers = EMBEDDINGS[case], lambda: [keras.layers.Embedding(10, 4, input_length=3),
                                                  keras.layers.Flatten(), keras.layers.Dense(1)]
    else:
        rng = np.random.RandomState(5)
        x = rng.rand(12, 3).astype(np.float32)
        y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
        make, layers = OPTIMIZERS[case], lambda: [keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                                  keras.layers.Dense(1)]
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        model = keras.Sequential(layers())
        model.compile(make(keras.optimizers), "mse")
        history = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
        return {"loss": history.history["loss"], "variables": [v.name for v in tf.global_variables()],
                "optimizer_variables": [v.name for v in model.optimizer.weights],
                "optimizer_values": [np.asarray(v).tolist() for v in
                                     keras.backend.batch_get_value(model.optimizer.weights)],
                "weights": [w.tolist() for w in model.get_weights()]}
