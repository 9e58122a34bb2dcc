"""The graphs behind ``data/tf_string_golden.npz``, written once for both engines: to_number, the hash buckets
(over many strings of every length class FarmHash and SipHash tell apart), case, strip, RE2 regexes, substr and
reduce_join, each case returning the tensors to fetch (values and names)."""

import numpy as np

_RNG = np.random.RandomState(11)
# Random bytes of lengths 0..140 and a few past 256: every branch of Fingerprint64 and SipHash's tail.
HASHED = [bytes(_RNG.randint(0, 256, size=n).astype(np.uint8)) for n in [*range(141), 255, 256, 257, 700]]
WORDS = np.array([[b"Hello World", b"  tab\tand space \n"], [b"\xc3\x89t\xc3\xa9 \xc3\x80", b"aaa_b1 C"]],
                 dtype=object)


def _hash_buckets(tf):
    return [tf.string_to_hash_bucket_fast(HASHED, 2**62 + 17), tf.strings.to_hash_bucket_fast(WORDS, 7),
            tf.string_to_hash_bucket_strong(HASHED, 2**62 + 17, [0x0123456789ABCDEF, -5], name="strong"),
            tf.strings.to_hash_bucket_strong(WORDS, 10, [1, 2])]


def _regex(tf):
    return [tf.regex_replace(WORDS, "[aeiou]+", r"<\0>"),
            tf.strings.regex_replace(WORDS, r"(\w)(\w)", r"\2\1\\", replace_global=False),
            tf.strings.regex_replace(WORDS, tf.constant(r"\s+"), tf.constant("_")),
            tf.strings.regex_replace([b"a\n", b"a", b"ba"], "a$", "X"),  # RE2's $: the very end only
            tf.strings.regex_replace([b"\xc3\xa9", b"a\xc3\xa9_1"], r"\w", "x"),  # ASCII classes
            tf.strings.regex_replace([b"\xc3\xa9z"], ".", "x", replace_global=False),  # one UTF-8 character
            tf.strings.regex_full_match(WORDS, r"[A-Z].*"), tf.strings.regex_full_match(WORDS, tf.constant(r".*\d.*")),
            tf.strings.regex_full_match([b"ab\n"], "(?m)ab$"),
            tf.strings.regex_replace([b"ab\n", b"cab", b"$a"], r"[$a]b?\z|a\\z", "<\\0>")]


CASES = {
    "to_number": lambda tf: [
        tf.string_to_number([" 1.5", "2e3 ", "-inf", "nan", "0x10", ".5", "1.", "1e400", "-1e-50", "3.4028236e38"]),
        tf.strings.to_number([[" 12", "-7"], ["+3", "2147483647"]], tf.int32),
        tf.strings.to_number(["-9223372036854775808", "0"], tf.int64, name="big"),
        tf.strings.to_number(["0.1", "1e308", "-0"], tf.float64),
        tf.strings.to_number(["4294967295"], tf.uint32), tf.strings.to_number(["18446744073709551615"], tf.uint64)],
    "hash_buckets": _hash_buckets,
    "case_and_strip": lambda tf: [tf.strings.lower(WORDS), tf.strings.upper(WORDS), tf.strings.lower(WORDS, "utf-8"),
                                  tf.strings.upper(WORDS, encoding="utf-8"), tf.strings.strip(WORDS)],
    "regex": _regex,
    "substr": lambda tf: [tf.substr(WORDS, 1, 3), tf.strings.substr(WORDS, [-2, 0], [10, -1]),
                          tf.strings.substr(WORDS, [[0, 2], [4, 1]], [[2, 2], [0, 9]], name="per_element"),
                          tf.strings.substr(WORDS[0], np.int64(2), np.int64(4))],
    "reduce_join": lambda tf: [tf.strings.reduce_join(WORDS), tf.reduce_join(WORDS, 0, separator=b"|"),
                               tf.strings.reduce_join(WORDS, -1, keep_dims=True, separator=", "),
                               tf.strings.reduce_join(WORDS, [1, 0]), tf.reduce_join(WORDS, [], name="none"),
                               tf.strings.reduce_join(np.zeros([0, 2], dtype=object).astype(bytes), 0)],
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run (string tensors as NumPy bytes arrays), and
    their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            values = sess.run(outs)
        return [v.astype(bytes) if np.asarray(v).dtype == object else v for v in values], [t.name for t in outs]
