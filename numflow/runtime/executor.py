"""The executor: runs a plan's steps by dependency counting, on the caller's thread or a thread pool.

State
-----
Constant, from the plan (``runtime.plan``): ``steps`` in topological order, grouped into ``units``
(chains of steps run one after another); each unit's ``successors`` and ``num_deps`` (how many units
must finish before it may start); ``roots`` (units with no dependencies); ``alone_steps`` (the steps a
run still has to run, in order: constants, variables' states and NoOps are computed once, when the
plan is built, into its ``slots``). Kept across runs: each unit's ``seconds`` (its last run time) and
the plan's ``ways`` (how fast each way of running it went lately).

Changing, local to one run: ``values`` (the run's slots: a step reads its input slots and writes its
output slots), ``pending[u]`` (dependencies of unit u not yet finished), ``ready`` (units whose
dependencies have all finished), ``running`` (units handed to the pool and not yet reported).

Lock rules
----------
Only the thread that called ``run`` changes ``pending``, ``ready`` and ``running``. Workers run one
unit's steps in order and report ``(unit, error)`` through a queue. Values need no lock: a slot is
written by exactly one step, before any step that reads it is started (the queue hand-off orders the
write before the read). A variable's state has its own lock, taken by the kernels that update it.

Two ways, one loop
------------------
Every run goes through ``_run``. A plan whose units all do trivial work runs its ``alone_steps`` in
order on the caller's thread. Any other plan runs one of two ways: ``ALL_CORES``, every step in order
on the caller's thread, each kernel free to use every core; or ``ONE_CORE_EACH``, each kernel kept to
one thread (``cpu_threads``), the plan's independent units on the pool at once when it has some
(``_count_dependencies``; in order on the caller's thread when it has none, or no pool). Ops written
in Python hold the GIL, so the pool pays only where kernels that release it (BLAS, Numba) overlap;
and a kernel's own threads pay only while the machine has idle cores. So ``Ways`` times both ways and
runs the faster (a plan holding a blocking op always runs one core each: the op may wait for another
op of the run). Timing chooses speed, never numbers: both ways give the same bits. BLAS runs on one
thread in either way (``cpu_threads.one_blas_thread``), and a kernel's own threads split its work by
blocks fixed by its shapes, so its result is the same whether it gets every core or one.

Ready policy (``ONE_CORE_EACH`` on the pool): the ready units whose last run took longer than a
hand-off costs (``tuning.INLINE_SECONDS``) go to the pool first; then the caller's thread runs the
cheap ones itself (and one expensive unit too when nothing else is ready or running). The first error
stops new submissions; the run waits for the units already running, then raises that error, so no
worker is left writing into a finished run.

Probing the slower way: each way is judged by the fastest of its last few runs (the first run each
way left out: it loads kernels). Every so often the plan runs the slower way again, in case the
inputs or the load changed; ``Ways`` spaces these probes so that they cost about ``tuning.PROBE_COST``
of the plan's run time: every ``PROBE_EVERY`` runs when the ways are close, up to
``PROBE_MAX_EVERY`` runs apart when the slower way is far slower (a probe that took 0.4-1.8 s beside
an LSTM training step of 29 ms: every 32 runs, as probes once went, they added 40-190% to a loop's time).

Worked example: ``c = a + b`` with ``a = square(x)`` and ``b = square(y)`` on large fed arrays, run
one core each. Units: U0=[a], U1=[b], U2=[c]; pending = [0, 0, 2]; ready = [U0, U1], not yet
measured, so both count as expensive. U0 goes to the pool and the caller runs U1 itself: pending[U2]
= 1. U0 reports: pending[U2] = 0, ready = [U2], and the caller runs U2. Done, with a and b at once.
Run all cores, the caller's thread runs a, b, c in order, each square free to use every core.

Hooks
-----
Tools attach to a run as hooks (as Dask's ``Callback``): objects with ``start(plan)``, called on the
caller's thread before any step; ``pre_op(step)`` and ``post_op(step)``, on the thread running the
step, around its kernel (``post_op`` also when the kernel fails); and ``finish(plan)``, on the
caller's thread once the run is over, failed or not. ``Hook`` gives do-nothing defaults. Hooks change
nothing of how the run goes: the same way, the same units on the same threads; only the function that
runs a list of steps (``run_steps``) is their twin calling ``pre_op``/``post_op`` around each step,
chosen once per run, so a run without hooks pays nothing for them. Steps of control-flow sub-plans
(the branch an If runs, each iteration of a While) are reported too: a functional op's kernel runs
its sub-plans with ``steps_runner()``, the hooked twin when the step running it was hooked. The
session's hooks are the trace of ``RunOptions(trace_level=FULL_TRACE)`` and ``log_device_placement``
(``runtime.hooks``).

Functional ops (If, Case, While) run their sub-plans inside their own step, in order on the thread
running them: never on the pool, which may be busy running the step itself.
"""

import contextlib
import errno
import math
import queue
import threading
from concurrent.futures import Executor, Future
from time import perf_counter

from numflow.framework import errors
from numflow_kernels import cpu_threads, tuning
from numflow_kernels import errors as kernel_errors

ONE_CORE_EACH, ALL_CORES = 0, 1
# The bounds of the interval between probes of the slower way (see Ways.probe_interval).
PROBE_EVERY, PROBE_MAX_EVERY = tuning.PROBE_EVERY, tuning.PROBE_MAX_EVERY


class SyncExecutor(Executor):
    """A ``concurrent.futures.Executor`` that runs each task at once on the caller's thread.

    Passing it as a session's pool gives the serial debug mode through the same scheduler.
    """

    def submit(self, fn, /, *args, **kwargs):
        future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the future, as pools do
            future.set_exception(e)
        return future


class Hook:
    """A run's callbacks, each doing nothing here: subclass and override those a tool needs.

    See the module's docstring for when and on which thread each is called.
    """

    def start(self, plan):
        pass

    def pre_op(self, step):
        pass

    def post_op(self, step):
        pass

    def finish(self, plan):
        pass


def run(plan, values, pool, hooks=()):
    """Run every step of ``plan`` over ``values``, calling ``hooks``; raise the first op error.

    Changes ``values`` (the run's slots) in place.
    """
    if hooks:
        _run_with_hooks(plan, values, pool, hooks)
    elif plan.calls_blas:
        with cpu_threads.one_blas_thread():
            _run(plan, values, pool, _run_steps)
    else:
        _run(plan, values, pool, _run_steps)


def _run(plan, values, pool, run_steps):
    """The run loop: ``plan`` run the way ``plan.ways`` picks, each list of steps run by ``run_steps``."""
    if plan.trivial:
        run_steps(plan.alone_steps, values, True)
        return
    way = ONE_CORE_EACH if plan.blocking else plan.ways.choose()
    start = perf_counter()
    if way == ALL_CORES:
        run_steps(plan.alone_steps, values, True)
    else:
        with cpu_threads.one_thread_each():
            if plan.serial or pool is None:
                run_steps(plan.alone_steps, values, True)
            else:
                _count_dependencies(plan, values, pool, run_steps)
    plan.ways.record(way, perf_counter() - start)


def _run_with_hooks(plan, values, pool, hooks):
    for hook in hooks:
        hook.start(plan)
    op_hooks = tuple(h for h in hooks if type(h).pre_op is not Hook.pre_op or type(h).post_op is not Hook.post_op)
    try:
        with cpu_threads.one_blas_thread() if plan.calls_blas else contextlib.nullcontext():
            _run(plan, values, pool, _hooked_steps(op_hooks) if op_hooks else _run_steps)
    finally:
        for hook in hooks:
            hook.finish(plan)


class Ways:
    """A plan's recent wall times per run one core each (``ONE_CORE_EACH``) and all cores (``ALL_CORES``).

    Each way is judged by the fastest of its last ``SAMPLES`` runs: other work on the machine only
    ever slows a run down, so the minimum is what the way itself costs. The first run each way is
    not counted: it loads kernels and starts thread pools. Changed by ``record`` from whichever
    thread ran the plan; two threads running one plan at once may lose a sample, never a way.
    """

    SAMPLES = tuning.WAY_SAMPLES
    __slots__ = ("recent", "runs", "first", "only", "streak")

    def __init__(self, first=ONE_CORE_EACH, only=None):
        self.recent = ([], [])
        self.runs = [0, 0]
        self.first = first  # the way a run made once (an initializer's, say) should take
        self.only = only  # the one way allowed (a session held to one thread per kernel), or None
        self.streak = 0  # runs of the faster way since the slower one last ran

    @property
    def seconds(self):
        """Each way's figure: the fastest of its recent runs (None before any was counted)."""
        return [min(r) if r else None for r in self.recent]

    def probe_interval(self):
        """Every how many runs the slower way runs once: as many as spread a probe's extra time over
        ``tuning.PROBE_COST`` of the faster runs' time, from PROBE_EVERY to PROBE_MAX_EVERY."""
        fast, slow = sorted(self.seconds)
        budget = tuning.PROBE_COST * fast  # what a probe may cost per run of the faster way
        if slow - fast <= budget * PROBE_EVERY:
            return PROBE_EVERY
        return min(math.ceil((slow - fast) / budget), PROBE_MAX_EVERY) if budget > 0 else PROBE_MAX_EVERY

    def choose(self):
        """The way to run next: ``only`` when set; else, while measuring, the less run way (``first``
        on a tie); then the faster, and the slower once every ``probe_interval()`` runs.

        Measuring lasts until each way has SAMPLES runs counted, or only one each where they are
        far apart (``probe_interval()`` above PROBE_EVERY): more runs the slower way would cost
        more than probes may.
        """
        if self.only is not None:
            return self.only
        counted = min(len(r) for r in self.recent)
        if counted == 0 or counted < self.SAMPLES and self.probe_interval() == PROBE_EVERY:
            other = 1 - self.first
            return self.first if self.runs[self.first] <= self.runs[other] else other
        one_core_each, all_cores = self.seconds
        faster = ONE_CORE_EACH if one_core_each <= all_cores else ALL_CORES
        return 1 - faster if self.streak + 1 >= self.probe_interval() else faster

    def record(self, way, seconds):
        """Note one run's wall time."""
        self.runs[way] += 1
        if self.runs[way] > 1:
            recent = self.recent[way]
            recent.append(seconds)
            if len(recent) > self.SAMPLES:
                del recent[0]
        counted = [r for r in self.recent if r]
        if len(counted) == 2 and min(self.recent[way]) <= min(self.recent[1 - way]):
            self.streak += 1
        else:
            self.streak = 0


def _count_dependencies(plan, values, pool, run_steps):
    """Run ``plan.units`` on ``pool`` as their dependencies finish; the caller's thread alone counts."""
    pending = [u.num_deps for u in plan.units]
    ready = list(reversed(plan.roots))
    done = queue.SimpleQueue()
    running = 0
    failure = None

    def work(unit):
        try:
            start = perf_counter()
            run_steps(unit.steps, values)
            _record(unit, perf_counter() - start)
            done.put((unit, None))
        except BaseException as e:  # noqa: BLE001 - reported to the scheduling thread
            done.put((unit, e))

    while ready or running:
        while ready and failure is None:
            # Hand the expensive units to the pool first, so none waits behind work done inline.
            inline = [u for u in ready if u.seconds < tuning.INLINE_SECONDS]
            handed = [u for u in ready if u.seconds >= tuning.INLINE_SECONDS]
            ready.clear()
            if handed and not inline and not running:
                inline.append(handed.pop())
            for unit in handed:
                pool.submit(work, unit)
                running += 1
            for unit in inline:
                try:
                    start = perf_counter()
                    run_steps(unit.steps, values)
                    _record(unit, perf_counter() - start)
                except BaseException as e:  # noqa: BLE001
                    failure = e
                    break
                _release(unit, pending, ready)
        if failure is not None:
            ready.clear()
        if running:
            unit, error = done.get()
            running -= 1
            if error is not None:
                failure = failure or error
            elif failure is None:
                _release(unit, pending, ready)
    if failure is not None:
        raise failure


def _record(unit, seconds):
    """Changes ``unit.seconds``: how long it took; a blocking unit stays expensive whatever it took."""
    if not unit.blocking:
        unit.seconds = seconds


def _release(unit, pending, ready):
    """Changes ``pending`` and ``ready``: ``unit`` finished, so its successors each wait for one less."""
    for succ in unit.successors:
        pending[succ.index] -= 1
        if pending[succ.index] == 0:
            ready.append(succ)


def _run_steps(steps, values, release=False):
    """Run ``steps`` in order (a unit's, or a whole plan's: those are in topological order).

    With ``release``, for the plan's ``alone_steps`` run in their order, each step then empties the
    slots it was the last to read (``Step.release``).
    """
    step = None
    try:
        for step in steps:
            out = step.kernel(step.ctx, *step.inputs(values))
            if step.single:
                values[step.out_slots[0]] = out
            else:
                for slot, v in zip(step.out_slots, out):
                    values[slot] = v
            if release:
                for slot in step.release:
                    values[slot] = None
    except Exception as e:  # noqa: BLE001 - every kernel failure becomes an OpError naming the op
        raise op_error(step.op, e) from e


class _ThreadHooks(threading.local):
    op_hooks = ()  # the op hooks of the run whose step this thread is running, while it runs it


_thread_hooks = _ThreadHooks()


def _hooked_steps(op_hooks):
    """``_run_steps`` calling each of ``op_hooks``' ``pre_op`` and ``post_op`` around every step."""

    def run_steps(steps, values, release=False):
        outer, _thread_hooks.op_hooks = _thread_hooks.op_hooks, op_hooks
        try:
            for step in steps:
                for hook in op_hooks:
                    hook.pre_op(step)
                try:
                    _run_steps((step,), values, release)
                finally:
                    for hook in op_hooks:
                        hook.post_op(step)
        finally:
            _thread_hooks.op_hooks = outer

    return run_steps


def steps_runner():
    """How a functional op runs a sub-plan's steps (``runtime.subplan``): in order on the thread running
    the op, each kernel with the cores the enclosing run gave it; while the step running the op is
    hooked, by the twin calling the run's hooks around each step."""
    op_hooks = _thread_hooks.op_hooks
    return _hooked_steps(op_hooks) if op_hooks else _run_steps


def repeated_runner(steps, straight):
    """How a loop runs ``steps`` (its condition's or its body's) in each iteration of this run:
    ``straight``, the steps as one function of straight code (``runtime.straight_line``); in a
    hooked step, ``steps_runner()``'s hooked twin."""
    op_hooks = _thread_hooks.op_hooks
    if op_hooks:
        hooked = _hooked_steps(op_hooks)
        return lambda values: hooked(steps, values)
    return straight


_CLASS_OF = {  # the plain errors kernels raise (numflow_kernels.errors) -> TensorFlow's classes
    kernel_errors.FailedPrecondition: errors.FailedPreconditionError,
    kernel_errors.OutOfRange: errors.OutOfRangeError,
    kernel_errors.DataLoss: errors.DataLossError,
    ValueError: errors.InvalidArgumentError,
    TypeError: errors.InvalidArgumentError,
    IndexError: errors.InvalidArgumentError,
    ZeroDivisionError: errors.InvalidArgumentError,
    MemoryError: errors.ResourceExhaustedError,
    NotImplementedError: errors.UnimplementedError,
}


_OS_ERROR_CLASS = {
    errno.ENOSPC: errors.ResourceExhaustedError,
    errno.EDQUOT: errors.ResourceExhaustedError,
    errno.ENOENT: errors.NotFoundError,
    errno.EACCES: errors.PermissionDeniedError,
    errno.EPERM: errors.PermissionDeniedError,
    errno.EEXIST: errors.AlreadyExistsError,
}


def op_error(op, exc):
    """``exc`` raised by ``op``'s kernel as an OpError that names the op and where it was defined."""
    if isinstance(exc, errors.OpError) and exc.op is not None:
        return exc
    message = exc.message if isinstance(exc, errors.OpError) else (str(exc) or type(exc).__name__)
    message = f"{message}\n\t [[node {op.name} (defined at {_user_frame(op)}) ]]"
    if isinstance(exc, errors.OpError):
        cls = type(exc)
    elif errors.is_out_of_memory(exc):
        cls = errors.ResourceExhaustedError
        message = f"OOM when allocating a tensor for {op.name} ({op.type}): {message}"
    elif isinstance(exc, OSError):
        cls = _OS_ERROR_CLASS.get(exc.errno, errors.UnknownError)
    else:
        cls = next((c for base, c in _CLASS_OF.items() if isinstance(exc, base)), errors.InternalError)
    error = cls(None, op, message)
    error.__traceback__ = exc.__traceback__
    return error


def _user_frame(op):
    """The innermost frame of ``op``'s creation that is outside numflow itself."""
    for frame in reversed(op.traceback or ()):
        path = frame.filename.replace("\\", "/")
        if "/numflow/" not in path and "/numflow_kernels/" not in path and not path.startswith("<"):
            return f"{frame.filename}:{frame.lineno}"
    return "<unknown>"
