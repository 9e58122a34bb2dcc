"""``tf.logging``: TensorFlow 1's logging on Python's ``logging``, through the logger named ``tensorflow``.

As in TensorFlow, the logger gets a handler writing ``LEVEL:tensorflow:message`` lines to standard
error (standard output in an interactive session) when numflow is imported, unless the root logger has
handlers already, and its level is left unset, so only warnings and worse show until
``set_verbosity(tf.logging.INFO)``. ``log_every_n`` and ``log_first_n`` count per call site (TensorFlow
2.21 counts per caller of the function that calls them, so that two such calls in one function share
one count).

>>> import numflow as tf
>>> tf.logging.get_verbosity() == tf.logging.WARN
True
"""

import logging as _logging
import os as _os
import sys as _sys
import threading as _threading

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_logger = None
_logger_lock = _threading.Lock()
_counts = {}
_counts_lock = _threading.Lock()
_HERE = _os.path.normcase(__file__)


def _find_caller(stack_info=False, stacklevel=1):
    """The first frame outside this module and Python's logging: where the user called ``tf.logging``."""
    frame = _sys._getframe(1)
    while frame is not None:
        path = _os.path.normcase(frame.f_code.co_filename)
        if path != _HERE and path != _os.path.normcase(_logging.__file__):
            return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name, None
        frame = frame.f_back
    return "(unknown file)", 0, "(unknown function)", None


def get_logger():
    """The ``tensorflow`` logger, given TensorFlow's handler the first time (see the module docstring)."""
    global _logger
    if _logger is not None:
        return _logger
    with _logger_lock:
        if _logger is None:
            logger = _logging.getLogger("tensorflow")
            logger.findCaller = _find_caller
            if not _logging.getLogger().handlers:
                interactive = bool(getattr(_sys, "ps1", None)) or bool(_sys.flags.interactive)
                if interactive:
                    logger.setLevel(INFO)
                handler = _logging.StreamHandler(_sys.stdout if interactive else _sys.stderr)
                handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
                logger.addHandler(handler)
            _logger = logger
    return _logger


def log(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    """Log ``msg`` at FATAL (CRITICAL); as in TensorFlow's Python logging, the program goes on."""
    get_logger().critical(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args):
    if condition:
        vlog(level, msg, *args)


def _count_at_caller():
    """How many times the ``log_every_n``/``log_first_n`` call at the caller's file and line ran before."""
    frame = _sys._getframe(2)
    token = (frame.f_code.co_filename, frame.f_lineno)
    with _counts_lock:
        _counts[token] = _counts.get(token, -1) + 1
        return _counts[token]


def log_every_n(level, msg, n, *args):
    """Log ``msg`` the first time this line runs and every ``n``-th time after."""
    log_if(level, msg, not _count_at_caller() % n, *args)


def log_first_n(level, msg, n, *args):
    """Log ``msg`` the first ``n`` times this line runs."""
    log_if(level, msg, _count_at_caller() < n, *args)


def TaskLevelStatusMessage(msg):  # noqa: N802 - TensorFlow's name
    error(msg)


def flush():
    raise NotImplementedError()


def get_verbosity():
    """The effective level of the ``tensorflow`` logger (WARN unless set)."""
    return get_logger().getEffectiveLevel()


def set_verbosity(v):
    """Log messages of level ``v`` (``tf.logging.INFO``...) and above."""
    get_logger().setLevel(v)


__all__ = ["DEBUG", "ERROR", "FATAL", "INFO", "TaskLevelStatusMessage", "WARN", "debug", "error", "fatal", "flush",
           "get_logger", "get_verbosity", "info", "log", "log_every_n", "log_first_n", "log_if", "set_verbosity",
           "vlog", "warn", "warning"]

# As TensorFlow does on import: set the handler up before a program (or absl.app.run) configures logging.
get_logger()
