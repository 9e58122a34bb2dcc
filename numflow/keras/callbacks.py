"""``tf.keras.callbacks``: ``Callback`` (the hooks ``fit`` calls), ``History`` (what ``fit`` returns) and
``LambdaCallback``."""


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
