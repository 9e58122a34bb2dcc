"""Keras' engine: the base layer, the record of layer calls, and the models built on them."""
