"""numflow: a TensorFlow-1.x-style dataflow engine. ``import numflow as tf``."""

from numflow import errors
from numflow.framework.dtypes import (
    DType, as_dtype, bool, complex64, complex128, double, float16, float32, float64, half, int8, int16, int32, int64,
    resource, string, uint8, uint16, uint32, uint64, variant,
)
from numflow.framework.graph import (
    Graph, GraphKeys, Operation, Tensor, get_default_graph, reset_default_graph,
)
from numflow.framework.shapes import (
    Dimension, TensorShape, dimension_at_index, dimension_value, disable_v2_tensorshape, enable_v2_tensorshape,
)
from numflow.ops.array_ops import identity, placeholder, placeholder_with_default, shape
from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor
from numflow.ops.control_flow_ops import group, no_op, tuple
from numflow.ops.math_ops import (
    abs, add, cast, ceil, cos, divide, equal, exp, floor, floordiv, floormod, greater, greater_equal,
    less, less_equal, log, log1p, logical_and, logical_not, logical_or, logical_xor, matmul, maximum,
    minimum, mod, multiply, negative, not_equal, pow, range, realdiv, reciprocal, reduce_all, reduce_any,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, round, rsqrt, sigmoid, sign, sin, sqrt,
    square, squared_difference, subtract, tanh, to_float, truediv,
)
from numflow.framework.registry import RegisterGradient
from numflow.runtime.config import ConfigProto, GPUOptions, RunMetadata, RunOptions
from numflow.runtime.growth import GraphGrowthWarning
from numflow.runtime.session import InteractiveSession, Session, get_default_session

from numflow.framework.collections_api import (  # noqa: E402, I001
    add_to_collection, add_to_collections, control_dependencies, device, get_all_collection_keys,
    get_collection, get_collection_ref, name_scope, colocate_with,
)
from numflow.ops.state_ops import (  # noqa: E402, I001
    assign, assign_add, assign_sub, scatter_add, scatter_div, scatter_max, scatter_min, scatter_mul, scatter_sub,
    scatter_update,
)
from numflow.framework.indexed_slices import IndexedSlices, IndexedSlicesValue  # noqa: E402, I001
from numflow.variables.variable import (  # noqa: E402, I001
    Variable, VariableAggregation, VariableSynchronization, all_variables, assert_variables_initialized,
    global_variables, global_variables_initializer, initialize_all_variables, is_variable_initialized, local_variables,
    local_variables_initializer, model_variables, moving_average_variables, report_uninitialized_variables,
    trainable_variables, variables_initializer, tables_initializer, initialize_variables, initialize_local_variables,
    initialize_all_tables,
)
from numflow.framework.seeds import get_seed, set_random_seed  # noqa: E402, I001
from numflow.ops.random_ops import random_normal, random_uniform, truncated_normal  # noqa: E402, I001
from numflow.ops.init_ops import (  # noqa: E402, I001
    constant_initializer, glorot_normal_initializer, glorot_uniform_initializer, he_normal, he_uniform,
    identity_initializer, lecun_normal, lecun_uniform, ones_initializer, orthogonal_initializer,
    random_normal_initializer, random_uniform_initializer, truncated_normal_initializer,
    variance_scaling_initializer, zeros_initializer,
)
from numflow.variables.partitioned import (  # noqa: E402, I001
    PartitionedVariable, create_partitioned_variables, fixed_size_partitioner, min_max_variable_partitioner,
    variable_axis_size_partitioner,
)
from numflow.variables.template import make_template  # noqa: E402, I001
from numflow.variables.scope import (  # noqa: E402, I001
    AUTO_REUSE, VariableScope, get_local_variable, get_variable, get_variable_scope, variable_op_scope,
    variable_scope,
)
from numflow import initializers  # noqa: E402, I001
from numflow import train  # noqa: E402, I001
from numflow import distribute  # noqa: E402, I001
from numflow.framework.device_spec import DeviceSpec  # noqa: E402, I001
from numflow import test  # noqa: E402, I001
from numflow.ops.array_ops import (  # noqa: E402, I001
    concat, expand_dims, fill, gather, newaxis, one_hot, ones, ones_like, pad, rank, reshape, slice, split, squeeze,
    stack, stop_gradient, strided_slice, tile, transpose, unstack, where, where_v2, zeros, zeros_like,
)
from numflow.ops.selection_ops import unique  # noqa: E402, I001
from numflow.ops.space_batch_ops import (  # noqa: E402, I001
    batch_to_space, batch_to_space_nd, required_space_to_batch_paddings, space_to_batch, space_to_batch_nd,
)
from numflow.ops.math_ops import (  # noqa: E402, I001
    add_n, argmax, argmin, div, to_double, to_int32, to_int64, unsorted_segment_sum,
)
from numflow.ops.clip_ops import (  # noqa: E402, I001
    clip_by_average_norm, clip_by_global_norm, clip_by_norm, clip_by_value, global_norm,
)
from numflow import math, nn  # noqa: E402, I001
from numflow import losses, metrics  # noqa: E402, I001
from numflow.ops.gradients import AggregationMethod, NotDifferentiable, gradients, no_gradient  # noqa: E402, I001
from numflow.framework.graph_io import import_graph_def  # noqa: E402, I001
from numflow import graph_util  # noqa: E402, I001
from numflow.ops.nn_activation_ops import log_sigmoid  # noqa: E402, I001
from numflow.ops.math_ops import div_no_nan  # noqa: E402, I001
from numflow.ops.special_math_ops import betainc, igamma, igammac, lbeta  # noqa: E402, I001
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue  # noqa: E402, I001
from numflow.ops.sparse_ops import (  # noqa: E402, I001
    sparse_placeholder, sparse_segment_mean, sparse_segment_sqrt_n, sparse_segment_sum, sparse_tensor_to_dense,
    sparse_to_dense,
)
from numflow.ops.sparse_math_ops import (  # noqa: E402, I001
    sparse_add, sparse_reduce_max, sparse_reduce_max_sparse, sparse_reduce_sum, sparse_reduce_sum_sparse,
    sparse_reorder, sparse_reshape, sparse_tensor_dense_matmul,
)
from numflow.ops.sparse_struct_ops import (  # noqa: E402, I001
    sparse_concat, sparse_fill_empty_rows, sparse_maximum, sparse_minimum, sparse_retain, sparse_slice, sparse_split,
)
from numflow.ops.set_ops import listdiff, setdiff1d  # noqa: E402, I001
from numflow import sparse  # noqa: E402, I001
from numflow.ops.data_flow_ops import dynamic_partition, dynamic_stitch  # noqa: E402, I001
from numflow.ops.elementwise_ops import (  # noqa: E402, I001
    arg_max, arg_min, floor_div, is_finite, is_inf, is_nan, truncatediv, truncatemod,
)
from numflow.ops.scan_ops import count_nonzero, cumprod, cumsum, reduce_logsumexp  # noqa: E402, I001
from numflow.ops.segment_ops import (  # noqa: E402, I001
    segment_max, segment_mean, segment_min, segment_prod, segment_sum, unsorted_segment_max, unsorted_segment_mean,
    unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n,
)
from numflow.ops.scatter_ops import (  # noqa: E402, I001
    gather_nd, scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_sub, tensor_scatter_nd_update,
)
from numflow.ops.sequence_ops import (  # noqa: E402, I001
    boolean_mask, lin_space, linspace, meshgrid, reverse, reverse_sequence, reverse_v2, sequence_mask, size,
)
tensor_scatter_add, tensor_scatter_sub, tensor_scatter_update = (  # noqa: E402
    tensor_scatter_nd_add, tensor_scatter_nd_sub, tensor_scatter_nd_update)
from numflow.ops.linalg_ops import (  # noqa: E402, I001
    cholesky, diag, diag_part, eye, matrix_band_part, matrix_determinant, matrix_diag, matrix_diag_part,
    matrix_inverse, matrix_set_diag, matrix_solve, matrix_transpose, matrix_triangular_solve, norm, svd, trace,
)
from numflow.ops import linalg_grad  # noqa: E402, I001  (gradients registered by import)
from numflow.ops.einsum_ops import einsum, tensordot  # noqa: E402, I001
from numflow import linalg  # noqa: E402, I001
from numflow.ops.sampling_ops import multinomial, random_gamma, random_poisson, random_shuffle  # noqa: E402, I001
from numflow import random  # noqa: E402, I001
from numflow.ops.check_ops import (  # noqa: E402, I001
    Assert, assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less, assert_less_equal,
    assert_near, assert_negative, assert_non_negative, assert_non_positive, assert_none_equal, assert_positive,
    assert_proper_iterable, assert_rank, assert_rank_at_least, assert_rank_in, assert_same_float_dtype, assert_scalar,
    assert_type, check_numerics, is_non_decreasing, is_numeric_tensor, is_strictly_increasing, verify_tensor_all_finite,
)
from numflow.ops.logging_ops import Print, print_v2 as print  # noqa: E402, I001, A004
from numflow.ops.elementwise_ops import saturate_cast  # noqa: E402, I001
from numflow.ops.string_ops import as_string, string_join  # noqa: E402, I001
from numflow import debugging, dtypes, strings  # noqa: E402, I001
from numflow import compat, logging  # noqa: E402, I001
from numflow.ops.cond import case, cond, switch_case  # noqa: E402, I001
from numflow.ops.while_loop import while_loop  # noqa: E402, I001
from numflow.ops.tensor_array_ops import TensorArray  # noqa: E402, I001
from numflow.ops.script_ops import numpy_function, py_func, py_function  # noqa: E402, I001
from numflow.ops.custom_gradient_ops import custom_gradient, init_scope  # noqa: E402, I001
from numflow.ops.math_composites import (  # noqa: E402, I001
    accumulate_n, argsort, broadcast_dynamic_shape, broadcast_static_shape, broadcast_to, confusion_matrix,
    get_static_value, scalar_mul, sort,
)
from numflow.ops.sampling_ops import random_crop  # noqa: E402, I001
from numflow.ops.transcendental_ops import (  # noqa: E402, I001
    acos, acosh, asin, asinh, atan, atan2, atanh, cosh, digamma, erf, erfc, expm1, lgamma, rint, sinh, tan,
)
from numflow.ops.init_ops import uniform_unit_scaling_initializer  # noqa: E402, I001
from numflow.logging import get_logger  # noqa: E402, I001
from numflow import nest, version  # noqa: E402, I001
from numflow.framework.modes import (  # noqa: E402, I001
    control_flow_v2_enabled, disable_control_flow_v2, disable_eager_execution, disable_resource_variables,
    disable_tensor_equality, disable_v2_behavior, enable_control_flow_v2, enable_eager_execution,
    enable_resource_variables, enable_v2_behavior, executing_eagerly, resource_variables_enabled,
)
from numflow.version import (  # noqa: E402, I001
    GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER, GRAPH_DEF_VERSION_MIN_PRODUCER, VERSION,
)
__version__ = VERSION
from numflow.ops.functional_ops import foldl, foldr, map_fn, scan  # noqa: E402, I001
from numflow import gfile, io  # noqa: E402, I001
from numflow import layers  # noqa: E402, I001
from numflow import image  # noqa: E402, I001
from numflow import distributions, sets  # noqa: E402, I001
from numflow.ops.array_more_ops import (  # noqa: E402, I001
    batch_gather, edit_distance, ensure_shape, invert_permutation, parallel_stack, repeat, shape_n, unique_with_counts,
)
from numflow.ops.scatter_ops import (  # noqa: E402, I001
    scatter_nd_add, scatter_nd_sub, scatter_nd_update, tensor_scatter_nd_max, tensor_scatter_nd_min,
)
from numflow.ops.queue_ops import count_up_to  # noqa: E402, I001
from numflow.ops.linalg_more_ops import (  # noqa: E402, I001
    cholesky_solve, matrix_solve_ls, self_adjoint_eig, self_adjoint_eigvals,
)
from numflow import bitwise  # noqa: E402, I001
from numflow.ops.manip_ops import identity_n, roll  # noqa: E402, I001
from numflow.ops.counting_ops import bincount, histogram_fixed_width, searchsorted  # noqa: E402, I001
from numflow import summary  # noqa: E402, I001
from numflow.ops.queue_ops import FIFOQueue, PaddingFIFOQueue, QueueBase, RandomShuffleQueue  # noqa: E402, I001
from numflow.train.queue_runner import QueueRunner, add_queue_runner, start_queue_runners  # noqa: E402, I001


def __getattr__(name):
    """``tf.app`` and ``tf.flags`` (absl), ``tf.python_io``, ``tf.data``, ``tf.keras``, ``tf.config`` and
    TensorFlow's message classes (``tf.GraphDef``...), imported when first used: ``import numflow`` loads
    neither absl nor protobuf."""
    if name in ("app", "flags", "python_io", "data", "saved_model", "keras", "config"):
        import importlib

        return importlib.import_module(f"numflow.{name}")
    from numflow.framework.graph_io import message_class

    return message_class(name)
from numflow.ops.parsing_config import FixedLenFeature, FixedLenSequenceFeature, VarLenFeature  # noqa: E402, I001
from numflow.ops.parsing_ops import parse_example, parse_single_example  # noqa: E402, I001
from numflow.ops.decode_ops import decode_csv, decode_raw  # noqa: E402, I001
from numflow.ops.file_ops import matching_files, read_file, write_file  # noqa: E402, I001
from numflow import queue  # noqa: E402, I001
from numflow.ops.string_ops import string_split  # noqa: E402, I001
from numflow.ops.linalg_cross_ops import cross  # noqa: E402, I001
from numflow.ops.complex_ops import (  # noqa: E402, I001
    angle, complex, conj, imag, real, to_complex64, to_complex128,
)
from numflow.ops.fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d  # noqa: E402, I001
from numflow import signal, spectral  # noqa: E402, I001
from numflow.ops.linalg_qr_ops import qr  # noqa: E402, I001
from numflow.ops.patch_ops import depth_to_space, extract_image_patches, space_to_depth  # noqa: E402, I001
from numflow.ops.string_transform_ops import (  # noqa: E402, I001
    reduce_join, regex_replace, string_to_hash_bucket_fast, string_to_hash_bucket_strong, string_to_number, substr,
)
from numflow.ops.reader_ops import (  # noqa: E402, I001
    FixedLengthRecordReader, ReaderBase, TextLineReader, TFRecordReader, WholeFileReader,
)
from numflow import lookup  # noqa: E402, I001
from numflow import feature_column  # noqa: E402, I001
from numflow.ops.serialize_ops import parse_tensor, serialize_tensor  # noqa: E402, I001
from numflow.framework.tensor_util import make_ndarray, make_tensor_proto  # noqa: E402, I001
from numflow.ops.sequence_parsing_ops import parse_single_sequence_example  # noqa: E402, I001
from numflow.ops.sparse_more_ops import (  # noqa: E402, I001
    sparse_mask, sparse_matmul, sparse_merge, sparse_reset_shape, sparse_softmax, sparse_to_indicator,
    sparse_transpose,
)
from numflow.ops.string_transform_ops import string_to_hash_bucket  # noqa: E402, I001
from numflow.ops.index_ops import bitcast, unravel_index  # noqa: E402, I001
from numflow.ops.counting_ops import histogram_fixed_width_bins  # noqa: E402, I001
from numflow.ops.file_ops import decode_compressed  # noqa: E402, I001
from numflow.ops.serialize_ops import decode_json_example  # noqa: E402, I001
from numflow.ops.special_math_ops import polygamma, zeta  # noqa: E402, I001
from numflow.ops.v1_helpers import (  # noqa: E402, I001
    add_check_numerics_ops, convert_to_tensor_or_indexed_slices, convert_to_tensor_or_sparse_tensor, hessians,
    no_regularizer, op_scope,
)
from numflow.ops.gradients import no_gradient as NoGradient  # noqa: E402, I001, N812
from numflow.ops.string_transform_ops import strip as string_strip  # noqa: E402, I001
from numflow.ops.file_ops import decode_base64, encode_base64  # noqa: E402, I001
from numflow.ops.logging_ops import timestamp  # noqa: E402, I001
