"""The errors kernels raise: plain Python exceptions, which the runtime maps to TensorFlow's classes.

Kernels import nothing from ``numflow``, so they cannot raise ``tf.errors.*`` themselves. They raise:

- ``ValueError``, ``TypeError``, ``IndexError``, ``ZeroDivisionError`` for bad input: TensorFlow's
  ``InvalidArgumentError``;
- ``MemoryError`` (and numpy's "array is too big"): ``ResourceExhaustedError``;
- ``NotImplementedError``: ``UnimplementedError``; ``OSError``: by its errno (``NotFoundError``...);
- the classes below, where TensorFlow's class is none of those.

``numflow.runtime.executor.op_error`` makes each one an ``OpError`` of TensorFlow's class whose
message names the op. The message is the exception's text: write TensorFlow's words there.
"""

__all__ = ["DataLoss", "FailedPrecondition", "OutOfRange", "dims_text"]


class DataLoss(Exception):
    """Data that cannot be read back as it was written (a corrupt compressed stream): TensorFlow's
    ``DataLossError``."""


class FailedPrecondition(Exception):
    """The op cannot run in the state it found (a variable used before it is initialized):
    TensorFlow's ``FailedPreconditionError``."""


class OutOfRange(Exception):
    """An index past what exists where TensorFlow reports it as out of range rather than invalid
    (a crop's box index past the batch): TensorFlow's ``OutOfRangeError``."""


def dims_text(dims):
    """Dimensions as TensorFlow's messages print them: ``[2,3]``, an unknown one as ``?``.

    >>> dims_text((2, None, 3))
    '[2,?,3]'
    """
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
