"""The loops of ``fit``, ``evaluate`` and ``predict`` on numpy data, as tf-keras' v1 array loops run them: the
samples shuffled each epoch with numpy's global generator (not when there is one batch), batches of
``batch_size`` run in the Keras session, the epoch's loss the mean of the batches' losses weighted by their
sizes, the metrics' last (running) values, the metrics reset at the start of each epoch and of each
evaluation. ``verbose=2`` prints one line per epoch; ``verbose=1`` a progress bar. ``fit``'s validation
draws a shuffle too, as TensorFlow's does.
"""

import sys
import time

import numpy as np

from numflow.framework import dtypes, nest
from numflow.keras import backend
from numflow.keras import callbacks as callbacks_module
from numflow.layers import core as _core


def _arrays(data, names, shapes, what):
    """``data`` (an array, a list of them, nested lists) as one float or int array per name, checked against
    the static ``shapes``; 1-D arrays become columns."""
    if data is None:
        return []
    if isinstance(data, dict):
        data = [data[name] for name in names]
    items = list(data) if isinstance(data, list | tuple) and len(names) > 1 else [data]
    if len(items) != len(names):
        raise ValueError(f"Error when checking model {what}: the list of Numpy arrays that you are passing to your "
                         f"model is not the size the model expected. Expected to see {len(names)} array(s), but "
                         f"instead got {len(items)} arrays.")
    arrays = []
    for item, name, shape in zip(items, names, shapes):
        array = np.asarray(item)
        if array.ndim == 1 and shape is not None and len(shape) == 2:
            array = array[:, None]
        if shape is not None:
            if array.ndim != len(shape):
                raise ValueError(f"Error when checking {what}: expected {name} to have {len(shape)} dimensions, but "
                                 f"got array with shape {array.shape}")
            for want, got in zip(shape[1:], array.shape[1:]):
                if want is not None and want != got:
                    raise ValueError(f"Error when checking {what}: expected {name} to have shape "
                                     f"{tuple(shape[1:])} but got array with shape {array.shape[1:]}")
        arrays.append(array)
    return arrays


def _inputs(model, x):
    if not model.inputs:
        _build_from_data(model, x)
    return _arrays(x, [t.op.name for t in model.inputs], [backend.int_shape(t) for t in model.inputs], "input")


def _targets(model, y):
    """``y`` as arrays, one per output; a sparse cross entropy's targets are labels, one per example."""
    from numflow.keras import losses

    shapes = [backend.int_shape(t) for t in model.outputs]
    functions = getattr(model, "_loss_functions", [None] * len(shapes))
    shapes = [(*shape[:-1], 1) if getattr(fn, "fn", None) is losses.sparse_categorical_crossentropy else shape
              for shape, fn in zip(shapes, functions)]
    return _arrays(y, model.output_names, shapes, "target")


def _weights(targets, sample_weight, class_weight):
    """One weight per example and output: ``sample_weight``, else ``class_weight`` of each example's class (the
    argmax of a one-hot target), else ones; TensorFlow's errors for a class without a weight."""
    weights = []
    given = sample_weight if isinstance(sample_weight, list | tuple) else [sample_weight] * len(targets)
    for target, weight in zip(targets, given):
        if weight is not None:
            weight = np.asarray(weight, dtype=np.float32)
            if weight.shape != target.shape[:1]:
                raise ValueError(f"Found a sample_weight array with shape {weight.shape} for an input with shape "
                                 f"{target.shape}. sample_weight cannot be broadcast.")
        elif class_weight is not None:
            classes = np.argmax(target, axis=1) if target.ndim > 1 and target.shape[1] > 1 else target.reshape(-1)
            missing = set(classes.tolist()) - set(class_weight)
            if missing:
                raise ValueError(f"`class_weight` must contain all classes in the data. The classes "
                                 f"{ {np.int64(c) for c in missing} } exist in the data but not in `class_weight`.")
            weight = np.asarray([class_weight[c] for c in classes.tolist()], dtype=np.float32)
        else:
            weight = np.ones(target.shape[0], dtype=np.float32)
        weights.append(weight)
    return weights


def _build_from_data(model, x):
    """A model without inputs (a Sequential without an input shape) gets them from the data's shapes."""
    first = nest.flatten(x)[0] if isinstance(x, list | tuple) and x and hasattr(x[0], "shape") else x
    array = np.asarray(first)
    dtype = backend.floatx() if array.dtype.kind == "f" else dtypes.as_dtype(array.dtype).name
    model._build_input((None, *array.shape[1:]), dtype)


def _ensure_compiled(model):
    model._require_compiled()
    if model._compiled_graph is None:
        model._build_compiled()
    return model._compiled_graph


def _feed(model, arrays, phase):
    """The feed of one run: ``arrays`` is (inputs, targets, weights), the last two empty to predict."""
    inputs, targets, weights = arrays
    feed = dict(zip(model.inputs, inputs))
    if targets:
        feed.update(zip(model._compiled_graph["targets"], targets))
        feed.update(zip(model._compiled_graph["sample_weights"], weights))
    graph = model.inputs[0].graph
    if graph in _core._learning_phases:
        feed[_core._learning_phases[graph]] = phase
    return feed


def _slice(arrays, ids):
    return [a[ids] for a in arrays]


def _batches(size, batch_size):
    count = int(np.ceil(size / float(batch_size)))
    return [(i * batch_size, min(size, (i + 1) * batch_size)) for i in range(count)]


class _Aggregator:
    """The loss as the mean of the batches' losses weighted by their sizes; the metrics as their last values."""

    def __init__(self, num_samples):
        self.num_samples, self.results = num_samples, None

    def aggregate(self, outs, start, end):
        if self.results is None:
            self.results = [0.0] * len(outs)
        self.results[0] += float(outs[0]) * (end - start)  # in float64, as TensorFlow's numpy 1 sums
        self.results[1:] = outs[1:]

    def finalize(self):
        self.results[0] /= self.num_samples
        return self.results


def _run_epoch(model, session, fetches, arrays, batch_size, phase, shuffle, on_batch=None):
    """One pass over ``arrays`` (inputs, targets, weights): the aggregated ``fetches`` values."""
    size = arrays[0][0].shape[0]
    index_array = np.arange(size)
    if shuffle:
        np.random.shuffle(index_array)
    batches = _batches(size, batch_size)
    aggregator = _Aggregator(size)
    for batch_index, (start, end) in enumerate(batches):
        batch = arrays if len(batches) == 1 else [_slice(part, index_array[start:end]) for part in arrays]
        outs = session.run(fetches, feed_dict=_feed(model, batch, phase))[0]
        aggregator.aggregate(outs, start, end)
        if on_batch is not None:
            on_batch(batch_index, end - start, outs)
    return aggregator.finalize()


def _data(model, x, y, sample_weight=None, class_weight=None):
    inputs = _inputs(model, x)
    _ensure_compiled(model)
    targets = _targets(model, y)
    return [inputs, targets, _weights(targets, sample_weight, class_weight)]


def fit(model, x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
        initial_epoch, sample_weight=None, class_weight=None):
    data = _data(model, x, y, sample_weight, class_weight)
    compiled = model._compiled_graph
    val = None
    if validation_data is not None:
        val = _data(model, *validation_data[:3])
    elif validation_split and 0.0 < validation_split < 1.0:
        split_at = int(data[0][0].shape[0] * (1.0 - validation_split))
        val = [[a[split_at:] for a in part] for part in data]
        data = [[a[:split_at] for a in part] for part in data]
    train_ops = model._train_fetches()
    session = backend.get_session()
    fetches = [compiled["fetches"], train_ops]
    names = model.metrics_names
    samples = data[0][0].shape[0]
    out_labels = names + [f"val_{n}" for n in names] if val else list(names)
    history = callbacks_module.History()
    cbks = callback_list(model, callbacks, history, names)
    cbks.set_params({"batch_size": batch_size, "epochs": epochs, "steps": None, "samples": samples,
                     "verbose": verbose, "do_validation": val is not None, "metrics": out_labels})
    if verbose:
        message = f"Train on {samples} samples"
        print(message + (f", validate on {val[0][0].shape[0]} samples" if val else ""))
    model.stop_training = False
    cbks.on_train_begin()
    for epoch in range(initial_epoch, epochs):
        model.reset_metrics()
        cbks.on_epoch_begin(epoch)
        progbar = Progbar(samples, verbose=verbose, stateful_metrics=names[1:]) if verbose else None
        if verbose and epochs > 1:
            print(f"Epoch {epoch + 1}/{epochs}")
        on_batch = _BatchEnd(cbks, progbar, names)
        results = _run_epoch(model, session, fetches, data, batch_size, True, shuffle, on_batch)
        epoch_logs = dict(zip(names, (float(r) for r in results)))
        if val is not None:
            val_results = _test_loop(model, session, val, batch_size, shuffle=True)
            epoch_logs.update({f"val_{n}": float(r) for n, r in zip(names, val_results)})
        if end_epoch(model, cbks, progbar, samples, epoch, epoch_logs):
            break
    return end_training(model, cbks, history)


def end_epoch(model, callbacks, progbar, target, epoch, logs):
    """Finish the epoch's progress bar (with the validation values) and tell the callbacks; whether to stop."""
    if progbar is not None:
        progbar.update(target, [(k, v) for k, v in logs.items() if k.startswith("val_")], finalize=True)
    callbacks.on_epoch_end(epoch, logs)
    return model.stop_training


def end_training(model, callbacks, history):
    callbacks.on_train_end()
    model.history = history
    return history


def callback_list(model, callbacks, history, names, loggers=()):
    """The callbacks of a fit: those given, the ``loggers``, then ``history``; the loggers take the metrics as
    stateful, as tf-keras sets them."""
    made = [*(callbacks or []), *loggers, history]
    for callback in made:
        if isinstance(callback, callbacks_module.BaseLogger | callbacks_module.ProgbarLogger):
            callback.stateful_metrics = set(names[1:])
    return callbacks_module.CallbackList(made, model)


class _BatchEnd:
    """What ``fit`` does after each batch: tell the callbacks, move the progress bar."""

    def __init__(self, callbacks, progbar, names):
        self.callbacks, self.progbar, self.names, self.seen = callbacks, progbar, names, 0

    def __call__(self, index, size, outs):
        self.seen += size
        logs = {"batch": index, "size": size, **dict(zip(self.names, (float(o) for o in outs)))}
        self.callbacks.on_batch_end(index, logs)
        if self.progbar is not None:
            self.progbar.update(self.seen, [(k, logs[k]) for k in self.names], finalize=False)


def _test_loop(model, session, arrays, batch_size, shuffle=False):
    """The loss and metrics over ``arrays``; ``fit``'s validation shuffles (drawing from numpy's generator) as
    TensorFlow's does, though the order changes nothing."""
    model.reset_metrics()
    return _run_epoch(model, session, [model._compiled_graph["fetches"]], arrays, batch_size, False, shuffle)


def _scalar_or_list(results):
    results = [np.float32(r) if isinstance(r, float) else r for r in results]
    return results[0] if len(results) == 1 else list(results)


def evaluate(model, x, y, batch_size, verbose, sample_weight=None):
    """The loss and metrics over the data (``verbose`` prints nothing, as in TensorFlow's v1 loop)."""
    del verbose
    results = _test_loop(model, backend.get_session(), _data(model, x, y, sample_weight), batch_size)
    return _scalar_or_list(results)


def predict(model, x, batch_size, verbose):
    del verbose
    inputs = _inputs(model, x)
    session = backend.get_session()
    size = inputs[0].shape[0]
    parts = []
    for start, end in _batches(size, batch_size or size):
        batch = [a[start:end] for a in inputs]
        parts.append(session.run(model.outputs, feed_dict=_feed(model, (batch, [], []), False)))
    outputs = [np.concatenate([p[i] for p in parts]) for i in range(len(model.outputs))]
    return outputs[0] if len(outputs) == 1 else outputs


def on_batch(model, x, y, train, reset_metrics, sample_weight=None, class_weight=None):
    data = _data(model, x, y, sample_weight, class_weight)
    compiled = model._compiled_graph
    fetches = [compiled["fetches"], model._train_fetches()] if train else [compiled["fetches"]]
    session = backend.get_session()
    outs = session.run(fetches, feed_dict=_feed(model, data, train))[0]
    if reset_metrics:
        model.reset_metrics()
    return outs[0] if len(outs) == 1 else list(outs)


class Progbar:
    """Keras' progress bar: ``verbose=1`` a bar redrawn per batch, ``verbose=2`` one line per epoch."""

    def __init__(self, target, width=30, verbose=1, stateful_metrics=None):
        self.target, self.width, self.verbose = target, width, verbose
        self.stateful_metrics = set(stateful_metrics or ())
        self._values, self._order = {}, []
        self._seen = 0
        self._start = self._last_update = time.time()

    def add(self, n, values=None):
        """Move the bar ``n`` steps on."""
        self.update(self._seen + n, values)

    def update(self, current, values=None, finalize=None):
        """Show ``current`` of the target and the ``(name, value)`` pairs (averaged over the steps, but for the
        stateful metrics); ``finalize`` (default: once the target is reached) ends the line."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            if name not in self._order:
                self._order.append(name)
            if name in self.stateful_metrics or name.startswith("val_"):
                self._values[name] = [value, 1]
            else:
                base = max(current - self._seen, 1)
                total = self._values.setdefault(name, [0.0, 0])
                total[0] += value * base
                total[1] += base
        self._seen = current
        elapsed = time.time() - self._start
        digits = int(np.log10(self.target)) + 1
        count = f"{current:{digits}d}/{self.target}"
        metrics = "".join(f" - {name}: {self._format(name)}" for name in self._order)
        if self.verbose == 2:
            if finalize:
                print(f"{count} - {elapsed:.0f}s{metrics} -{_format_time(elapsed, 'epoch')} -"
                      f"{_format_time(elapsed / self.target, 'sample')}")
            return
        now = time.time()
        if now - self._last_update < 0.05 and not finalize:
            return  # redrawn at most every 50 ms, as Keras' bar is
        self._last_update = now
        done = int(self.width * current / self.target)
        bar = "=" * max(done - 1, 0) + (">" if current < self.target else "=") * (done > 0)
        if finalize:
            timing = f" - {elapsed:.0f}s{_format_time(elapsed / self.target, 'sample')}"
        else:
            timing = f" - ETA: {elapsed / current * (self.target - current):.0f}s"
        sys.stdout.write(f"\r{count} [{bar}{'.' * (self.width - done)}]{timing}{metrics}" + ("\n" if finalize else ""))
        sys.stdout.flush()

    def _format(self, name):
        total, count = self._values[name]
        average = total / max(1, count)
        return f"{average:.4f}" if average > 1e-3 else f"{average:.4e}"


def _format_time(seconds, unit):
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f" {seconds * 1000.0:.0f}ms/{unit}"
    return f" {seconds * 1000000.0:.0f}us/{unit}"
