"""A fresh default graph for every test of the cluster package."""

import pytest

import numflow as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()
