"""Regenerate ``data/``: TensorFlow's results for ``cases.py`` and what TensorFlow prints for each program.

    TF_USE_LEGACY_KERAS=1 /opt/tfenv/bin/python tests/programs/make_goldens.py [name ...]

Any Python with TensorFlow 2.x will do; names pick some cases or programs (all by default).
"""

import contextlib
import io
import json
import pathlib
import sys
import tempfile

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
from cases import CASES  # noqa: E402
from golden_io import encode  # noqa: E402
from programs import PROGRAMS, run_program  # noqa: E402

tf.disable_v2_behavior()


def dumps(data, indent=""):
    """JSON one key per line, each list of plain values (an array's) on one line."""
    inner = indent + " "
    if isinstance(data, dict) and data:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in data.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(data, list) and any(isinstance(v, dict | list) for v in data):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in data) + f"\n{indent}]"
    return json.dumps(data, ensure_ascii=False)


def main(names):
    golden_path = HERE / "data" / "cases.json"
    goldens = json.loads(golden_path.read_text()) if golden_path.exists() else {}
    for name, case in CASES.items():
        if names and name not in names:
            continue
        tf.reset_default_graph()
        goldens[name] = encode(case(tf))
    golden_path.write_text(dumps(dict(sorted(goldens.items()))) + "\n")
    for name in PROGRAMS:
        if names and name not in names:
            continue
        tf.reset_default_graph()
        with tempfile.TemporaryDirectory() as workdir:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                run_program(name, tf, workdir)
        (HERE / "data" / f"{name}.txt").write_text(out.getvalue())


if __name__ == "__main__":
    main(sys.argv[1:])
