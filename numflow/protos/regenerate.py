"""Regenerate the ``*_pb2.py`` modules beside this file from the ``.proto`` files.

Run from the repository root, with protoc 3.21 on the PATH (Debian's ``protobuf-compiler``
package: ``apt-get install protobuf-compiler``)::

    python -m numflow.protos.regenerate

protoc 3.21 writes modules that run on every protobuf runtime from 4.21 on (newer compilers stamp
their own runtime version into the modules and refuse older runtimes). Each module is then pointed
at numflow's own descriptor pool (``_pool.py``), so that TensorFlow's messages of the same names
can live in the same process. Pass ``--protoc PATH`` to use another compiler.
"""

import argparse
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
_DEFAULT_POOL = "_descriptor_pool.Default().AddSerializedFile("
_IMPORTS_END = "# @@protoc_insertion_point(imports)\n"


def point_at_own_pool(source):
    """The generated ``source`` with its file added to numflow's pool instead of the default one."""
    if _DEFAULT_POOL not in source or _IMPORTS_END not in source:
        raise ValueError("unexpected protoc output: no default-pool registration to redirect")
    source = source.replace(_DEFAULT_POOL, "_pool.POOL.AddSerializedFile(")
    return source.replace(_IMPORTS_END, _IMPORTS_END + "from numflow.protos import _pool\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protoc", default="protoc")
    args = parser.parse_args(argv)
    version = subprocess.run([args.protoc, "--version"], capture_output=True, text=True, check=True).stdout
    if not re.search(r"\b3\.21\.", version):
        print(f"warning: {version.strip()} is not protoc 3.21; the modules may need a newer protobuf runtime",
              file=sys.stderr)
    protos = sorted(str(p.relative_to(ROOT)) for p in HERE.glob("*.proto"))
    subprocess.run([args.protoc, "-I", str(ROOT), f"--python_out={ROOT}", *protos], cwd=ROOT, check=True)
    for proto in protos:
        module = ROOT / proto.replace(".proto", "_pb2.py")
        module.write_text(point_at_own_pool(module.read_text()))
    print(f"regenerated {len(protos)} modules with {version.strip()}")


if __name__ == "__main__":
    main()
