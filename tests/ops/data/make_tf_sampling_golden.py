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


def dense(grad):
    return tf.convert_to_tensor(grad)


def embeddings_and_losses(rng, arrays, fetches):
    """Partitioned embedding_lookup; nce_loss and sampled_softmax_loss over one and three weight tensors."""
    table = rng.randn(11, 3).astype(np.float32)
    ids = np.array([[10, 0, 3], [5, 5, 7]], np.int64)
    arrays.update(embedding_table=table, embedding_ids=ids)
    for strategy, parts in (("mod", [table[0::3], table[1::3], table[2::3]]), ("div", [table[0:4], table[4:8],
                                                                                      table[8:]])):
        variables = [tf.Variable(p, name=f"{strategy}_part_{i}") for i, p in enumerate(parts)]
        out = tf.nn.embedding_lookup(variables, ids, partition_strategy=strategy)
        fetches[f"lookup_{strategy}"] = [out]
        fetches[f"lookup_{strategy}_grad"] = [dense(g) for g in tf.gradients(out * out, variables)]
    num_classes, dim, batch = 30, 4, 5
    weights = rng.randn(num_classes, dim).astype(np.float32)
    biases = rng.randn(num_classes).astype(np.float32)
    inputs = rng.randn(batch, dim).astype(np.float32)
    labels = np.array([[1, 2], [0, 29], [5, 5], [7, 3], [2, 1]], np.int64)
    arrays.update(loss_weights=weights, loss_biases=biases, loss_inputs=inputs, loss_labels=labels)
    for parts in (1, 3):
        w = tf.Variable(weights, name=f"w{parts}") if parts == 1 else [
            tf.Variable(weights[i::3], name=f"w{parts}_{i}") for i in range(3)]
        b, x = tf.Variable(biases, name=f"b{parts}"), tf.Variable(inputs, name=f"x{parts}")
        for loss_name, fn, kwargs in (
                ("nce", tf.nn.nce_loss, dict(num_true=2)),
                ("nce_hits", tf.nn.nce_loss, dict(num_true=2, remove_accidental_hits=True)),
                ("sampled_softmax", tf.nn.sampled_softmax_loss, dict(num_true=2)),
                ("sampled_softmax_keep", tf.nn.sampled_softmax_loss, dict(num_true=2, remove_accidental_hits=False)),
                ("sampled_softmax_1", tf.nn.sampled_softmax_loss, dict(num_true=1))):
            y = labels if kwargs["num_true"] == 2 else labels[:, :1]
            sampled = tf.nn.log_uniform_candidate_sampler(y, kwargs["num_true"], 8, True, num_classes, seed=31)
            loss = fn(w, b, y, x, 8, num_classes, sampled_values=sampled, **kwargs)
            key = f"{loss_name}_{parts}"
            fetches[key] = [loss, sampled[0]]
            fetches[key + "_grad"] = [dense(g) for g in tf.gradients(loss, (w if parts == 3 else [w]) + [b, x])]
    seeded = tf.nn.sampled_softmax_loss(tf.constant(weights), tf.constant(biases), labels[:, :1], inputs, 6,
                                        num_classes, seed=5)
    fetches["sampled_softmax_seeded"] = [seeded]


def sparse_embeddings(rng, arrays, fetches):
    """embedding_lookup_sparse for every combiner, with and without weights, over one and two
    partitions; the sparse segment reductions; values and gradients."""
    table = rng.randn(7, 3).astype(np.float32)
    indices = np.array([[0, 0], [0, 1], [0, 2], [2, 0], [3, 0], [3, 1]], np.int64)
    ids = np.array([4, 1, 4, 0, 6, 2], np.int64)
    weights = rng.uniform(0.5, 2.0, size=6).astype(np.float32)
    arrays.update(sparse_table=table, sparse_indices=indices, sparse_ids=ids, sparse_weights=weights)
    sp_ids = tf.SparseTensor(indices, ids, [4, 3])
    sp_weights = tf.SparseTensor(indices, weights, [4, 3])
    for parts in (1, 2):
        params = tf.Variable(table, name=f"table{parts}") if parts == 1 else [
            tf.Variable(table[i::2], name=f"table{parts}_{i}") for i in range(2)]
        for combiner in ("sum", "mean", "sqrtn"):
            for weighted in (False, True):
                out = tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights if weighted else None,
                                                    combiner=combiner)
                key = f"els_{parts}_{combiner}_{weighted}"
                fetches[key] = [out]
                grads = tf.gradients(out * out, params if parts == 2 else [params])
                fetches[key + "_grad"] = [dense(g) for g in grads]
    data = tf.constant(table)
    for name, fn in (("sum", tf.sparse_segment_sum), ("mean", tf.sparse_segment_mean),
                     ("sqrt_n", tf.sparse_segment_sqrt_n)):
        out = fn(data, [0, 2, 2, 5], [0, 0, 2, 2])
        fetches[f"segment_{name}"] = [out, dense(tf.gradients(out * out, data)[0])]


def main():
    arrays, fetches = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        vocab_path = os.path.join(tmp, "vocab.csv")
        with open(vocab_path, "w") as f:
            f.write(VOCABULARY)
        with tf.Graph().as_default():
            samplers(arrays, fetches, vocab_path)
            embeddings_and_losses(np.random.RandomState(0), arrays, fetches)
            sparse_embeddings(np.random.RandomState(1), arrays, fetches)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                runs = [sess.run(fetches) for _ in range(2)]
    for run, results in enumerate(runs):
        for key, value in results.items():
            for i, v in enumerate(value):
                arrays[f"out_{key}_run{run}_{i}"] = v
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_sampling_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
