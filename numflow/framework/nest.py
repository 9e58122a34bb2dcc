"""Nested structures of tensors (``tf.nest``): flatten, pack, map and compare them as TensorFlow does.

A structure is a list, tuple, namedtuple or dict (taken in sorted key order) of structures, a dict's
``keys()``, ``values()`` or ``items()`` view (taken in its own order), or a leaf: anything else (a
Tensor, a TensorArray, an IndexedSlices, None, a number).

>>> flatten({"b": (1, 2), "a": [3]})
[3, 1, 2]
>>> pack_sequence_as({"b": (0, 0), "a": [0]}, [3, 1, 2])
{'b': (1, 2), 'a': [3]}
"""

import collections.abc


def is_nested(value):
    """Whether ``value`` is a list, tuple, namedtuple, mapping or mapping view (not a leaf)."""
    return isinstance(value, list | tuple | collections.abc.Mapping | collections.abc.MappingView)


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _children(value):
    if isinstance(value, collections.abc.Mapping):
        return [value[k] for k in _sorted_keys(value)]
    return list(value)


def _sorted_keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def flatten(structure):
    """The leaves of ``structure``, depth first (a leaf alone gives a one-element list)."""
    if not is_nested(structure):
        return [structure]
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def _rebuild(template, children):
    if isinstance(template, collections.abc.Mapping):
        by_key = dict(zip(_sorted_keys(template), children))
        kind = type(template)
        if kind is collections.defaultdict:
            out = collections.defaultdict(template.default_factory)
            out.update((k, by_key[k]) for k in template)
            return out
        return kind((k, by_key[k]) for k in template)
    if _is_namedtuple(template):
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children)
    return list(children)


def pack_sequence_as(structure, flat_sequence):
    """``flat_sequence`` put into the shape of ``structure``.

    Raises
    ------
    ValueError
        When the number of leaves differs.
    """
    flat_sequence = list(flat_sequence)
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    count = len(flatten(structure))
    if count != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {count} atoms, but flat_sequence had {len(flat_sequence)} "
            "items.")
    leaves = iter(flat_sequence)

    def pack(template):
        if not is_nested(template):
            return next(leaves)
        return _rebuild(template, [pack(c) for c in _children(template)])

    return pack(structure)


def map_structure(fn, *structures, check_types=True):
    """``fn`` applied to the leaves of ``structures`` (which share one structure), packed as the first."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in zip(*flats)])


def _text(value):
    return f"type={type(value).__name__} str={value}"


def _skeleton(value):
    """``value`` with each leaf drawn as ``.``, as TensorFlow's messages print a structure."""
    if not is_nested(value):
        return "."
    if isinstance(value, collections.abc.Mapping):
        return "{" + ", ".join(f"{k!r}: {_skeleton(value[k])}" for k in value) + "}"
    inner = ", ".join(_skeleton(c) for c in value)
    if isinstance(value, list):
        return f"[{inner}]"
    return f"({inner},)" if len(value) == 1 else f"({inner})"


def _mismatch(a, b, check_types):
    """``(exception class, detail)`` for the first difference between ``a`` and ``b``, or None."""
    if is_nested(a) != is_nested(b):
        seq, other = (a, b) if is_nested(a) else (b, a)
        return ValueError, f'Substructure "{_text(seq)}" is a sequence, while substructure "{_text(other)}" is not'
    if not is_nested(a):
        return None
    if check_types and type(a) is not type(b):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First structure {_text(a)} has "
                           f"type {type(a).__name__}, while second structure {_text(b)} has type {type(b).__name__}")
    if isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping):
        if set(a) != set(b):
            return ValueError, ("The two dictionaries don't have the same set of keys. First structure has keys "
                                f"{_sorted_keys(a)}, while second structure has keys {_sorted_keys(b)}")
    if len(a) != len(b):
        return ValueError, (f"The two structures don't have the same number of elements. First structure: "
                            f"{_text(a)}. Second structure: {_text(b)}.")
    for x, y in zip(_children(a), _children(b)):
        found = _mismatch(x, y, check_types)
        if found is not None:
            return found
    return None


def assert_same_structure(nest1, nest2, check_types=True):
    """Raise TensorFlow's error when ``nest1`` and ``nest2`` differ in nesting, length, keys or
    (``check_types``) sequence types: ValueError, or TypeError for a type difference."""
    found = _mismatch(nest1, nest2, check_types)
    if found is None:
        return
    cls, detail = found
    raise cls(
        "The two structures don't have the same nested structure.\n\n"
        f"First structure: {_text(nest1)}\n\nSecond structure: {_text(nest2)}\n\n"
        f"More specifically: {detail}\nEntire first structure:\n{_skeleton(nest1)}\n"
        f"Entire second structure:\n{_skeleton(nest2)}"
    )
