"""Compile every CUDA kernel of numflow_kernels to PTX, without a GPU, and check for fused float32 math.

The simulator runs the kernels as Python, so it cannot see what NVVM does with them. This script
does the real compilation (types, lowering, NVVM) for one architecture, and fails if NVVM fused a
float32 multiply into an add (``fma.rn.f32``) anywhere: that would round differently from the
CPU. It needs NVVM and libdevice, from a CUDA toolkit or the ``nvidia-cuda-nvcc-cu12`` wheel::

    pip download --no-deps -d /tmp/nvcc nvidia-cuda-nvcc-cu12 && unzip -q -o -d /tmp/nvcc /tmp/nvcc/*.whl
    CUDA_HOME=/tmp/nvcc/nvidia/cuda_nvcc python tests/kernels/compile_ptx.py [--cc 8.0]

It is not a pytest module: CI machines have neither a GPU nor NVVM.
"""

import argparse
import os
import re
import sys
from types import SimpleNamespace


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cc", default="8.0", help="compute capability to compile for (default 8.0)")
    args = parser.parse_args(argv)
    cc = tuple(int(p) for p in args.cc.split("."))
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        sys.exit("unset NUMBA_ENABLE_CUDASIM: the simulator does not compile")

    import numba.cuda.dispatcher
    from numba import cuda
    from numba import types as T

    # Device functions ask the current device for its compute capability; there is none here.
    numba.cuda.dispatcher.get_current_device = lambda: SimpleNamespace(compute_capability=cc)

    from numflow_kernels.cuda import assign, init

    stream = T.UniTuple(T.uint64, 5)
    ki, ku = init._kernels(), assign._kernels()

    def array(dtype, ndim=1):
        return T.Array(dtype, ndim, "C")

    elements = {"float16": T.uint16, "float32": T.float32, "float64": T.float64, "int32": T.int32, "int64": T.int64}
    jobs = [("fill float32", ki["fill"][0], (array(T.float32), T.float32))]
    for name, table in ki.items():
        if name == "fill":
            continue
        for dtype, (kernel, _) in table.items():
            element = elements[str(dtype)]
            if name == "random_uniform_int":
                jobs.append((f"{name} {dtype}", kernel, (array(element), stream, T.int64, T.uint64)))
            else:
                scalar = T.float64 if str(dtype) == "float64" else T.float32
                jobs.append((f"{name} {dtype}", kernel, (array(element), stream, scalar, scalar)))
    for name in ("copy", "add", "sub", "add_f16", "sub_f16"):
        element = T.uint16 if name.endswith("f16") else T.float32
        jobs.append((name, ku[name], (array(element), array(element))))
    jobs.append(("first_bad", ku["first_bad"], (array(T.int64), T.int64, array(T.int64))))
    for name in ("scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_max",
                 "scatter_min"):
        for kernel, element in zip(ku[name], (T.float32, T.uint16), strict=True):
            jobs.append((f"{name} {element}", kernel, (array(element, 2), array(T.int32), array(element, 2))))

    failed = False
    for label, kernel, signature in jobs:
        ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=cc)
        fused = len(re.findall(r"fma\.rn\.f32", ptx))
        failed |= fused > 0
        print(f"{label:28s} {len(ptx.splitlines()):6d} PTX lines, fma.rn.f32: {fused}"
              f"{'  <- fused float32 multiply-add' if fused else ''}")
    print(f"{len(jobs)} kernels compiled for sm_{cc[0]}{cc[1]}" + (", some fused" if failed else ", none fused"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
