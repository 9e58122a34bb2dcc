"""The end-to-end programs: each ``prog_<name>.py`` here is a TensorFlow 1.x program written as its
tutorials write them, with ``main(tf, workdir)`` in place of ``import tensorflow as tf`` so that one text
runs on numflow and on TensorFlow. ``data/<name>.txt`` holds what TensorFlow prints."""

import importlib
import pathlib

HERE = pathlib.Path(__file__).parent
PROGRAMS = sorted(path.stem[len("prog_"):] for path in HERE.glob("prog_*.py"))


def load(name):
    """The module of program ``name``."""
    return importlib.import_module(f"prog_{name}")


def run_program(name, tf, workdir):
    """Run program ``name`` with the ``tf`` module, files under ``workdir``."""
    load(name).main(tf, workdir)
