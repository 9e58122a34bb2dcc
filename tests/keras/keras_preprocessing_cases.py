"""The ``pad_sequences``, ``Tokenizer`` and ``skipgrams`` uses behind ``data/tf_keras_preprocessing_golden.json``,
written once for both engines: each case takes the ``keras`` module and returns JSON-able results (or the
error raised)."""

TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog; and THE bird?", "",
         "tab\tseparated\nlines of-text", "cat cat cat"]
SEQUENCES = [[1, 2, 3, 4, 5], [6, 7], [], [8], [9, 10, 11]]


def _padded(keras, **kwargs):
    return keras.preprocessing.sequence.pad_sequences(SEQUENCES, **kwargs).tolist()


def padding(keras):
    pad = keras.preprocessing.sequence.pad_sequences
    return {"default": _padded(keras), "maxlen": _padded(keras, maxlen=3),
            "post": _padded(keras, maxlen=4, padding="post", truncating="post"),
            "value": _padded(keras, value=-1, dtype="float32"),
            "utils": keras.utils.pad_sequences([[1], [2, 3]], maxlen=3).tolist(),
            "samples": pad([[[1, 2], [3, 4]], [[5, 6]]], maxlen=3).tolist(),
            "strings": pad([["a", "b"], ["c"]], dtype=object, value="-").tolist()}


def _tokenizer_facts(tokenizer, texts):
    return {"word_index": tokenizer.word_index, "index_word": {str(k): v for k, v in tokenizer.index_word.items()},
            "word_counts": dict(tokenizer.word_counts), "document_count": tokenizer.document_count,
            "sequences": tokenizer.texts_to_sequences(texts + ["an unseen zebra cat"]),
            "texts": tokenizer.sequences_to_texts([[1, 2, 3, 99], [4, 5]]),
            "binary": tokenizer.texts_to_matrix(texts[:3], mode="binary").tolist(),
            "count": tokenizer.texts_to_matrix(texts[:3], mode="count").tolist(),
            "freq": tokenizer.texts_to_matrix(texts[:3], mode="freq").tolist(),
            "tfidf": tokenizer.texts_to_matrix(texts[:3], mode="tfidf").tolist()}


def tokenizers(keras):
    text = keras.preprocessing.text
    made = {}
    for name, kwargs in (("plain", {}), ("num_words", {"num_words": 5}), ("oov", {"oov_token": "<OOV>"}),
                         ("oov_num_words", {"num_words": 4, "oov_token": "<OOV>"}),
                         ("char_level", {"char_level": True, "num_words": 8}), ("no_lower", {"lower": False})):
        tokenizer = text.Tokenizer(**kwargs)
        tokenizer.fit_on_texts(TEXTS)
        made[name] = _tokenizer_facts(tokenizer, TEXTS)
    made["words"] = text.text_to_word_sequence(TEXTS[2])
    return made


def errors(keras):
    pad = keras.preprocessing.sequence.pad_sequences
    raised = {}
    for name, call in (("padding", lambda: pad(SEQUENCES, padding="middle")),
                       ("truncating", lambda: pad(SEQUENCES, maxlen=2, truncating="x")),
                       ("not_iterable", lambda: pad([1, 2])),
                       ("string_value", lambda: pad(SEQUENCES, value="x")),
                       ("unfitted_matrix", lambda: keras.preprocessing.text.Tokenizer().texts_to_matrix(["a"])),
                       ("mode", lambda: _fitted(keras).texts_to_matrix(["a"], mode="bad")),
                       ("kwargs", lambda: keras.preprocessing.text.Tokenizer(bad=1))):
        try:
            call()
            raised[name] = None
        except Exception as e:  # noqa: BLE001 - the class and message are the result
            raised[name] = [type(e).__name__, str(e)]
    return raised


def _fitted(keras):
    tokenizer = keras.preprocessing.text.Tokenizer()
    tokenizer.fit_on_texts(TEXTS)
    return tokenizer


def skipgram_pairs(keras):
    """Python's ``random`` seeded first: the sampling, the negative words and the shuffles draw from it."""
    import random

    sequence = keras.preprocessing.sequence
    random.seed(3)
    table = sequence.make_sampling_table(12, sampling_factor=0.05)
    return {"table": [round(float(p), 8) for p in table],
            "seeded": sequence.skipgrams([1, 4, 0, 7, 2, 9, 3], 10, window_size=2, seed=11),
            "sampled": sequence.skipgrams([5, 1, 8, 8, 2, 6, 0, 4], 12, window_size=1, negative_samples=0.5,
                                          categorical=True, sampling_table=table),
            "positives": sequence.skipgrams([2, 3, 4], 5, window_size=1, negative_samples=0, shuffle=False)}


CASES = {f.__name__: f for f in (padding, tokenizers, errors, skipgram_pairs)}
