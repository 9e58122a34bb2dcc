"""tf.app.run with tf.app.flags, tf.logging and tf.compat, as a TF1 script uses them: a script run in a
subprocess with flags on its command line, and the functions one by one. Expected lines are those
TensorFlow 2.21 prints for the same script."""

import logging
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numflow as tf
from tests.framework.ported import run_ported

SCRIPT = textwrap.dedent('''
    import numflow as tf

    flags = tf.app.flags
    flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate.")
    flags.DEFINE_integer("steps", 3, "Number of steps.")
    flags.DEFINE_string("name", "model", "A name.")
    flags.DEFINE_boolean("verbose", False, "Talk.")
    tf.flags.DEFINE_string(flag_name="old_style", default_value="x", docstring="old names")
    FLAGS = flags.FLAGS


    def main(argv):
        tf.logging.set_verbosity(tf.logging.INFO)
        tf.logging.info("lr=%s steps=%d name=%s verbose=%s old=%s", FLAGS.learning_rate, FLAGS.steps, FLAGS.name,
                        FLAGS.verbose, FLAGS.old_style)
        tf.logging.debug("hidden")
        tf.logging.vlog(tf.logging.ERROR, "vlog error")
        x = tf.placeholder(tf.float32, [])
        with tf.Session() as sess:
            print("value:", sess.run(x * FLAGS.learning_rate, {x: FLAGS.steps}))
        print("argv:", argv[1:])
        return 3


    if __name__ == "__main__":
        tf.app.run()
''')


def _run_script(tmp_path, *args):
    path = tmp_path / "train.py"
    path.write_text(SCRIPT)
    root = pathlib.Path(__file__).parents[2]
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, cwd=root, timeout=120,
                          env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})


def test_a_tf1_script_with_flags_runs_as_in_tensorflow(tmp_path):
    done = _run_script(tmp_path, "--learning_rate", "0.5", "--name=abc", "--verbose", "extra", "--unknown_flag=3")
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines() == ["value: 1.5", "argv: ['extra', '--unknown_flag=3']"]
    lines = done.stderr.splitlines()
    assert ("WARNING:root:Use of the keyword argument names (flag_name, default_value, docstring) is deprecated, "
            "please use (name, default, help) instead.") in lines
    ours = [line for line in lines if line.startswith(("INFO:tensorflow", "ERROR:tensorflow", "DEBUG:tensorflow"))]
    assert ours == ["INFO:tensorflow:lr=0.5 steps=3 name=abc verbose=True old=x", "ERROR:tensorflow:vlog error"]
    # absl.app.run also gives the root logger absl's handler: each record shows again in absl's format.
    assert any(line.startswith("I") and "train.py:" in line and line.endswith("] lr=0.5 steps=3 name=abc "
                                                                            "verbose=True old=x") for line in lines)


def test_a_bad_flag_value_and_help(tmp_path):
    bad = _run_script(tmp_path, "--steps=abc")
    assert bad.returncode != 0
    assert "flag --steps=abc: invalid literal for int() with base 10: 'abc'" in bad.stderr
    shown = _run_script(tmp_path, "--help")
    assert shown.returncode == 1  # absl's exit status after the help, TensorFlow's too
    assert "--learning_rate: Initial learning rate." in shown.stdout + shown.stderr


def test_flags_are_absls(monkeypatch):
    from absl import flags as absl_flags

    assert tf.app.flags is tf.flags
    assert tf.flags.DEFINE_enum is absl_flags.DEFINE_enum and tf.flags.FlagValues is absl_flags.FlagValues
    tf.flags.DEFINE_string("numflow_test_flag", "v", "A flag defined through tf.flags.")
    assert absl_flags.FLAGS["numflow_test_flag"].default == "v"
    monkeypatch.setattr(sys, "argv", ["prog", "--numflow_test_flag=w"])
    try:
        assert tf.flags.FLAGS.numflow_test_flag == "w"  # read before parsing: tf.flags parses sys.argv, as TF does
    finally:
        absl_flags.FLAGS.unparse_flags()


def test_logging_levels_and_verbosity(caplog):
    assert (tf.logging.DEBUG, tf.logging.INFO, tf.logging.WARN, tf.logging.ERROR, tf.logging.FATAL) == (10, 20, 30, 40,
                                                                                                        50)
    logger = logging.getLogger("tensorflow")
    assert tf.logging.get_logger() is logger
    saved = logger.level
    try:
        tf.logging.set_verbosity(tf.logging.ERROR)
        assert tf.logging.get_verbosity() == tf.logging.ERROR
        with caplog.at_level(logging.DEBUG, logger="tensorflow"):
            tf.logging.info("i %d", 1)
            tf.logging.warn("w")
            tf.logging.warning("w2")
            tf.logging.error("e")
            tf.logging.fatal("f")
            tf.logging.log(tf.logging.INFO, "l")
            for i in range(5):
                tf.logging.log_every_n(tf.logging.INFO, "every %d", 2, i)
                tf.logging.log_first_n(tf.logging.INFO, "first %d", 2, i)
            tf.logging.TaskLevelStatusMessage("status")
        got = [(r.levelname, r.getMessage()) for r in caplog.records]
        assert got == [("INFO", "i 1"), ("WARNING", "w"), ("WARNING", "w2"), ("ERROR", "e"), ("CRITICAL", "f"),
                       ("INFO", "l"), ("INFO", "every 0"), ("INFO", "first 0"), ("INFO", "first 1"),
                       ("INFO", "every 2"), ("INFO", "every 4"), ("ERROR", "status")]
        assert {r.filename for r in caplog.records} == {"test_everyday_api.py"}
    finally:
        logger.setLevel(saved)


def test_compat_conversions():
    c = tf.compat
    assert c.as_bytes("héllo") == "héllo".encode() and c.as_bytes(bytearray(b"ab")) == b"ab"
    assert c.as_text(b"h\xc3\xa9") == "hé" and c.as_str(b"x") == "x" and c.as_text("y") == "y"
    assert c.as_str_any(b"b") == "b" and c.as_str_any(3) == "3"
    assert c.path_to_str(pathlib.Path("/a/b")) == "/a/b" and c.path_to_str(5) == 5
    assert c.as_bytes("é", encoding="latin-1") == b"\xe9"
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 3"):
        c.as_bytes(3)
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 3"):
        c.as_text(3)
    assert tf.compat.v1 is tf and tf.compat.v1.placeholder is tf.placeholder
    assert isinstance(np.int64(3), c.integral_types) and isinstance(2.5, c.real_types)
    assert c.bytes_or_text_types == (bytes, str)
    assert c.dimension_value(tf.TensorShape([2, None])[0]) == 2


def test_a_tf1_program_prints_what_tensorflow_prints(tmp_path):
    """``data/tf1_program.py``, written for ``tensorflow.compat.v1``, run with numflow in its place: its
    stdout equals ``data/tf1_program.out``, which TensorFlow 2.21 printed (regenerate as its docstring says)."""
    data = pathlib.Path(__file__).parent / "data"
    done = run_ported(data / "tf1_program.py", tmp_path, "--steps", "30")
    assert done.stdout == (data / "tf1_program.out").read_text()
    assert [line for line in done.stderr.splitlines() if line.startswith("INFO:tensorflow")] == [
        f"INFO:tensorflow:step {step}" for step in (0, 10, 20, 30)]
