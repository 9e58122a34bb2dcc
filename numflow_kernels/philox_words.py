"""One uint32 word at a time from a Philox stream, as TensorFlow's ``SingleSampleAdapter<PhiloxRandom>``
hands them out to its shuffles (``ShuffleDataset``, ``RandomShuffleQueue``)."""

import os

import numpy as np


def seeds_or_fresh(seed, seed2):
    """``(seed, seed2)``, or fresh random seeds for ``(0, 0)``: TensorFlow's rule for an unseeded op."""
    if seed == 0 and seed2 == 0:
        return tuple(int.from_bytes(os.urandom(8), "little") >> 1 for _ in range(2))
    return seed, seed2


class PhiloxWords:
    """The uint32 words of the Philox stream of ``(seed, seed2)``, one at a time (TensorFlow's
    ``SingleSampleAdapter<PhiloxRandom>``) or many (``take``), drawn 256 Philox calls at a time."""

    CALLS = 256

    def __init__(self, seed, seed2):
        from numflow_kernels import philox
        from numflow_kernels.cpu import sampling_loops

        self._stream = philox.make_stream(seed, seed2)
        self._draw = sampling_loops.philox_words
        self._block = np.empty(0, np.uint32)
        self._list = []
        self._pos = 0
        self._next_call = 0

    def _refill(self):
        self._block = self._draw(self._stream, self._next_call, self.CALLS)
        self._list = self._block.tolist()
        self._next_call += self.CALLS
        self._pos = 0

    def __call__(self):
        if self._pos == len(self._list):
            self._refill()
        word = self._list[self._pos]
        self._pos += 1
        return word

    def take(self, count):
        """The next ``count`` words, as a uint32 array."""
        out = np.empty(count, np.uint32)
        filled = 0
        while filled < count:
            if self._pos == len(self._list):
                self._refill()
            n = min(count - filled, len(self._list) - self._pos)
            out[filled:filled + n] = self._block[self._pos:self._pos + n]
            self._pos += n
            filled += n
        return out
