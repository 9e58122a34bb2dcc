"""``tf.flags`` and ``tf.app.flags``: absl's flags, as TensorFlow 1 exposes them.

Everything of ``absl.flags`` is here (``DEFINE_string``, ``DEFINE_integer``, ``FLAGS``...), with
TensorFlow's two differences: the ``DEFINE_*`` functions also take the old argument names
(``flag_name``, ``default_value``, ``docstring``), and reading a flag from ``FLAGS`` before the command
line was parsed parses ``sys.argv`` first instead of raising.
"""

import functools as _functools
import logging as _logging
import sys as _sys

from absl.flags import *  # noqa: F403 - TensorFlow's tf.flags is absl.flags
from absl.flags import FLAGS as _ABSL_FLAGS
from absl.flags import DEFINE_boolean as _DEFINE_boolean
from absl.flags import DEFINE_float as _DEFINE_float
from absl.flags import DEFINE_integer as _DEFINE_integer
from absl.flags import DEFINE_string as _DEFINE_string
from absl.flags import disclaim_key_flags as _disclaim_key_flags

# This module wraps absl's DEFINE functions: the flags they define belong to the caller's module.
_disclaim_key_flags()

_RENAMED_ARGUMENTS = {"flag_name": "name", "default_value": "default", "docstring": "help"}


def _accept_old_names(define):
    @_functools.wraps(define)
    def wrapper(*args, **kwargs):
        old = [name for name in _RENAMED_ARGUMENTS if name in kwargs]
        for name in old:
            kwargs[_RENAMED_ARGUMENTS[name]] = kwargs.pop(name)
        if old:
            _logging.warning("Use of the keyword argument names (flag_name, default_value, docstring) is deprecated, "
                             "please use (name, default, help) instead.")
        return define(*args, **kwargs)

    return wrapper


DEFINE_string = _accept_old_names(_DEFINE_string)
DEFINE_boolean = _accept_old_names(_DEFINE_boolean)
DEFINE_bool = DEFINE_boolean
DEFINE_float = _accept_old_names(_DEFINE_float)
DEFINE_integer = _accept_old_names(_DEFINE_integer)


class _FlagValuesWrapper:
    """absl's ``FLAGS``, parsing ``sys.argv`` when a flag is read before the command line was parsed."""

    def __init__(self, flags_object):
        self.__dict__["__wrapped"] = flags_object

    def __getattribute__(self, name):
        if name == "__dict__":
            return super().__getattribute__(name)
        return self.__dict__["__wrapped"].__getattribute__(name)

    def __getattr__(self, name):
        wrapped = self.__dict__["__wrapped"]
        if not wrapped.is_parsed():
            wrapped(_sys.argv)
        return wrapped.__getattr__(name)

    def __setattr__(self, name, value):
        return self.__dict__["__wrapped"].__setattr__(name, value)

    def __delattr__(self, name):
        return self.__dict__["__wrapped"].__delattr__(name)

    def __dir__(self):
        return self.__dict__["__wrapped"].__dir__()

    def __getitem__(self, name):
        return self.__dict__["__wrapped"].__getitem__(name)

    def __setitem__(self, name, flag):
        return self.__dict__["__wrapped"].__setitem__(name, flag)

    def __len__(self):
        return self.__dict__["__wrapped"].__len__()

    def __iter__(self):
        return self.__dict__["__wrapped"].__iter__()

    def __str__(self):
        return self.__dict__["__wrapped"].__str__()

    def __call__(self, *args, **kwargs):
        return self.__dict__["__wrapped"].__call__(*args, **kwargs)


FLAGS = _FlagValuesWrapper(_ABSL_FLAGS)
