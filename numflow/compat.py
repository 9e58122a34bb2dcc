"""``tf.compat``: text and bytes conversions as TensorFlow has them, and ``v1``, the ``tf.compat.v1`` API,
which is numflow's own top level."""

import codecs as _codecs
import contextlib as _contextlib
import datetime as _datetime
import numbers as _numbers
import os as _os

import numpy as _np

from numflow.framework.shapes import dimension_at_index, dimension_value

integral_types = (_numbers.Integral, _np.integer)
real_types = (_numbers.Real, _np.integer, _np.floating)
complex_types = (_numbers.Complex, _np.number)
bytes_or_text_types = (bytes, str)


def as_bytes(bytes_or_text, encoding="utf-8"):
    """``bytes_or_text`` as bytes (a str encoded in ``encoding``); TypeError for anything else."""
    encoding = _codecs.lookup(encoding).name
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8"):
    """``bytes_or_text`` as str (bytes decoded from ``encoding``); TypeError for anything else."""
    encoding = _codecs.lookup(encoding).name
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding="utf-8"):
    """``value`` as str: bytes decoded, anything else through ``str()``."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path):
    """A path-like object (``pathlib.Path``...) as str; anything else unchanged."""
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path


# TensorFlow 2.21's forward-compatibility horizon, moved by TF_FORWARD_COMPATIBILITY_DELTA_DAYS days.
_HORIZON = _datetime.date(2026, 1, 16)
_compatibility_date = [_HORIZON]


def _horizon_from_environment():
    days = _os.environ.get("TF_FORWARD_COMPATIBILITY_DELTA_DAYS")
    return _HORIZON + _datetime.timedelta(days=int(days)) if days else _HORIZON


def _date_number(date):
    return date.year << 9 | date.month << 5 | date.day


def forward_compatible(year, month, day):
    """Whether graphs made now may use what TensorFlow added on ``year-month-day``: True once the
    forward-compatibility horizon (TensorFlow 2.21's date, see ``forward_compatibility_horizon``) is
    past that day."""
    return _date_number(_compatibility_date[0]) > _date_number(_datetime.date(year, month, day))


@_contextlib.contextmanager
def forward_compatibility_horizon(year, month, day):
    """Within the block, ``forward_compatible`` compares with ``year-month-day`` (a date before
    TensorFlow 2.21's horizon is ignored, with a warning, as TensorFlow does)."""
    date = _datetime.date(year, month, day)
    try:
        if date < _HORIZON:
            import logging

            logging.getLogger("tensorflow").warning(
                "Trying to set the forward compatibility date to the past date %s. This will be ignored by "
                "TensorFlow.", date)
        else:
            _compatibility_date[0] = date
        yield
    finally:
        _compatibility_date[0] = _horizon_from_environment()


_compatibility_date[0] = _horizon_from_environment()


def __getattr__(name):
    if name == "v1":
        import numflow

        return numflow
    raise AttributeError(f"module 'numflow.compat' has no attribute {name!r}")


__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types", "complex_types", "dimension_at_index",
           "dimension_value", "forward_compatibility_horizon", "forward_compatible", "integral_types", "path_to_str",
           "real_types"]
