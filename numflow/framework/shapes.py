"""TensorShape: a shape whose rank or dimensions may be unknown until run time."""

from numflow_kernels.errors import dims_text  # noqa: F401  (TensorFlow's way of printing dims, shared)


class TensorShape:
    """A possibly partial shape: ``None`` for an unknown rank, ``None`` in a dim for an unknown size.

    >>> TensorShape([2, None]).merge_with([None, 3]).as_list()
    [2, 3]
    >>> TensorShape(None).is_compatible_with([4, 5])
    True
    """

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        elif dims is not None and not isinstance(dims, (list, tuple)):
            dims = [dims] if isinstance(dims, int) else list(dims)
        if dims is None:
            self._dims = None
        elif all(type(d) is int and d >= 0 for d in dims):
            self._dims = tuple(dims)  # the common case: known sizes, already ints
        else:
            self._dims = tuple(_dim(d) for d in dims)

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    rank = ndims

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other):
        """The most specific shape compatible with both; ValueError when they conflict."""
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_has_rank(self, rank):
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank):
        if self._dims is None:
            return TensorShape([None] * rank)
        self.assert_has_rank(rank)
        return self

    def with_rank_at_least(self, rank):
        """This shape; ValueError when its rank is known and below ``rank``."""
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self):
        return hash(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __repr__(self):
        return f"TensorShape({self.dims!r})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        inner = ", ".join("?" if d is None else str(d) for d in self._dims)
        return f"({inner},)" if len(self._dims) == 1 else f"({inner})"


def _dim(d):
    if d is None:
        return None
    if hasattr(d, "value"):
        return d.value
    d = int(d)
    if d < -1:
        raise ValueError(f"Dimension {d} must be >= 0 (or -1 / None for unknown)")
    return None if d == -1 else d


def as_shape(shape):
    """``shape`` as a TensorShape."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None):
    return TensorShape(None if rank is None else [None] * rank)


def broadcast_shapes(a, b):
    """The static shape numpy broadcasting gives ``a`` and ``b``; ValueError when they cannot broadcast."""
    a, b = as_shape(a), as_shape(b)
    if a.ndims is None or b.ndims is None:
        return TensorShape(None)
    da, db = a.dims, b.dims
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        elif x == y:
            out.append(x)
        else:
            raise ValueError(f"Dimensions must be equal, but are {x} and {y}")
    return TensorShape(out)
