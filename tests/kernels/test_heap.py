"""A session fixes glibc's heap thresholds: an array of a few MiB comes from the heap, not a fresh
mapping whose pages fault in at every step; a user's own glibc settings are left as they are."""

import ctypes
import os
import subprocess
import sys
import textwrap

import pytest


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _has_mallinfo2():
    return sys.platform.startswith("linux") and hasattr(ctypes.CDLL(None), "mallinfo2")


_CHILD = textwrap.dedent("""
    import ctypes, sys
    import numpy as np
    sys.path.insert(0, {tests!r})
    from test_heap import _MallInfo2
    import numflow as tf

    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = _MallInfo2

    def mapped_by(nbytes):
        before = mallinfo2().hblkhd
        array = np.ones(nbytes // 8)
        return mallinfo2().hblkhd - before >= nbytes, array

    print(mapped_by(4 << 20)[0], end=" ")
    tf.Session().close()
    print(mapped_by(4 << 20)[0], mapped_by(48 << 20)[0])
""")


def _child(env_extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    env.update(env_extra)
    code = _CHILD.format(tests=os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(not _has_mallinfo2(), reason="glibc's mallinfo2 (2.33 on) tells what is mapped")
def test_a_session_serves_arrays_under_32_mib_from_the_heap():
    # Before: glibc maps 4 MiB afresh (its threshold starts at 128 KiB); after, only arrays past 32 MiB.
    assert _child({}) == "True False True\n"


@pytest.mark.skipif(not _has_mallinfo2(), reason="glibc's mallinfo2 (2.33 on) tells what is mapped")
def test_the_users_own_glibc_thresholds_stand():
    assert _child({"MALLOC_MMAP_THRESHOLD_": str(1 << 20)}) == "True True True\n"
