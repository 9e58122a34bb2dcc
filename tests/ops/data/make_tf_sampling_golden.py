"""Regenerate tf_sampling_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_sampling_golden.py   # any environment with tensorflow

TensorFlow 2.21 (compat.v1) outputs of the candidate samplers (two runs of each, for fixed
seeds), compute_accidental_hits, nce_loss and sampled_softmax_loss (with their gradients), and
embedding_lookup_sparse.
"""

import os
import pathlib
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

TRUE_CLASSES = np.array([[1, 5], [3, 0], [7, 7], [2, 9]], np.int64)
UNIGRAMS = [5.0, 1.0, 2.0, 8.0, 3.0, 1.0, 1.0, 4.0, 2.0, 9.0]
VOCABULARY = "".join(f"w{i},{c}\n" for i, c in enumerate([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8]))


def samplers(arrays, fetches, vocab_path):
    arrays["sampler_true_classes"] = TRUE_CLASSES
    arrays["sampler_vocabulary"] = np.frombuffer(VOCABULARY.encode(), np.uint8)
    for unique in (True, False):
        u = "unique" if unique else "repeats"
        fetches[f"log_uniform_{u}"] = tf.nn.log_uniform_candidate_sampler(TRUE_CLASSES, 2, 6, unique, 20, seed=11)
        fetches[f"log_uniform_big_{u}"] = tf.nn.log_uniform_candidate_sampler(TRUE_CLASSES, 2, 64, unique, 100000,
                                                                              seed=21)
        fetches[f"uniform_{u}"] = tf.nn.uniform_candidate_sampler(TRUE_CLASSES, 2, 6, unique, 20, seed=12)
        fetches[f"uniform_pow2_{u}"] = tf.nn.uniform_candidate_sampler(TRUE_CLASSES, 2, 5, unique, 16, seed=22)
        fetches[f"learned_{u}"] = tf.nn.learned_unigram_candidate_sampler(TRUE_CLASSES, 2, 6, unique, 10, seed=13)
        fetches[f"fixed_{u}"] = tf.nn.fixed_unigram_candidate_sampler(TRUE_CLASSES, 2, 6, unique, 10,
                                                                      unigrams=UNIGRAMS, distortion=0.75, seed=14)
        fetches[f"fixed_sharded_{u}"] = tf.nn.fixed_unigram_candidate_sampler(
            TRUE_CLASSES[:, :1] // 2, 1, 3, unique, 6, unigrams=UNIGRAMS, num_reserved_ids=2, num_shards=2, shard=1,
            seed=15)
        fetches[f"fixed_vocab_{u}"] = tf.nn.fixed_unigram_candidate_sampler(TRUE_CLASSES, 2, 5, unique, 12,
                                                                            vocab_file=vocab_path, seed=16)
    fetches["accidental_hits"] = tf.nn.compute_accidental_hits(TRUE_CLASSES, [9, 1, 7, 1, 4, 3], 2)


def main():
    arrays, fetches = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        vocab_path = os.path.join(tmp, "vocab.csv")
        with open(vocab_path, "w") as f:
            f.write(VOCABULARY)
        with tf.Graph().as_default():
            samplers(arrays, fetches, vocab_path)
            with tf.Session() as sess:
                runs = [sess.run(fetches) for _ in range(2)]
    for run, results in enumerate(runs):
        for key, value in results.items():
            for i, v in enumerate(value):
                arrays[f"out_{key}_run{run}_{i}"] = v
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_sampling_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
