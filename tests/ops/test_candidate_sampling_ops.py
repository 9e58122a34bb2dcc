"""Candidate samplers and compute_accidental_hits: TensorFlow's numbers for the same seeds (two runs
of each, learned weights included), static shapes, determinism, and TensorFlow's errors.

``data/tf_sampling_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_sampling_golden.py``.
"""

import pathlib

import numpy as np
import pytest

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_sampling_golden.npz")
TRUE_CLASSES = GOLDEN["sampler_true_classes"]
UNIGRAMS = [5.0, 1.0, 2.0, 8.0, 3.0, 1.0, 1.0, 4.0, 2.0, 9.0]


def _samplers(vocab_path):
    t = TRUE_CLASSES
    fetches = {}
    for unique in (True, False):
        u = "unique" if unique else "repeats"
        fetches[f"log_uniform_{u}"] = tf.nn.log_uniform_candidate_sampler(t, 2, 6, unique, 20, seed=11)
        fetches[f"log_uniform_big_{u}"] = tf.nn.log_uniform_candidate_sampler(t, 2, 64, unique, 100000, seed=21)
        fetches[f"uniform_{u}"] = tf.nn.uniform_candidate_sampler(t, 2, 6, unique, 20, seed=12)
        fetches[f"uniform_pow2_{u}"] = tf.nn.uniform_candidate_sampler(t, 2, 5, unique, 16, seed=22)
        fetches[f"learned_{u}"] = tf.nn.learned_unigram_candidate_sampler(t, 2, 6, unique, 10, seed=13)
        fetches[f"fixed_{u}"] = tf.nn.fixed_unigram_candidate_sampler(t, 2, 6, unique, 10, unigrams=UNIGRAMS,
                                                                      distortion=0.75, seed=14)
        fetches[f"fixed_sharded_{u}"] = tf.nn.fixed_unigram_candidate_sampler(
            t[:, :1] // 2, 1, 3, unique, 6, unigrams=UNIGRAMS, num_reserved_ids=2, num_shards=2, shard=1, seed=15)
        fetches[f"fixed_vocab_{u}"] = tf.nn.fixed_unigram_candidate_sampler(t, 2, 5, unique, 12,
                                                                            vocab_file=vocab_path, seed=16)
    fetches["accidental_hits"] = tf.nn.compute_accidental_hits(t, [9, 1, 7, 1, 4, 3], 2)
    return fetches


def test_samplers_draw_tensorflows_numbers_run_after_run(tmp_path):
    vocab = tmp_path / "vocab.csv"
    vocab.write_bytes(GOLDEN["sampler_vocabulary"].tobytes())
    fetches = _samplers(str(vocab))
    with tf.Session() as sess:
        runs = [sess.run(fetches) for _ in range(2)]
    for run, results in enumerate(runs):
        for key, value in results.items():
            for i, v in enumerate(value):
                want = GOLDEN[f"out_{key}_run{run}_{i}"]
                assert v.dtype == want.dtype, (key, i)
                np.testing.assert_array_equal(v, want, err_msg=f"{key} run {run} output {i}")


def test_same_seeds_same_numbers_in_a_new_session_and_graph_seed():
    def draw():
        out = tf.nn.log_uniform_candidate_sampler([[1]], 1, 5, True, 50)
        with tf.Session() as sess:
            return [sess.run(out.sampled_candidates) for _ in range(2)]

    with tf.Graph().as_default():
        tf.set_random_seed(7)
        first = draw()
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        again = draw()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first[0], first[1])


def test_ops_shapes_and_names_are_tensorflows():
    labels = tf.placeholder(tf.int64, [None, 3])
    out = tf.nn.log_uniform_candidate_sampler(labels, 3, 8, True, 100, seed=1)
    op = out.sampled_candidates.op
    assert op.type == "LogUniformCandidateSampler" and op.name == "LogUniformCandidateSampler"
    assert [t.shape.as_list() for t in out] == [[8], [None, 3], [8]]
    assert [t.dtype for t in out] == [tf.int64, tf.float32, tf.float32]
    assert op.get_attr("range_max") == 100 and op.get_attr("unique") is True and op.get_attr("seed2") == 1
    assert tf.gradients(out.true_expected_count, labels) == [None]
    hits = tf.nn.compute_accidental_hits(labels, out.sampled_candidates, 3, name="hits")
    assert hits.indices.op.name == "hits" and [t.shape.as_list() for t in hits] == [[None]] * 3
    everything = tf.nn.all_candidate_sampler(labels, 3, 4, True)
    with tf.Session() as sess:
        got = sess.run(everything, {labels: [[1, 2, 3]]})
    np.testing.assert_array_equal(got[0], [0, 1, 2, 3])
    np.testing.assert_array_equal(got[1], [[1, 1, 1]])


def test_errors_are_tensorflows(tmp_path):
    with pytest.raises(TypeError, match="Input 'true_classes' of 'UniformCandidateSampler' Op has type int32 that "
                                        "does not match expected type of int64."):
        tf.nn.uniform_candidate_sampler(tf.constant([[1]]), 1, 2, True, 5)
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.nn.uniform_candidate_sampler([1, 2], 1, 2, True, 5)
    feed = tf.placeholder(tf.int64)
    cases = [
        (tf.nn.uniform_candidate_sampler(feed, 1, 6, True, 5), [[1]], "Sampler's range is too small."),
        (tf.nn.uniform_candidate_sampler(feed, 1, 2, True, 5), [[5]],
         r"`true_candidate` out of range \[0, 5\), received 5"),
        (tf.nn.uniform_candidate_sampler(feed, 2, 2, True, 5), [[1]],
         "true_classes must have num_true columns, expected: 1 was: 2"),
        (tf.nn.fixed_unigram_candidate_sampler(feed, 1, 2, True, 4, unigrams=[1.0, 2.0]), [[1]],
         "range is 4 must be equal to weights size  2"),
        (tf.nn.fixed_unigram_candidate_sampler(feed, 1, 2, True, 4), [[1]], "Must provide either vocab_file or "
                                                                            "unigrams."),
    ]
    for out, value, message in cases:
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(out, {feed: value})
    bad = tmp_path / "bad.csv"
    bad.write_text("a,1\nb,x\n")
    out = tf.nn.fixed_unigram_candidate_sampler([[0]], 1, 1, True, 2, vocab_file=str(bad))
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="Wrong vocabulary format at line: "
                                                                                   "b,x"):
        sess.run(out)
