"""``import numflow`` loads none of the libraries only some programs use: each comes with its first use."""

import subprocess
import sys

OPTIONAL = ("google.protobuf", "ray", "h5py", "PIL", "fsspec", "tensorboard", "graphviz", "numflow.keras")


def test_import_numflow_leaves_the_optional_libraries_unloaded():
    code = ("import sys, numflow; "
            f"print(' '.join(m for m in {OPTIONAL!r} if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []


def test_protobuf_comes_with_the_first_graph_file_written():
    code = ("import sys, numflow as tf; tf.constant(1.0); assert 'google.protobuf' not in sys.modules; "
            "tf.get_default_graph().as_graph_def(); print('google.protobuf' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True"]
