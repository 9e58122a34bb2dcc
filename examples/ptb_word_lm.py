"""A word-level language model in the style of TensorFlow 1.x's PTB tutorial, on synthetic text.

Two layers of LSTMs (``MultiRNNCell`` of ``BasicLSTMCell``) run over word embeddings with
``tf.nn.dynamic_rnn``; a softmax layer predicts the next word; the loss is the tutorial's sequence loss
(cross entropy summed over time steps, averaged over the batch); gradients are clipped by their global
norm and applied by SGD whose learning rate decays through an assign op; each batch starts from the
state the previous one ended in. A second model, sharing the variables (``reuse=True``), evaluates.

The text is synthetic: a fixed random Markov chain over a small vocabulary, so that the model has
something to learn and the script needs no download. Run it with ``python examples/ptb_word_lm.py``.
It is plain TensorFlow 1.x code: with ``import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()``
in place of the import (and ``TF_USE_LEGACY_KERAS=1`` for its cells) it runs there too.
"""

import time

import numpy as np

import numflow as tf


class SmallConfig:
    """The tutorial's small configuration, shrunk to the synthetic text (no dropout: keep_prob 1)."""

    init_scale = 0.1
    learning_rate = 2.0
    max_grad_norm = 5
    num_layers = 2
    num_steps = 10
    hidden_size = 32
    max_epoch = 4
    max_max_epoch = 6
    lr_decay = 0.5
    batch_size = 8
    vocab_size = 40


def synthetic_text(num_words, vocab_size, seed):
    """Word ids from a random Markov chain: each word has a few likely successors."""
    rng = np.random.default_rng(0)
    successors = rng.integers(0, vocab_size, (vocab_size, 3))
    draw = np.random.default_rng(seed)
    words = [0]
    for _ in range(num_words - 1):
        words.append(successors[words[-1], draw.integers(0, 3)] if draw.random() < 0.9
                     else draw.integers(0, vocab_size))
    return np.array(words, np.int32)


def batches(data, batch_size, num_steps):
    """(inputs, targets) pairs of shape [batch_size, num_steps]: the tutorial's ptb_producer, in numpy."""
    batch_len = len(data) // batch_size
    rows = data[:batch_size * batch_len].reshape(batch_size, batch_len)
    for i in range((batch_len - 1) // num_steps):
        yield rows[:, i * num_steps:(i + 1) * num_steps], rows[:, i * num_steps + 1:(i + 1) * num_steps + 1]


class PTBModel:
    """The tutorial's model: embedding, stacked LSTMs, softmax, sequence loss, clipped SGD."""

    def __init__(self, is_training, config):
        self.batch_size, self.num_steps = config.batch_size, config.num_steps
        size, vocab_size = config.hidden_size, config.vocab_size
        self.input_data = tf.placeholder(tf.int32, [self.batch_size, self.num_steps], name="input_data")
        self.targets = tf.placeholder(tf.int32, [self.batch_size, self.num_steps], name="targets")
        embedding = tf.get_variable("embedding", [vocab_size, size], dtype=tf.float32)
        inputs = tf.nn.embedding_lookup(embedding, self.input_data)

        cell = tf.nn.rnn_cell.MultiRNNCell(
            [tf.nn.rnn_cell.BasicLSTMCell(size, forget_bias=0.0, state_is_tuple=True, reuse=not is_training)
             for _ in range(config.num_layers)], state_is_tuple=True)
        self.initial_state = cell.zero_state(self.batch_size, tf.float32)
        with tf.variable_scope("RNN"):
            outputs, self.final_state = tf.nn.dynamic_rnn(cell, inputs, initial_state=self.initial_state)
        output = tf.reshape(outputs, [-1, size])
        softmax_w = tf.get_variable("softmax_w", [size, vocab_size], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [vocab_size], dtype=tf.float32)
        logits = tf.reshape(tf.matmul(output, softmax_w) + softmax_b, [self.batch_size, self.num_steps, vocab_size])
        # The tutorial's sequence_loss(average_across_timesteps=False, average_across_batch=True), summed.
        crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.targets, logits=logits)
        self.cost = tf.reduce_sum(tf.reduce_sum(crossent, axis=0) / self.batch_size)
        if not is_training:
            return
        self.lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), config.max_grad_norm)
        optimizer = tf.train.GradientDescentOptimizer(self.lr)
        self.train_op = optimizer.apply_gradients(zip(grads, tvars),
                                                  global_step=tf.train.get_or_create_global_step())
        self.new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self.lr_update = tf.assign(self.lr, self.new_lr)

    def assign_lr(self, session, lr_value):
        session.run(self.lr_update, feed_dict={self.new_lr: lr_value})


def run_epoch(session, model, data, train_op=None, max_batches=None):
    """Perplexity over ``data``; the per-batch costs are returned too."""
    state = session.run(model.initial_state)
    costs, iters, batch_costs = 0.0, 0, []
    fetches = {"cost": model.cost, "final_state": model.final_state}
    if train_op is not None:
        fetches["train_op"] = train_op
    for step, (x, y) in enumerate(batches(data, model.batch_size, model.num_steps)):
        if max_batches is not None and step >= max_batches:
            break
        feed_dict = {model.input_data: x, model.targets: y}
        for i, (c, h) in enumerate(model.initial_state):
            feed_dict[c] = state[i].c
            feed_dict[h] = state[i].h
        vals = session.run(fetches, feed_dict)
        state = vals["final_state"]
        costs += vals["cost"]
        iters += model.num_steps
        batch_costs.append(float(vals["cost"]))
    return np.exp(costs / iters), batch_costs


def build(config, seed=1):
    """The training and validation models, sharing their variables."""
    tf.set_random_seed(seed)
    initializer = tf.random_uniform_initializer(-config.init_scale, config.init_scale, seed=seed)
    with tf.name_scope("Train"):
        with tf.variable_scope("Model", reuse=None, initializer=initializer):
            train = PTBModel(is_training=True, config=config)
    with tf.name_scope("Valid"):
        with tf.variable_scope("Model", reuse=True, initializer=initializer):
            valid = PTBModel(is_training=False, config=config)
    return train, valid


def main(config=SmallConfig, max_batches=None, verbose=True):
    """Train and evaluate; returns (train perplexity, valid perplexity, training batch costs) per epoch."""
    train_data = synthetic_text(4000, config.vocab_size, seed=1)
    valid_data = synthetic_text(1000, config.vocab_size, seed=2)
    results = []
    with tf.Graph().as_default(), tf.Session() as session:
        train, valid = build(config)
        session.run(tf.global_variables_initializer())
        for epoch in range(config.max_max_epoch):
            lr_decay = config.lr_decay ** max(epoch + 1 - config.max_epoch, 0.0)
            train.assign_lr(session, config.learning_rate * lr_decay)
            start = time.perf_counter()
            train_perplexity, costs = run_epoch(session, train, train_data, train.train_op, max_batches)
            valid_perplexity, _ = run_epoch(session, valid, valid_data, max_batches=max_batches)
            results.append((train_perplexity, valid_perplexity, costs))
            if verbose:
                print(f"epoch {epoch + 1}: train perplexity {train_perplexity:.2f}, valid perplexity "
                      f"{valid_perplexity:.2f} ({time.perf_counter() - start:.1f} s)", flush=True)
    return results


if __name__ == "__main__":
    main()
