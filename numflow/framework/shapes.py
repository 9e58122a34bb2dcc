"""TensorShape and Dimension: shapes whose rank or sizes may be unknown until the graph runs.

As in TensorFlow 1, indexing or iterating a TensorShape gives :class:`Dimension` objects
(``x.shape[1].value``, ``int(x.shape[0])``), and ``as_list()`` gives ints and None.
``enable_v2_tensorshape()`` switches indexing to TensorFlow 2's plain ints. numflow's own code
reads shapes as ints whatever the switch says: through ``as_list()``, ``dim_values`` and
``dimension_value``.
"""

import operator

from numflow_kernels.errors import dims_text  # noqa: F401  (TensorFlow's way of printing dims, shared)

_v2_behavior = False


def enable_v2_tensorshape():
    """Index and iterate TensorShapes into ints and None, as TensorFlow 2 does."""
    global _v2_behavior
    _v2_behavior = True


def disable_v2_tensorshape():
    """Index and iterate TensorShapes into :class:`Dimension` objects, as TensorFlow 1 does (the default)."""
    global _v2_behavior
    _v2_behavior = False


def _as_operand(other):
    """``other`` as a Dimension, or None when it is none (the operator then gives NotImplemented)."""
    try:
        return as_dimension(other)
    except (TypeError, ValueError):
        return None


def _arithmetic(method):
    """``method`` on two sizes as a Dimension operator and its reflected twin: unknown if either size is."""

    def apply(a, b):
        return Dimension(None if a is None or b is None else method(a, b))

    def forward(self, other):
        other = _as_operand(other)
        return NotImplemented if other is None else apply(self._value, other._value)

    def reflected(self, other):
        other = _as_operand(other)
        return NotImplemented if other is None else apply(other._value, self._value)

    return forward, reflected


def _comparison(method, strict=True):
    """A comparison of two dimensions, None when either is unknown, as TensorFlow's. ``strict``: TypeError
    for something that is no dimension (``<``), else NotImplemented (``==``, so that ``d == "x"`` is False)."""

    def compare(self, other):
        other = as_dimension(other) if strict else _as_operand(other)
        if other is None:
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return method(self._value, other._value)

    return compare


def _true_division(reflected):
    def divide(self, other):
        a, b = (other, self) if reflected else (self, other)
        raise TypeError(f"unsupported operand type(s) for /: '{type(a).__name__}' and '{type(b).__name__}', "
                        "please use // instead")

    return divide


class Dimension:
    """One dimension of a TensorShape: a size, or unknown (``value is None``).

    Arithmetic with an unknown dimension (or None) is unknown, and so is a comparison (None):

    >>> Dimension(3) * 2, Dimension(None) + 1, Dimension(None) < 3
    (Dimension(6), Dimension(None), None)
    >>> str(Dimension(None)), int(Dimension(3)), list(range(Dimension(2)))
    ('?', 3, [0, 1])

    A Dimension is unhashable (as TensorFlow's), since equality with an unknown one is None.
    """

    __slots__ = ("_value",)
    __hash__ = None

    def __init__(self, value):
        if value is None:
            self._value = None
            return
        if type(value) is Dimension:
            self._value = value._value
            return
        if type(value) is not int:
            try:
                index = value.__index__
            except AttributeError:
                raise TypeError("Dimension value must be integer or None or have an __index__ method, got value "
                                f"'{value!r}' with type '{type(value)!r}'") from None
            value = int(index())
        if value < 0:
            raise ValueError(f"Dimension {value} must be >= 0")
        self._value = value

    @property
    def value(self):
        """The size as an int, or None when unknown."""
        return self._value

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __reduce__(self):
        return Dimension, (self._value,)

    def __int__(self):
        if self._value is None:
            raise TypeError("Cannot convert an unknown Dimension to an int: its size is known only when the graph "
                            "runs (test `dim.value is None` first, or use tf.shape(x) for the run-time size)")
        return self._value

    __index__ = __int__

    def __bool__(self):
        return bool(self._value)

    __eq__ = _comparison(operator.eq, strict=False)
    __ne__ = _comparison(operator.ne, strict=False)
    __lt__ = _comparison(operator.lt)
    __le__ = _comparison(operator.le)
    __gt__ = _comparison(operator.gt)
    __ge__ = _comparison(operator.ge)
    __add__, __radd__ = _arithmetic(operator.add)
    __sub__, __rsub__ = _arithmetic(operator.sub)
    __mul__, __rmul__ = _arithmetic(operator.mul)
    __floordiv__, __rfloordiv__ = _arithmetic(operator.floordiv)
    __mod__, __rmod__ = _arithmetic(operator.mod)
    __truediv__, __rtruediv__ = _true_division(False), _true_division(True)

    def is_compatible_with(self, other):
        """Whether ``other`` may be the same size: equal, or either unknown."""
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other):
        """ValueError unless :meth:`is_compatible_with` ``other``."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {as_dimension(other)} are not compatible")

    def merge_with(self, other):
        """The known one of this dimension and ``other``; ValueError when both are known and differ."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)


def as_dimension(value):
    """``value`` (a Dimension, an int, or None) as a Dimension."""
    return value if type(value) is Dimension else Dimension(value)


def dimension_value(dimension):
    """The int (or None) of ``dimension``, a Dimension or already an int: ``tf.compat.dimension_value``.

    >>> dimension_value(TensorShape([2, None])[0]), dimension_value(None)
    (2, None)
    """
    return dimension._value if type(dimension) is Dimension else dimension


def dimension_values(value):
    """``value`` with every Dimension in it (itself, or in nested lists and tuples) replaced by its int or None.

    >>> dimension_values([Dimension(2), [Dimension(None), 3]])
    [2, [None, 3]]
    """
    if type(value) is Dimension:
        return value._value
    if isinstance(value, list):
        return [dimension_values(v) for v in value]
    if isinstance(value, tuple):
        return tuple(dimension_values(v) for v in value)
    return value


def dimension_at_index(shape, index):
    """Dimension ``index`` of ``shape``, as a Dimension: unknown when the rank is (``tf.compat.dimension_at_index``)."""
    shape = as_shape(shape)
    return Dimension(None if shape._dims is None else shape.dim_values[index])


class TensorShape:
    """A possibly partial shape: ``None`` for an unknown rank, ``None`` in a dim for an unknown size.

    >>> TensorShape([2, None]).merge_with([None, 3]).as_list()
    [2, 3]
    >>> TensorShape(None).is_compatible_with([4, 5])
    True
    >>> TensorShape([2, None])[0], TensorShape([2, None]).dim_values
    (Dimension(2), [2, None])
    """

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        elif dims is not None and not isinstance(dims, list | tuple):
            try:
                dims = list(dims)
            except TypeError:
                dims = [dims]  # one size: an int, a Dimension
        if dims is None:
            self._dims = None
        elif all(type(d) is int and d >= 0 for d in dims):
            self._dims = tuple(dims)  # the common case: known sizes, already ints
        else:
            self._dims = tuple(_dim(d) for d in dims)

    @property
    def dims(self):
        """The dimensions as a list of :class:`Dimension`; None when the rank is unknown."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    @property
    def dim_values(self):
        """The dimensions as a list of ints, None for an unknown one; None when the rank is unknown."""
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

    def with_rank_at_most(self, rank):
        """This shape; ValueError when its rank is known and above ``rank``."""
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims) if _v2_behavior else (Dimension(d) for d in self._dims)

    def __getitem__(self, key):
        """A Dimension (an int in TensorFlow 2's mode) for an index, a TensorShape for a slice."""
        if isinstance(key, slice):
            return TensorShape(self._dims[key]) if self._dims is not None else _unknown_slice(key)
        value = None if self._dims is None else self._dims[key]
        return value if _v2_behavior else Dimension(value)

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
        if self._dims is None or _v2_behavior:
            return f"TensorShape({self.dim_values!r})"
        return f"TensorShape({self.dims!r})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        unknown = "None" if _v2_behavior else "?"
        inner = ", ".join(unknown if d is None else str(d) for d in self._dims)
        return f"({inner},)" if len(self._dims) == 1 else f"({inner})"


def _dim(d):
    if d is None:
        return None
    try:
        return Dimension(d)._value
    except ValueError:
        if operator.index(d) == -1:
            return None  # numflow reads -1 as unknown, as shape tensors write it
        raise


def _unknown_slice(key):
    """TensorFlow's slice of a shape of unknown rank: a rank when both ends are known and not negative."""
    if key.step is not None:
        raise ValueError("Steps are not yet handled")
    start = key.start if key.start is not None else 0
    if key.stop is None or start < 0 or key.stop < 0:
        return TensorShape(None)
    return TensorShape([None] * (key.stop - start))


def as_shape(shape):
    """``shape`` as a TensorShape."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None):
    return TensorShape(None if rank is None else [None] * rank)


def broadcast_shapes(a, b):
    """The static shape numpy broadcasting gives ``a`` and ``b``; ValueError when they cannot broadcast."""
    a, b = as_shape(a), as_shape(b)
    if a._dims == b._dims or b._dims == ():  # the common cases, made quickly: alike, or with a scalar
        return a
    if a._dims == ():
        return b
    if a.ndims is None or b.ndims is None:
        return TensorShape(None)
    da, db = a.dim_values, b.dim_values
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
