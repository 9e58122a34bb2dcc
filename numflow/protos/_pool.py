"""The descriptor pool numflow's messages live in, apart from protobuf's default pool.

TensorFlow registers messages of the same full names (``tensorflow.GraphDef``...) in the default
pool; a pool of numflow's own lets both libraries be imported in one process.
"""

from google.protobuf import descriptor_pool

POOL = descriptor_pool.DescriptorPool()
