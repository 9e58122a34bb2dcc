"""What a kernel may know of the op it computes and of the session running it.

The runtime builds one :class:`KernelContext` per op when it plans a run (``numflow.runtime.plan``)
and passes it as the kernel's first argument. Everything in it is plain data: a kernel never sees
the op, its tensors or the graph.

- ``op_name``, ``op_type``: for messages and per-op state (a random op's stream).
- ``attrs``: the op's attributes, with numflow's objects in plain form: a dtype is a ``numpy.dtype``
  (``object`` for strings), a static shape is a tuple of dims with None for an unknown one (None
  for an unknown rank); lists of them are tuples. Other values are as the op was given them.
- ``input_shapes``, ``input_dtypes``, ``output_shapes``, ``output_dtypes``: the static shapes and
  dtypes of the op's inputs and outputs, in the same forms. The arrays a kernel receives have
  shapes compatible with them; where a kernel needs a shape before it has the value (an Assign
  of an uninitialized variable), these say what the graph declared.
- ``resources``: the variables and other state of the session's container for this device
  (``variable(name, device)`` gives a variable's handle, ``get_or_create(key, make)`` any other
  state); a variable's value is reached only through its handle (``numflow_kernels.handle``).
- ``device``: where the kernel runs, for memory: ``alloc(shape, dtype)``, ``copy_in``,
  ``copy_out``, ``copy``, ``is_host``.
- ``donated``: for an Assign, whether its value is a new buffer only it reads (it may be kept).
- ``subplans``: for a functional op (If, Case, While), what the runtime built for its kernel.
"""

__all__ = ["KernelContext", "compatible"]


class KernelContext:
    """The plain facts about one op that its kernel receives; see the module docstring."""

    __slots__ = ("op_name", "op_type", "attrs", "input_shapes", "input_dtypes", "output_shapes", "output_dtypes",
                 "resources", "device", "donated", "subplans")

    def __init__(self, op_name, op_type, attrs, input_shapes=(), input_dtypes=(), output_shapes=(),
                 output_dtypes=(), resources=None, device=None):
        self.op_name = op_name
        self.op_type = op_type
        self.attrs = attrs
        self.input_shapes = input_shapes
        self.input_dtypes = input_dtypes
        self.output_shapes = output_shapes
        self.output_dtypes = output_dtypes
        self.resources = resources
        self.device = device
        self.donated = False
        self.subplans = None


def compatible(static_shape, shape):
    """Whether an array of ``shape`` fits ``static_shape`` (a tuple with None for unknown dims, or
    None for an unknown rank), as ``TensorShape.is_compatible_with``.

    >>> compatible((2, None), (2, 5)), compatible((2, None), (3, 5)), compatible(None, ())
    (True, False, True)
    """
    return static_shape is None or len(static_shape) == len(shape) and all(
        d is None or d == n for d, n in zip(static_shape, shape))
