"""``tf.test.TestCase`` and ``tf.test.main``: the test harness TensorFlow 1 projects write their tests on.

A ``TestCase`` is a ``unittest.TestCase`` that, as TensorFlow's does, starts every test on a fresh
default graph whose seed is 87654321 (Python's and numpy's random seeds too), gives sessions on it
(``self.session()``: a new one; ``self.cached_session()``: one per test), evaluates tensors
(``self.evaluate``), and compares arrays, tensors and nested structures of them
(``assertAllClose``, ``assertAllEqual``...).
"""

import contextlib
import random
import tempfile
import unittest

import numpy as np

from numflow.framework import errors
from numflow.framework.graph import get_default_graph, reset_default_graph
from numflow.framework.seeds import DEFAULT_GRAPH_SEED, set_random_seed

_temp_dir = None


def get_temp_dir():
    """A temporary folder for this process's tests (made on first use)."""
    global _temp_dir
    if _temp_dir is None:
        _temp_dir = tempfile.mkdtemp(prefix="numflow_test_")
    return _temp_dir


def _is_tensor_like(x):
    from numflow.ops.constant_op import is_tensor

    return is_tensor(x) or hasattr(x, "_as_graph_element")


def _map_structure(fn, x):
    if isinstance(x, dict):
        return type(x)((k, _map_structure(fn, v)) for k, v in x.items())
    if isinstance(x, list | tuple) and not hasattr(x, "_fields"):
        return type(x)(_map_structure(fn, v) for v in x)
    return fn(x)


class TestCase(unittest.TestCase):
    """A ``unittest.TestCase`` with TensorFlow's graph, session and array helpers (see the module docstring)."""

    def __init__(self, methodName="runTest"):  # noqa: N803 - unittest's argument name
        super().__init__(methodName)
        self._cached = None
        self._tempdir = None

    def setUp(self):
        self._clear_cached_session()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        reset_default_graph()
        set_random_seed(DEFAULT_GRAPH_SEED)

    def tearDown(self):
        self._clear_cached_session()

    def _clear_cached_session(self):
        if self._cached is not None:
            self._cached[0].close()
            self._cached = None

    def get_temp_dir(self):
        """A temporary folder of this test case's own."""
        if self._tempdir is None:
            self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
        return self._tempdir

    # -- sessions ----------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _as_default(self, sess, use_gpu, force_gpu):
        """``sess`` as the default session over its graph, its ops placed as TensorFlow's harness places them."""
        with sess.graph.as_default(), sess.as_default():
            if force_gpu:
                from numflow.test import gpu_device_name

                with sess.graph.device(gpu_device_name() or "/device:GPU:0"):
                    yield sess
            elif use_gpu:
                yield sess
            else:
                with sess.graph.device("/device:CPU:0"):
                    yield sess

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """A new session on ``graph`` (the default graph when None), made the default session inside."""
        from numflow.runtime.session import Session

        with Session(graph=graph or get_default_graph(), config=config) as sess:
            with self._as_default(sess, use_gpu, force_gpu):
                yield sess

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """The one session of this test (made on first use), made the default session inside; closed when
        the test ends."""
        from numflow.runtime.session import Session

        graph = graph or get_default_graph()
        if self._cached is None:
            self._cached = (Session(graph=graph, config=config), graph, config, force_gpu)
        elif self._cached[1:] != (graph, config, force_gpu):
            what = "graph" if self._cached[1] is not graph else "config" if self._cached[2] is not config else \
                "force_gpu value"
            raise ValueError(f"The {what} used to get the cached session is different than the one that was used "
                             "to create the session. Maybe create a new session with self.session()")
        with self._as_default(self._cached[0], use_gpu, force_gpu) as sess:
            yield sess

    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """TensorFlow 1's name: the cached session on the default graph, else a new session on ``graph``."""
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")  # unittest collects this method by its name, as in TensorFlow
        if graph is None:
            return self.cached_session(config=config, use_gpu=use_gpu, force_gpu=force_gpu)
        return self.session(graph, config, use_gpu, force_gpu)

    def evaluate(self, tensors):
        """The values of ``tensors`` (a tensor, or a nested structure of them) in the default session."""
        from numflow.runtime.session import get_default_session

        sess = get_default_session()
        if sess is None:
            with self.test_session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    # -- comparisons -------------------------------------------------------------------------------------
    def _ndarray(self, a):
        if _is_tensor_like(a):
            a = self.evaluate(a)
        return a if isinstance(a, np.ndarray) else np.array(a)

    def _assert_array_like_close(self, a, b, rtol, atol, msg):
        a, b = self._ndarray(a), self._ndarray(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            mismatch = f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}."
        else:
            mismatch = f"Shape mismatch: expected {a.shape}, got {b.shape}."
        self.assertEqual(a.shape, b.shape, mismatch)
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(str(m) for m in [msg] if m),
                                       equal_nan=True)

    def _assert_close_recursive(self, a, b, rtol, atol, path, msg):
        where = f" at path [{']['.join(str(p) for p in path)}]" if path else ""
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertIsInstance(a, dict, f"mismatched types{where}")
            self.assertIsInstance(b, dict, f"mismatched types{where}")
            self.assertEqual(set(a), set(b), f"mismatched keys{where}: {list(a)} vs. {list(b)}")
            for k in a:
                self._assert_close_recursive(a[k], b[k], rtol, atol, path + [k], msg)
            return
        if isinstance(a, list | tuple) and isinstance(b, list | tuple):
            try:
                self._assert_array_like_close(a, b, rtol, atol, msg)
                return
            except (ValueError, TypeError):
                self.assertEqual(len(a), len(b), f"Length of {where or 'structure'} is {len(a)} vs. {len(b)}")
                for i, (x, y) in enumerate(zip(a, b)):
                    self._assert_close_recursive(x, y, rtol, atol, path + [i], msg)
                return
        self._assert_array_like_close(a, b, rtol, atol, f"{msg or ''}{'Mismatched value: a' + where if where else ''}")

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802 - TensorFlow's name
        """``a`` and ``b`` (arrays, tensors, numbers, or dicts/lists/tuples of them) are elementwise within
        ``atol + rtol * |b|``, with NaN where the other has NaN."""
        self._assert_close_recursive(a, b, rtol, atol, [], msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,  # noqa: N802
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2,
                                      bfloat16_atol=1e-2, msg=None):
        """:meth:`assertAllClose` with at least the tolerances of the dtype of ``a`` or ``b``."""
        a, b = self._ndarray(a), self._ndarray(b)
        if a.dtype == np.float32 or b.dtype == np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        elif a.dtype == np.float16 or b.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802 - TensorFlow's name
        """``a`` and ``b`` have the same shape and equal elements (NaN equal to NaN in float arrays)."""
        a, b = self._ndarray(a), self._ndarray(b)
        contents = f" Contents: {b!r}. \n{msg}." if b.ndim <= 3 or b.size < 500 else f" {msg}"
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}.{contents}")
        same = a == b
        if a.dtype.kind == "f":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            np.testing.assert_array_equal(a, b, err_msg=str(msg or ""))

    def _assert_all(self, a, compare, what, b):
        a = self._ndarray(a)
        if not np.all(compare(a, b)):
            self.fail(f"{a} is not {what} {b}")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802 - TensorFlow's name
        self._assert_all(a, np.greater, "greater than", comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802 - TensorFlow's name
        self._assert_all(a, np.greater_equal, "greater than or equal to", comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802 - TensorFlow's name
        self._assert_all(a, np.less, "less than", comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802 - TensorFlow's name
        self._assert_all(a, np.less_equal, "less than or equal to", comparison_target)

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802 - TensorFlow's name
        """The numpy array ``input_a`` has the static shape of the tensor ``input_b``."""
        if not isinstance(input_a, np.ndarray):
            raise TypeError(f"input_a must be a Numpy ndarray, got {type(input_a).__name__}")
        if not _is_tensor_like(input_b):
            raise TypeError(f"input_b must be a Tensor, got {type(input_b).__name__}")
        self.assertAllEqual(input_a.shape, input_b.get_shape().as_list(), msg=msg)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802 - TensorFlow's name
        """``|f1 - f2| <= err``."""
        detail = f" ({msg})" if msg else ""
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err, f"{f1:f} != {f2:f} +/- {err:f}{detail}")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802 - TensorFlow's name
        """The two sequences have the same length and each pair is within ``err``."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802 - TensorFlow's name
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) <= err, msg=msg)

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802 - TensorFlow's name
        target = self._ndarray(target)
        self.assertEqual(target.dtype, np.dtype(getattr(expected_dtype, "as_numpy_dtype", expected_dtype)))

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """An ``exception_type`` is raised inside, whose message matches the regex (or passes the predicate)."""
        import re

        predicate = expected_err_re_or_predicate
        if isinstance(predicate, str):
            pattern = predicate
            predicate = lambda e: re.search(pattern, str(e)) is not None  # noqa: E731
        try:
            yield
        except exception_type as e:
            if not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e
        else:
            self.fail(f"{exception_type.__name__} not raised")

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802 - TensorFlow's name
        """An ``OpError`` (a failed run) is raised inside, matching the regex or predicate."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)


def main(argv=None):
    """Run the tests of the ``__main__`` module with absl's runner, as TensorFlow's does: the flags the module
    defined parsed from the command line, each test's ``[ RUN      ]`` and ``[       OK ]`` lines printed."""
    import sys

    from absl import app
    from absl.testing import absltest

    app.run(main=lambda remaining: absltest.main(argv=remaining), argv=sys.argv if argv is None else argv)
