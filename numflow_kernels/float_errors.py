"""Calls with numpy's floating-point errors ignored, as TensorFlow's kernels compute inf and NaN silently.

``np.errstate`` costs about a microsecond per entry (an object, and a new error state built each
time): an LSTM's training step runs over a thousand small elementwise kernels, each entering it
once. :func:`quiet_call` sets the same state on the context variable ``np.errstate`` sets, building
it once per state it changes (numpy 2's ``_extobj_contextvar``; where numpy has none, it enters an
``np.errstate``).
"""

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _STATE
    from numpy._core.umath import _make_extobj
except ImportError:  # numpy 1
    _STATE = None

_QUIET = {"divide": "ignore", "invalid": "ignore", "over": "ignore"}
# (the error state a quiet state was built from, that quiet state): the last one built, for any thread.
_last = (None, None)


def _quiet_state(current):
    global _last
    last = _last
    if last[0] is not current:
        last = _last = (current, _make_extobj(**_QUIET))
    return last[1]


def quiet_call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` as run inside ``np.errstate(divide="ignore", invalid="ignore", over="ignore")``:
    those three ignored, numpy's other settings (underflow, the error callback) as the caller has them."""
    if _STATE is None:
        with np.errstate(**_QUIET):
            return fn(*args, **kwargs)
    token = _STATE.set(_quiet_state(_STATE.get()))
    try:
        return fn(*args, **kwargs)
    finally:
        _STATE.reset(token)
