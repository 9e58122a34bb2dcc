"""DTypes and TensorShape: conversion, equality, compatibility, merging."""

import numpy as np
import pytest

import numflow as tf

TS = tf.TensorShape

ALL = [
    ("float16", np.float16, 19), ("float32", np.float32, 1), ("float64", np.float64, 2),
    ("int8", np.int8, 6), ("int16", np.int16, 5), ("int32", np.int32, 3), ("int64", np.int64, 9),
    ("uint8", np.uint8, 4), ("bool", np.bool_, 10),
]


@pytest.mark.parametrize("name, np_type, enum", ALL)
def test_as_dtype_from_every_spelling(name, np_type, enum):
    dtype = getattr(tf, name)
    for spelling in (dtype, name, np_type, np.dtype(np_type), enum):
        assert tf.as_dtype(spelling) is dtype
    assert dtype.name == name
    assert dtype.as_numpy_dtype is np_type
    assert dtype.base_dtype is dtype
    assert dtype.as_datatype_enum == enum


def test_aliases():
    assert tf.as_dtype("half") is tf.float16 is tf.half
    assert tf.as_dtype("double") is tf.float64 is tf.double


def test_string_dtype():
    assert tf.as_dtype("string") is tf.string
    assert tf.as_dtype(np.dtype("S3")) is tf.string


@pytest.mark.parametrize("bad", ["foo", np.complex256 if hasattr(np, "complex256") else "quux", 1000])
def test_as_dtype_rejects_unknown_types(bad):
    with pytest.raises(TypeError, match="to a TensorFlow DType"):
        tf.as_dtype(bad)


def test_dtype_equality():
    assert tf.float32 == "float32" and tf.float32 == np.float32 and tf.float32 == tf.as_dtype("float32")
    assert tf.float32 != tf.float64 and tf.float32 != "nope" and tf.float32 != None  # noqa: E711
    assert tf.float32.is_compatible_with(tf.float32)
    assert not tf.float32.is_compatible_with(tf.float64)
    assert len({tf.float32, tf.as_dtype("float32"), tf.int32}) == 2


def test_dtype_properties():
    assert tf.float32.is_floating and not tf.float32.is_integer
    assert tf.int8.is_integer and not tf.int8.is_unsigned and tf.uint8.is_unsigned
    assert tf.bool.is_bool and not tf.bool.is_integer
    assert (tf.int8.min, tf.int8.max, tf.uint8.max) == (-128, 127, 255)
    assert (tf.float16.size, tf.float64.size, tf.int32.size) == (2, 8, 4)
    assert repr(tf.float32) == "tf.float32"


# -- TensorShape -------------------------------------------------------------------------------
def test_shape_properties():
    s = TS([2, None, 3])
    assert (s.ndims, s.rank, s.as_list()) == (3, 3, [2, None, 3])
    assert not s.is_fully_defined() and s.num_elements() is None
    assert (TS([2, 3]).num_elements(), TS([]).num_elements()) == (6, 1)
    assert s[0] == 2 and s[-1] == 3
    assert s[1:].as_list() == [None, 3]
    assert len(s) == 3 and len(list(s)) == 3


def test_unknown_shape():
    s = TS(None)
    assert s.ndims is None and s.dims is None and not s.is_fully_defined()
    with pytest.raises(ValueError, match=r"as_list\(\) is not defined on an unknown TensorShape."):
        s.as_list()


def test_shape_strings():
    assert [str(TS(d)) for d in (None, [], [1], [1, None])] == ["<unknown>", "()", "(1,)", "(1, ?)"]


@pytest.mark.parametrize(
    "a, b, ok",
    [
        (None, [1], True), ([1, None], [1, 5], True), ([1], [1, 2], False), ([], None, True),
        ([2, 3], [2, 3], True), ([2, 3], [3, 2], False), ([], [], True), ([None], [], False),
    ],
)
def test_is_compatible_with(a, b, ok):
    assert TS(a).is_compatible_with(TS(b)) is ok
    assert TS(b).is_compatible_with(a) is ok


def test_merge_with_takes_the_known_dims():
    assert TS([2, None]).merge_with([None, 3]).as_list() == [2, 3]
    assert TS([2, 3]).merge_with(TS(None)).as_list() == [2, 3]
    assert TS(None).merge_with([None, 4]).as_list() == [None, 4]


@pytest.mark.parametrize("other", [[3, 3], [2]])
def test_merge_with_conflict(other):
    with pytest.raises(ValueError, match=r"Shapes \(2, 3\) and .* are not compatible"):
        TS([2, 3]).merge_with(other)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ([None, 8], [None, 8], [None, 8]), ([None, 8], [], [None, 8]), ([], [2, None], [2, None]),
        ([], [], []), ([], None, None), (None, None, None), ([2, 1], [3], [2, 3]), ([None, 1], [4], [None, 4]),
        ([1, None], [None, 1], [None, None]), ([3], None, None),
    ],
)
def test_static_shapes_broadcast_as_numpy(graph, a, b, expected):
    # the static shape of an elementwise op: numpy's rule, an unknown size or rank staying unknown
    x, y = tf.placeholder(tf.float32, a), tf.placeholder(tf.float32, b)
    assert (x + y).shape == TS(expected) and (y * x).shape == TS(expected)


def test_shape_equality():
    assert TS([1, None]) == TS([1, None]) and TS([1, None]) == [1, None]
    assert TS(None) == TS(None) and TS([1]) != TS([2])


def test_set_shape_narrows_and_checks(graph):
    x = tf.placeholder(tf.float32, shape=[None, None])
    x.set_shape([2, None])
    assert x.shape.as_list() == [2, None]
    with pytest.raises(ValueError):
        x.set_shape([3, 4])
