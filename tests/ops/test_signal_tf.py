"""Live round trips of spectral graphs with TensorFlow (run where ``tensorflow`` is importable: tox -e tf): a
GraphDef of complex, FFT and stft ops that numflow writes runs in TensorFlow to numflow's values, and one
TensorFlow writes runs in numflow to TensorFlow's."""

import numpy as np
import pytest
from signal_cases import SIGNALS

import numflow as nf

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1


def _build(lib):
    signals = lib.placeholder(lib.float32, [None, 100], name="signals")
    spectra = lib.signal.stft(signals, 24, 8)
    magnitude = lib.abs(spectra)
    phase = lib.angle(lib.conj(spectra))
    inverse = lib.signal.inverse_stft(spectra * lib.complex(magnitude, 0.5 * magnitude), 24, 8)
    spectrum = lib.fft(lib.cast(signals, lib.complex64))
    return [lib.identity(t, name=f"out{i}") for i, t in enumerate([magnitude, phase, inverse, spectrum])]


def _run(lib, session_cls, graph_def):
    with lib.Graph().as_default():
        lib.import_graph_def(graph_def, name="")
        with session_cls() as sess:
            return sess.run([f"out{i}:0" for i in range(4)], {"signals:0": SIGNALS})


def _export(lib, session_cls):
    with lib.Graph().as_default() as graph:
        outs = _build(lib)
        with session_cls() as sess:
            values = sess.run(outs, {"signals:0": SIGNALS})
        return graph.as_graph_def(), values


@pytest.mark.parametrize("writer", ["numflow", "tensorflow"])
def test_graph_defs_run_in_the_other_library(writer):
    libs = {"numflow": (nf, nf.Session), "tensorflow": (v1, v1.Session)}
    (write_lib, write_session), (read_lib, read_session) = libs[writer], libs[
        "tensorflow" if writer == "numflow" else "numflow"]
    graph_def, expected = _export(write_lib, write_session)
    if writer == "numflow":
        graph_def = v1.GraphDef.FromString(graph_def.SerializeToString())
    else:
        graph_def = nf.GraphDef.FromString(graph_def.SerializeToString())
    for got, want in zip(_run(read_lib, read_session, graph_def), expected):
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
