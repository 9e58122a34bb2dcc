"""Import a golden-writing script by its path, for the scenarios and file names it defines.

The scripts live in data folders beside their goldens, not in packages, and run under TensorFlow's
interpreter to rewrite them; the tests import them only for their module-level constants.
"""

import importlib.util
import pathlib


def load_script(path):
    """Return the module that the Python file at ``path`` defines, without running its main."""
    path = pathlib.Path(path)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
