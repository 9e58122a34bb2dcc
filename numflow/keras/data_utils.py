"""``tf.keras.utils.get_file``: a file from Keras' cache (``~/.keras/<cache_subdir>/<fname>``, or under
``$KERAS_HOME``), downloaded from ``origin`` only when it is absent.

A file already in the cache is used as it is (so a copy put there by hand, or a test's small fake, is read
without the network); a download goes to a temporary name, is checked against ``file_hash`` (sha256, or
md5 for a 32-digit hash) and only then takes the file's name, so an interrupted or corrupted download never
stands for the file. An archive (``untar``) is extracted next to it, refusing members that would land outside
the cache directory.
"""

import hashlib
import os
import tarfile
import urllib.error
import urllib.request


def cache_directory(cache_dir=None):
    """Keras' cache: ``cache_dir``, else ``$KERAS_HOME``, else ``~/.keras`` (``/tmp/.keras`` if not writable)."""
    if cache_dir is None:
        cache_dir = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    cache_dir = os.path.expanduser(cache_dir)
    os.makedirs(cache_dir, exist_ok=True)
    if not os.access(cache_dir, os.W_OK):
        cache_dir = os.path.join("/tmp", ".keras")
    return cache_dir


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None):
    """The path of ``fname`` in Keras' cache, downloaded from ``origin`` first if absent (see the module docstring).

    With ``untar``, the path of the directory the archive ``<fname>.tar.gz`` extracts to.
    """
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    datadir = os.path.join(cache_directory(cache_dir), cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    fname = os.fspath(fname) if fname else os.path.basename(urllib.parse.urlsplit(origin).path)
    if untar:
        fname = fname[: -len(".tar.gz")] if fname.endswith(".tar.gz") else fname
        untar_path = os.path.join(datadir, fname)
        if os.path.exists(untar_path):
            return untar_path
        fpath = untar_path + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)
    if not os.path.exists(fpath):
        _download(origin, fpath, file_hash, hash_algorithm)
    if untar:
        _extract_tar(fpath, datadir)
        return untar_path
    if extract and tarfile.is_tarfile(fpath):
        _extract_tar(fpath, datadir)
    return fpath


def _download(origin, fpath, file_hash, hash_algorithm):
    print(f"Downloading data from {origin}")
    partial = fpath + ".part"
    try:
        try:
            urllib.request.urlretrieve(origin, partial)
        except urllib.error.HTTPError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.code} -- {e.msg}") from None
        except urllib.error.URLError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.errno} -- {e.reason}") from None
        if file_hash is not None and not validate_file(partial, file_hash, hash_algorithm):
            algorithm = _algorithm(file_hash, hash_algorithm)
            raise ValueError(f"Incomplete or corrupted file detected. The {algorithm} file hash does not match the "
                             f"provided value of {file_hash}.")
        os.replace(partial, fpath)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def _algorithm(file_hash, hash_algorithm):
    if hash_algorithm == "sha256" or (hash_algorithm == "auto" and len(file_hash) == 64):
        return "sha256"
    return "md5"


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file's sha256 (or md5) is ``file_hash``."""
    hasher = hashlib.sha256() if _algorithm(file_hash, algorithm) == "sha256" else hashlib.md5()
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash)


def _extract_tar(fpath, path):
    """Extract archive ``fpath`` into ``path``; a member that would leave ``path`` is refused (ValueError)."""
    root = os.path.realpath(path)
    with tarfile.open(fpath) as archive:
        for member in archive.getmembers():
            target = os.path.realpath(os.path.join(root, member.name))
            if os.path.commonpath([root, target]) != root or member.issym() or member.islnk():
                raise ValueError(f"Refusing to extract {member.name} from {fpath}: it would land outside {path}")
        archive.extractall(path, filter="data")
