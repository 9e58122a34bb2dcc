"""Partitioned variables: one logical variable stored as parts ``name/part_0``, ``name/part_1``...

A *partitioner* maps a variable's full shape and dtype to how many parts each axis is cut into
(at most one axis more than one). ``get_variable(..., partitioner=...)`` then creates one Variable
per part, each initialized with the initializer called on the part's shape and a
:class:`PartitionInfo` (so fan-in and fan-out come from the full shape, as in TensorFlow), each
knowing its place in the whole (its :class:`SaveSliceInfo`), and returns them as a
:class:`PartitionedVariable`. The first ``size % n`` parts are one row longer.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     emb = tf.get_variable("emb", [5, 2], partitioner=tf.fixed_size_partitioner(2))
...     [v.name for v in emb], emb.get_shape().as_list(), [v.shape.as_list() for v in emb]
(['emb/part_0:0', 'emb/part_1:0'], [5, 2], [[3, 2], [2, 2]])
"""

import collections.abc
import math

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops import array_ops
from numflow.ops.constant_op import convert_to_tensor


def fixed_size_partitioner(num_shards, axis=0):
    """A partitioner cutting ``axis`` into ``num_shards`` parts (fewer when the axis is shorter).

    Parameters
    ----------
    num_shards : int
        The number of parts.
    axis : int
        The axis cut.

    Returns
    -------
    callable
        ``partitioner(shape, dtype)`` for ``get_variable`` and ``variable_scope``.
    """

    def _partitioner(shape, **unused_args):
        partitions_list = [1] * len(shape)
        partitions_list[axis] = min(num_shards, shape.dims[axis].value)
        return partitions_list

    return _partitioner


def _element_size(dtype, bytes_per_string_element):
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string_element if dtype.base_dtype == dtypes.string else dtype.size


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16, max_shards=None):
    """A partitioner cutting ``axis`` into as few parts as keep each under ``max_shard_bytes``.

    A part holds at least one slice along ``axis``, and there are at most ``max_shards`` parts.

    Raises
    ------
    ValueError
        ``max_shard_bytes`` or ``bytes_per_string_element`` below 1, or ``max_shards`` below 1.
    """
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. "
                         f"Currently, max_shard_bytes is {max_shard_bytes} and"
                         f"bytes_per_string_element is {bytes_per_string_element}")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        element_size = _element_size(dtype, bytes_per_string_element)
        partitions = [1] * shape.ndims
        bytes_per_slice = 1.0 * (shape.num_elements() / shape.dims[axis].value) * element_size
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * shape.dims[axis].value / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions

    return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10, bytes_per_string_element=16):
    """A partitioner giving each part at least ``min_slice_size`` bytes, in at most ``max_partitions`` parts."""

    def _partitioner(shape, dtype):
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is only {shape}")
        total_size_bytes = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
        partitions = total_size_bytes / min_slice_size
        partitions_list = [1] * len(shape)
        partitions_list[axis] = max(1, min(shape.dims[axis].value, max_partitions, int(math.ceil(partitions))))
        return partitions_list

    return _partitioner


class PartitionInfo:
    """Where a part lies in its partitioned variable: the ``full_shape`` and the part's ``var_offset``.

    Initializers receive it as ``partition_info`` (TensorFlow's ``_PartitionInfo``).
    """

    def __init__(self, full_shape, var_offset):
        for arg, value in (("full_shape", full_shape), ("var_offset", var_offset)):
            if not isinstance(value, collections.abc.Sequence) or isinstance(value, str):
                raise TypeError(f"`{arg}` must be a sequence (like tuple or list) instead of {type(value).__name__}")
        if len(var_offset) != len(full_shape):
            raise ValueError(f"Expected equal length, but `var_offset` is of length {len(var_offset)} while "
                             f"full_shape is of length {len(full_shape)}.")
        for offset, size in zip(var_offset, full_shape):
            if offset < 0 or offset >= size:
                raise ValueError(f"Expected 0 <= offset < shape but found offset={var_offset}, "
                                 f"shape={full_shape} for var_offset={var_offset}, full_shape={full_shape}")
        self.full_shape = full_shape
        self.var_offset = var_offset


class SaveSliceInfo:
    """A part's place in the full variable a checkpoint holds: ``full_name``, ``full_shape``,
    ``var_offset`` and ``var_shape`` (TensorFlow's ``Variable.SaveSliceInfo``)."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None,
                 save_slice_info_def=None, import_scope=None):
        if save_slice_info_def is not None:
            from numflow.framework.meta_graph import prepend_name_scope

            full_name = prepend_name_scope(save_slice_info_def.full_name, import_scope)
            full_shape = list(save_slice_info_def.full_shape)
            var_offset = list(save_slice_info_def.var_offset)
            var_shape = list(save_slice_info_def.var_shape)
        self.full_name, self.full_shape = full_name, full_shape
        self.var_offset, self.var_shape = var_offset, var_shape

    @property
    def spec(self):
        """The slice spec a checkpoint names the part by: ``"5 2 0,3:0,2"`` (full shape, then
        ``offset,length`` per axis)."""
        full = " ".join(str(d) for d in self.full_shape)
        return f"{full} " + ":".join(f"{o},{s}" for o, s in zip(self.var_offset, self.var_shape))

    def to_proto(self, export_scope=None):
        """This slice's ``SaveSliceInfoDef`` (None when the full name is outside ``export_scope``)."""
        from numflow.framework.meta_graph import strip_name_scope
        from numflow.protos import variable_pb2

        if export_scope is not None and not self.full_name.startswith(export_scope):
            return None
        return variable_pb2.SaveSliceInfoDef(full_name=strip_name_scope(self.full_name, export_scope),
                                             full_shape=self.full_shape, var_offset=self.var_offset,
                                             var_shape=self.var_shape)


class PartitionedVariable:
    """The parts of one partitioned variable, in offset order: iterate them, or use the whole as a
    tensor (their concatenation, ``name:0``, an ``Identity`` of ``name/ConcatPartitions/concat``)."""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        if not isinstance(variable_list, list | tuple):
            raise TypeError(f"variable_list is not a list or tuple: {variable_list}")
        if not isinstance(partitions, list | tuple):
            raise TypeError(f"partitions is not a list or tuple: {partitions}")
        if not all(p >= 1 for p in partitions):
            raise ValueError(f"partition values must be positive: {partitions}")
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        if any(v._save_slice_info is None for v in variable_list):
            raise ValueError(f"All variables must have a save_slice_info available: {[v.name for v in variable_list]}")
        if len(shape) != len(partitions):
            raise ValueError(f"len(shape) != len(partitions): {shape} vs. {partitions}")
        self._variable_list = sorted(variable_list, key=lambda v: v._save_slice_info.var_offset)
        self._name, self._shape, self._dtype, self._partitions = name, shape, dtype, partitions

    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)

    def get_shape(self):
        return self._shape

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError(f"Cannot get a length for {len(axes)} > 1 partition axes")
        return len(self._variable_list)

    def __repr__(self):
        return f"<tf.PartitionedVariable '{self._name}' shape={self._shape} parts={len(self._variable_list)}>"

    def _get_variable_list(self):
        return self._variable_list

    def _get_partitions(self):
        return self._partitions

    def _partition_axes(self):
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self):
        """The whole value, built where the call is (inside its control dependencies)."""
        graph = get_default_graph()
        if len(self._variable_list) == 1:
            with graph.name_scope(None):
                return array_ops.identity(self._variable_list[0], name=self._name)
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError(f"Cannot concatenate along more than one dimension: {axes}.  "
                                      "Multi-axis partition concat is not supported")
        with graph.name_scope(self._name + "/ConcatPartitions/"):
            concatenated = array_ops.concat(self._variable_list, axes[0])
        with graph.name_scope(None):
            return array_ops.identity(concatenated, name=self._name)

    def as_tensor(self):
        """The whole value, outside any control dependencies (as a Variable's read)."""
        with get_default_graph().control_dependencies(None):
            return self._concat()

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype).base_dtype != self._dtype.base_dtype:
            raise ValueError(f"Incompatible type conversion requested to type '{dtypes.as_dtype(dtype).name}' for "
                             f"variable of type '{self._dtype.name}'")
        return self.as_tensor()

    def _apply_assign_fn(self, assign_fn, value):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError(f"Cannot do assign action along more than one dimension: {axes}.  "
                                      "Multi-axis partition assign action is not supported ")
        if isinstance(value, list):
            if len(value) != len(self._variable_list):
                raise ValueError(f"Assigning {len(value)} values to the {len(self._variable_list)} parts of "
                                 f"{self._name}")
            values = value
        elif isinstance(value, PartitionedVariable):
            values = list(value)
        else:
            sizes = [v.shape.dims[axes[0]].value for v in self._variable_list]
            values = array_ops.split(value, sizes, axis=axes[0])
        return [assign_fn(v, values[i]) for i, v in enumerate(self._variable_list)]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Assign each part its slice of ``value`` (a tensor of the full shape, or a list of parts)."""
        return self._apply_assign_fn(
            lambda v, x: v.assign(x, use_locking=use_locking, name=name, read_value=read_value), value)

    def assign_add(self, value, use_locking=False, name=None, read_value=True):
        return self._apply_assign_fn(
            lambda v, x: v.assign_add(x, use_locking=use_locking, name=name, read_value=read_value), value)

    def assign_sub(self, value, use_locking=False, name=None, read_value=True):
        return self._apply_assign_fn(
            lambda v, x: v.assign_sub(x, use_locking=use_locking, name=name, read_value=read_value), value)


def give_slot_slice_info(primary, slot):
    """Make ``slot`` of a part ``primary`` a part too (TF's ``slot_creator``): the slot of
    ``emb/part_1`` saves as a slice of ``emb/<slot name>``, cut to the slot's rank. Returns ``slot``."""
    info = getattr(primary, "_save_slice_info", None)
    rank = slot.shape.ndims
    if info is not None and (rank is None or rank > 0):
        slot_name = slot.name[len(primary.op.name + "/"):-2]
        slot._save_slice_info = SaveSliceInfo(f"{info.full_name}/{slot_name}", info.full_shape[:rank],
                                              info.var_offset[:rank], info.var_shape[:rank])
    return slot


def create_partitioned_variables(shape, slicing, initializer, dtype=dtypes.float32, trainable=True, collections=None,
                                 name=None, reuse=None):
    """The parts of a new partitioned variable cut by ``slicing`` (parts per axis), as a list.

    The variable is named after a ``variable_scope(name, "PartitionedVariable")``. Deprecated in
    TensorFlow in favour of ``get_variable(..., partitioner=...)``.

    Raises
    ------
    ValueError
        ``shape`` and ``slicing`` differ in length, the shape is a scalar's, or a custom getter is set.
    """
    from numflow.variables import scope as scopes

    if len(shape) != len(slicing):
        raise ValueError("The 'shape' and 'slicing' of a partitioned Variable must have the length: "
                         f"shape: {shape}, slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    with scopes.variable_scope(name, "PartitionedVariable", reuse=reuse) as scope:
        if scope.custom_getter is not None:
            raise ValueError(
                "Private access to _get_partitioned_variable is not allowed when a custom getter is set.  Current "
                f"custom getter: {scope.custom_getter}.  It is likely that you're using create_partitioned_variables."
                "  If so, consider instead using get_variable with a non-empty partitioner parameter instead.")
        settings = scopes.VariableSettings(
            scope.name, shape, dtypes.as_dtype(dtype), scope.initializer if initializer is None else initializer,
            scope.regularizer, scope.reuse, trainable, collections, scope.caching_device,
            lambda **unused: list(slicing), True, scope.use_resource)
        with get_default_graph().name_scope(None):
            return list(get_or_create(settings, scopes._store(), scopes._get_or_create_single))


def call_partitioner(partitioner, shape, dtype):
    """The partitioner's answer for ``shape``, checked as TensorFlow's ``_call_partitioner`` does."""
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new partitioned variable must be fully defined, but instead was {shape}.")
    if shape.ndims < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, collections.abc.Sequence):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.ndims:
        raise ValueError(f"Partitioner returned a partition list that does not match the Variable's rank: "
                         f"{slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, partitioning: {slicing}")
    return slicing


def slice_dim_and_count(slicing):
    """``(axis, parts)`` of a partitioner's answer: its one axis cut, else ``(0, 1)``."""
    for axis, count in enumerate(slicing):
        if count > 1:
            return axis, count
    return 0, 1


def iter_slices(full_shape, num_slices, slice_dim):
    """``(offset, shape)`` of each part; the first ``size % num_slices`` one longer."""
    excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = list(full_shape)
        shape[slice_dim] = min_len + (i < excess)
        yield offset[:], shape
        offset[slice_dim] += shape[slice_dim]


def get_or_create(settings, store, get_part):
    """Share the partitioned variable ``settings.name`` (a ``VariableSettings``) of variable store
    ``store`` or create its parts by ``get_part(part_settings, partition_info)``, as TF's
    ``_get_partitioned_variable`` does (its checks and messages)."""
    name, initializer, reuse, partitioner = settings.name, settings.initializer, settings.reuse, settings.partitioner
    dtype = dtypes.as_dtype(settings.dtype)
    if name in store.variables:
        raise ValueError(f"A partitioner was provided, but an unpartitioned version of the variable was found: "
                         f"{name}.  Perhaps a variable of the same name was already created without partitioning?")
    shape = as_shape(settings.shape)
    if isinstance(initializer, Tensor):
        shape = shape.merge_with(initializer.get_shape())
    partitions = None
    if not reuse or partitioner:
        partitions = call_partitioner(partitioner, shape, dtype)
    found = store.partitioned.get(name)
    if found is not None:
        if reuse is False:
            raise ValueError(f"Partitioned variable with name {name} already exists. Did you mean to set reuse=True "
                             "or reuse=tf.AUTO_REUSE in VarScope?")
        if not shape.is_compatible_with(found.get_shape()):
            raise ValueError(f"Trying to reuse partitioned variable {name}, but specified shape {shape} and found "
                             f"shape {found.get_shape()}.")
        if dtype.base_dtype != found.dtype.base_dtype:
            raise ValueError(f"Trying to reuse partitioned variable {name}, but specified dtype {dtype.name} and "
                             f"found dtype {found.dtype.name}.")
        if partitions is not None and list(found._get_partitions()) != list(partitions):
            raise ValueError(f"Trying to reuse partitioned variable {name}, but specified partitions {partitions} "
                             f"and found partitions {found._get_partitions()}.")
        return found
    if reuse is True:
        raise ValueError(f"PartitionedVariable {name} does not exist, or was not created with tf.get_variable(). "
                         "Did you mean to set reuse=False or reuse=tf.AUTO_REUSE in VarScope?")
    slice_dim, num_slices = slice_dim_and_count(partitions)
    if f"{name}/part_0" in store.variables:
        if f"{name}/part_{num_slices - 1}" not in store.variables:
            raise ValueError(f"Partitioner returned a different partitioning than what was already found.  "
                             f"Partitioner returned {num_slices} shards, and shard {name}/part_0 was found, but "
                             f"{name}/part_{num_slices - 1} was not.")
        if f"{name}/part_{num_slices}" in store.variables:
            raise ValueError(f"Partitioner returned a different partitioning than what was already found.  "
                             f"Partitioner returned {num_slices} shards, and shard {name}/part_0 was found, but so "
                             f"was the extra shard {name}/part_{num_slices}.")
    graph = get_default_graph()
    full_shape = shape.as_list()
    parts = []
    for i, (offset, part_shape) in enumerate(iter_slices(full_shape, num_slices, slice_dim)):
        part_name, part_dtype, init, init_shape = f"{name}/part_{i}", dtype, initializer, part_shape
        with graph.name_scope(part_name + "/PartitionedInitializer"):
            if isinstance(initializer, Tensor):
                init = array_ops.slice(initializer, offset, part_shape)
                part_dtype, init_shape = init.dtype.base_dtype, None
            elif initializer is not None and not callable(initializer):
                init = array_ops.slice(convert_to_tensor(initializer, dtype=dtype), offset, part_shape)
                init_shape = None
        part = get_part(
            settings._replace(name=part_name, shape=init_shape, dtype=part_dtype, initializer=init, partitioner=None),
            PartitionInfo(full_shape=full_shape, var_offset=offset))
        part._save_slice_info = SaveSliceInfo(name, full_shape, offset, part_shape)
        parts.append(part)
    variable = PartitionedVariable(name, shape, dtype, parts, partitions)
    store.partitioned[name] = variable
    return variable
