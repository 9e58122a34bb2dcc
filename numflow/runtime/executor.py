"""The executor: runs a plan's units on a thread pool by dependency counting.

State
-----
Constant, from the plan: ``units`` (chains of steps), each unit's ``successors`` and ``num_deps``
(how many units must finish before it may start), and ``roots`` (units with no dependencies).

Changing, local to one run: ``pending[u]`` (dependencies of unit u not yet finished), ``ready``
(units whose dependencies have all finished), ``running`` (units handed to the pool and not yet
reported), and ``values`` (one slot per tensor of the plan; a step reads its input slots and writes
its output slots).

Rules
-----
Only the thread that called ``run`` changes ``pending``, ``ready`` and ``running``. Workers run one
unit's steps in order and report ``(unit, error)`` through a queue. Values need no lock: a slot is
written by exactly one step, before any step that reads it is started (the queue hand-off orders
the write before the read).

Ready policy: the ready units whose last run took longer than a hand-off costs
(``INLINE_SECONDS``) go to the pool first; then the caller's thread runs the cheap ones itself
(and one expensive unit too when nothing else is ready or running). Each unit's run time is
measured as it runs. The first error stops new submissions; the run waits for units already
running, then raises that error, so no worker is left writing into a finished run.

Two ways to run a plan: ``ALL_CORES``, every step in order on the caller's thread, each kernel free
to use every core; and ``ONE_CORE_EACH``, each kernel kept to one thread (``cpu_threads``), the
plan's independent units on the pool at once when it has some. Ops written in Python hold the
GIL, so the pool pays only where kernels that release it (BLAS, Numba) can overlap; and a kernel's
own threads pay only while the machine has idle cores. So a plan with costly units that runs
again is timed both ways (the fastest of each way's last few runs, the first run each way left
out) and runs the faster; every ``PROBE_EVERY`` runs it tries the other way once more, in case the
inputs or the load changed. A plan holding a blocking op always runs one core each: the op may
wait for another op of the run.

Timing chooses speed, never numbers: both ways give the same bits. BLAS runs on one thread in
either way (``cpu_threads.one_blas_thread``), and a kernel's own threads split its work by blocks
fixed by its shapes, so its result is the same whether it gets every core or one.

Worked example: ``c = a + b`` with ``a = square(x)`` and ``b = square(y)`` on large fed arrays.
Units: U0=[a], U1=[b], U2=[c]; pending = [0, 0, 2]; ready = [U0, U1], not yet measured, so both
count as expensive. U0 goes to the pool and the caller runs U1 itself: pending[U2] = 1. U0
reports: pending[U2] = 0, ready = [U2], and the caller runs U2. Done, with a and b at once.

Hooks (``start``, ``pre_op``, ``post_op``, ``finish``) are objects passed to ``run``; a run without
hooks takes a loop with no hook checks at all.

Functional ops (If, Case, While) run their sub-plans inside their own step, in order on the thread
running them (``run_in_order``): never on the pool, which may be busy running the step itself.
"""

import contextlib
import errno
import queue
from concurrent.futures import Executor, Future
from time import perf_counter

from numflow.framework import errors
from numflow_kernels import cpu_threads
from numflow_kernels import errors as kernel_errors

# A unit that ran faster than this is run by the scheduling thread itself: a hand-off to a pool
# thread and back costs about as much.
INLINE_SECONDS = 50e-6

# How often a plan tries the way of running that it has found slower.
PROBE_EVERY = 32
ONE_CORE_EACH, ALL_CORES = 0, 1


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


def run(plan, values, pool, hooks=()):
    """Run every unit of ``plan`` over ``values``; raise the first op error.

    Changes ``values`` (the plan's slots) in place.
    """
    if not hooks:
        if not plan.calls_blas:
            _run_plan(plan, values, pool)
            return
        with cpu_threads.one_blas_thread():
            _run_plan(plan, values, pool)
        return
    run_unit = _run_unit_hooked(hooks)
    for hook in hooks:
        hook.start(plan)
    try:
        with cpu_threads.one_blas_thread() if plan.calls_blas else contextlib.nullcontext():
            if plan.serial or pool is None:
                for unit in plan.units:
                    run_unit(unit, values)
            else:
                _schedule(plan, values, pool, run_unit)
    finally:
        for hook in hooks:
            hook.finish(plan)


def _run_plan(plan, values, pool):
    if plan.trivial:
        _run_steps(plan.alone_steps, values, release=True)
    else:
        _run_the_faster_way(plan, values, pool)


def _run_the_faster_way(plan, values, pool):
    """Run ``plan`` with all cores for each kernel or one core each, whichever ran it faster lately."""
    way = ONE_CORE_EACH if plan.blocking else plan.ways.choose()
    start = perf_counter()
    if way == ALL_CORES:
        _run_steps(plan.alone_steps, values, release=True)
    elif plan.serial or pool is None:
        with cpu_threads.one_thread_each():
            _run_steps(plan.alone_steps, values, release=True)
    else:
        _schedule(plan, values, pool, _run_unit)
    plan.ways.record(way, perf_counter() - start)


class Ways:
    """A plan's recent wall times per run one core each (``ONE_CORE_EACH``) and all cores (``ALL_CORES``).

    Each way is judged by the fastest of its last ``SAMPLES`` runs: other work on the machine only
    ever slows a run down, so the minimum is what the way itself costs. The first run each way is
    not counted: it loads kernels and starts thread pools.
    """

    SAMPLES = 3
    __slots__ = ("recent", "runs", "first", "only")

    def __init__(self, first=ONE_CORE_EACH, only=None):
        self.recent = ([], [])
        self.runs = [0, 0]
        self.first = first  # the way a run made once (an initializer's, say) should take
        self.only = only  # the one way allowed (a session held to one thread per kernel), or None

    @property
    def seconds(self):
        """Each way's figure: the fastest of its recent runs (None before any was counted)."""
        return [min(r) if r else None for r in self.recent]

    def choose(self):
        """The way to run next: ``only`` when set; else the less measured (``first`` on a tie) while
        either has fewer than SAMPLES runs counted, then the faster, and every PROBE_EVERY runs the other."""
        if self.only is not None:
            return self.only
        if min(len(r) for r in self.recent) < self.SAMPLES:
            other = 1 - self.first
            return self.first if self.runs[self.first] <= self.runs[other] else other
        one_core_each, all_cores = self.seconds
        faster = ONE_CORE_EACH if one_core_each <= all_cores else ALL_CORES
        return 1 - faster if sum(self.runs) % PROBE_EVERY == 0 else faster

    def record(self, way, seconds):
        """Note one run's wall time."""
        self.runs[way] += 1
        if self.runs[way] > 1:
            recent = self.recent[way]
            recent.append(seconds)
            if len(recent) > self.SAMPLES:
                del recent[0]


def _schedule(plan, values, pool, run_unit):
    """Dependency counting over ``plan.units``, every kernel held to one thread meanwhile."""
    with cpu_threads.one_thread_each():
        _count_dependencies(plan, values, pool, run_unit)


def _count_dependencies(plan, values, pool, run_unit):
    """Run ``plan.units`` on ``pool`` as their dependencies finish; the caller's thread alone counts."""
    pending = [u.num_deps for u in plan.units]
    ready = list(reversed(plan.roots))
    done = queue.SimpleQueue()
    running = 0
    failure = None

    def work(unit):
        try:
            start = perf_counter()
            run_unit(unit, values)
            _record(unit, perf_counter() - start)
            done.put((unit, None))
        except BaseException as e:  # noqa: BLE001 - reported to the scheduling thread
            done.put((unit, e))

    while ready or running:
        while ready and failure is None:
            # Hand the expensive units to the pool first, so none waits behind work done inline.
            inline = [u for u in ready if u.seconds < INLINE_SECONDS]
            handed = [u for u in ready if u.seconds >= INLINE_SECONDS]
            ready.clear()
            if handed and not inline and not running:
                inline.append(handed.pop())
            for unit in handed:
                pool.submit(work, unit)
                running += 1
            for unit in inline:
                try:
                    start = perf_counter()
                    run_unit(unit, values)
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
    """Note how long ``unit`` took; a blocking unit stays expensive whatever it took."""
    if not unit.blocking:
        unit.seconds = seconds


def _release(unit, pending, ready):
    for succ in unit.successors:
        pending[succ.index] -= 1
        if pending[succ.index] == 0:
            ready.append(succ)


def _run_unit(unit, values):
    _run_steps(unit.steps, values)


def _run_steps(steps, values, release=False):
    """Run ``steps`` in order (a unit's, or a whole plan's: those are in topological order).

    With ``release``, for the plan's ``alone_steps`` run in their order, each step then empties the
    slots it was the last to read (``Step.release``).
    """
    step = None
    try:
        for step in steps:
            out = step.kernel(step.ctx, *[values[i] for i in step.in_slots])
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


# How a functional op runs a sub-plan (``runtime.subplan``): its steps in order on the thread running
# the op, each kernel with the cores the enclosing run gave it.
run_in_order = _run_steps


def _run_unit_hooked(hooks):
    def run_unit(unit, values):
        for step in unit.steps:
            for hook in hooks:
                hook.pre_op(step)
            try:
                _run_steps((step,), values)
            finally:
                for hook in hooks:
                    hook.post_op(step)

    return run_unit


_CLASS_OF = {  # the plain errors kernels raise (numflow_kernels.errors) -> TensorFlow's classes
    kernel_errors.FailedPrecondition: errors.FailedPreconditionError,
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
