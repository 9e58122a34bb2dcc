"""numpy's BLAS threads while ops run at once: one each, so BLAS and the op pool share the cores.

BLAS libraries (OpenBLAS, MKL) start their own threads for a matrix product and spin while
waiting for work. When the executor also runs several ops at once, both sets of threads fight for
the same cores and a small product can take ten times as long. While any run is scheduling ops
on the pool, BLAS is held to one thread; a run that uses only the calling thread leaves it alone.
The thread count is process-wide, so this counts the runs in flight and restores the count when
the last one ends.
"""

import threading

_lock = threading.Lock()
_in_flight = 0
_saved = None
_controllers = None


def _blas():
    global _controllers
    if _controllers is None:
        try:
            from threadpoolctl import ThreadpoolController

            _controllers = ThreadpoolController().select(user_api="blas").lib_controllers
        except Exception:  # noqa: BLE001 - without threadpoolctl (or BLAS info) there is nothing to tune
            _controllers = []
    return _controllers


class single_threaded:
    """Context manager: BLAS uses one thread until every run that entered it has left."""

    def __enter__(self):
        global _in_flight, _saved
        with _lock:
            if _in_flight == 0:
                controllers = _blas()
                _saved = [c.num_threads for c in controllers]
                for c in controllers:
                    c.set_num_threads(1)
            _in_flight += 1
        return self

    def __exit__(self, *exc):
        global _in_flight
        with _lock:
            _in_flight -= 1
            if _in_flight == 0:
                for c, n in zip(_blas(), _saved):
                    c.set_num_threads(n)
