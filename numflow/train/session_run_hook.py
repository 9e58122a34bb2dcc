"""``tf.train.SessionRunHook``: code a ``MonitoredSession`` calls around its life and each of its runs.

The calls, in order::

    begin()                              the graph can still change: create the ops the hook needs
    after_create_session(session, coord) the session exists and is initialized or restored
    before_run(run_context)              before each run; may return SessionRunArgs to add fetches,
                                         feeds and options to it
    after_run(run_context, run_values)   after each run, with the added fetches' values
    end(session)                         once, when the session closes without an exception

``run_context.request_stop()`` makes the monitored session's ``should_stop()`` true after the run.
"""

import collections


class SessionRunHook:
    """Override the methods the hook needs; the others do nothing."""

    def begin(self):
        """Called once before the session is created; the graph is not finalized yet."""

    def after_create_session(self, session, coord):
        """Called when ``session`` is ready (initialized or restored), before any run."""

    def before_run(self, run_context):
        """Return a SessionRunArgs to add to the coming run (or None)."""
        return None

    def after_run(self, run_context, run_values):
        """Called after each run; ``run_values.results`` holds what ``before_run`` asked for."""

    def end(self, session):
        """Called once at the end; not called when a run raised (other than OutOfRangeError)."""


class SessionRunArgs(collections.namedtuple("SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run: ``fetches`` (any fetch structure), ``feed_dict`` and ``RunOptions``."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run a hook is called for: the caller's ``original_args``, the raw ``session``, and a stop request."""

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self):
        """The caller's fetches and feeds, as a SessionRunArgs."""
        return self._original_args

    @property
    def session(self):
        """The session being run (not the monitored one: running it calls no hooks)."""
        return self._session

    @property
    def stop_requested(self):
        return self._stop_requested

    def request_stop(self):
        """Make the monitored session stop after this run."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues", ["results", "options", "run_metadata"])):
    """What a hook gets back: the values of its fetches, the run's options and its RunMetadata."""
