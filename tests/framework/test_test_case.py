"""tf.test.TestCase: written as TF1 projects write their tests (pytest collects it as a unittest class),
with its failures checked too."""

import os
import random

import numpy as np

import numflow as tf


class TestCaseTest(tf.test.TestCase):
    def test_each_test_starts_on_a_fresh_seeded_graph(self):
        graph = tf.get_default_graph()
        self.assertEqual(graph.get_operations(), [])
        self.assertEqual(graph.seed, 87654321)
        state = random.getstate()
        random.seed(87654321)
        self.assertEqual(state, random.getstate())
        np.random.seed(87654321)
        tf.constant(1.0, name="left_over")

    def test_the_graph_seed_gives_tensorflows_draws(self):
        # TensorFlow's tf.test.TestCase gives these values: the op seed alone, then the graph's seed alone.
        self.assertAllClose(self.evaluate(tf.random_uniform([3], seed=1)), [0.2390374, 0.92039955, 0.05051243])
        self.assertAllClose(self.evaluate(tf.random_normal([2])), [-0.39915761, 2.10443926])

    def test_cached_session_is_one_session_made_default(self):
        x = tf.constant([1.0, 2.0])
        with self.cached_session() as sess:
            self.assertIs(tf.get_default_session(), sess)
            self.assertAllClose(sess.run(x * 2.0), [2.0, 4.0])
        with self.cached_session() as again, self.test_session() as legacy:
            self.assertIs(again, sess)
            self.assertIs(legacy, sess)
        with self.session() as a, self.session() as b:
            self.assertIsNot(a, b)
            self.assertIsNot(a, sess)
        with self.assertRaisesRegex(ValueError, "The graph used to get the cached session is different"):
            with self.cached_session(graph=tf.Graph()):
                pass

    def test_session_on_another_graph_and_devices(self):
        graph = tf.Graph()
        with self.session(graph=graph, use_gpu=False) as sess:
            self.assertIs(tf.get_default_graph(), graph)
            y = tf.constant(3) * 2
            self.assertEqual(y.device, "/device:CPU:0")
            self.assertEqual(sess.run(y), 6)

    def test_evaluate_runs_structures(self):
        x = tf.constant([1, 2])
        got = self.evaluate({"a": x, "b": [x + 1, (x * 2,)]})
        self.assertAllEqual(got["a"], [1, 2])
        self.assertAllEqual(got["b"][1][0], [2, 4])

    def test_comparisons_pass(self):
        x = tf.constant([1.0, np.nan])
        self.assertAllClose(x, [1.0 + 1e-7, np.nan])
        self.assertAllClose({"a": [1.0, 2.0], "b": (3, [4.0])}, {"a": np.array([1.0, 2.0]), "b": (3, [4.0])})
        self.assertAllEqual(x, [1.0, np.nan])
        self.assertAllCloseAccordingToType(np.float16(1.0), np.float16(1.0005))
        self.assertAllCloseAccordingToType(np.float32(1.0), np.float32(1.0 + 5e-7))
        self.assertShapeEqual(np.zeros([2]), x)
        self.assertNear(1.0, 1.05, 0.1)
        self.assertArrayNear([1.0, 2.0], [1.01, 2.0], 0.02)
        self.assertAllGreater([2, 3], 1)
        self.assertAllLessEqual([2, 3], 3)
        self.assertDTypeEqual(np.zeros(2, np.float32), tf.float32)
        with self.assertRaisesOpError("assertion failed"):
            self.evaluate(tf.Assert(tf.placeholder_with_default(False, []), ["no"]))

    def test_comparisons_fail_with_tensorflows_messages(self):
        with self.assertRaisesRegex(AssertionError, r"Shape mismatch: expected \(2,\), got \(3,\)"):
            self.assertAllClose([1.0, 2.0], [1.0, 2.0, 3.0])
        with self.assertRaisesRegex(AssertionError, "Not equal to tolerance"):
            self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.1])
        with self.assertRaisesRegex(AssertionError, "mismatched keys"):
            self.assertAllClose({"a": 1.0}, {"b": 1.0})
        with self.assertRaisesRegex(AssertionError, "Arrays are not equal"):
            self.assertAllEqual([1, 2], [1, 3])
        with self.assertRaisesRegex(AssertionError, r"1\.000000 != 2\.000000 \+/- 0\.500000"):
            self.assertNear(1.0, 2.0, 0.5)
        with self.assertRaisesRegex(AssertionError, "Not equal to tolerance"):
            self.assertAllCloseAccordingToType(np.float64(1.0), np.float64(1.0005))
        with self.assertRaises(AssertionError):
            with self.assertRaisesOpError("something else"):
                self.evaluate(tf.Assert(tf.placeholder_with_default(False, []), ["no"]))

    def test_compute_gradient(self):
        x = tf.placeholder(tf.float64, [2, 3])
        y = tf.reduce_sum(x * x, axis=1)
        value = np.arange(6.0).reshape(2, 3) / 4
        with self.cached_session():
            theoretical, numerical = tf.test.compute_gradient(x, [2, 3], y, [2], x_init_value=value)
            want = np.zeros((6, 2))
            want[:3, 0], want[3:, 1] = 2 * value[0], 2 * value[1]
            self.assertAllClose(theoretical, want)
            self.assertAllClose(numerical, want, atol=1e-9)
            self.assertLess(tf.test.compute_gradient_error(x, [2, 3], y, [2]), 1e-8)
            w = tf.constant(np.ones([4, 2]))
            rows = tf.gather(w, [1, 1, 3])  # an IndexedSlices gradient
            (jw_t, jw_n), = tf.test.compute_gradient([w], [[4, 2]], rows, [3, 2])
            self.assertAllClose(jw_t, jw_n)
            self.assertEqual(jw_t[2:4].sum(), 4.0)

    def test_temp_dir(self):
        path = self.get_temp_dir()
        self.assertTrue(os.path.isdir(path))
        self.assertEqual(path, self.get_temp_dir())
        self.assertTrue(path.startswith(tf.test.get_temp_dir()))

    def test_machine_queries(self):
        self.assertEqual(tf.test.is_gpu_available(), tf.test.gpu_device_name() == "/device:GPU:0")
        self.assertTrue(tf.test.is_built_with_cuda())
        self.assertIs(tf.test.mock.patch, __import__("unittest.mock").mock.patch)


def test_tf_test_main_runs_a_test_file_with_its_flags(tmp_path):
    import pathlib
    import subprocess
    import sys
    import textwrap

    path = tmp_path / "my_test.py"
    path.write_text(textwrap.dedent('''
        import numflow as tf

        tf.app.flags.DEFINE_integer("size", 2, "Rows.")
        FLAGS = tf.app.flags.FLAGS


        class MyTest(tf.test.TestCase):
            def testOnes(self):
                with self.cached_session():
                    self.assertAllEqual(tf.ones([FLAGS.size]).eval(), [1.0] * FLAGS.size)

            def testFails(self):
                self.assertAllClose([1.0], [2.0])


        if __name__ == "__main__":
            tf.test.main()
    '''))
    root = pathlib.Path(__file__).parents[2]
    done = subprocess.run([sys.executable, str(path), "--size=3", "MyTest.testOnes"], capture_output=True, text=True,
                          cwd=root, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Ran 1 test" in done.stderr and "OK" in done.stderr
    # absl's runner, as TensorFlow's: a line as each test starts and one as it ends.
    assert "[ RUN      ] MyTest.testOnes\n[       OK ] MyTest.testOnes\n" in done.stderr
    failed = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=root,
                            env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert failed.returncode == 1
    # unittest also collects TestCase.test_session, which skips itself ("Not a test."), as in TensorFlow.
    assert "Ran 3 tests" in failed.stderr and "FAILED (failures=1, skipped=1)" in failed.stderr
