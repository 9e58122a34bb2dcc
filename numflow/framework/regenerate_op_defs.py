"""Regenerate ``tf_op_defs.pb``: TensorFlow's OpDef of every op type numflow declares.

Run from the repository root with numflow's environment; TensorFlow is asked in a child process::

    python -m numflow.framework.regenerate_op_defs [--tf-python /opt/tfenv/bin/python]

The file is a binary ``tensorflow.OpList`` sorted by name, with the documentation strings dropped.
Op types TensorFlow does not know (numflow's own) are listed on stderr and left out: those are
written to graph files under their own names (see ``op_mapping.py``).
"""

import argparse
import pathlib
import subprocess
import sys

OUT = pathlib.Path(__file__).resolve().parent / "tf_op_defs.pb"
# Op types of GraphDefs that numflow builds as others: a cond or loop without state (which numflow
# also writes), TensorFlow's interleave with num_parallel_calls (read as InterleaveDataset), TensorFlow
# 1's control flow frames (read as conds and loops).
WRITTEN_ONLY = ("StatelessIf", "StatelessCase", "StatelessWhile", "ParallelInterleaveDatasetV4", "Switch", "RefSwitch",
                "Merge", "RefMerge", "Enter", "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration",
                "LoopCond")

_TF_PROGRAM = r"""
import os, sys
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow  # noqa: F401  (registers the ops)
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.framework import op_def_registry
ops, unknown = op_def_pb2.OpList(), []
for name in sys.stdin.read().split():
    op_def = op_def_registry.get(name)
    if op_def is None:
        unknown.append(name)
        continue
    op = ops.op.add()
    op.CopyFrom(op_def)
    op.ClearField("summary")
    op.ClearField("description")
    for arg in list(op.input_arg) + list(op.output_arg) + list(op.attr):
        arg.ClearField("description")
sys.stderr.write("not in TensorFlow: " + " ".join(unknown) + "\n")
sys.stdout.buffer.write(ops.SerializeToString())
"""


def declare_all():
    """Import every module that declares ops (some load only when first used); the declared op types."""
    import importlib
    import pkgutil

    import numflow.ops
    from numflow.framework import registry

    for module in pkgutil.iter_modules(numflow.ops.__path__):
        importlib.import_module(f"numflow.ops.{module.name}")
    importlib.import_module("numflow.variables.ops")
    importlib.import_module("numflow.data")
    return registry.declared_types()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", default="/opt/tfenv/bin/python")
    args = parser.parse_args(argv)
    from numflow.protos import op_def_pb2

    names = "\n".join([t for t in declare_all() if not t.startswith("NfTest")] + list(WRITTEN_ONLY))
    result = subprocess.run([args.tf_python, "-c", _TF_PROGRAM], input=names.encode(), capture_output=True,
                            check=True)
    sys.stderr.write(result.stderr.decode()[-2000:])
    ops = op_def_pb2.OpList.FromString(result.stdout)
    ordered = op_def_pb2.OpList(op=sorted(ops.op, key=lambda op: op.name))
    OUT.write_bytes(ordered.SerializeToString(deterministic=True))
    print(f"wrote {len(ordered.op)} OpDefs to {OUT}")


if __name__ == "__main__":
    main()
