"""tf.image's file decoders and encoders against what TensorFlow 2.21 decodes from the same files
(data/tf_image_codecs.npz, written by data/make_tf_image_codec_golden.py)."""

import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

pytest.importorskip("PIL")
golden = load_script(pathlib.Path(__file__).parent / "data" / "make_tf_image_codec_golden.py")
EXPECTED = np.load(golden.GOLDEN)
REGENERATE = "run `/opt/tfenv/bin/python tests/io/data/make_tf_image_codec_golden.py` to rewrite the golden"


def test_golden_covers_every_case():
    assert sorted(EXPECTED.files) == sorted(name for name, *_ in golden.CASES), REGENERATE


@pytest.mark.parametrize("name, file, op, kwargs", golden.CASES, ids=[c[0] for c in golden.CASES])
def test_decoding_gives_tensorflows_pixels(name, file, op, kwargs):
    contents = tf.read_file(str(golden.FILES / file))
    if op == "decode_image" and file.endswith(".jpg"):
        contents = tf.image.encode_png(tf.image.decode_jpeg(contents))
    decoded = getattr(tf.image, op)(contents, **kwargs)
    with tf.Session() as sess:
        got = sess.run(decoded)
    want = EXPECTED[name]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_static_shapes_are_tensorflows():
    contents = tf.placeholder(tf.string, [])
    assert tf.image.decode_png(contents).shape.as_list() == [None, None, None]
    assert tf.image.decode_jpeg(contents, channels=3).shape.as_list() == [None, None, 3]
    assert tf.image.decode_gif(contents).shape.as_list() == [None, None, None, 3]
    assert tf.image.decode_image(contents).shape.ndims is None
    image = tf.image.decode_image(contents, channels=3, dtype=tf.float32, expand_animations=False)
    assert image.shape.as_list() == [None, None, 3] and image.dtype == tf.float32
    assert image.op.name == "decode_image_1/DecodeImage"  # the second decode_image of the graph


def test_encoded_files_decode_to_the_same_pixels():
    rs = np.random.RandomState(1)
    images = [(rs.rand(6, 5, channels) * 255).astype(np.uint8) for channels in (1, 2, 3, 4)]
    pngs = [tf.image.encode_png(image) for image in images]
    jpeg = tf.image.encode_jpeg(images[2], quality=100, chroma_downsampling=False)
    checks = {"png": pngs, "decoded": [tf.image.decode_png(png) for png in pngs],
              "is_jpeg": [tf.image.is_jpeg(jpeg), tf.image.is_jpeg(pngs[0])],
              "jpeg_shape": tf.io.extract_jpeg_shape(jpeg), "jpeg_decoded": tf.image.decode_jpeg(jpeg)}
    with tf.Session() as sess:
        got = sess.run(checks)
    assert all(png[:8] == b"\x89PNG\r\n\x1a\n" for png in got["png"])
    for decoded, image in zip(got["decoded"], images):
        np.testing.assert_array_equal(decoded, image)
    assert got["is_jpeg"] == [True, False] and got["jpeg_shape"].tolist() == [6, 5, 3]
    assert np.abs(got["jpeg_decoded"].astype(int) - images[2]).max() <= 4  # lossy, at its best quality


def test_bad_files_and_arguments_get_tensorflows_errors():
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format. One of JPEG, JPEG XL, "
                                                                 "PNG, GIF, BMP, WebP required."):
            sess.run(tf.image.decode_png(tf.constant(b"notapng")))
        with pytest.raises(tf.errors.InvalidArgumentError, match="image must have 1, 2, 3, or 4 channels, got 5"):
            sess.run(tf.image.encode_png(np.zeros((2, 2, 5), np.uint8)))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to decode PNG format using DecodeBmp op. "
                                                                 "Use `decode_png` or `decode_image` instead."):
            sess.run(tf.image.decode_bmp(tf.read_file(str(golden.FILES / "rgb.png"))))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to decode BMP format using a wrong op. Use "
                                                                 "`decode_bmp` or `decode_image` instead. Op used: "
                                                                 "DecodeJpeg"):
            sess.run(tf.image.decode_jpeg(tf.read_file(str(golden.FILES / "rgb.bmp"))))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Got 3 frames, but animated gifs can only be "
                                                                 "decoded by tf.io.decode_gif or tf.io.decode_image"):
            sess.run(tf.image.decode_png(tf.read_file(str(golden.FILES / "anim.gif"))))
    with pytest.raises(ValueError, match="`channels` must be 0, 1, 3 or 4 but got 2"):
        tf.image.decode_png(b"", channels=2)
