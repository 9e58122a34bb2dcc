"""TensorFlow's protobuf schema, as far as numflow reads and writes it: graphs, meta graphs, checkpoints.

The ``.proto`` files here keep TensorFlow's package, message names and field numbers; the
``*_pb2.py`` modules are generated from them (``python -m numflow.protos.regenerate``) and
committed. Import them only where a file is written or read: protobuf is not loaded by
``import numflow``.
"""
