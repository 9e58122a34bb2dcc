"""Run one model script in every configuration and print the SHA-256 of each value it returns.

    python tests/determinism/driver.py MODEL.py [--first N]

A model script defines ``run(tf, config)``: it builds its graph in the default graph, trains, and
returns ``{name: value}`` (fetched values and final variables). Each configuration runs the model
in a new graph and session: the executor's way (``auto``: as the executor picks it; ``one``/``all``:
always ``ONE_CORE_EACH``/``ALL_CORES``), ``inter_op_parallelism_threads`` and
``intra_op_parallelism_threads``. ``--first N`` rotates the list so that a different configuration is
the first of its process in each run. The output is one JSON object:
``{"<way>/<inter>/<intra>": {name: sha256 of dtype, shape and bytes}}``.
"""

import argparse
import hashlib
import importlib.util
import json

import numpy as np

import numflow as tf
from numflow.runtime import executor

WAYS = {"one": executor.ONE_CORE_EACH, "all": executor.ALL_CORES}
CONFIGS = [(way, inter, 0) for way in ("auto", "one", "all") for inter in (1, 2, 4)] + [("auto", 2, 1), ("auto", 2, 3)]


def digest(value):
    """SHA-256 of an array's dtype, shape and raw bytes."""
    array = np.ascontiguousarray(value)
    return hashlib.sha256(f"{array.dtype.str}{array.shape}".encode() + array.tobytes()).hexdigest()


def run_in(model, way, inter, intra):
    """``model.run`` in a new graph with ``way`` forced (unless ``auto``) and the given thread counts."""
    choose = executor.Ways.choose
    if way != "auto":
        executor.Ways.choose = lambda self: WAYS[way]
    try:
        with tf.Graph().as_default():
            config = tf.ConfigProto(inter_op_parallelism_threads=inter, intra_op_parallelism_threads=intra)
            values = model.run(tf, config)
    finally:
        executor.Ways.choose = choose
    return {name: digest(value) for name, value in values.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--first", type=int, default=0, help="index of the configuration to run first")
    args = parser.parse_args(argv)
    spec = importlib.util.spec_from_file_location("model", args.model)
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    first = args.first % len(CONFIGS)
    results = {"/".join(map(str, config)): run_in(model, *config) for config in CONFIGS[first:] + CONFIGS[:first]}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
