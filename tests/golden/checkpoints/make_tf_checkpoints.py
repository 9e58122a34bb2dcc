"""Write the TensorFlow-made checkpoints that tests/checkpoint compares numflow against.

HOW TO REGENERATE (needs TensorFlow; numflow itself never does)::

    /opt/tfenv/bin/python tests/golden/checkpoints/make_tf_checkpoints.py

It replaces every folder below, next to this file, and prints the sizes. Each folder holds what TF
wrote plus ``values.npz``: the values TF was given, written with numpy only. A DT_STRING tensor
``name`` is stored as its concatenated bytes (uint8) under ``name`` and its element lengths (int64,
the tensor's shape) under ``name::lengths``; bfloat16 as its raw uint16 bits.

- ``dtypes/``: ``tf.compat.v1.train.Saver`` with a dict var_list: every dtype of the spec's table,
  scalars, empty tensors, special floats, strings (empty, non-ASCII, 00/FF bytes, >= 128 bytes),
  names with slashes and non-ASCII.
- ``complex/``: ``Saver()`` of complex64 and complex128 variables made by ``tf.Variable`` and
  ``tf.get_variable`` (NaN, infinite and signed-zero parts included), saved by their graph names.
- ``step/``: ``Saver(max_to_keep=2, save_relative_paths=True)`` saving at global_step 6 and 7:
  ``model-6``, ``model-7`` and the ``checkpoint`` state file.
- ``sharded/``: ``Saver(sharded=True)`` with variables on two CPU devices: two data files.
- ``partitioned/``: a variable split by a partitioner: its slice entries and ordered-code keys.
- ``tf2/``: ``tf.train.Checkpoint`` + ``CheckpointManager``: object-graph keys, state-file timestamps.
- ``many/``: raw ``SaveV2`` of 24,000 scalars: an index of several data blocks (shortened
  separators); the files are gzip-compressed (``*.gz``) to stay small.
"""

import gzip
import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
v1 = tf.compat.v1


def _strings(*items):
    arr = np.empty(len(items), dtype=object)
    arr[:] = list(items)
    return arr


def _scalar_string(data):
    arr = np.empty((), dtype=object)
    arr[()] = data
    return arr


def dtype_values():
    """name -> (numpy value, tf dtype) for the dtypes checkpoint."""
    f32 = np.array([1.5, -0.0, np.inf, -np.inf, 1e-45, np.nan], dtype=np.float32)
    f32.view(np.uint32)[5] = 0x7FC12345  # a NaN with a payload
    return {
        "layer1/weights": (np.arange(6, dtype=np.float32).reshape(2, 3) / 7, tf.float32),
        "layer1/bias": (np.array([0.25, -1.0], dtype=np.float32), tf.float32),
        "a/b/c/special_f32": (f32, tf.float32),
        "f64": (np.array([[np.pi, -2.5e-310], [1e300, -0.0]]), tf.float64),
        "f16": (np.array([1.0, -65504.0, 6e-8, np.inf], dtype=np.float16), tf.float16),
        "bf16": (np.array([0x3F80, 0xC000, 0x7F80, 0x0001], dtype=np.uint16), tf.bfloat16),
        "i8": (np.array([-128, 0, 127], dtype=np.int8), tf.int8),
        "i16": (np.array([-32768, 32767], dtype=np.int16), tf.int16),
        "i32": (np.array([[-(2**31), 2**31 - 1, 5]], dtype=np.int32), tf.int32),
        "i64": (np.array([-(2**63), 2**63 - 1], dtype=np.int64), tf.int64),
        "u8": (np.array([0, 200, 255], dtype=np.uint8), tf.uint8),
        "u16": (np.array([65535, 1], dtype=np.uint16), tf.uint16),
        "u32": (np.array([2**32 - 1], dtype=np.uint32), tf.uint32),
        "u64": (np.array([2**64 - 1, 3], dtype=np.uint64), tf.uint64),
        "flags": (np.array([True, False, True]), tf.bool),
        "c64": (np.array([1 + 2j, -0.5j], dtype=np.complex64), tf.complex64),
        "c128": (np.array([[3 - 4j]], dtype=np.complex128), tf.complex128),
        "scalar_f32": (np.float32(3.25), tf.float32),
        "scalar_i64": (np.int64(-7), tf.int64),
        "scalar_bool": (np.bool_(True), tf.bool),
        "empty_f32": (np.zeros((0, 3), dtype=np.float32), tf.float32),
        "empty_i64": (np.zeros((4, 0), dtype=np.int64), tf.int64),
        "empty_str": (np.empty((0,), dtype=object), tf.string),
        "str_scalar": (_scalar_string(b"scalar string"), tf.string),
        "str_vec": (_strings(b"ab", b"", "ünï".encode(), b"\x00\xff\x00", b"x" * 300), tf.string),
        "str_2d": (np.array([[b"a", b"bc"], [b"", b"def"]], dtype=object), tf.string),
        "ünï/çödé": (np.array([1, 2, 3], dtype=np.int32), tf.int32),
    }


def save_values(path, values):
    """``values.npz``: numpy arrays; strings as bytes + lengths; bfloat16 as uint16 bits."""
    flat = {}
    for name, value in values.items():
        value = np.asarray(value)
        if value.dtype == object:
            elems = list(value.reshape(-1))
            flat[name] = np.frombuffer(b"".join(elems), dtype=np.uint8)
            flat[name + "::lengths"] = np.array([len(e) for e in elems], dtype=np.int64).reshape(value.shape)
        else:
            flat[name] = value
    np.savez(path, **flat)


def _fresh(name):
    path = os.path.join(HERE, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def make_dtypes():
    out = _fresh("dtypes")
    values = dtype_values()
    with tf.Graph().as_default(), v1.Session() as sess:
        var_list = {}
        for i, (name, (value, dtype)) in enumerate(values.items()):
            init = value.view(tf.bfloat16.as_numpy_dtype) if dtype == tf.bfloat16 else value
            var_list[name] = v1.Variable(tf.constant(init, dtype=dtype), name=f"var{i}")
        sess.run(v1.global_variables_initializer())
        v1.train.Saver(var_list).save(sess, os.path.join(out, "model"), write_meta_graph=False,
                                      write_state=False)
    save_values(os.path.join(out, "values.npz"), {k: v for k, (v, _) in values.items()})


def complex_values():
    """name -> value for the complex checkpoint."""
    return {"spectrum": np.array([[1 + 2j, -0.0 - 3.5j], [np.inf - 1j, np.nan + 0.25j]], np.complex64),
            "filters/taps": np.array([1e-300 + 1e300j, -2.5 + 0.0j, 3j], np.complex128),
            "scalar": np.complex64(-1.5 + 0.5j)}


def make_complex():
    out = _fresh("complex")
    values = complex_values()
    with tf.Graph().as_default(), v1.Session() as sess:
        v1.Variable(values["spectrum"], name="spectrum")
        v1.get_variable("filters/taps", initializer=values["filters/taps"])
        v1.Variable(values["scalar"], name="scalar")
        sess.run(v1.global_variables_initializer())
        v1.train.Saver().save(sess, os.path.join(out, "model"), write_meta_graph=False, write_state=False)
    save_values(os.path.join(out, "values.npz"), values)


def make_step():
    out = _fresh("step")
    cwd = os.getcwd()
    os.chdir(out)
    try:
        with tf.Graph().as_default(), v1.Session() as sess:
            step = v1.train.get_or_create_global_step()
            weights = v1.get_variable("dense/kernel", initializer=np.ones((2, 2), np.float32))
            sess.run(v1.global_variables_initializer())
            saver = v1.train.Saver(max_to_keep=2, save_relative_paths=True)
            for value in (6, 7):
                sess.run([step.assign(value), weights.assign(np.full((2, 2), value, np.float32))])
                saver.save(sess, "model", global_step=step, write_meta_graph=False)
    finally:
        os.chdir(cwd)
    save_values(os.path.join(out, "values.npz"),
                {"global_step": np.int64(7), "dense/kernel": np.full((2, 2), 7, np.float32)})


def make_sharded():
    out = _fresh("sharded")
    values = {"a": np.array([1.0, 2.0], np.float32), "b": np.arange(4, dtype=np.int64),
              "c": np.float64(0.5), "d/e": _strings(b"on cpu 1")}
    devices = {"a": "/cpu:0", "b": "/cpu:1", "c": "/cpu:0", "d/e": "/cpu:1"}
    config = v1.ConfigProto(device_count={"CPU": 2})
    with tf.Graph().as_default(), v1.Session(config=config) as sess:
        var_list = {}
        for name, value in values.items():
            with tf.device(devices[name]):
                var_list[name] = v1.Variable(value, name=name.replace("/", "_"))
        sess.run(v1.global_variables_initializer())
        v1.train.Saver(var_list, sharded=True).save(sess, os.path.join(out, "model"),
                                                    write_meta_graph=False, write_state=False)
    save_values(os.path.join(out, "values.npz"), values)


def make_partitioned():
    out = _fresh("partitioned")
    full = np.arange(24, dtype=np.float32).reshape(8, 3)
    with tf.Graph().as_default(), v1.Session() as sess:
        pv = v1.get_variable("pv", shape=full.shape, initializer=v1.zeros_initializer(),
                             partitioner=v1.fixed_size_partitioner(2))
        plain = v1.get_variable("plain", initializer=np.float32(2.0))
        sess.run(v1.global_variables_initializer())
        for part in pv:
            start = part._save_slice_info.var_offset[0]
            sess.run(part.assign(full[start:start + part.shape[0]]))
        v1.train.Saver([pv, plain]).save(sess, os.path.join(out, "model"), write_meta_graph=False,
                                         write_state=False)
    save_values(os.path.join(out, "values.npz"), {"pv": full, "plain": np.float32(2.0)})


def make_tf2():
    out = _fresh("tf2")
    ckpt = tf.train.Checkpoint(v=tf.Variable(np.array([1.0, 2.0], np.float32)),
                               step=tf.Variable(np.int64(3)))
    manager = tf.train.CheckpointManager(ckpt, out, max_to_keep=1)
    manager.save()
    values = {"v/.ATTRIBUTES/VARIABLE_VALUE": np.array([1.0, 2.0], np.float32),
              "step/.ATTRIBUTES/VARIABLE_VALUE": np.int64(3),
              "save_counter/.ATTRIBUTES/VARIABLE_VALUE": np.int64(1)}
    save_values(os.path.join(out, "values.npz"), values)


def make_many():
    out = _fresh("many")
    names = [f"layer{i // 4:04d}/{('beta', 'gamma', 'kernel', 'moving_mean')[i % 4]}" for i in range(24000)]
    prefix = os.path.join(out, "model")
    tensors = [tf.constant(np.float32(0.0)) for _ in names]
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=names, shape_and_slices=[""] * len(names),
                      tensors=tensors)
    for filename in ("model.index", "model.data-00000-of-00001"):
        path = os.path.join(out, filename)
        with open(path, "rb") as src, gzip.GzipFile(path + ".gz", "wb", mtime=0) as dst:
            dst.write(src.read())
        os.remove(path)


def main():
    make_dtypes()
    make_step()
    make_complex()
    make_sharded()
    make_partitioned()
    make_tf2()
    make_many()
    total = 0
    for root, _, files in sorted(os.walk(HERE)):
        for filename in sorted(files):
            if root == HERE:
                continue
            size = os.path.getsize(os.path.join(root, filename))
            total += size
            print(f"{os.path.relpath(os.path.join(root, filename), HERE):50s} {size:8d}")
    print(f"{'total':50s} {total:8d}")


if __name__ == "__main__":
    main()
