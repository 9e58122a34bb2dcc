"""Sessions: run fetches of a graph with feeds, on the session's devices and variable values."""

import collections
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from numflow.framework import errors, nest
from numflow.framework.dtypes import string
from numflow.framework.graph import Operation, Tensor, get_default_graph, on_reset_default_graph
from numflow.framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue
from numflow.ops.constant_op import to_numpy
from numflow.runtime import executor
from numflow.runtime import partition as _partition
from numflow.runtime import plan as _plan
from numflow.runtime.config import ConfigProto, RunOptions
from numflow.runtime.growth import GrowthWatch
from numflow.runtime.hooks import PlacementLog, TraceHook
from numflow_kernels import heap
from numflow_kernels.errors import FailedPrecondition
from numflow_kernels.handle import VariableHandle


class _DefaultSessionStack(threading.local):
    def __init__(self):
        self.stack = []


_default_sessions = _DefaultSessionStack()


def get_default_session():
    """The innermost session entered with ``with sess:`` or ``sess.as_default()`` in this thread."""
    return _default_sessions.stack[-1] if _default_sessions.stack else None


def _clear_default_sessions():
    _default_sessions.stack.clear()


on_reset_default_graph(_clear_default_sessions)


def _session_for(graph, session, operation=False):
    """``session``, or the default session, checked to run ``graph``.

    For ``Tensor.eval`` (``operation=False``) and ``Operation.run`` (True), with TF's messages.
    """
    if operation:
        verb, what, whose, call = "execute", "operation", "operation's", "run"
    else:
        verb, what, whose, call = "evaluate", "tensor", "tensor's", "eval"
    if session is None:
        session = get_default_session()
        if session is None:
            use = "`with sess.as_default():`" if operation else "`with sess.as_default()`"
            raise ValueError(
                f"Cannot {verb} {what} using `{call}()`: No default session is registered. Use {use} or "
                f"pass an explicit session to `{call}(session=sess)`"
            )
        if session.graph is not graph:
            explicit = "run(session=sess)" if operation else "`eval(session=sess)`"
            raise ValueError(
                f"Cannot use the default session to {verb} {what}: the {whose} graph is different from the "
                f"session's graph. Pass an explicit session to {explicit}."
            )
    elif session.graph is not graph:
        raise ValueError(
            f"Cannot use the given session to {verb} {what}: the {whose} graph is different from the "
            "session's graph."
        )
    return session


class _DeviceAttributes:
    __slots__ = ("name", "device_type", "memory_limit_bytes", "incarnation")

    def __init__(self, device):
        self.name = device.name
        self.device_type = device.device_type
        self.memory_limit_bytes = getattr(device, "memory_limit_bytes", 0)
        self.incarnation = id(device)

    def __repr__(self):
        return f"_DeviceAttributes({self.name}, {self.device_type}, {self.memory_limit_bytes})"


class BaseSession:
    """Runs parts of a graph: ``run(fetches, feed_dict)``; see :class:`Session`.

    Parameters
    ----------
    target : str
        ``''`` runs in this process; a server's ``target`` shares that server's variables.
    graph : Graph, optional
        The graph to run (default: the default graph).
    config : ConfigProto, optional
        ``inter_op_parallelism_threads`` sizes the pool the session makes for independent ops
        (0: one thread per core; 1: every op on the calling thread).
    pool : concurrent.futures.Executor, optional
        numflow's addition: the executor that runs independent ops, used instead of a pool of the
        session's own. ``numflow.runtime.executor.SyncExecutor()`` runs everything on the calling
        thread through the same scheduler (the serial debug mode); a ``ThreadPoolExecutor`` may be
        shared by several sessions. The session never shuts down a pool it was given.
    """

    def __init__(self, target="", graph=None, config=None, *, pool=None):
        from numflow.runtime import targets

        heap.keep_freed_memory()
        if graph is None:
            graph = get_default_graph()
        self._graph = graph
        self._config = config or ConfigProto()
        self._target = target if isinstance(target, str) else target.decode()
        self._devices, self._containers = targets.resolve(self._target, self._config)
        self._plans = {}
        self._plan_lock = threading.Lock()
        self._pool = pool
        self._owns_pool = pool is None
        self._closed = False
        self._default_stack = []
        self._growth = GrowthWatch()
        self._waits_before_close = {}
        self._hooks = (PlacementLog(),) if self._config.log_device_placement else ()

    graph = property(lambda self: self._graph)
    sess_str = property(lambda self: self._target.encode(), doc="The target, as bytes (as TF gives it).")

    @property
    def graph_def(self):
        """The session's graph as a GraphDef, as TensorFlow gives it (``sess.graph_def``)."""
        return self._graph.as_graph_def()

    def _resources_for(self, device):
        return self._containers[(device.job, device.task)]

    def list_devices(self):
        """The devices this session can place ops on."""
        return [_DeviceAttributes(d) for d in self._devices]

    # -- running ----------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Compute ``fetches`` (a tensor, op, name, or nested list/tuple/dict/namedtuple of them).

        Returns the same structure with numpy values in place of tensors and None for operations.

        Raises
        ------
        RuntimeError
            When the session is closed.
        TypeError, ValueError
            When a fetch or feed is not an element of this session's graph, or a fed value does
            not fit its tensor's dtype or shape.
        OpError
            When an op fails; the error names it.
        """
        return self._run(fetches, feed_dict, options, run_metadata, _to_host)

    def _fetch_snapshots(self, tensors):
        """The values of ``tensors`` in one run, as read-only host arrays that a variable's value may share.

        A variable's update copies its buffer while such a snapshot lives (copy on write), so the
        arrays keep the values of this run, with no copy made here: what a save writes, in the
        background or not.
        """
        return self._run(list(tensors), None, None, None, _snapshot_to_host)

    def _run(self, fetches, feed_dict, options, run_metadata, to_host):
        """``run`` with ``to_host`` turning each fetched value into what the caller gets."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if self._graph.version == 0:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
        if isinstance(fetches, Tensor | Operation) and fetches.graph is self._graph:
            elements, rebuild = (fetches,), None
        else:
            elements, rebuild = _flatten_fetches(fetches, self._graph)
        feed_tensors, feed_values, as_given = self._feeds(feed_dict) if feed_dict else ((), (), None)
        key = (elements, feed_tensors)
        plan = self._plans.get(key)
        if plan is None or plan.graph_version != self._graph.version:
            plan = self._build_plan(key, elements, feed_tensors)
        values = plan.slots.copy()
        for slot, value in zip(plan.feed_slots, feed_values):
            values[slot] = value
        hooks = self._hooks
        if options is not None and run_metadata is not None and options.trace_level >= RunOptions.FULL_TRACE:
            hooks = (*hooks, TraceHook(run_metadata))
        if isinstance(plan, _partition.PartitionedPlan):
            plan.run(self, values, hooks)
        else:
            executor.run(plan, values, self._pool_for(plan), hooks)
        if feed_values:
            results = _results_with_feeds(plan, values, feed_values, to_host, as_given)
        else:
            results = [None if slot is None else to_host(values[slot]) for slot in plan.fetch_slots]
        return results[0] if rebuild is None else rebuild(results)

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function that runs ``fetches`` with its positional arguments fed to ``feed_list``'s
        tensors (names or tensors), in order: ``run`` without building a feed dict each step.

        As TensorFlow's, it takes ``options`` and ``run_metadata`` keywords (``accept_options``
        is accepted for compatibility), and a missing argument leaves its placeholder unfed.
        """
        del accept_options
        feeds = [self._graph.as_graph_element(f, allow_operation=False) for f in feed_list or ()]

        def call(*args, options=None, run_metadata=None):
            return self.run(fetches, dict(zip(feeds, args)), options, run_metadata)

        return call

    def partial_run_setup(self, fetches, feeds=None):
        raise errors.UnimplementedError(None, None, "partial_run is not supported by numflow.")

    def _build_plan(self, key, elements, feed_tensors):
        elements = _reachable(elements, feed_tensors)
        with self._plan_lock:
            fetch_tensors = [e for e in elements if isinstance(e, Tensor)]
            targets = [e for e in elements if isinstance(e, Operation)]
            build = _partition.build if _partition.remote_tasks(self) else _plan.build
            plan = build(self._graph, fetch_tensors, targets, feed_tensors, self)
            if self._config.intra_op_parallelism_threads == 1:
                plan.ways = executor.Ways(only=executor.ONE_CORE_EACH)
            by_tensor = dict(zip(fetch_tensors, plan.fetch_slots))
            plan.fetch_slots = [by_tensor[e] if isinstance(e, Tensor) else None for e in elements]
            fed_slots = set(plan.feed_slots)
            plan.fetch_fed = [slot in fed_slots for slot in plan.fetch_slots]
            self._plans[key] = plan
            self._growth.plan_built(self._graph, plan)
            return plan

    def _pool_for(self, plan):
        if plan.serial:
            return None
        if self._pool is None:
            # Made on first need, so that sessions running only serial plans start no threads.
            threads = self._config.inter_op_parallelism_threads or os.cpu_count() or 1
            if threads <= 1:
                return None
            with self._plan_lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(threads, thread_name_prefix="numflow-op")
        return self._pool

    def _feeds(self, feed_dict):
        """The fed tensors, their values as kernels take them, and (None unless a string was fed) the
        values as given: ops see strings as UTF-8 bytes, as TensorFlow's do, while a fed tensor
        fetched gives back what was fed."""
        tensors, values, as_given = [], [], None
        for key, value in _expand_sparse_feeds(feed_dict):
            try:
                tensor = self._graph.as_graph_element(key, allow_operation=False)
            except (TypeError, ValueError, KeyError) as e:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e.args[0]}") from None
            tensors.append(tensor)
            value = _feed_value(tensor, value, key)
            if tensor.dtype.base_dtype is string:
                as_given = as_given or list(values)
                as_given.append(value)
                value = to_numpy(value, string)
            elif as_given is not None:
                as_given.append(value)
            values.append(value)
        return tuple(tensors), values, as_given

    # -- lifetime and defaults -----------------------------------------------------------------
    def close(self):
        """Release the session's threads and (for a local session) its variable values.

        First waits for the work still going on in the background with this session's values (an
        asynchronous save), and raises its failure once the session is closed.
        """
        if self._closed:
            return
        self._closed = True
        if not self._target:  # a local session's queues are its own: no run may stay waiting on one
            for container in self._containers.values():
                container.cancel()
        failure = None
        for wait in self._waits_before_close.values():
            try:
                wait()
            except Exception as exc:  # noqa: BLE001 - raised below, after the session is closed
                failure = failure or exc
        self._waits_before_close.clear()
        if self._pool is not None and self._owns_pool:
            self._pool.shutdown(wait=True)
        self._pool = None
        self._plans.clear()
        if failure is not None:
            raise failure

    def _wait_before_close(self, owner, wait):
        """Have :meth:`close` call ``wait()`` first, once per ``owner``: work in the background on this session."""
        self._waits_before_close[owner] = wait

    def as_default(self):
        """Context manager making this the default session for ``eval()`` and ``run()`` in this thread."""
        return _DefaultSessionContext(self)

    def __enter__(self):
        graph_ctx = self._graph.as_default()
        graph_ctx.__enter__()
        session_ctx = self.as_default()
        session_ctx.__enter__()
        self._default_stack.append((graph_ctx, session_ctx))
        return self

    def __exit__(self, exc_type, exc, tb):
        graph_ctx, session_ctx = self._default_stack.pop()
        session_ctx.__exit__(exc_type, exc, tb)
        graph_ctx.__exit__(exc_type, exc, tb)
        self.close()

    def __del__(self):
        pool = getattr(self, "_pool", None)
        if pool is not None and self._owns_pool:
            pool.shutdown(wait=False)


class Session(BaseSession):
    """A session of ``graph`` (default: the default graph) on ``target`` ('' runs in this process).

    >>> import numflow as tf
    >>> g = tf.Graph()
    >>> with g.as_default():
    ...     c = tf.constant(2.0) * 3.0
    >>> with tf.Session(graph=g) as sess:
    ...     float(sess.run(c))
    6.0

    The same run in serial debug mode, every op on the calling thread (see :class:`BaseSession`):

    >>> from numflow.runtime.executor import SyncExecutor
    >>> with tf.Session(graph=g, pool=SyncExecutor()) as sess:
    ...     float(sess.run(c))
    6.0
    """


class InteractiveSession(BaseSession):
    """A session that makes itself (and its graph) the default as soon as it is created."""

    def __init__(self, target="", graph=None, config=None, *, pool=None):
        super().__init__(target, graph, config, pool=pool)
        self._graph_ctx = self._graph.as_default()
        self._graph_ctx.__enter__()
        _default_sessions.stack.append(self)

    def close(self):
        if not self._closed:
            if self in _default_sessions.stack:
                _default_sessions.stack.remove(self)
            self._graph_ctx.__exit__(None, None, None)
        super().close()


class _DefaultSessionContext:
    def __init__(self, session):
        self._session = session

    def __enter__(self):
        _default_sessions.stack.append(self._session)
        return self._session

    def __exit__(self, exc_type, exc, tb):
        stack = _default_sessions.stack
        if stack and stack[-1] is self._session:
            stack.pop()


def _reachable(elements, feed_tensors):
    """``elements`` as the run fetches them, with TensorFlow's errors for fetching or feeding what is built
    inside a cond branch or a loop: it has a value only inside one run of the branch or of an iteration.
    A tensor of a cond read from TensorFlow 1's frames is fetched through the cond instead, as there."""
    from numflow.ops.control_flow_util import fetchable_value

    for t in feed_tensors:
        if t.op._control_flow_context is not None:
            raise ValueError(f"Tensor {t.name} may not be fed.")
    reachable = []
    for element in elements:
        op = element if isinstance(element, Operation) else element.op
        if op._control_flow_context is not None:
            value = fetchable_value(element) if isinstance(element, Tensor) else None
            if value is not None:
                reachable.append(value)
                continue
            raise errors.InaccessibleTensorError(
                f"Operation {op.name} has been marked as not fetchable. Typically this happens when it is defined "
                "in another function or code block. Use return values, explicit Python locals or TensorFlow "
                "collections to access it.")
        reachable.append(element)
    return tuple(reachable)


def _to_host(value):
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return value[()]
        if not value.flags.writeable:
            return value.copy()
        return value
    if isinstance(value, VariableHandle):
        return _to_host(_read(value, copy=True))
    if hasattr(value, "copy_to_host"):
        return _to_host(value.copy_to_host())
    return value


def _read(handle, copy=False):
    """A fetched variable's value (``handle.read``); TensorFlow's error when it is uninitialized (no op
    reported it: the variable's own tensor was fetched)."""
    try:
        return handle.read(copy)
    except FailedPrecondition as e:
        raise errors.FailedPreconditionError(None, None, str(e)) from None


def _snapshot_to_host(value):
    """A fetched value as a host array, a variable's read-only snapshot left uncopied."""
    if isinstance(value, VariableHandle):
        value = _read(value)
    if isinstance(value, np.ndarray) and not value.flags.writeable:
        return value
    return _to_host(value)


def _results_with_feeds(plan, values, feed_values, to_host=_to_host, as_given=None):
    """The fetched values of a run with feeds, never aliasing the caller's fed arrays.

    As in TensorFlow, fetching a fed tensor gives back the fed value itself (``as_given``, where the
    kernels were fed another form of it); any other result that shares memory with a fed array (an
    identity or a reshape of it) is copied, so that changing a result in place cannot change the
    caller's input, nor the input change the result.
    """
    fed = [v for v in feed_values if isinstance(v, np.ndarray) and v.size]
    given = {} if as_given is None else dict(zip(plan.feed_slots, as_given))
    done = {None: None}
    for slot, is_fed in zip(plan.fetch_slots, plan.fetch_fed):
        if slot in done:
            continue
        value = given.get(slot, values[slot])
        if not is_fed:
            value = to_host(value)
            if isinstance(value, np.ndarray) and any(np.may_share_memory(value, f) for f in fed):
                value = value.copy()
        done[slot] = value
    return [done[slot] for slot in plan.fetch_slots]


def _flat_feeds(feed_dict):
    """The ``(key, value)`` pairs of ``feed_dict`` with each nested key (a tuple of tensors, an LSTM's
    state) paired with the leaves of its value, as TensorFlow's ``nest.flatten_dict_items``."""
    seen = set()
    for key, value in feed_dict.items():
        if nest.is_nested(key):
            keys, values = nest.flatten(key), nest.flatten(value)
            if len(keys) != len(values):
                raise ValueError(f"Could not flatten dictionary. Key had {len(keys)} elements, but value had "
                                 f"{len(values)} elements. Key: {keys}, value: {values}.")
        else:
            keys, values = [key], [value]
        for k, v in zip(keys, values):
            if k in seen:
                raise ValueError(f"Could not flatten dictionary: key {k} is not unique.")
            seen.add(k)
            yield k, v


def _expand_sparse_feeds(feed_dict):
    """The ``(key, value)`` pairs of ``feed_dict`` (nested keys flattened) with each SparseTensor key fed
    as its three tensors."""
    for key, value in _flat_feeds(feed_dict):
        if not isinstance(key, SparseTensor):
            yield key, value
            continue
        if isinstance(value, SparseTensor):
            raise TypeError(f"The value of a feed cannot be a SparseTensor object: {value!r}")
        if not isinstance(value, tuple) or len(value) != 3:
            raise TypeError("A SparseTensor is fed a SparseTensorValue or an (indices, values, dense_shape) tuple, "
                            f"got {type(value).__name__} for {key!r}")
        yield from zip((key.indices, key.values, key.dense_shape), value)


def _feed_value(tensor, value, key):
    """``value`` as an array of ``tensor``'s dtype and a compatible shape; TF's errors otherwise."""
    if isinstance(value, Tensor):
        raise TypeError(
            "The value of a feed cannot be a tf.Tensor object. Acceptable feed values include Python scalars, "
            "strings, lists, numpy ndarrays, or TensorHandles. For reference, the tensor object was "
            f"{value} which was passed to the argument `feed_dict` with key {key}."
        )
    np_dtype = tensor.dtype.as_numpy_dtype
    if isinstance(value, int) and not isinstance(value, bool) and np_dtype is not np.object_:
        if tensor.dtype.is_integer and not (tensor.dtype.min <= value <= tensor.dtype.max):
            raise TypeError(
                f"Type of feed value {value} with type {type(value)} is not compatible with Tensor type "
                f"{tensor.dtype.as_numpy_dtype}. Try explicitly setting the type of the feed tensor to a larger type "
                "(e.g. int64)."
            )
    try:
        array = np.asarray(value, dtype=np_dtype)
    except (TypeError, ValueError) as e:
        raise ValueError(
            f"Cannot feed value {value!r} for Tensor {tensor.name} of dtype {tensor.dtype.name}: {e}"
        ) from None
    if not tensor.shape.is_compatible_with(array.shape):
        raise ValueError(
            f"Cannot feed value of shape {array.shape!r} for Tensor {tensor.name}, which has shape {tensor.shape}"
        )
    return array


def _flatten_fetches(fetches, graph):
    """The graph elements of a fetch structure, and a function rebuilding the structure from values."""
    elements = []

    def walk(f):
        if f is None:
            raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
        if isinstance(f, IndexedSlices):
            parts = [walk(x) for x in (f.values, f.indices)]
            parts.append(walk(f.dense_shape) if f.dense_shape is not None else lambda vals: None)
            return lambda vals: IndexedSlicesValue(*[b(vals) for b in parts])
        if isinstance(f, SparseTensor):
            parts = [walk(x) for x in (f.indices, f.values, f.dense_shape)]
            return lambda vals: SparseTensorValue(*[b(vals) for b in parts])
        if isinstance(f, list | tuple):
            builders = [walk(x) for x in f]
            if isinstance(f, tuple) and hasattr(f, "_fields"):
                return lambda vals: type(f)(*[b(vals) for b in builders])
            kind = type(f)
            return lambda vals: kind(b(vals) for b in builders)
        if isinstance(f, dict):
            keys = list(f)
            builders = [walk(f[k]) for k in keys]
            kind = type(f)

            def rebuild(vals):
                pairs = [(k, b(vals)) for k, b in zip(keys, builders)]
                if kind is collections.defaultdict:
                    out = collections.defaultdict(f.default_factory)
                    out.update(pairs)
                    return out
                return kind(pairs)

            return rebuild
        try:
            element = graph.as_graph_element(f)
        except TypeError as e:
            raise TypeError(
                f'Argument `fetch` = {f} has invalid type "{type(f).__name__}" must be a string or Tensor. ({e})'
            ) from None
        except (ValueError, KeyError) as e:
            raise ValueError(f"Argument `fetch` = {f} cannot be interpreted as a Tensor. ({e})") from None
        i = len(elements)
        elements.append(element)
        return lambda vals: vals[i]

    build = walk(fetches)
    return tuple(elements), build
