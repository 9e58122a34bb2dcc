"""numflow: a TensorFlow-1.x-style dataflow engine."""
