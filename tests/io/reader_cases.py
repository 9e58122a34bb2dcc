"""The reader programs behind ``data/tf_reader_golden.json``, written once for both engines: each case
takes the ``tf`` module and a folder holding the files ``make_files`` wrote, reads them through a
queue of file names from ``string_input_producer``, and returns the (key, value) pairs, the counts
and the end's error, with the folder's path taken out of the keys.
"""

import numpy as np

TEXT = {"a.txt": b"header\nl1\r\n\nl2\n", "b.txt": b"head b\nx1\nx2"}
FIXED = {"f.bin": b"HHabcdefghFF", "g.bin": b"HHxyzwvFF"}
RECORDS = [b"one", b"two!", b""]


def make_files(tf, folder):
    """The text and fixed-length files, and a TFRecord file by ``tf``'s own writer."""
    for name, data in {**TEXT, **FIXED}.items():
        (folder / name).write_bytes(data)
    with tf.io.TFRecordWriter(str(folder / "r.tfr")) as writer:
        for record in RECORDS:
            writer.write(record)


def _drain(tf, folder, reader, names, up_to=None, steps=6):
    queue = tf.train.string_input_producer([str(folder / n) for n in names], shuffle=False, num_epochs=1)
    key, value = reader.read(queue) if up_to is None else reader.read_up_to(queue, up_to)
    counts = [reader.num_records_produced(), reader.num_work_units_completed()]
    result = {"static": [[t.name, str(t.shape), t.dtype.name] for t in (key, value, *counts)],
              "reader": [reader.reader_ref.op.type, reader.reader_ref.op.name], "reads": []}
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        for _ in range(steps):
            try:
                k, v = sess.run([key, value])
            except tf.errors.OutOfRangeError as e:
                lines = [line for line in e.message.splitlines() if line.strip() and "[[" not in line]
                result["end"] = lines[-1].split("'")[0]
                break
            k = [x.decode().replace(str(folder), "DIR") for x in np.asarray(k, dtype=object).reshape(-1)]
            v = [x.decode("latin-1") for x in np.asarray(v, dtype=object).reshape(-1)]
            result["reads"].append([k, v])
        result["counts"] = [int(c) for c in sess.run(counts)]
        coord.request_stop()
        coord.join(threads)
    return result


def text_lines(tf, folder):
    return _drain(tf, folder, tf.TextLineReader(skip_header_lines=1), ["a.txt", "b.txt"])


def text_lines_no_header(tf, folder):
    return _drain(tf, folder, tf.TextLineReader(name="lines"), ["b.txt"])


def tf_records(tf, folder):
    return _drain(tf, folder, tf.TFRecordReader(), ["r.tfr"])


def tf_records_up_to(tf, folder):
    return _drain(tf, folder, tf.TFRecordReader(), ["r.tfr", "r.tfr"], up_to=4)


def fixed_length(tf, folder):
    return _drain(tf, folder, tf.FixedLengthRecordReader(4, header_bytes=2, footer_bytes=2), ["f.bin", "g.bin"])


def fixed_length_hops(tf, folder):
    return _drain(tf, folder, tf.FixedLengthRecordReader(3, header_bytes=2, footer_bytes=2, hop_bytes=2), ["f.bin"])


def whole_files(tf, folder):
    return _drain(tf, folder, tf.WholeFileReader(), ["a.txt", "f.bin"])


def fixed_length_dataset(tf, folder):
    """tf.data's reader of the same files: the elements, their static shape, and the error of a file
    whose body is no whole number of records or of a missing file."""
    return [_read_dataset(tf, folder, names) for names in (["f.bin", "g.bin"], ["f.bin", "absent.bin"])]


def _read_dataset(tf, folder, names):
    files = [str(folder / n) for n in names]
    dataset = tf.data.FixedLengthRecordDataset(files, 4, header_bytes=2, footer_bytes=2)
    element = tf.data.make_one_shot_iterator(dataset).get_next()
    result = {"static": [str(element.shape), element.dtype.name], "reads": []}
    with tf.Session() as sess:
        try:
            while True:
                result["reads"].append(sess.run(element).decode("latin-1"))
        except tf.errors.OpError as e:
            lines = [line for line in e.message.splitlines() if line.strip() and "[[" not in line]
            result["end"] = [type(e).__name__, lines[-1].replace(str(folder), "DIR")]
    return result


CASES = {f.__name__: f for f in (text_lines, text_lines_no_header, tf_records, tf_records_up_to, fixed_length,
                                 fixed_length_hops, whole_files, fixed_length_dataset)}
