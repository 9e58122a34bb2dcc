"""Device strings: parse, print and merge them, and apply a stack of ``tf.device`` scopes to an op.

A device string names where an op runs, field by field, every field optional::

    /job:NAME/replica:N/task:N/device:TYPE:N

``/cpu:0``, ``/gpu:1`` and ``/CPU:0`` are short for ``/device:CPU:0``, ``/device:GPU:1``; an index of
``*`` (or none, as in ``/gpu``) means any device of that type. ``DeviceSpec`` holds the five fields
and prints the canonical form TensorFlow shows in ``op.device``:

>>> str(DeviceSpec.from_string("/gpu:1"))
'/device:GPU:1'
>>> str(DeviceSpec.from_string("/job:worker/replica:0/task:1/cpu:0"))
'/job:worker/replica:0/task:1/device:CPU:0'

How nested ``tf.device`` scopes combine
---------------------------------------
When an op is created, the graph walks its device stack from the innermost scope outwards
(``apply_device_stack``), starting from the op's own device (``""`` for a new op):

1. A **string** (or ``DeviceSpec``) scope fills in the fields the op's device does not set yet;
   fields set by inner scopes win. The result is printed canonically.
2. A **function** scope is called with the op, whose ``.device`` holds what the inner scopes chose;
   whatever it returns (a string or a ``DeviceSpec``) *replaces* the op's device. A returned string is
   kept as written (``"/gpu:0"`` stays ``"/gpu:0"``) unless an outer string scope merges into it.
   So a function's result is merged with the outer strings, and the function sees the inner ones.
3. An **empty** scope (``""``) changes nothing; a ``None`` scope stops the walk: scopes outside it
   are ignored.

Any object with a ``.device`` attribute stands for the op here:

>>> from types import SimpleNamespace as Op
>>> apply_device_stack(["/job:worker", "/gpu:1"], Op(device=""))
'/job:worker/device:GPU:1'
>>> apply_device_stack(["/job:worker/task:1/cpu:0", "/job:ps/gpu:1"], Op(device=""))
'/job:ps/task:1/device:GPU:1'
>>> apply_device_stack(["/job:worker", None, "/gpu:0"], Op(device=""))
'/device:GPU:0'
>>> on_ps = lambda op: "/job:ps/cpu:1"
>>> apply_device_stack(["/job:worker/task:2/device:GPU:3", on_ps], Op(device=""))
'/job:ps/task:2/device:CPU:1'
>>> apply_device_stack([lambda op: "/gpu:0"], Op(device=""))
'/gpu:0'
>>> apply_device_stack([lambda op: "/gpu:0", "/job:w/task:2"], Op(device=""))   # the function replaces
'/gpu:0'

Every line above is what TensorFlow 1.x prints for ``op.device`` of an op created under the same
``with tf.device(...)`` blocks, outermost first (``tests/framework/test_device_spec.py`` holds the
cases and how they were checked).

Where numflow is stricter than TensorFlow
-----------------------------------------
TensorFlow's Python parser passes some strings its C++ placer later rejects; numflow rejects them at
once, naming the bad component: an empty job name (``/job:``) or device type (``/device::0``), a
component with no name (``/:5``), and indices that are not plain digits (``/task:-1``, ``/task:+1``).
A device function that returns an unparsable string or ``None`` fails when the op is created, naming
the function, where TensorFlow stores the bad string (or raises a bare TypeError).
"""

import dataclasses
import difflib
import functools
import operator
import re

__all__ = [
    "DeviceSpec",
    "DeviceFunction",
    "apply_device_stack",
    "canonical_device",
    "check_valid",
    "device_function",
    "merge_device",
]

# Device types that may be written without ``/device:``, as in ``/cpu:0`` (TensorFlow's list).
SHORT_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})
_FORM = "expected /job:NAME/replica:N/task:N/device:TYPE:N (or /cpu:N, /gpu:N)"
_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_TYPE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*", re.ASCII)
_ATTRIBUTES = ("job", "replica", "task", "device", "cpu", "gpu", "tpu")


def _index(value, what, example, spec=None, star=False):
    """``value`` as a non-negative int; ValueError naming ``what`` (and quoting ``spec``) otherwise."""
    if value is None or (star and value == "*"):
        return None
    if isinstance(value, str):
        if _DIGITS.fullmatch(value):
            return int(value)
    elif not isinstance(value, bool):
        try:
            number = operator.index(value)  # int, numpy integers; not floats
        except TypeError:
            number = -1
        if number >= 0:
            return number
    where = f' in device string "{spec}"' if spec is not None else ""
    allowed = "a non-negative integer or '*'" if star else "a non-negative integer"
    raise ValueError(f"Bad {what} {value!r}{where}: expected {allowed}, as in {example}")


@dataclasses.dataclass(frozen=True, eq=False)
class DeviceSpec:
    """A possibly partial device: job, replica, task, device type and index, each optional.

    Immutable: ``replace`` and ``make_merged_spec`` return new specs. Two specs are equal when they
    print the same (as in TensorFlow, so an index without a type, which does not print, is ignored).

    Parameters
    ----------
    job : str, optional
        The job name, as in ``/job:ps``.
    replica, task : int, optional
        The replica and task indices.
    device_type : str, optional
        ``"CPU"``, ``"GPU"`` or another type; ``"cpu"`` and ``"gpu"`` are upper-cased.
    device_index : int, optional
        The device index; unset means any device of that type (printed ``*``).

    Examples
    --------
    >>> spec = DeviceSpec(job="ps", task=1, device_type="cpu")
    >>> spec.to_string()
    '/job:ps/task:1/device:CPU:*'
    >>> spec.replace(device_type="GPU", device_index=0).to_string()
    '/job:ps/task:1/device:GPU:0'
    >>> DeviceSpec.from_string("/cpu:0") == DeviceSpec(device_type="CPU", device_index=0)
    True
    """

    job: str | None = None
    replica: int | None = None
    task: int | None = None
    device_type: str | None = None
    device_index: int | None = None
    _string: str = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self):
        job, device_type = self.job, self.device_type
        if job is not None:
            if not isinstance(job, str):
                raise TypeError(f"DeviceSpec job must be a string, got {job!r}")
            if not job or "/" in job or ":" in job:
                raise ValueError(f"Bad job name {job!r}: expected a non-empty name without '/' or ':'")
        if device_type is not None:
            if not isinstance(device_type, str):
                raise TypeError(f"DeviceSpec device_type must be a string, got {device_type!r}")
            if device_type in ("cpu", "gpu"):
                device_type = device_type.upper()
            if not _TYPE_NAME.fullmatch(device_type):
                raise ValueError(f"Bad device type {device_type!r}: expected a name such as 'CPU' or 'GPU'")
        fields = {
            "device_type": device_type,
            "replica": _index(self.replica, "replica index", "/replica:0"),
            "task": _index(self.task, "task index", "/task:0"),
            "device_index": _index(self.device_index, "device index", "/device:GPU:0"),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        parts = []
        if job is not None:
            parts.append(f"/job:{job}")
        if self.replica is not None:
            parts.append(f"/replica:{self.replica}")
        if self.task is not None:
            parts.append(f"/task:{self.task}")
        if device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            parts.append(f"/device:{device_type}:{index}")
        object.__setattr__(self, "_string", "".join(parts))

    # -- parsing and printing ------------------------------------------------------------------
    @classmethod
    def from_string(cls, spec):
        """Parse a device string; ``None`` and ``""`` give the empty spec.

        Parameters
        ----------
        spec : str, bytes, DeviceSpec or None
            A device string such as ``"/job:ps/task:7"`` or ``"/gpu:1"``; a DeviceSpec is returned
            as it is.

        Returns
        -------
        DeviceSpec

        Raises
        ------
        ValueError
            When a component is unknown or malformed; the message quotes the string, names the
            component and shows the expected form.
        TypeError
            When ``spec`` is not a string.

        Examples
        --------
        >>> DeviceSpec.from_string("/job:ps/task:7")
        DeviceSpec(job='ps', replica=None, task=7, device_type=None, device_index=None)
        >>> DeviceSpec.from_string("/gpuu:0")
        Traceback (most recent call last):
        ...
        ValueError: Unknown attribute 'gpuu' in device string "/gpuu:0": expected /job:NAME/replica:N/task:N/device:TYPE:N (or /cpu:N, /gpu:N); did you mean 'gpu'?
        """  # noqa: E501
        if isinstance(spec, DeviceSpec):
            return spec
        if spec is None:
            spec = ""
        elif isinstance(spec, bytes):
            spec = spec.decode("utf-8")
        elif not isinstance(spec, str):
            raise TypeError(f"Expected a device string or DeviceSpec, got {spec!r} ({type(spec).__name__})")
        return _parse(spec)

    parse = from_string

    def parse_from_string(self, spec):
        """TensorFlow 2's spelling of ``from_string``: a new spec (this one is immutable)."""
        return self.from_string(spec)

    def to_string(self):
        """The canonical string, as TensorFlow prints it in ``op.device``.

        >>> DeviceSpec.from_string("/job:ps/CPU:0").to_string()
        '/job:ps/device:CPU:0'
        """
        return self._string

    __str__ = to_string

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self._string == other._string

    def __hash__(self):
        return hash(self._string)

    # -- combining -----------------------------------------------------------------------------
    def make_merged_spec(self, other):
        """A new spec with ``other``'s set fields over this one's (as TensorFlow's ``DeviceSpecV2``).

        Parameters
        ----------
        other : DeviceSpec or str
            The spec whose fields win.

        Examples
        --------
        >>> worker = DeviceSpec.from_string("/job:worker/task:1/device:CPU:0")
        >>> str(worker.make_merged_spec("/job:ps/gpu:1"))
        '/job:ps/task:1/device:GPU:1'
        """
        other = DeviceSpec.from_string(other)
        pairs = zip(self._fields(), other._fields(), strict=True)
        return DeviceSpec(*(b if b is not None else a for a, b in pairs))

    merge = make_merged_spec

    def replace(self, **fields):
        """A new spec with ``fields`` overridden; ``None`` clears a field.

        >>> str(DeviceSpec.from_string("/job:ps/task:3").replace(task=None, device_type="GPU"))
        '/job:ps/device:GPU:*'
        """
        return dataclasses.replace(self, **fields)

    def is_compatible_with(self, other):
        """Whether no field set in both specs differs: the two can name the same device.

        >>> DeviceSpec.from_string("/job:ps").is_compatible_with("/task:1/gpu:0")
        True
        >>> DeviceSpec.from_string("/gpu:0").is_compatible_with("/gpu:1")
        False
        """
        other = DeviceSpec.from_string(other)
        pairs = zip(self._fields(), other._fields(), strict=True)
        return all(a is None or b is None or a == b for a, b in pairs)

    def matches(self, device):
        """Whether ``device`` has every field this (partial) spec sets, with the same value.

        Use it to test a concrete device against a requested one.

        >>> DeviceSpec.from_string("/device:GPU:*").matches("/job:localhost/replica:0/task:0/gpu:1")
        True
        >>> DeviceSpec.from_string("/job:ps/gpu:0").matches("/job:ps/task:0/cpu:0")
        False
        """
        device = DeviceSpec.from_string(device)
        return all(a is None or a == b for a, b in zip(self._fields(), device._fields(), strict=True))

    def _fields(self):
        return (self.job, self.replica, self.task, self.device_type, self.device_index)


# -- the parser --------------------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def _parse(spec):
    job = replica = task = device_type = device_index = None
    for part in spec.split("/"):
        if not part:
            continue
        fields = part.split(":")
        name, n = fields[0], len(fields)
        if n == 2 and name == "job":
            if not fields[1]:
                raise ValueError(
                    f'Empty job name in device string "{spec}": expected /job:NAME, as in /job:ps'
                )
            job = fields[1]
        elif n == 2 and name == "replica":
            replica = _index(fields[1], "replica index", "/replica:0", spec)
        elif n == 2 and name == "task":
            task = _index(fields[1], "task index", "/task:0", spec)
        elif n <= 2 and name.upper() in SHORT_DEVICE_TYPES:
            _check_one_type(spec, device_type, name.upper())
            device_type = name.upper()
            index = fields[1] if n == 2 else None
            device_index = _index(index, "device index", f"/{name}:0", spec, star=True)
        elif n == 3 and name == "device":
            if not _TYPE_NAME.fullmatch(fields[1]):
                raise ValueError(
                    f'Bad device type {fields[1]!r} in device string "{spec}": '
                    "expected /device:TYPE:N, as in /device:GPU:0"
                )
            _check_one_type(spec, device_type, fields[1])
            device_type = fields[1]
            device_index = _index(fields[2], "device index", f"/device:{fields[1]}:0", spec, star=True)
        else:
            raise ValueError(_bad_component(spec, part, name))
    return DeviceSpec(job, replica, task, device_type, device_index)


def _check_one_type(spec, seen, new):
    if seen is not None:
        raise ValueError(
            f'Multiple device types in device string "{spec}" ({seen!r} and {new!r}): '
            "name at most one, as in /job:worker/device:GPU:0"
        )


def _bad_component(spec, part, name):
    forms = {"job": "/job:NAME", "replica": "/replica:N", "task": "/task:N", "device": "/device:TYPE:N"}
    if name in forms:
        return f'Bad component {part!r} in device string "{spec}": expected {forms[name]}'
    if name.upper() in SHORT_DEVICE_TYPES:
        return f'Bad component {part!r} in device string "{spec}": expected /{name}:N or /device:{name}:N'
    if not name:
        return f'Component {part!r} has no attribute name in device string "{spec}": {_FORM}'
    close = difflib.get_close_matches(name.lower(), _ATTRIBUTES, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f'Unknown attribute {name!r} in device string "{spec}": {_FORM}{hint}'


def canonical_device(device):
    """The canonical string for a device string, a DeviceSpec or None (``""``).

    Examples
    --------
    >>> canonical_device("/gpu:1"), canonical_device(None)
    ('/device:GPU:1', '')
    """
    return DeviceSpec.from_string(device).to_string()


def check_valid(device):
    """Raise ValueError (quoting ``device``) unless it parses; return None.

    >>> check_valid("/job:ps/task:0")
    """
    DeviceSpec.from_string(device)


@functools.lru_cache(maxsize=8192)
def _merge_under(outer_fields, current):
    """The device string ``current`` with its unset fields taken from ``outer_fields``, canonical."""
    return DeviceSpec(*outer_fields).make_merged_spec(_parse(current)).to_string()


def merge_device(spec):
    """A device function that fills the fields an op's device leaves unset from ``spec``.

    TensorFlow's ``merge_device``: what a string scope does. The op's own fields win.

    Parameters
    ----------
    spec : str or DeviceSpec

    Returns
    -------
    callable
        ``fn(op) -> DeviceSpec`` for any object with a ``.device`` string.

    Examples
    --------
    >>> from types import SimpleNamespace as Op
    >>> fn = merge_device("/job:worker/gpu:0")
    >>> str(fn(Op(device="/cpu:1")))
    '/job:worker/device:CPU:1'
    """
    outer = DeviceSpec.from_string(spec)

    def merge(op):
        return outer.make_merged_spec(DeviceSpec.from_string(op.device or ""))

    return merge


# -- device scopes -----------------------------------------------------------------------------
class DeviceFunction:
    """What one ``with tf.device(x)`` pushes: ``x`` checked once, callable on each new op.

    ``fn(op)`` returns the op's new device string, given that ``op.device`` holds what the inner
    scopes chose. Build one with ``device_function``.

    Attributes
    ----------
    raw : str, DeviceSpec or callable
        The argument given to ``tf.device``.
    is_null_merge : bool
        True for an empty string or spec: applying it changes nothing, so it can be skipped.
    display_name : str
        How errors and placement logs name the scope.
    """

    __slots__ = ("raw", "is_null_merge", "display_name", "_fields", "_function")

    def __init__(self, device_name_or_function):
        self.raw = device_name_or_function
        if isinstance(device_name_or_function, (str, bytes, DeviceSpec)):
            spec = DeviceSpec.from_string(device_name_or_function)
            self._fields = spec._fields()
            self._function = None
            self.is_null_merge = not spec.to_string()
            self.display_name = repr(spec.to_string())
        elif callable(device_name_or_function):
            self._fields = None
            self._function = device_name_or_function
            self.is_null_merge = False
            self.display_name = _function_name(device_name_or_function)
        else:
            raise TypeError(
                f"tf.device() takes a device string, a DeviceSpec, a function of an op or None, "
                f"got {device_name_or_function!r} ({type(device_name_or_function).__name__})"
            )

    def __call__(self, op):
        current = op.device or ""
        if self._function is None:
            return current if self.is_null_merge else _merge_under(self._fields, current)
        return _function_result(self, op, self._function(op))

    def __repr__(self):
        return f"DeviceFunction({self.display_name})"


def _function_name(fn):
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if name is None:
        name = type(fn).__qualname__
    code = getattr(fn, "__code__", None)
    if code is not None:
        return f"{name}<{code.co_filename}, {code.co_firstlineno}>"
    return name


def _function_result(scope, op, result):
    if isinstance(result, DeviceSpec):
        return result.to_string()
    if isinstance(result, bytes):
        result = result.decode("utf-8")
    op_name = getattr(op, "name", "?")
    if not isinstance(result, str):
        raise TypeError(
            f"Device function {scope.display_name} returned {result!r} for op {op_name!r}: "
            'return a device string or DeviceSpec ("" for no constraint)'
        )
    try:
        _parse(result)
    except ValueError as e:
        raise ValueError(
            f"Device function {scope.display_name} returned a bad device for op {op_name!r}: {e}"
        ) from None
    return result


def device_function(device_name_or_function):
    """Check one ``tf.device`` argument and return what the graph pushes on its device stack.

    Call it when the ``with tf.device(x)`` block is entered, so a bad string fails there, as in
    TensorFlow.

    Parameters
    ----------
    device_name_or_function : str, bytes, DeviceSpec, callable, DeviceFunction or None
        A device string or spec (merged under the op's device), a function of the op (its result
        replaces the op's device), or None (ignore every scope outside this one).

    Returns
    -------
    DeviceFunction or None
        None for None: the graph stops walking its stack there.

    Examples
    --------
    >>> from types import SimpleNamespace as Op
    >>> fn = device_function("/job:ps/cpu:0")
    >>> fn(Op(device="/task:3"))
    '/job:ps/task:3/device:CPU:0'
    >>> device_function(None) is None
    True
    """
    if device_name_or_function is None or isinstance(device_name_or_function, DeviceFunction):
        return device_name_or_function
    return DeviceFunction(device_name_or_function)


def apply_device_stack(stack, op, set_device=None):
    """The device for ``op`` created inside the nested ``tf.device`` scopes ``stack``.

    Walks ``stack`` innermost first, following the rules in this module's docstring.

    Parameters
    ----------
    stack : sequence
        The scopes, outermost first (the order the ``with`` blocks were entered): DeviceFunction
        objects from ``device_function``, or the raw ``tf.device`` arguments (strings, DeviceSpecs,
        functions of an op, None).
    op : object
        The new op. ``op.device`` is its device before the scopes apply (``""`` for a new op).
        Device functions in the stack receive it; ``op.type`` and ``op.name`` are what they use.
    set_device : callable, optional
        ``set_device(device_string)`` stores an intermediate device on the op, so that a device
        function sees what the scopes inside it chose; called only just before a device function
        runs, and only when the device changed. Defaults to ``setattr(op, "device", s)``.

    Returns
    -------
    str
        The op's device; the caller stores it on the op. Canonical unless the last scope to
        change it was a function that returned a non-canonical string.

    Examples
    --------
    >>> from types import SimpleNamespace as Op

    Merge rules of ``tf.device`` (``with tf.device("/job:worker"): with tf.device("/gpu:1"): ...``):

    >>> apply_device_stack(["/job:worker", "/gpu:1"], Op(device=""))
    '/job:worker/device:GPU:1'
    >>> apply_device_stack(["/job:worker", ""], Op(device=""))
    '/job:worker'
    >>> apply_device_stack(["/job:worker", None], Op(device=""))
    ''

    A device function sees the inner scopes' device in ``op.device``:

    >>> seen = []
    >>> def spy(op):
    ...     seen.append(op.device)
    ...     return "/job:ps/task:0"
    >>> apply_device_stack([spy, "/gpu:0"], Op(device="")), seen
    ('/job:ps/task:0', ['/device:GPU:0'])
    """
    if set_device is None:

        def set_device(device):
            op.device = device

    current = op.device or ""
    for scope in reversed(stack):
        if scope is None:
            break
        if not isinstance(scope, DeviceFunction):
            scope = DeviceFunction(scope)
        if scope.is_null_merge:
            continue
        if scope._function is None:
            current = _merge_under(scope._fields, current)
            continue
        if (op.device or "") != current:
            set_device(current)
        current = _function_result(scope, op, scope._function(op))
    return current
