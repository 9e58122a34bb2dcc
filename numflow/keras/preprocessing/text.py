"""``tf.keras.preprocessing.text``: ``Tokenizer`` (words ranked by count, texts to id sequences or matrices) and
``text_to_word_sequence``, as Keras computes them."""

import collections

import numpy as np

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=FILTERS, lower=True, split=" "):
    """The words of ``input_text``: lower-cased, the ``filters`` characters taken as separators.

    >>> text_to_word_sequence("The cat, the HAT.")
    ['the', 'cat', 'the', 'hat']
    """
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


class Tokenizer:
    """Words numbered by how often ``fit_on_texts`` saw them (1 the most frequent; ties in order of first
    appearance), ``oov_token`` first when given; ``num_words`` keeps the ids below it when texts are converted.

    >>> tokenizer = Tokenizer(num_words=3, oov_token="<unk>")
    >>> tokenizer.fit_on_texts(["the cat sat", "the dog"])
    >>> tokenizer.word_index
    {'<unk>': 1, 'the': 2, 'cat': 3, 'sat': 4, 'dog': 5}
    >>> tokenizer.texts_to_sequences(["the bird sat"])
    [[2, 1, 1]]
    """

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs = collections.defaultdict(int)
        self.word_index, self.index_word = {}, {}
        self.analyzer = analyzer

    def _words(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                return [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is None:
            return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)
        return self.analyzer(text)

    def fit_on_texts(self, texts):
        """Count the words of ``texts`` (strings, or lists of words) and number them."""
        for text in texts:
            self.document_count += 1
            words = self._words(text)
            for word in words:
                self.word_counts[word] = self.word_counts.get(word, 0) + 1
            for word in set(words):
                self.word_docs[word] += 1
        counts = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + [word for word, _ in counts]
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {index: word for word, index in self.word_index.items()}
        for word, count in list(self.word_docs.items()):
            self.index_docs[self.word_index[word]] = count

    def fit_on_sequences(self, sequences):
        """Count, for each id, the sequences it appears in (for ``tfidf`` matrices)."""
        self.document_count += len(sequences)
        for sequence in sequences:
            for index in set(sequence):
                self.index_docs[index] += 1

    def texts_to_sequences(self, texts):
        """Each text as the list of its words' ids (unknown or rare words: the ``oov_token``'s id, else left out)."""
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        """``texts_to_sequences``, one text at a time."""
        for text in texts:
            yield self._converted(self._words(text), lambda word: (self.word_index.get(word),) * 2, lambda i: i)

    def sequences_to_texts(self, sequences):
        """Each id sequence as its words joined by spaces."""
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        """``sequences_to_texts``, one sequence at a time."""
        for sequence in sequences:
            words = self._converted(sequence, lambda index: (index, self.index_word.get(index)),
                                    lambda i: self.index_word[i])
            yield " ".join(words)

    def _converted(self, items, lookup, oov):
        """``lookup(item)``'s value for each item whose id (``lookup(item)``'s first) is below ``num_words``;
        for the others, with an oov token, ``oov(the oov token's id)`` (rare words only when the token has an
        id), else nothing."""
        oov_index = self.word_index.get(self.oov_token)
        converted = []
        for item in items:
            index, value = lookup(item)
            if value is not None and not (self.num_words and index >= self.num_words):
                converted.append(value)
            elif self.oov_token is not None and (value is None or oov_index is not None):
                converted.append(oov(oov_index))
        return converted

    def texts_to_matrix(self, texts, mode="binary"):
        """``sequences_to_matrix`` of the texts' sequences."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A ``(len(sequences), num_words)`` array: per id, ``"binary"`` presence, ``"count"``, ``"freq"`` (count
        over length) or ``"tfidf"``."""
        if self.num_words:
            num_words = self.num_words
        elif self.word_index:
            num_words = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in ("binary", "count", "freq", "tfidf"):
            raise ValueError("Unknown vectorization mode:", mode)
        matrix = np.zeros((len(sequences), num_words))
        for row, sequence in enumerate(sequences):
            counts = collections.Counter(j for j in sequence if j < num_words)
            for j, c in counts.items():
                if mode == "count":
                    matrix[row, j] = c
                elif mode == "freq":
                    matrix[row, j] = c / len(sequence)
                elif mode == "binary":
                    matrix[row, j] = 1
                else:
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    matrix[row, j] = (1 + np.log(c)) * idf
        return matrix
