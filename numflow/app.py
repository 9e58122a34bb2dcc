"""``tf.app``: ``run`` and ``flags``, as TensorFlow 1 has them (on absl)."""

import sys as _sys

from numflow import flags


def _parse_flags_tolerate_undef(argv):
    """Parse the flags of ``argv``, leaving unknown ones to ``main`` (absl alone would exit on them)."""
    return flags.FLAGS(_sys.argv if argv is None else argv, known_only=True)


def run(main=None, argv=None):
    """Parse the command line's flags into ``tf.app.flags.FLAGS``, then call ``main(argv)`` (the ``main`` of
    the script by default) with the program name and the arguments left over, and exit with its result.

    ``argv`` defaults to ``sys.argv``. Flags the program did not define stay in the arguments ``main``
    gets, as in TensorFlow; ``--help`` prints the flags and exits.
    """
    from absl.app import run as _run

    main = main or _sys.modules["__main__"].main
    _run(main=main, argv=argv, flags_parser=_parse_flags_tolerate_undef)


__all__ = ["flags", "run"]
