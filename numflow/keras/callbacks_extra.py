"""The loggers and learning-rate callbacks of ``tf.keras.callbacks`` as tf-keras' TensorFlow 1.x ones behave:
``BaseLogger``, ``ProgbarLogger``, ``CSVLogger``, ``TerminateOnNaN``, ``LearningRateScheduler``,
``ReduceLROnPlateau`` and ``TensorBoard`` (the logs' scalars, written by numflow's summary ``FileWriter``).
"""

import collections
import csv
import logging

import numpy as np

from numflow.keras import backend
from numflow.keras.callbacks import Callback


class BaseLogger(Callback):
    """Replace each epoch's logged values by their mean over the epoch's batches, weighted by the batch sizes (the
    ``stateful_metrics`` by their last values)."""

    def __init__(self, stateful_metrics=None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or [])

    def on_epoch_begin(self, epoch, logs=None):
        self.seen, self.totals = 0, {}

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        batch_size = logs.get("size", 0)
        self.seen += batch_size * logs.get("num_steps", 1)
        for key, value in logs.items():
            if key in self.stateful_metrics:
                self.totals[key] = value
            else:
                self.totals[key] = self.totals.get(key, 0) + value * batch_size

    def on_epoch_end(self, epoch, logs=None):
        if logs is None:
            return
        for key in self.params["metrics"]:
            if key in self.totals:
                logs[key] = self.totals[key] if key in self.stateful_metrics else self.totals[key] / self.seen


class ProgbarLogger(Callback):
    """Print each epoch's progress bar of ``count_mode`` (samples) and its logged values."""

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        if count_mode not in ("samples", "steps"):
            raise ValueError(f'Unknown `count_mode`: {count_mode}. Expected values are ["samples", "steps"]')
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics or ())
        self.seen, self.progbar, self.target, self.verbose, self.epochs = 0, None, None, 1, 1

    def set_params(self, params):
        super().set_params(params)
        self.verbose, self.epochs = params["verbose"], params["epochs"]
        self.target = params.get("steps" if self.use_steps else "samples")

    def on_epoch_begin(self, epoch, logs=None):
        from numflow.keras.engine.training_loops import Progbar

        self.seen = 0
        stateful = self.stateful_metrics | {m.name for m in getattr(self.model, "metrics", [])}
        self.progbar = Progbar(self.target, verbose=self.verbose, stateful_metrics=stateful)
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}")

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self.seen += 1 if self.use_steps else logs.get("size", 0)
        if self.verbose == 1:
            self.progbar.update(self.seen, self._values(logs), finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        self.progbar.update(self.seen, self._values(logs or {}), finalize=True)

    def _values(self, logs):
        return [(key, logs[key]) for key in self.params.get("metrics", []) if key in logs]


class CSVLogger(Callback):
    """Write each epoch's logs as a row of the CSV file ``filename`` (``epoch`` and the log keys sorted; the
    validation columns too, ``NA`` where missing), appended to it with ``append``."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep, self.filename, self.append = separator, str(filename), append
        self.writer, self.keys, self.append_header, self.csv_file = None, None, True, None

    def on_train_begin(self, logs=None):
        import os

        if self.append and os.path.exists(self.filename):
            with open(self.filename) as existing:
                self.append_header = not bool(len(existing.readline()))
        self.csv_file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if not any(key.startswith("val_") for key in self.keys):
                self.keys.extend(["val_" + key for key in self.keys])
        if not self.writer:
            dialect = type("CustomDialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch", *self.keys], dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, _csv_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        self.csv_file.close()
        self.writer = None


def _csv_value(value):
    if isinstance(value, str) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value
    if isinstance(value, collections.abc.Iterable):
        return f'"[{", ".join(map(str, value))}]"'
    return value


class TerminateOnNaN(Callback):
    """Stop training at a batch whose loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


def _learning_rate(model):
    optimizer = model.optimizer
    if not hasattr(optimizer, "lr"):
        raise ValueError('Optimizer must have a "lr" attribute.')
    return optimizer


class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch's start to ``schedule(epoch, lr)`` (or ``schedule(epoch)``); log it as
    ``lr``."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = _learning_rate(self.model)
        try:
            lr = self.schedule(epoch, float(backend.get_value(optimizer.lr)))
        except TypeError:  # a schedule of the epoch alone
            lr = self.schedule(epoch)
        if not isinstance(lr, float | np.float32 | np.float64) and not hasattr(lr, "op"):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        if hasattr(lr, "op") and not lr.dtype.is_floating:
            raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}")
        backend.set_value(optimizer.lr, backend.get_value(lr))
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = backend.get_value(self.model.optimizer.lr)


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` (down to ``min_lr``) once ``monitor`` has not improved by
    ``min_delta`` for ``patience`` epochs, then wait ``cooldown`` epochs; log it as ``lr``."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            logging.warning("`epsilon` argument is deprecated and will be removed, use `min_delta` instead.")
        self.monitor, self.factor, self.min_lr, self.min_delta = monitor, factor, min_lr, min_delta
        self.patience, self.verbose, self.cooldown, self.mode = patience, verbose, cooldown, mode
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            logging.warning("Learning rate reduction mode %s is unknown, fallback to auto mode.", self.mode)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op, self.best = (lambda a, b: np.less(a, b - self.min_delta)), np.inf
        else:
            self.monitor_op, self.best = (lambda a, b: np.greater(a, b + self.min_delta)), -np.inf
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        optimizer = _learning_rate(self.model)
        logs["lr"] = backend.get_value(optimizer.lr)
        current = logs.get(self.monitor)
        if current is None:
            logging.warning("Learning rate reduction is conditioned on metric `%s` which is not available. "
                            "Available metrics are: %s", self.monitor, ",".join(list(logs)))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = backend.get_value(optimizer.lr)
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    backend.set_value(optimizer.lr, new_lr)
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0

    def in_cooldown(self):
        return self.cooldown_counter > 0


class TensorBoard(Callback):
    """Write each epoch's logs as scalar summaries ``epoch_<name>`` at step ``epoch`` (with ``update_freq`` a
    number of samples or ``"batch"``, each batch's as ``batch_<name>`` too, and the epochs' at the samples seen) to
    an event file in ``log_dir``, with the graph when ``write_graph``, as tf-keras' TensorFlow 1.x callback does.
    Histograms, images, embeddings and profiling are not written: asking for them is refused."""

    def __init__(self, log_dir="./logs", histogram_freq=0, batch_size=32, write_graph=True, write_grads=False,
                 write_images=False, embeddings_freq=0, embeddings_layer_names=None, embeddings_metadata=None,
                 embeddings_data=None, update_freq="epoch", profile_batch=2):
        super().__init__()
        del batch_size, embeddings_layer_names, embeddings_metadata, embeddings_data, profile_batch
        unsupported = [name for name, value in (("histogram_freq", histogram_freq), ("write_grads", write_grads),
                                                ("write_images", write_images), ("embeddings_freq", embeddings_freq))
                       if value]
        if unsupported:
            raise NotImplementedError(f"numflow's TensorBoard callback writes the logs' scalars only: {unsupported} "
                                      "are not supported.")
        self.log_dir, self.write_graph = str(log_dir), write_graph
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.writer = None
        self._samples_seen = self._samples_seen_at_last_write = self._total_batches_seen = 0

    def set_model(self, model):
        from numflow.summary.writer import FileWriter

        super().set_model(model)
        graph = model.inputs[0].graph if self.write_graph and getattr(model, "inputs", None) else None
        self.writer = FileWriter(self.log_dir, graph)

    def _write_custom_summaries(self, step, logs):
        from numflow.protos.summary_pb2 import Summary

        for name, value in logs.items():
            self.writer.add_summary(Summary(value=[Summary.Value(tag=name, simple_value=float(value))]), step)
        self.writer.flush()

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self._samples_seen += logs.get("size", 1)
        if self.update_freq != "epoch" and self._samples_seen - self._samples_seen_at_last_write >= self.update_freq:
            self._write_custom_summaries(self._total_batches_seen, {
                "batch_" + key: value for key, value in logs.items() if key not in ("batch", "size", "num_steps")})
            self._samples_seen_at_last_write = self._samples_seen
        self._total_batches_seen += 1

    def on_epoch_end(self, epoch, logs=None):
        logs = {"epoch_" + key: value for key, value in (logs or {}).items()
                if key not in ("batch", "size", "num_steps")}
        self._write_custom_summaries(epoch if self.update_freq == "epoch" else self._samples_seen, logs)

    def on_train_end(self, logs=None):
        self.writer.close()
