"""Saver, latest_checkpoint and the checkpoint readers on URLs: memory://, and S3 through s3fs against
moto's server on loopback; a missing bucket, missing credentials or a scheme with no filesystem is
TensorFlow's error class naming the path, and the last good checkpoint stays the latest."""

import numpy as np
import pytest

import numflow as tf
from numflow.checkpoint import list_variables, load_checkpoint
from numflow.io import gfile

DATA = ".data-00000-of-00001"


def _model():
    tf.reset_default_graph()
    step = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", initializer=np.arange(6, dtype=np.float32).reshape(2, 3))
    return step, w, tf.assign_add(step, 1), w.assign_add(tf.ones([2, 3]))


@pytest.mark.parametrize("where", ["memory", "s3"])
def test_saver_state_file_and_readers_on_a_url(where, request):
    root = request.getfixturevalue("memory_root" if where == "memory" else "s3_bucket") + "/run"
    step, w, bump_step, bump_w = _model()
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        paths = []
        for _ in range(3):
            sess.run([bump_step, bump_w])
            paths.append(saver.save(sess, gfile.join(root, "model.ckpt"), global_step=step))
        saved = sess.run(w)
        sess.run(bump_w)
        assert paths == [f"{root}/model.ckpt-{i}" for i in (1, 2, 3)]
        assert tf.train.latest_checkpoint(root) == paths[-1]
        state = tf.train.get_checkpoint_state(root)
        assert state.all_model_checkpoint_paths == paths[1:]
        assert not tf.gfile.Exists(paths[0] + ".index") and not tf.gfile.Exists(paths[0] + DATA)
        assert not tf.gfile.Exists(paths[0] + ".meta") and tf.gfile.Exists(paths[-1] + ".meta")
        saver.restore(sess, tf.train.latest_checkpoint(root))
        np.testing.assert_array_equal(sess.run(w), saved)
    with tf.Graph().as_default(), tf.Session() as sess:  # the graph and the weights, both from the URL
        tf.train.import_meta_graph(paths[-1] + ".meta").restore(sess, paths[-1])
        np.testing.assert_array_equal(sess.run("w:0"), saved)
    assert list_variables(root) == [("global_step", []), ("w", [2, 3])]
    assert load_checkpoint(paths[-1]).get_tensor("global_step") == 3
    assert tf.train.load_variable(root, "w").tolist() == saved.tolist()


def test_a_bucket_that_does_not_exist(s3_config):
    _, w, _, _ = _model()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.NotFoundError, match=f"s3://no-such-bucket-for-numflow/run/m{DATA}; "):
            tf.train.Saver().save(sess, "s3://no-such-bucket-for-numflow/run/m")
    with pytest.raises(tf.errors.NotFoundError, match="s3://no-such-bucket-for-numflow/m"):
        load_checkpoint("s3://no-such-bucket-for-numflow/m")
    assert tf.train.latest_checkpoint("s3://no-such-bucket-for-numflow/run") is None


def test_missing_credentials_name_the_path_and_keep_the_last_checkpoint(s3_bucket, s3_config):
    import s3fs

    _, w, _, bump_w = _model()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        good = saver.save(sess, f"{s3_bucket}/m-1")
        sess.run(bump_w)
        del s3_config["key"], s3_config["secret"]
        s3fs.S3FileSystem.clear_instance_cache()
        with pytest.raises(tf.errors.UnauthenticatedError, match=f"{s3_bucket}/m-2.*Unable to locate credentials"):
            saver.save(sess, f"{s3_bucket}/m-2")
        with pytest.raises(tf.errors.UnauthenticatedError, match=f"{s3_bucket}/checkpoint"):
            tf.train.latest_checkpoint(s3_bucket)
        s3_config.update(key="testing", secret="testing")
        s3fs.S3FileSystem.clear_instance_cache()
        assert tf.train.latest_checkpoint(s3_bucket) == good
        saver.restore(sess, good)
        np.testing.assert_array_equal(sess.run(w), np.arange(6).reshape(2, 3))


def test_a_scheme_without_a_filesystem():
    _, w, _, _ = _model()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.UnimplementedError,
                           match=r"File system scheme 'nosuchfs' not implemented \(file: 'nosuchfs://b/m"):
            tf.train.Saver().save(sess, "nosuchfs://b/m")
    with pytest.raises(tf.errors.UnimplementedError, match="nosuchfs"):
        tf.train.latest_checkpoint("nosuchfs://b")


def test_an_asynchronous_save_to_s3(s3_bucket):
    step, w, bump_step, bump_w = _model()
    saver = tf.train.Saver(enable_async=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(bump_step)
        saved = sess.run(w)
        path = saver.save(sess, f"{s3_bucket}/run/model", global_step=step)
        sess.run(bump_w)
    assert path == f"{s3_bucket}/run/model-1" and tf.train.latest_checkpoint(f"{s3_bucket}/run") == path
    np.testing.assert_array_equal(load_checkpoint(path).get_tensor("w"), saved)
