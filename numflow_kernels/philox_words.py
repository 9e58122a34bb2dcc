"""One uint32 word at a time from a Philox stream, as TensorFlow's ``SingleSampleAdapter<PhiloxRandom>``
hands them out to its shuffles (``ShuffleDataset``, ``RandomShuffleQueue``)."""

import os


def seeds_or_fresh(seed, seed2):
    """``(seed, seed2)``, or fresh random seeds for ``(0, 0)``: TensorFlow's rule for an unseeded op."""
    if seed == 0 and seed2 == 0:
        return tuple(int.from_bytes(os.urandom(8), "little") >> 1 for _ in range(2))
    return seed, seed2


class PhiloxWords:
    """The uint32 words of the Philox stream of ``(seed, seed2)``, one at a time (TensorFlow's
    ``SingleSampleAdapter<PhiloxRandom>``), drawn 256 calls at a time."""

    CALLS = 256

    def __init__(self, seed, seed2):
        from numflow_kernels import philox
        from numflow_kernels.cpu import sampling_loops

        self._stream = philox.make_stream(seed, seed2)
        self._draw = sampling_loops.philox_words
        self._words = []
        self._next_call = 0

    def __call__(self):
        if not self._words:
            words = self._draw(self._stream, self._next_call, self.CALLS)
            self._next_call += self.CALLS
            self._words = words.tolist()[::-1]
        return self._words.pop()
