"""Calls with numpy's floating-point errors ignored, as TensorFlow's kernels compute inf and NaN silently.

``np.errstate`` costs about a microsecond per entry (an object, and a new error state built each
time): an LSTM's training step runs over a thousand small elementwise kernels, each entering it
once. :func:`quiet_call` sets the same state on the context variable ``np.errstate`` sets, building
it once per state it changes (numpy 2's ``_extobj_contextvar``; where numpy has none, it enters an
``np.errstate``), and does nothing where the state is quiet already (:class:`quiet`, which a while
loop enters once for all its iterations).
"""

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _STATE
    from numpy._core.umath import _make_extobj
except ImportError:  # numpy 1
    _STATE = None

_QUIET = {"divide": "ignore", "invalid": "ignore", "over": "ignore"}
# An error state -> its quiet twin, built once (a quiet twin maps to itself): states live as long as
# the contexts that set them, so the few a program makes are kept, and forgotten past _MAX_STATES.
_quiet_of = {}
_MAX_STATES = 64


def _quiet_state(current):
    quiet = _quiet_of.get(current)
    if quiet is None:
        if len(_quiet_of) >= _MAX_STATES:
            _quiet_of.clear()
        quiet = _make_extobj(**_QUIET)  # from the state now set: ``current``
        _quiet_of[current] = _quiet_of[quiet] = quiet
    return quiet


def quiet_call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` as run inside ``np.errstate(divide="ignore", invalid="ignore", over="ignore")``:
    those three ignored, numpy's other settings (underflow, the error callback) as the caller has them.
    Inside :class:`quiet` (a loop's iterations) it costs one look-up more than the call."""
    if _STATE is None:
        with np.errstate(**_QUIET):
            return fn(*args, **kwargs)
    current = _STATE.get()
    quiet_state = _quiet_state(current)
    if quiet_state is current:
        return fn(*args, **kwargs)
    token = _STATE.set(quiet_state)
    try:
        return fn(*args, **kwargs)
    finally:
        _STATE.reset(token)


class quiet:
    """Context manager: numpy's floating-point errors quiet as in :func:`quiet_call`, on this thread, until
    it exits; the kernels calling ``quiet_call`` inside then skip setting the state each time (a while
    loop's iterations run many)."""

    __slots__ = ("_token", "_errstate")

    def __enter__(self):
        if _STATE is None:
            self._errstate = np.errstate(**_QUIET)
            self._errstate.__enter__()
        else:
            self._token = _STATE.set(_quiet_state(_STATE.get()))
        return self

    def __exit__(self, *exc):
        if _STATE is None:
            self._errstate.__exit__(*exc)
        else:
            _STATE.reset(self._token)
