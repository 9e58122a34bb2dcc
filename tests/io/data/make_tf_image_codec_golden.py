"""Regenerate image_codecs/ (small image files, written by Pillow from a fixed seed) and
tf_image_codecs.npz: what TensorFlow 2.21's decode ops give for each file and argument set.

Run with TensorFlow's interpreter (with Pillow installed there):
/opt/tfenv/bin/python tests/io/data/make_tf_image_codec_golden.py
JPEG files are decoded with dct_method="INTEGER_ACCURATE" (numflow's one IDCT).
"""

import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
FILES = HERE / "image_codecs"
GOLDEN = HERE / "tf_image_codecs.npz"
# (case name, file, op, keyword arguments)
CASES = [
    ("png_rgb", "rgb.png", "decode_png", {}),
    ("png_rgb_to_gray", "rgb.png", "decode_png", {"channels": 1}),
    ("png_rgb_to_rgba", "rgb.png", "decode_png", {"channels": 4}),
    ("png_gray", "gray.png", "decode_png", {}),
    ("png_gray_to_rgb", "gray.png", "decode_png", {"channels": 3}),
    ("png_rgba", "rgba.png", "decode_png", {}),
    ("png_rgba_to_rgb", "rgba.png", "decode_png", {"channels": 3}),
    ("png_rgba_to_gray", "rgba.png", "decode_png", {"channels": 1}),
    ("png_palette", "palette.png", "decode_png", {}),
    ("png_16bit", "gray16.png", "decode_png", {"dtype": "uint16"}),
    ("png_16bit_as_8", "gray16.png", "decode_png", {}),
    ("png_8bit_as_16", "gray.png", "decode_png", {"dtype": "uint16"}),
    ("jpeg_rgb", "rgb.jpg", "decode_jpeg", {}),
    ("jpeg_rgb_to_gray", "rgb.jpg", "decode_jpeg", {"channels": 1}),
    ("jpeg_gray", "gray.jpg", "decode_jpeg", {}),
    ("jpeg_gray_to_rgb", "gray.jpg", "decode_jpeg", {"channels": 3}),
    ("bmp_rgb", "rgb.bmp", "decode_bmp", {}),
    ("gif", "anim.gif", "decode_gif", {}),
    ("image_png", "rgb.png", "decode_image", {}),
    ("image_gif_frames", "anim.gif", "decode_image", {}),
    ("image_gif_first", "anim.gif", "decode_image", {"expand_animations": False}),
    ("image_jpeg_float", "rgb.jpg", "decode_image", {"dtype": "float32"}),
    ("image_png16_float", "gray16.png", "decode_image", {"dtype": "float32"}),
    ("gif_op_reads_png", "rgb.png", "decode_gif", {}),
    ("jpeg_op_reads_png", "rgba.png", "decode_jpeg", {"channels": 3}),
]


def write_files():
    from PIL import Image

    FILES.mkdir(exist_ok=True)
    rs = np.random.RandomState(0)
    rgb = (rs.rand(13, 17, 3) * 255).astype(np.uint8)
    Image.fromarray(rgb).save(FILES / "rgb.png")
    Image.fromarray(rgb[..., 0]).save(FILES / "gray.png")
    Image.fromarray(np.dstack([rgb, rgb[..., 1:2]])).save(FILES / "rgba.png")
    Image.fromarray(rgb).convert("P", palette=Image.Palette.ADAPTIVE, colors=16).save(FILES / "palette.png")
    Image.fromarray((rs.rand(5, 6) * 65535).astype(np.uint16)).save(FILES / "gray16.png")
    Image.fromarray(rgb).save(FILES / "rgb.jpg", quality=90)
    Image.fromarray(rgb[..., 0]).save(FILES / "gray.jpg", quality=75)
    Image.fromarray(rgb).save(FILES / "rgb.bmp")
    frames = [Image.fromarray(np.roll(rgb, k, axis=1)).convert("P", palette=Image.Palette.ADAPTIVE, colors=32)
              for k in range(3)]
    frames[0].save(FILES / "anim.gif", save_all=True, append_images=frames[1:], duration=50, loop=0)


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    write_files()
    out = {}
    with tf.Session() as sess:
        for name, file, op, kwargs in CASES:
            contents = tf.read_file(str(FILES / file))
            if op == "decode_jpeg":
                kwargs = {**kwargs, "dct_method": "INTEGER_ACCURATE"}
            if op == "decode_image" and file.endswith(".jpg"):
                contents = tf.image.encode_png(tf.image.decode_jpeg(contents, dct_method="INTEGER_ACCURATE"))
            out[name] = sess.run(getattr(tf.image, op)(contents, **kwargs))
    np.savez(GOLDEN, **out)


if __name__ == "__main__":
    main()
