"""``tf.train.Coordinator``: one stop flag shared by a training loop and its threads.

Any thread may ``request_stop()``, passing the exception that made it stop; the others poll
``should_stop()``, and ``join()`` waits for the registered threads and re-raises that exception.

>>> import numflow as tf
>>> coord = tf.train.Coordinator()
>>> with coord.stop_on_exception():
...     raise ValueError("input exhausted")
>>> coord.should_stop()
True
>>> coord.join()
Traceback (most recent call last):
    ...
ValueError: input exhausted
"""

import contextlib
import logging
import sys
import threading
import time

from numflow.framework import errors

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines


class Coordinator:
    """A stop request and the first exception reported with one.

    Parameters
    ----------
    clean_stop_exception_types : tuple of exception classes
        Exceptions that stop cleanly: reported, they set the flag but are not re-raised
        (default: ``OutOfRangeError``, the end of the input).
    """

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def request_stop(self, ex=None):
        """Set the stop flag; ``ex`` (an exception or ``sys.exc_info()`` tuple) is re-raised by ``join``.

        Only the first exception is kept. After ``join``, a request with an exception raises it.
        """
        with self._lock:
            exc = ex[1] if isinstance(ex, tuple) else ex
            if isinstance(exc, self._clean_stop_exception_types):
                exc = None
            if self._joined and exc is not None:
                raise exc
            if not self._stop_event.is_set():
                if exc is not None and self._exc_info_to_raise is None:
                    _log.info("Error reported to Coordinator: %s, %s", type(exc), exc)
                    self._exc_info_to_raise = exc
                self._stop_event.set()

    def clear_stop(self):
        """Clear the flag and the exception, so that the coordinator can be used again."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """A context in which any exception requests a stop (and is reported) instead of propagating."""
        try:
            yield
        except BaseException:  # noqa: BLE001 - as TF: every exception, reported to join()
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Block until a stop is requested (or ``timeout`` seconds pass); True when it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        """Have ``join()`` wait for ``thread``."""
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for the registered threads (and ``threads``) to end, once a stop is requested.

        Raises
        ------
        Exception
            The exception reported with the stop request, if any.
        RuntimeError
            Threads still run ``stop_grace_period_secs`` after the stop (unless ``ignore_live_threads``).
        """
        with self._lock:
            threads = list(self._registered_threads.union(threads or ()))
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.monotonic() + stop_grace_period_secs
        for t in threads:
            t.join(max(0.0, deadline - time.monotonic()))
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise is not None:
                raise self._exc_info_to_raise
            if stragglers:
                if not ignore_live_threads:
                    raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(stragglers)}")
                _log.info("Coordinator stopped with threads still running: %s", " ".join(stragglers))

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Raise the exception reported with the stop request, if any."""
        with self._lock:
            if self._exc_info_to_raise is not None:
                raise self._exc_info_to_raise


class LooperThread(threading.Thread):
    """A daemon thread, registered with ``coord``, that calls ``run_loop()`` (``target`` by default) every
    ``timer_interval_secs`` seconds, the first time at once, or back to back when it is None, until a
    stop is requested; an exception it raises is reported to ``coord``."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        if target:
            self._args, self._kwargs = args or (), kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
        self._coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread calling ``target(*args, **kwargs)``; returns it."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(next_time - time.time()):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        """Called once before the first ``run_loop``."""

    def stop_loop(self):
        """Called once after the last ``run_loop``."""

    def run_loop(self):
        if self._target:
            self._target(*self._args, **self._kwargs)
