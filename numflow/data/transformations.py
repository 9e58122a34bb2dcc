"""The transformations of ``tf.data.Dataset`` beyond the first ones of ``dataset_ops``: listing files,
sharding, unbatching, windows, reductions, grouping and sampling, each with TensorFlow's ops, names,
static shapes and errors. :class:`Transformations` is a base of ``dataset_ops.Dataset``.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     ds = tf.data.Dataset.range(10).shard(3, 1).batch(2).unbatch()
...     element = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [int(sess.run(element)) for _ in range(3)]
[1, 4, 7]
"""

from numflow.data import function as _function
from numflow.data import structure
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import Dimension, TensorShape
from numflow.ops.constant_op import convert_to_tensor


def _int64(value, name):
    return convert_to_tensor(value, dtype=dtypes.int64, name=name)


def _dataset_class():
    from numflow.data.dataset_ops import Dataset

    return Dataset


class Transformations:
    """Methods of ``Dataset``; they build on its ``_make``, ``_specs`` and ``map``."""

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """A dataset of the file names matching ``file_pattern`` (a pattern or a list of them), sorted,
        then shuffled unless ``shuffle=False`` (with ``seed``, in TensorFlow's order).

        A pattern matching no file gives an InvalidArgumentError when the dataset is made.
        """
        from numflow.ops import array_ops, check_ops, file_ops, math_ops, string_transform_ops

        graph = get_default_graph()
        with graph.name_scope("list_files"):
            pattern = convert_to_tensor(file_pattern, dtype=dtypes.string, name="file_pattern")
            matching = file_ops.matching_files(pattern)
            condition = math_ops.greater(array_ops.shape(matching)[0], 0, name="match_not_empty")
            message = math_ops.add("No files matched pattern: ",
                                   string_transform_ops.reduce_join(pattern, separator=", "), name="message")
            assert_not_empty = check_ops.Assert(condition, [message], summarize=1, name="assert_not_empty")
            with graph.control_dependencies([assert_not_empty]):
                matching = array_ops.identity(matching)
            dataset = _dataset_class().from_tensor_slices(matching, name=name)
            if shuffle is None or shuffle:
                size = math_ops.maximum(array_ops.shape(matching, out_type=dtypes.int64)[0], 1)
                dataset = dataset.shuffle(size, seed=seed, name=name)
        return dataset

    def shard(self, num_shards, index, name=None):
        """Every ``num_shards``-th element, from the ``index``-th (``0 <= index < num_shards``)."""
        inputs = [_int64(num_shards, "num_shards"), _int64(index, "index")]
        return self._make("ShardDataset", inputs, self._specs, name, require_non_empty=False)

    def unbatch(self, name=None):
        """The rows of each element: its components split along their first dimension, which they share.

        Raises
        ------
        ValueError
            A scalar component, or components of different known first dimensions.
        """
        flat = self._flat_specs()
        if any(s.shape.ndims == 0 for s in flat):
            raise ValueError("Cannot unbatch an input with scalar components.")
        known = Dimension(None)
        for s in flat:
            if s.shape.ndims is None:
                continue
            first = s.shape.dims[0]
            if not known.is_compatible_with(first):
                raise ValueError(f"`unbatch()` is only supported for datasets of elements whose components have a "
                                 f"matching leading dimension. Encountered both {known} and {first}.")
            known = known.merge_with(first)
        specs = structure.map_structure(lambda s: Spec(s.dtype, _rows(s.shape)), self._specs)
        normalized = self._map_flat("normalize")
        return normalized._make("UnbatchDataset", [], specs, name)

    def ignore_errors(self, log_warning=False, name=None):
        """The elements, less those whose computation fails (a map's or filter's function, a CSV
        record's parsing), as TensorFlow's ``IgnoreErrorsDataset`` leaves them out."""
        return self._make("IgnoreErrorsDataset", [], self._specs, name, log_warning=log_warning)

    def _map_flat(self, kind):
        """A ``MapDataset`` giving each element's components as a flat tuple (TensorFlow's
        ``normalize_to_dense``, which its ``unbatch`` runs first)."""
        def flat(*components):
            return tuple(components)

        flat.__name__ = kind
        specs = tuple(self._flat_specs())
        fn = _function.trace(flat, specs, f"Dataset_map_{kind}")
        return self._make("MapDataset", fn.captured, fn.output_specs, None, functions=[fn])


def _rows(shape):
    return TensorShape(None) if shape.ndims is None else TensorShape(shape.dims[1:])
