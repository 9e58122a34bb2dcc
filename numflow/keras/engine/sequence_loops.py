"""``fit``, ``evaluate`` and ``predict`` on a ``keras.utils.Sequence``, as tf-keras' v1 generator loops run them:
one step per batch (``len(sequence)`` of them), the batch order shuffled each epoch with Python's ``random``
(as its ordered enqueuer does) when ``shuffle``, the loss the mean of the steps' losses (not weighted by the
batch sizes: what the callbacks see; the history gets tf-keras' ``BaseLogger`` mean, weighted by the sizes),
the metrics' last (running) values, ``on_epoch_end`` called after each pass.
"""

import random

import numpy as np

from numflow.keras import backend
from numflow.keras import callbacks as callbacks_module
from numflow.keras.engine import training_loops


def _batch(model, item):
    """The (inputs, targets, weights) arrays of one ``Sequence`` item ``(x, y)`` or ``(x, y, sample_weight)``."""
    if not isinstance(item, tuple) or len(item) not in (2, 3):
        raise ValueError(f"Output of generator should be a tuple `(x, y, sample_weight)` or `(x, y)`. Found: {item}")
    return training_loops._data(model, *item)


def _run(model, sequence, fetches, train, shuffle, steps=None, on_batch=None):
    """One pass over ``sequence``: the loss averaged over the steps, the metrics' last values."""
    session = backend.get_session()
    order = list(range(steps or len(sequence)))
    if shuffle:
        random.shuffle(order)
    total, outs = 0.0, None
    for step, index in enumerate(order):
        arrays = _batch(model, sequence[index])
        outs = session.run(fetches, feed_dict=training_loops._feed(model, arrays, train))[0]
        total += float(outs[0])
        if on_batch is not None:
            on_batch(step, arrays[0][0].shape[0], outs)
    sequence.on_epoch_end()
    return [total / len(order), *outs[1:]]


def fit(model, sequence, epochs, verbose, callbacks, validation_data, shuffle, initial_epoch, steps_per_epoch,
        validation_steps):
    """Train on ``sequence`` for ``epochs``; a ``History`` (see the module docstring)."""
    if len(sequence) == 0 and not steps_per_epoch:
        raise ValueError("The Sequence given to fit has no batches: len(sequence) is 0.")
    _batch(model, sequence[0])  # builds and compiles the model from the first batch's shapes
    train_ops = model._train_fetches()
    fetches = [model._compiled_graph["fetches"], train_ops]
    names = model.metrics_names
    do_validation = validation_data is not None
    history = callbacks_module.History()
    # tf-keras' own BaseLogger turns the epoch's loss, for the history, into the batches' mean weighted by their sizes
    cbks = training_loops.callback_list(model, callbacks, history, names, [callbacks_module.BaseLogger()])
    steps = steps_per_epoch or len(sequence)
    cbks.set_params({"batch_size": None, "epochs": epochs, "steps": steps, "samples": None, "verbose": verbose,
                     "do_validation": do_validation,
                     "metrics": names + [f"val_{n}" for n in names] if do_validation else list(names)})
    model.stop_training = False
    cbks.on_train_begin()
    for epoch in range(initial_epoch, epochs):
        model.reset_metrics()
        cbks.on_epoch_begin(epoch)
        progbar = training_loops.Progbar(steps, verbose=verbose, stateful_metrics=names[1:]) if verbose else None
        if verbose and epochs > 1:
            print(f"Epoch {epoch + 1}/{epochs}")

        def on_batch(step, size, outs, progbar=progbar):
            batch_logs = {"batch": step, "size": size, **dict(zip(names, (float(o) for o in outs)))}
            cbks.on_batch_end(step, batch_logs)
            if progbar is not None:
                progbar.update(step + 1, [(k, batch_logs[k]) for k in names], finalize=False)

        results = _run(model, sequence, fetches, True, shuffle, steps_per_epoch, on_batch)
        logs = dict(zip(names, (float(r) for r in results)))
        if do_validation:
            logs.update({f"val_{n}": float(r) for n, r in zip(names, _evaluate(model, validation_data,
                                                                                validation_steps))})
        if training_loops.end_epoch(model, cbks, progbar, steps, epoch, logs):
            break
    return training_loops.end_training(model, cbks, history)


def _evaluate(model, data, steps=None):
    model.reset_metrics()
    if isinstance(data, tuple | list):
        return training_loops._test_loop(model, backend.get_session(), training_loops._data(model, *data[:3]), 32)
    return _run(model, data, [model._compiled_graph["fetches"]], False, False, steps)


def evaluate(model, sequence, steps=None):
    """The loss (the mean over the steps) and the metrics over ``sequence``."""
    _batch(model, sequence[0])
    return training_loops._scalar_or_list(_evaluate(model, sequence, steps))


def predict(model, sequence, steps=None):
    """The outputs for each batch of ``sequence`` (its ``x``), concatenated."""
    session = backend.get_session()
    parts = []
    for index in range(steps or len(sequence)):
        item = sequence[index]
        x = item[0] if isinstance(item, tuple) and len(item) in (2, 3) else item
        inputs = training_loops._inputs(model, x)
        parts.append(session.run(model.outputs, feed_dict=training_loops._feed(model, (inputs, [], []), False)))
    outputs = [np.concatenate([p[i] for p in parts]) for i in range(len(model.outputs))]
    return outputs[0] if len(outputs) == 1 else outputs
