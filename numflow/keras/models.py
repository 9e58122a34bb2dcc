"""``tf.keras.models``: ``Model`` and ``Sequential``; re-exports only."""

from numflow.keras.engine.sequential import Sequential
from numflow.keras.engine.training import Model

__all__ = ["Model", "Sequential"]
