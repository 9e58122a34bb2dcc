"""The C heap's policy while sessions run: freed arrays' memory is kept for the next step's.

numpy takes an array's memory from ``malloc``. glibc serves a request of 128 KiB or more with a fresh
``mmap``, raising that threshold as such blocks are freed (up to 32 MiB), and hands the top of its heap
back to the system past a trim threshold of twice it. A training step frees and allocates the same
sizes in every run; with some orders of frees, every step then unmaps and maps megabytes again and
faults their pages in anew. An LSTM's training step (``bench_control_flow.LstmTraining``) faulted 1,690
pages (7 MiB) and took 22 ms instead of 18 ms in about half of the processes that ran it. Fixed
thresholds (arrays of up to 32 MiB from the heap, up to 64 MiB of free heap kept) let its steps fault
no page after the first in every process, as TensorFlow's allocators keep what a step freed.
"""

import ctypes
import os
import sys

MMAP_THRESHOLD = 32 << 20  # glibc's largest (its dynamic threshold's ceiling)
TRIM_THRESHOLD = 64 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # malloc.h's parameter numbers
_USER_SET = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")
_set = False


def keep_freed_memory():
    """Fix glibc's thresholds as above, once per process; nothing where the C library is another, or
    where the environment sets glibc's own variables for them (the user's choice stands)."""
    global _set
    if _set:
        return
    _set = True
    if not sys.platform.startswith("linux") or any(name in os.environ for name in _USER_SET):
        return
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
