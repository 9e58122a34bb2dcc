"""``tf.keras.callbacks``: ``Callback`` (the hooks ``fit`` calls), ``History`` (what ``fit`` returns),
``LambdaCallback``, ``EarlyStopping`` and ``ModelCheckpoint`` (of weights); the loggers, learning-rate
callbacks and ``TensorBoard`` are in ``callbacks_extra.py``.

``fit`` calls the callbacks given in order, then ``History``: what a callback adds to an epoch's logs (``lr``)
is in the history, as in tf-keras.
"""

import numpy as np


class Callback:
    """Hooks called by ``fit``: ``on_train_begin/end``, ``on_epoch_begin/end``, ``on_batch_end``."""

    def __init__(self):
        self.model, self.params = None, {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    on_train_batch_end = on_batch_end


class History(Callback):
    """The epochs run (``epoch``) and each loss and metric per epoch (``history``)."""

    def on_train_begin(self, logs=None):
        self.epoch, self.history = [], {}

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)


class LambdaCallback(Callback):
    """A callback of the functions given (``on_epoch_end=lambda epoch, logs: ...``)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_end=None, on_train_begin=None,
                 on_train_end=None, **kwargs):
        super().__init__()
        del kwargs
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_end", on_batch_end), ("on_train_begin", on_train_begin),
                         ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, name, fn)


class CallbackList:
    """The callbacks of one ``fit``, called in order."""

    def __init__(self, callbacks, model):
        self.callbacks = list(callbacks)
        for callback in self.callbacks:
            callback.set_model(model)

    def set_params(self, params):
        for callback in self.callbacks:
            callback.set_params(params)

    def _call(self, hook, *args):
        for callback in self.callbacks:
            getattr(callback, hook)(*args)

    def on_train_begin(self):
        self._call("on_train_begin", {})

    def on_train_end(self):
        self._call("on_train_end", {})

    def on_epoch_begin(self, epoch):
        self._call("on_epoch_begin", epoch, {})

    def on_epoch_end(self, epoch, logs):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_end(self, batch, logs):
        self._call("on_batch_end", batch, logs)


def _monitor_op(mode, monitor):
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"mode {mode} is unknown: expected 'auto', 'min' or 'max'.")
    if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
        return np.greater
    return np.less


class EarlyStopping(Callback):
    """Stop training once ``monitor`` (``val_loss``) has not improved by ``min_delta`` for ``patience`` epochs;
    with ``restore_best_weights``, end training (stopped or not) with the best epoch's weights, as Keras does."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights, self.start_from_epoch = baseline, restore_best_weights, \
            start_from_epoch
        self.monitor_op = _monitor_op(mode, monitor)
        self.min_delta = abs(min_delta) * (1 if self.monitor_op is np.greater else -1)

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_epoch, self.best_weights = 0, 0, 0, None
        self.best = -np.inf if self.monitor_op is np.greater else np.inf

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self.monitor_op(current - self.min_delta, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self.monitor_op(current - self.min_delta, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class ModelCheckpoint(Callback):
    """Save the model's weights after each epoch to ``filepath`` (formatted with ``epoch`` and the logs:
    ``"w-{epoch:02d}-{val_loss:.2f}"``); with ``save_best_only``, only when ``monitor`` improves."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", **kwargs):
        super().__init__()
        del kwargs
        if not save_weights_only:
            raise NotImplementedError("numflow saves weights only (TensorFlow checkpoints): pass "
                                      "save_weights_only=True.")
        if save_freq != "epoch":
            raise NotImplementedError("numflow's ModelCheckpoint saves once per epoch (save_freq='epoch').")
        self.filepath, self.monitor, self.verbose, self.save_best_only = str(filepath), monitor, verbose, \
            save_best_only
        self.monitor_op = _monitor_op(mode, monitor)
        self.best = -np.inf if self.monitor_op is np.greater else np.inf

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None or not self.monitor_op(current, self.best):
                if current is not None and self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to {current:.5f}, "
                      f"saving model to {path}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        self.model.save_weights(path)


from numflow.keras.callbacks_extra import (  # noqa: E402, F401  (tf.keras.callbacks' names)
    BaseLogger,
    CSVLogger,
    LearningRateScheduler,
    ProgbarLogger,
    ReduceLROnPlateau,
    TensorBoard,
    TerminateOnNaN,
)
