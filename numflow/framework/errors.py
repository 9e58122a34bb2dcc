"""TensorFlow's error classes: every failure a user sees at run time is one of these."""

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """A failure while running an operation.

    Parameters
    ----------
    node_def : object or None
        Kept for TensorFlow's signature; numflow passes None.
    op : Operation or None
        The operation that failed, when one did.
    message : str
        What went wrong and what to do about it.
    error_code : int
        One of the codes above.
    """

    def __init__(self, node_def, op, message, error_code=UNKNOWN):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message
        self.error_code = error_code

    def __reduce__(self):
        return type(self), (self.node_def, self.op, self.message)

    def __str__(self):
        return self.message


def _make(name, code, doc):
    def __init__(self, node_def, op, message, *args, **kwargs):
        OpError.__init__(self, node_def, op, message, code)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc})


CancelledError = _make("CancelledError", CANCELLED, "The run was cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "An error of no other class.")
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT, "An argument was invalid.")
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline passed.")
NotFoundError = _make("NotFoundError", NOT_FOUND, "A file, key or device was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS, "It exists already.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED, "Out of memory or disk.")
FailedPreconditionError = _make(
    "FailedPreconditionError", FAILED_PRECONDITION, "The system is not in a state to run the op."
)
AbortedError = _make("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE, "Read or iterated past the end.")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED, "Not implemented.")
InternalError = _make("InternalError", INTERNAL, "An invariant of numflow broke.")
UnavailableError = _make("UnavailableError", UNAVAILABLE, "The service is unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Data was lost or corrupted.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")

class InaccessibleTensorError(ValueError):
    """A tensor built inside a cond branch or a loop body was fetched or used where it has no value."""


_BY_CODE = {
    cls(None, None, "").error_code: cls
    for cls in (
        CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
        AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
        AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError,
        DataLossError, UnauthenticatedError,
    )
}


def exception_type_from_error_code(error_code):
    """The OpError subclass for a numeric error code."""
    return _BY_CODE[error_code]


def error_code_from_exception_type(cls):
    """The numeric error code of an OpError subclass; for any other class, as TensorFlow: a warning,
    and an ``UnknownError`` (not a code)."""
    for code, known in _BY_CODE.items():
        if cls is known:
            return code
    import warnings

    warnings.warn("Unknown class exception", stacklevel=2)
    return UnknownError(None, None, "Unknown class exception")


# numpy's ValueErrors for an array larger than memory can address; with MemoryError (an array larger
# than the memory there is), what TensorFlow's allocator reports as ResourceExhaustedError.
_NUMPY_TOO_BIG = ("array is too big", "Maximum allowed dimension exceeded", "Maximum allowed size exceeded")


def is_out_of_memory(exc):
    """Whether ``exc`` is numpy's failure to allocate an array (MemoryError, or a size beyond addressing)."""
    return isinstance(exc, MemoryError) or isinstance(exc, ValueError) and str(exc).startswith(_NUMPY_TOO_BIG)
