"""Import a golden-writing script by its path, for the scenarios and file names it defines.

The scripts live in data folders beside their goldens, not in packages, and run under TensorFlow's
interpreter to rewrite them; the tests import them only for their module-level constants.
"""

import importlib.util
import json
import pathlib
import tempfile


def load_script(path):
    """Return the module that the Python file at ``path`` defines, without running its main."""
    path = pathlib.Path(path)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_file_cases_golden(tf, cases, make_files, path):
    """Write to the JSON file ``path`` what each of ``cases`` (name -> ``case(tf, folder)``) gives,
    each in a graph of its own, over the files ``make_files(tf, folder)`` writes in a temporary folder."""
    golden = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        make_files(tf, folder)
        for name, case in cases.items():
            with tf.Graph().as_default():
                golden[name] = case(tf, folder)
    pathlib.Path(path).write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
