"""tf.keras.datasets read Keras' cache files (small fakes written in a temporary home, in Keras' names and
formats) and download only what is absent (here from ``file://`` URLs: the tests use no network)."""

import gzip
import hashlib
import io
import json
import os
import pathlib
import pickle
import tarfile

import keras_dataset_fakes as fakes
import numpy as np
import pytest

import numflow as tf
from numflow.keras.datasets import pickled_arrays

datasets = tf.keras.datasets


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KERAS_HOME", raising=False)
    (tmp_path / ".keras" / "datasets").mkdir(parents=True)
    return tmp_path / ".keras" / "datasets"


def _no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to download")

    monkeypatch.setattr("urllib.request.urlretrieve", refuse)


def test_mnist_reads_the_cached_npz(home, monkeypatch):
    _no_network(monkeypatch)
    rng = np.random.RandomState(0)
    arrays = {"x_train": rng.randint(0, 256, (3, 28, 28)).astype(np.uint8), "y_train": np.array([1, 2, 3], np.uint8),
              "x_test": rng.randint(0, 256, (2, 28, 28)).astype(np.uint8), "y_test": np.array([4, 5], np.uint8)}
    np.savez(home / "mnist.npz", **arrays)
    (x_train, y_train), (x_test, y_test) = datasets.mnist.load_data()
    for got, key in ((x_train, "x_train"), (y_train, "y_train"), (x_test, "x_test"), (y_test, "y_test")):
        np.testing.assert_array_equal(got, arrays[key])


def _idx(path, header, payload):
    with gzip.open(path, "wb") as f:
        f.write(header + payload.tobytes())


def test_fashion_mnist_reads_the_cached_idx_files(home, monkeypatch):
    _no_network(monkeypatch)
    folder = home / "fashion-mnist"
    folder.mkdir()
    images = np.arange(2 * 28 * 28, dtype=np.uint32).astype(np.uint8).reshape(2, 28, 28)
    labels = np.array([7, 9], np.uint8)
    for prefix in ("train", "t10k"):
        _idx(folder / f"{prefix}-labels-idx1-ubyte.gz", b"\x00\x00\x08\x01\x00\x00\x00\x02", labels)
        _idx(folder / f"{prefix}-images-idx3-ubyte.gz", b"\x00\x00\x08\x03" + b"\x00\x00\x00\x02" + b"\x00" * 8,
             images)
    (x_train, y_train), (x_test, y_test) = datasets.fashion_mnist.load_data()
    np.testing.assert_array_equal(x_train, images)
    np.testing.assert_array_equal(y_test, labels)
    assert x_test.shape == (2, 28, 28) and y_train.dtype == np.uint8


def _cifar_batch(path, rows, first_label, protocol):
    data = (np.arange(rows * 3072) % 251).astype(np.uint8).reshape(rows, 3072) + first_label
    labels = [int(first_label + i) % 10 for i in range(rows)]
    with open(path, "wb") as f:
        pickle.dump({b"batch_label": b"fake", b"labels": labels, b"data": data, b"filenames": [b"a"] * rows}, f,
                    protocol=protocol)
    return data, labels


def test_cifar10_reads_the_extracted_batches_without_running_them(home, monkeypatch):
    _no_network(monkeypatch)
    folder = home / "cifar-10-batches-py"
    folder.mkdir()
    train = [_cifar_batch(folder / f"data_batch_{i}", 2, i, protocol=2 if i % 2 else 4) for i in range(1, 6)]
    test_data, test_labels = _cifar_batch(folder / "test_batch", 3, 0, protocol=2)
    (x_train, y_train), (x_test, y_test) = datasets.cifar10.load_data()
    want = np.concatenate([d for d, _ in train]).reshape(10, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(x_train, want)
    assert y_train.tolist() == [[label] for _, labels in train for label in labels]
    assert x_test.shape == (3, 32, 32, 3) and y_test.dtype == np.uint8 and y_test.ravel().tolist() == test_labels
    np.testing.assert_array_equal(x_test[1, :, :, 0], test_data[1, :1024].reshape(32, 32))


def test_a_pickle_that_names_code_is_refused():
    class Exploit:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    with pytest.raises(ValueError, match="Refusing to load posix.system"):
        pickled_arrays.loads(pickle.dumps({"data": Exploit()}, protocol=2))


def test_boston_housing_shuffles_with_the_seed_and_splits(home, monkeypatch):
    _no_network(monkeypatch)
    x = np.arange(20 * 13, dtype=np.float64).reshape(20, 13)
    y = np.arange(20, dtype=np.float64) * 1.5
    np.savez(home / "boston_housing.npz", x=x, y=y)
    (x_train, y_train), (x_test, y_test) = datasets.boston_housing.load_data(test_split=0.25, seed=5)
    order = np.random.RandomState(5).permutation(20)
    np.testing.assert_array_equal(np.concatenate([x_train, x_test]), x[order])
    assert (len(y_train), len(y_test)) == (15, 5) and y_test.tolist() == (y[order][15:]).tolist()


def _sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_absent_file_is_downloaded_and_checked(home, tmp_path, monkeypatch):
    source = tmp_path / "served.npz"
    np.savez(source, x_train=np.zeros((1, 28, 28), np.uint8), y_train=np.zeros(1, np.uint8),
             x_test=np.ones((1, 28, 28), np.uint8), y_test=np.ones(1, np.uint8))
    monkeypatch.setattr(datasets.mnist, "ORIGIN", source.as_uri())
    monkeypatch.setattr(datasets.mnist, "FILE_HASH", _sha256(source))
    (_, _), (x_test, _) = datasets.mnist.load_data()
    assert x_test.sum() == 28 * 28 and (home / "mnist.npz").exists()
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected. The sha256 file hash does not"):
        tf.keras.utils.get_file("other.npz", origin=source.as_uri(), file_hash="0" * 64)
    assert not (home / "other.npz").exists() and not (home / "other.npz.part").exists()


def test_an_archive_is_extracted_and_one_leaving_the_cache_refused(home, tmp_path):
    def archive(name, member):
        path = tmp_path / name
        with tarfile.open(path, "w:gz") as tar:
            info = tarfile.TarInfo(member)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"ok"))
        return path

    good = archive("pack.tar.gz", "pack/file.txt")
    folder = tf.keras.utils.get_file("pack", origin=good.as_uri(), untar=True)
    assert folder == str(home / "pack") and (home / "pack" / "file.txt").read_bytes() == b"ok"
    bad = archive("evil.tar.gz", "../../escaped.txt")
    with pytest.raises(ValueError, match="Refusing to extract ../../escaped.txt"):
        tf.keras.utils.get_file("evil", origin=bad.as_uri(), untar=True)
    assert not (tmp_path / "escaped.txt").exists()


WORD_GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_datasets_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(fakes.IMDB_CALLS))
def test_imdb_reads_the_cached_npz_as_tf_keras_does(home, monkeypatch, name):
    _no_network(monkeypatch)
    fakes.write_imdb(home / "imdb.npz")
    result = datasets.imdb.load_data(**fakes.IMDB_CALLS[name])
    assert fakes.as_lists(result) == WORD_GOLDEN["imdb"][name]
    assert result[0][0].dtype == object


@pytest.mark.parametrize("name", sorted(fakes.REUTERS_CALLS))
def test_reuters_reads_the_cached_npz_as_tf_keras_does(home, monkeypatch, name):
    _no_network(monkeypatch)
    fakes.write_reuters(home / "reuters.npz")
    assert fakes.as_lists(datasets.reuters.load_data(**fakes.REUTERS_CALLS[name])) == WORD_GOLDEN["reuters"][name]
    assert len(datasets.reuters.get_label_names()) == 46


def test_word_lists_come_back_without_running_the_pickle_they_are_in(home, monkeypatch):
    _no_network(monkeypatch)
    evil = np.empty(1, dtype=object)
    evil[0] = _Exploit()
    np.savez(home / "imdb.npz", x_train=evil, y_train=np.zeros(1), x_test=evil, y_test=np.zeros(1))
    with pytest.raises(ValueError, match="Refusing to"):
        datasets.imdb.load_data()
    fakes.write_imdb(home / "imdb.npz")
    with pytest.raises(ValueError, match="no sequence was kept. Increase maxlen"):
        datasets.imdb.load_data(maxlen=1)
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        datasets.imdb.load_data(num_word=3)


class _Exploit:
    def __reduce__(self):
        return (os.system, ("echo unsafe",))


def test_imdb_word_index_is_the_cached_json(home, monkeypatch):
    _no_network(monkeypatch)
    (home / "imdb_word_index.json").write_text('{"the": 1, "and": 2}')
    assert datasets.imdb.get_word_index() == {"the": 1, "and": 2}


def test_cifar100_reads_fine_or_coarse_labels(home, monkeypatch):
    _no_network(monkeypatch)
    folder = home / "cifar-100-python"
    folder.mkdir()
    for part, rows in (("train", 3), ("test", 2)):
        data = data_for(rows)
        with open(folder / part, "wb") as f:
            pickle.dump({b"data": data, b"fine_labels": list(range(rows)), b"coarse_labels": [7] * rows}, f)
    (x_train, y_train), (x_test, y_test) = datasets.cifar100.load_data()
    np.testing.assert_array_equal(x_train, data_for(3).reshape(3, 3, 32, 32).transpose(0, 2, 3, 1))
    assert y_train.tolist() == [[0], [1], [2]] and y_test.shape == (2, 1)
    assert datasets.cifar100.load_data("coarse")[1][1].tolist() == [[7], [7]]
    with pytest.raises(ValueError, match='`label_mode` must be one of `"fine"`, `"coarse"`'):
        datasets.cifar100.load_data("medium")


def data_for(rows):
    return (np.arange(rows * 3072) % 253).astype(np.uint8).reshape(rows, 3072)
