"""Skip-gram word2vec: embedding_lookup, nce_loss with its default sampler, normalized embeddings and
cosine-similarity nearest words with top_k."""

import collections

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(17)
    rng = np.random.RandomState(17)
    words = ("the quick brown fox jumps over the lazy dog while the cat sleeps under the warm sun and the "
             "dog barks at the fox near the old tree").split() * 6
    count = [["UNK", -1]] + collections.Counter(words).most_common(24)
    dictionary = {word: i for i, (word, _) in enumerate(count)}
    reverse = {i: w for w, i in dictionary.items()}
    data = [dictionary.get(w, 0) for w in words]
    pairs = [(data[i], data[i + d]) for i in range(1, len(data) - 1) for d in (-1, 1)]
    vocabulary_size, embedding_size, batch_size, num_sampled = len(count), 8, 16, 5
    print("Vocabulary size:", vocabulary_size, "Most common words:", count[1:5])

    train_inputs = tf.placeholder(tf.int32, shape=[batch_size])
    train_labels = tf.placeholder(tf.int32, shape=[batch_size, 1])
    valid_dataset = tf.constant([1, 2, 3], dtype=tf.int32)
    embeddings = tf.Variable(tf.random_uniform([vocabulary_size, embedding_size], -1.0, 1.0))
    embed = tf.nn.embedding_lookup(embeddings, train_inputs)
    nce_weights = tf.Variable(tf.truncated_normal([vocabulary_size, embedding_size],
                                                  stddev=1.0 / np.sqrt(embedding_size)))
    nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
    loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=train_labels,
                                         inputs=embed, num_sampled=num_sampled, num_classes=vocabulary_size))
    optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
    norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keep_dims=True))
    normalized_embeddings = embeddings / norm
    valid_embeddings = tf.nn.embedding_lookup(normalized_embeddings, valid_dataset)
    similarity = tf.matmul(valid_embeddings, normalized_embeddings, transpose_b=True)
    _, nearest_ids = tf.nn.top_k(similarity, k=4)
    print(embed, loss, similarity, sep="\n")

    with tf.Session() as session:
        tf.global_variables_initializer().run()
        average_loss = 0
        for step in range(30):
            chosen = rng.choice(len(pairs), batch_size, replace=False)
            batch_inputs = np.array([pairs[i][0] for i in chosen])
            batch_labels = np.array([[pairs[i][1]] for i in chosen])
            _, loss_val = session.run([optimizer, loss], {train_inputs: batch_inputs, train_labels: batch_labels})
            average_loss += loss_val
            if step % 10 == 9:
                print("Average loss at step ", step, ": ", average_loss / 10)
                average_loss = 0
        for i, ids in enumerate(nearest_ids.eval()):
            print("Nearest to %s: %s" % (reverse[i + 1], ", ".join(reverse[j] for j in ids[1:])))
        final_embeddings = normalized_embeddings.eval()
        print(final_embeddings.shape, np.round(final_embeddings[0, :4], 5))
