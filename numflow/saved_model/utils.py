"""``tf.saved_model.utils``: TensorInfo messages naming a graph's tensors, and back."""

from numflow.framework.graph import get_default_graph
from numflow.framework.sparse_tensor import SparseTensor


def build_tensor_info(tensor):
    """The ``TensorInfo`` of ``tensor`` (a Tensor or SparseTensor): its name(s), dtype and static shape.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     info = tf.saved_model.utils.build_tensor_info(tf.placeholder(tf.float32, [None, 3], name="x"))
    >>> info.name, [d.size for d in info.tensor_shape.dim]
    ('x:0', [-1, 3])
    """
    from numflow.framework.attr_values import shape_to_proto
    from numflow.protos import meta_graph_pb2

    info = meta_graph_pb2.TensorInfo(dtype=tensor.dtype.base_dtype.as_datatype_enum)
    shape_to_proto(tensor.get_shape(), info.tensor_shape)
    if isinstance(tensor, SparseTensor):
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
    else:
        info.name = tensor.name
    return info


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The Tensor (or SparseTensor) of ``graph`` that ``tensor_info`` names."""
    from numflow.framework.meta_graph import prepend_name_scope

    graph = graph or get_default_graph()

    def element(name):
        return graph.as_graph_element(prepend_name_scope(name, import_scope))

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return element(tensor_info.name)
    if encoding == "coo_sparse":
        sparse = tensor_info.coo_sparse
        return SparseTensor(element(sparse.indices_tensor_name), element(sparse.values_tensor_name),
                            element(sparse.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {encoding}. Expected `coo_sparse`, `composite_tensor`, or "
                     "`name` for a dense tensor.")
