"""``tf.keras.preprocessing``: ``sequence`` (``pad_sequences``) and ``text`` (``Tokenizer``), in numpy and Python
as Keras computes them."""

from numflow.keras.preprocessing import sequence, text

__all__ = ["sequence", "text"]
