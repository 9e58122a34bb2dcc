"""embedding_lookup, over one params tensor or a list of partitions (``mod`` and ``div`` strategies), as
TensorFlow's ``embedding_ops`` builds it.

One params tensor: a ``GatherV2`` named after the scope, colocated with the params, then an
``Identity``. Several: the ids are split by partition (``DynamicPartition``), each partition
gathers its rows beside its params, and ``ParallelDynamicStitch`` puts the rows back in the ids'
order. The gradient with respect to each params tensor is an ``IndexedSlices``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops, selection_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.data_flow_ops import dynamic_partition, parallel_dynamic_stitch
from numflow.ops.segment_ops import segment_sum
from numflow.variables.partitioned import PartitionedVariable


def _params_list(params):
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, PartitionedVariable):
        return list(params)
    if isinstance(params, list | tuple):
        if not params:
            raise ValueError("Length of params is currently 0. Need at least one param.")
        return list(params)
    return [params]


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None):
    """The rows of ``params`` at ``ids`` (``ids``' shape + the params' row shape).

    ``params`` is one tensor or variable, or a list of them holding the rows partitioned: with
    ``partition_strategy="mod"`` row ``i`` is row ``i // n`` of partition ``i % n``; with ``"div"``
    the partitions hold consecutive blocks (the first ``total % n`` one row longer).

    >>> import numflow as tf
    >>> parts = [tf.constant([[0.0], [2.0]]), tf.constant([[1.0], [3.0]])]  # rows 0..3, "mod"
    >>> tf.Session().run(tf.nn.embedding_lookup(parts, [3, 0, 1])).ravel().tolist()
    [3.0, 0.0, 1.0]
    """
    del validate_indices
    params = _params_list(params)
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}.Must be one of either `mod` or "
                         "`div`.")
    graph = get_default_graph()
    with graph.name_scope(name or "embedding_lookup") as scope:
        params = [convert_to_tensor(p, name=f"params_{i}") for i, p in enumerate(params)]
        ids = convert_to_tensor(ids, name="ids")
        if len(params) == 1:
            with graph.colocate_with(params[0].op):
                rows = _clip(array_ops.gather(params[0], ids, name=scope), ids, max_norm)
            return array_ops.identity(rows)
        return _clip(_partitioned_lookup(graph, params, ids, partition_strategy, scope), ids, max_norm)


def _clip(rows, ids, max_norm):
    """``rows`` each scaled down to an L2 norm of at most ``max_norm`` (over the dims after ``ids``' own)."""
    if max_norm is None:
        return rows
    from numflow.ops.clip_ops import clip_by_norm

    ids_rank, rows_rank = ids.shape.ndims, rows.shape.ndims
    if ids_rank and rows_rank:
        axes = list(range(ids_rank, rows_rank))
    else:
        axes = math_ops.range(array_ops.rank(ids), array_ops.rank(rows))
    return clip_by_norm(rows, max_norm, axes=axes)


def _partitioned_lookup(graph, params, ids, strategy, scope):
    n = len(params)
    flat_ids = array_ops.reshape(ids, [-1])
    original_indices = math_ops.range(array_ops.shape(flat_ids)[0])
    if strategy == "mod":
        assignments, new_ids = flat_ids % n, flat_ids // n
    else:
        total = _total_rows(graph, params, flat_ids.dtype)
        per_partition, extras = total // n, total % n
        assignments = math_ops.maximum(flat_ids // (per_partition + 1), (flat_ids - extras) // per_partition)
        new_ids = array_ops.where(assignments < extras, flat_ids % (per_partition + 1),
                                  (flat_ids - extras) % per_partition)
    assignments = math_ops.cast(assignments, dtypes.int32)
    gather_ids = dynamic_partition(new_ids, assignments, n)
    positions = dynamic_partition(original_indices, assignments, n)
    rows = []
    for p, part_ids in zip(params, gather_ids):
        with graph.device(None), graph.colocate_with(p.op):
            rows.append(array_ops.gather(p, part_ids))
    stitched = parallel_dynamic_stitch(positions, rows, name=scope)
    element_shape = params[0].shape[1:] if params[0].shape.ndims is not None else TensorShape(None)
    for p in params[1:]:
        element_shape = element_shape.merge_with(p.shape[1:] if p.shape.ndims is not None else TensorShape(None))
    if element_shape.is_fully_defined():
        dynamic_element_shape = element_shape.as_list()
    else:
        with graph.colocate_with(params[0].op):
            dynamic_element_shape = array_ops.shape(params[0])[1:]
    out = array_ops.reshape(stitched, array_ops.concat([array_ops.shape(ids), dynamic_element_shape], 0))
    out.set_shape(ids.shape.concatenate(element_shape))
    return out


def _total_rows(graph, params, dtype):
    """The rows of all partitions: a constant when every partition's first dimension is known."""
    sizes = [p.shape.dim_values[0] if p.shape.ndims else None for p in params]
    if all(s is not None for s in sizes):
        return constant(sum(sizes), dtype=dtype)
    dims = []
    for p, s in zip(params, sizes):
        if s is not None:
            dims.append(s)
        else:
            with graph.colocate_with(p.op):
                dims.append(array_ops.shape(p)[0])
    return math_ops.reduce_sum(math_ops.cast(array_ops.stack(dims), dtype))


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None, combiner=None,
                            max_norm=None, allow_fast_lookup=False):
    """Per row of the SparseTensor ``sp_ids`` (rows of ids, ``[batch, ...]``), its ids' embeddings in
    ``params`` combined: ``"sum"``, ``"mean"`` (the default) or ``"sqrtn"`` (the sum over the square
    root of the count), each weighted by ``sp_weights`` (a SparseTensor of the same indices) when given.

    ``max_norm`` clips each looked-up row to that L2 norm before they combine.

    Built as TensorFlow 2.21 builds it: without weights or ``max_norm``, over one params tensor, a
    ``SparseSegmentSum``/``Mean``/``SqrtN`` of ``params`` itself, whose gradient is an IndexedSlices
    over the distinct ids; otherwise the distinct ids are looked up (``Unique``, ``embedding_lookup``).
    Returns ``[batch rows that have ids, embedding dims]``, rows ``0 .. last row with an id``.

    >>> import numflow as tf
    >>> ids = tf.SparseTensor(indices=[[0, 0], [0, 1], [2, 0]], values=[1, 3, 0], dense_shape=[3, 2])
    >>> table = tf.constant([[1.0], [2.0], [3.0], [4.0]])
    >>> tf.Session().run(tf.nn.embedding_lookup_sparse(table, ids, None, combiner="sum")).ravel().tolist()
    [6.0, 0.0, 1.0]
    """
    from numflow.framework.sparse_tensor import SparseTensor
    from numflow.ops import sparse_ops

    combiner = combiner or "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    params = _params_list(params)
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f"sp_weights must be either None or SparseTensor,got {type(sp_weights)}")
        for a, b in ((sp_ids.values, sp_weights.values), (sp_ids.indices, sp_weights.indices),
                     (sp_ids.dense_shape, sp_weights.dense_shape)):
            a.shape.assert_is_compatible_with(b.shape)
    graph = get_default_graph()
    with graph.name_scope(name or "embedding_lookup_sparse") as scope:
        segment_ids = sp_ids.indices[:, 0]
        ids = sp_ids.values
        if len(params) == 1 and sp_weights is None and max_norm is None:
            data = convert_to_tensor(params[0], name="params")
            idx, sparse_gradient = ids, not allow_fast_lookup
        else:
            ids, idx = selection_ops.unique(ids)
            data = embedding_lookup(params, ids, partition_strategy=partition_strategy, max_norm=max_norm)
            sparse_gradient = False
        if sp_weights is None:
            if segment_ids.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
                segment_ids = math_ops.cast(segment_ids, dtypes.int32)
            reduce = {"sum": sparse_ops.sparse_segment_sum, "mean": sparse_ops.sparse_segment_mean,
                      "sqrtn": sparse_ops.sparse_segment_sqrt_n}[combiner]
            return reduce(data, idx, segment_ids, name=scope, sparse_gradient=sparse_gradient)
        return _weighted_combination(data, idx, math_ops.cast(segment_ids, dtypes.int32), sp_weights.values,
                                     combiner, scope)


def _weighted_combination(embeddings, idx, segment_ids, weights, combiner, scope):
    """TensorFlow's weighted path: each looked-up row times its weight, summed per segment, divided by
    the segment's weight sum (mean) or the root of its squared weights' sum (sqrtn)."""
    embeddings = array_ops.gather(embeddings, idx)
    original_dtype = embeddings.dtype.base_dtype
    if original_dtype == dtypes.float16:
        embeddings = math_ops.cast(embeddings, dtypes.float32)
    if weights.dtype.base_dtype != embeddings.dtype.base_dtype:
        weights = math_ops.cast(weights, embeddings.dtype)
    ones_shape = array_ops.expand_dims(array_ops.rank(embeddings) - 1, 0)
    weights_shape = array_ops.shape(weights)
    ones = array_ops.ones(ones_shape, dtype=weights_shape.dtype)
    static = weights.shape
    weights = array_ops.reshape(weights, array_ops.concat([weights_shape, ones], 0))
    if embeddings.shape.ndims is not None:
        weights.set_shape(static.concatenate([1] * (embeddings.shape.ndims - 1)))
    embeddings *= weights
    if combiner == "sum":
        result = segment_sum(embeddings, segment_ids, name=scope)
    else:
        summed = segment_sum(embeddings, segment_ids)
        if combiner == "mean":
            weight_sum = segment_sum(weights, segment_ids)
        else:
            weight_sum = math_ops.sqrt(segment_sum(math_ops.pow(weights, 2), segment_ids))
        result = math_ops.div_no_nan(summed, weight_sum, name=scope)
    return math_ops.cast(result, original_dtype) if result.dtype.base_dtype != original_dtype else result


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """``embedding_lookup_sparse`` over ids of any rank ``[d0, ..., dn-1, ids]``, giving
    ``[d0, ..., dn-1, dims]``: negative ids (and, unless ``combiner="sum"``, weights not above 0) are
    dropped, and a row left without ids gets the embedding of ``default_id``, or zeros when it is None
    (``tf.nn.safe_embedding_lookup_sparse``, built as TensorFlow builds it).
    """
    from numflow.framework.sparse_tensor import SparseTensor
    from numflow.ops import sparse_math_ops, sparse_struct_ops

    if embedding_weights is None or (isinstance(embedding_weights, list | tuple) and not embedding_weights):
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    params = _params_list(embedding_weights)
    graph = get_default_graph()
    with graph.name_scope(name or "embedding_lookup") as scope:
        original_shape = sparse_ids.dense_shape
        rank = original_shape.shape.dim_values[0]
        if rank is None:
            rank = array_ops.size(original_shape)
        rows = math_ops.reduce_prod(array_ops.slice(original_shape, [0], [rank - 1]))
        sparse_ids = sparse_math_ops.sparse_reshape(sparse_ids, [rows, array_ops.gather(original_shape, rank - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
        sparse_ids, sparse_weights = _prune(sparse_ids, sparse_weights, math_ops.greater_equal(sparse_ids.values, 0))
        if combiner != "sum" and sparse_weights is not None:
            sparse_ids, sparse_weights = _prune(sparse_ids, sparse_weights,
                                                math_ops.greater(sparse_weights.values, 0))
        sparse_ids, is_row_empty = sparse_struct_ops.sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_struct_ops.sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(params, sparse_ids, sparse_weights, combiner=combiner,
                                         partition_strategy=partition_strategy, max_norm=max_norm,
                                         allow_fast_lookup=allow_fast_lookup,
                                         name=None if default_id is None else scope)
        if default_id is None:
            is_row_empty = array_ops.tile(array_ops.reshape(is_row_empty, [-1, 1]),
                                          array_ops.stack([1, array_ops.shape(result)[1]]))
            result = selection_ops.where(is_row_empty, array_ops.zeros_like(result), result, name=scope)
        final = array_ops.reshape(result, array_ops.concat(
            [array_ops.slice(math_ops.cast(original_shape, dtypes.int32), [0], [rank - 1]),
             array_ops.slice(array_ops.shape(result), [1], [-1])], 0))
        if isinstance(rank, int):  # the ids' own rank, known before they were made 2-D
            final.set_shape(TensorShape([None] * (rank - 1)).concatenate(result.shape[1:]))
        return final


def _prune(sparse_ids, sparse_weights, keep):
    from numflow.ops import sparse_struct_ops

    if sparse_weights is None:
        return sparse_struct_ops.sparse_retain(sparse_ids, keep), None
    return sparse_struct_ops.sparse_retain(sparse_ids, keep), sparse_struct_ops.sparse_retain(sparse_weights, keep)
