"""to_number, the hash buckets, case, strip, regex_replace/full_match, substr and reduce_join against TensorFlow's
values and names (``data/tf_string_golden.npz``, made by ``data/make_tf_case_goldens.py`` from the graphs of
``string_cases.py``), their static shapes and errors; the two hashes against their published test vectors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from string_cases import CASES, run_case

import numflow as tf
from numflow_kernels.string_hash import fingerprint64, siphash24

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_string_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name)


def test_siphash_reference_vectors():
    # The SipHash paper's appendix: key 00..0f, messages 00, 00 01, ... (first, 8th and 16th vectors).
    key0, key1 = int.from_bytes(bytes(range(8)), "little"), int.from_bytes(bytes(range(8, 16)), "little")
    assert siphash24(key0, key1, b"") == 0x726FDB47DD0E0E31
    assert siphash24(key0, key1, bytes(range(7))) == 0xAB0200F58B01D137
    assert siphash24(key0, key1, bytes(range(15))) == 0xA129CA6149BE45E5


def test_fingerprint64_of_empty_and_one_byte_strings():
    # farmhashna: k2 for "", and ShiftMix(y * k2 ^ z * k0) * k2 for one byte (y = c + (c << 8), z = 1 + (c << 2)).
    k0, k2, mask = 0xC3A5C85C97CB3127, 0x9AE16A3B2F90404F, 2**64 - 1
    assert fingerprint64(b"") == k2
    y, z = ord("a") * 257, 1 + (ord("a") << 2)
    mixed = ((y * k2) ^ (z * k0)) & mask
    assert fingerprint64(b"a") == ((mixed ^ (mixed >> 47)) * k2) & mask


def test_static_shapes_and_dtypes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.string, [None, 3])
        assert tf.strings.to_number(x, tf.int64).dtype == tf.int64
        assert tf.strings.to_hash_bucket_fast(x, 4).shape.as_list() == [None, 3]
        assert tf.strings.upper(x).shape.as_list() == [None, 3]
        assert tf.strings.regex_full_match(x, "a").dtype == tf.bool
        assert tf.strings.substr(x, 0, 1).shape.as_list() == [None, 3]
        assert tf.strings.substr(x, [0, 1, 2], [1, 1, 1]).shape.as_list() == [None, 3]
        assert tf.strings.reduce_join(x, 1, keep_dims=True).shape.as_list() == [None, 1]
        assert tf.strings.reduce_join(x).shape.as_list() == []


def test_build_errors():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="parameter 'out_type' has DataType float16 not in list of allowed"):
            tf.strings.to_number(["1"], tf.float16)
        with pytest.raises(ValueError, match="Attr 'num_buckets' of 'StringToHashBucketFast' Op passed 0 less than "
                                             "minimum 1."):
            tf.strings.to_hash_bucket_fast(["a"], 0)
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 0"):
            tf.strings.substr(["hello", "hi"], [0, 3], 1)
        with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 dimensions."):
            tf.strings.reduce_join([["a", "b"]], 2)
        with pytest.raises(TypeError, match="parameter 'input' has DataType float32"):
            tf.strings.strip([1.0])


@pytest.mark.parametrize("build, message", [
    (lambda: tf.string_to_number(["1", "abc"]), "StringToNumberOp could not correctly convert string: abc"),
    (lambda: tf.strings.to_number([" 0x1F "], tf.uint32), "could not correctly convert string:  0x1F "),
    (lambda: tf.strings.to_number(["-1"], tf.uint32), "could not correctly convert string: -1"),
    (lambda: tf.strings.to_number(["2147483648"], tf.int32), "could not correctly convert string: 2147483648"),
    (lambda: tf.strings.to_number(["1_0"]), "could not correctly convert string: 1_0"),
    (lambda: tf.string_to_hash_bucket_strong(["a"], 10, [1]), "Key must have 2 elements"),
    (lambda: tf.strings.lower(["A"], encoding="latin"), "only utf-8 or '' \\(no encoding\\) is supported, received "
                                                         "latin"),
    (lambda: tf.strings.substr(["hello"], -6, 1), "pos -6 out of range for string b'hello' at index 0"),
    (lambda: tf.strings.substr(["ab", "hello"], 3, 1), "pos 3 out of range for string b'ab' at index 0"),
    (lambda: tf.strings.regex_replace(["ab"], "(", "x"), "Invalid pattern: \\(, error: missing \\)"),
    (lambda: tf.strings.regex_replace(["ab"], "(?=b)", "x"), "Invalid pattern: \\(\\?=b\\), error: lookaround"),
    (lambda: tf.strings.regex_full_match(["aa"], r"(a)\1"), "error: backreferences"),
    (lambda: tf.strings.regex_full_match(["a"], tf.constant(r"\pL")), "error: \\\\p"),
    (lambda: tf.strings.regex_replace(["ab"], "a", r"\x"), "Invalid rewrite pattern"),
])
def test_run_errors(build, message):
    with tf.Graph().as_default():
        out = build()
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(out)


def test_strings_are_not_differentiable():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        assert tf.gradients(tf.reduce_sum(tf.strings.to_number(tf.as_string(x))), x) == [None]


def test_reduce_join_travels_through_a_graph_def_as_tensorflow_writes_it():
    with tf.Graph().as_default() as g:
        tf.strings.reduce_join([["a", "b"], ["c", "d"]], 1, separator="-", name="joined")
        graph_def = g.as_graph_def()
    node = next(n for n in graph_def.node if n.op == "ReduceJoin")
    assert (list(node.input), sorted(node.attr)) == (["ReduceJoin/Const", "ReduceJoin/joined/reduction_indices"],
                                                     ["keep_dims", "separator"])
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            assert sess.run("ReduceJoin/joined:0").tolist() == [b"a-b", b"c-d"]


def test_a_bytes_separator_joins_as_its_text():
    with tf.Graph().as_default(), tf.Session() as sess:
        joined = tf.strings.join([tf.constant(["a", "b"]), "c"], separator=b"|")
        reduced = tf.strings.reduce_join(tf.constant(["a", "b"]), separator=b"|")
        assert sess.run(joined).tolist() == [b"a|c", b"b|c"] and sess.run(reduced) == b"a|b"
