"""Remote filesystems for the checkpoint tests: fsspec's ``memory://``, and a real S3 API served by
moto's server on a loopback port, started once for the session and stopped after it.

``s3_bucket`` gives ``s3://<new bucket>`` with s3fs configured (through fsspec's configuration) to
reach that server with test credentials. The environment never lets botocore look for credentials
anywhere else: no instance metadata requests, no shared files.
"""

import uuid

import pytest


@pytest.fixture
def memory_root():
    fsspec = pytest.importorskip("fsspec")
    root = f"memory://ckpt-{uuid.uuid4().hex}"
    yield root
    fs = fsspec.filesystem("memory")
    if fs.exists(root):
        fs.rm(root, recursive=True)


@pytest.fixture(scope="session")
def s3_endpoint():
    pytest.importorskip("s3fs")
    server_module = pytest.importorskip("moto.server")
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3_config(s3_endpoint, monkeypatch):
    """Point s3fs at the test server; returns fsspec's ``conf["s3"]`` for a test to change."""
    import fsspec.config
    import s3fs

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    conf = {"key": "testing", "secret": "testing", "client_kwargs": {"endpoint_url": s3_endpoint,
                                                                       "region_name": "eu-west-1"}}
    monkeypatch.setitem(fsspec.config.conf, "s3", conf)
    s3fs.S3FileSystem.clear_instance_cache()
    yield conf
    s3fs.S3FileSystem.clear_instance_cache()


@pytest.fixture
def s3_bucket(s3_config):
    import fsspec

    bucket = f"ckpt-{uuid.uuid4().hex[:12]}"
    fsspec.filesystem("s3").mkdir(bucket)
    return f"s3://{bucket}"
