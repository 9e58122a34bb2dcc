"""The threading layer: parallel kernels launched from several Python threads at once."""

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from numflow_kernels import parallel
from numflow_kernels.cpu import assign, init

N = parallel.PARALLEL_THRESHOLD * 2 + 5


def test_a_thread_safe_layer_is_in_use():
    if "NUMBA_THREADING_LAYER" not in os.environ:
        assert parallel.threading_layer() in ("omp", "tbb")


def test_concurrent_launches_from_four_threads_agree_with_one():
    expected_normal = np.empty(N, np.float32)
    init.random_normal(expected_normal, 1, 2)
    expected_sum = np.full(N, 1.0 + 2.0 * 8, np.float32)
    barrier = threading.Barrier(4)

    def work(seed):
        barrier.wait()
        results = []
        for _ in range(4):
            out = np.empty(N, np.float32)
            init.random_normal(out, 1, 2)
            acc = np.ones(N, np.float32)
            for _ in range(8):
                assign.assign_add(acc, np.full(N, 2.0, np.float32))
            results.append((out, acc))
        return results

    with ThreadPoolExecutor(4) as pool:
        for results in pool.map(work, range(4)):
            for out, acc in results:
                np.testing.assert_array_equal(out, expected_normal)
                np.testing.assert_array_equal(acc, expected_sum)


def test_workqueue_chosen_by_the_user_is_kept_and_serialized():
    """A user's NUMBA_THREADING_LAYER wins; on workqueue, launches take a lock instead of aborting."""
    code = (
        "import numpy as np, threading\n"
        "from numflow_kernels import parallel\n"
        "from numflow_kernels.cpu import assign\n"
        "assert parallel.threading_layer() == 'workqueue', parallel.threading_layer()\n"
        "n = parallel.PARALLEL_THRESHOLD * 2\n"
        "accs = [np.zeros(n, np.float32) for _ in range(4)]\n"
        "def work(a):\n"
        "    for _ in range(20): assign.assign_add(a, np.ones(n, np.float32))\n"
        "ts = [threading.Thread(target=work, args=(a,)) for a in accs]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert all((a == 20).all() for a in accs)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, NUMBA_THREADING_LAYER="workqueue")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_variants_of_a_template_are_cached_apart():
    # Numba keys a cache entry by a function's name and code, not by the globals it reads: variants of
    # one template (parallel.variant) must each have a name of their own, or they would share one.
    from numflow_kernels.cpu import init

    twins = [assign._COPY, assign._ADD, assign._SUB, assign._ADD_F16, assign._SUB_F16,
             *(twin for name, pair in assign._SCATTER.items() if name != "scatter_update" for twin in pair),
             assign._SCATTER["scatter_update"][0], assign._SCATTER_DIV_INT,
             *init._UNIFORM.values(), *init._UNIFORM_INT.values(), *init._NORMAL.values(), *init._TRUNCATED.values()]
    names = [kernel.py_func.__qualname__ for pair in twins for kernel in pair]
    assert len(names) == len(set(names)) == 2 * len(twins)
    assert all(kernel._cache.__class__.__name__ == "FunctionCache" for pair in twins for kernel in pair)
