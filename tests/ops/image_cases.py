"""The graphs behind ``data/tf_image_golden.npz``, written once for both engines: each case builds image ops from
the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests) and returns the
tensors to fetch; the golden file holds their values over ``RUNS`` runs of one session and their names."""

import numpy as np

RUNS = 2
_RNG = np.random.RandomState(7)
BATCH = _RNG.uniform(0, 1, size=(2, 4, 5, 3)).astype(np.float32)
IMAGE = BATCH[0]
PIXELS = _RNG.randint(0, 256, size=(4, 6, 3)).astype(np.uint8)
SIZES = {"up": [7, 8], "down": [3, 2], "odd": [5, 3]}
_GRAYS = np.array([[[0.0, 0.0, 0.0], [0.5, 0.5, 0.5], [1.0, 0.2, 0.2], [0.3, 0.9, 0.3]]], np.float32)
_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [1, 10.1, 0, 11.1],
                   [0, 100, 1, 101], [0.5, 0.5, 0.5, 0.7]], np.float32)
_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.9], np.float32)
CENTERS = {"legacy": (False, False), "corners": (True, False), "half": (False, True)}


# Inside, partly outside, inverted, wholly outside, the whole image, and a point.
_DRAWN_BOXES = np.array([[[0.1, 0.2, 0.8, 0.9], [-0.2, 0.5, 0.5, 1.5], [0.5, 0.5, 0.4, 0.9]],
                         [[1.2, 0, 1.5, 1], [0, 0, 1, 1], [0.5, 0.5, 0.5, 0.5]]], np.float32)


def _resize_case(op_name, size, align_corners, half_pixel_centers, images=BATCH):
    def build(tf):
        fn = getattr(tf.image, op_name)
        kwargs = {} if op_name == "resize_area" else {"half_pixel_centers": half_pixel_centers}
        return [fn(images, size, align_corners=align_corners, **kwargs)]
    return build


def _resize_grad_case(op_name, size, align_corners, half_pixel_centers):
    def build(tf):
        x = tf.constant(BATCH)
        out = getattr(tf.image, op_name)(x, size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)
        weights = np.arange(np.prod([2, *size, 3]), dtype=np.float32).reshape(2, *size, 3) / 10
        return [out, tf.gradients(tf.reduce_sum(out * weights), x)[0]]
    return build


CASES = {}
for _size_name, _size in SIZES.items():
    for _center_name, (_align, _half) in CENTERS.items():
        for _op in ("resize_bilinear", "resize_nearest_neighbor", "resize_bicubic"):
            CASES[f"{_op}/{_size_name}/{_center_name}"] = _resize_case(_op, _size, _align, _half)
        for _op in ("resize_bilinear", "resize_nearest_neighbor", "resize_bicubic"):
            CASES[f"{_op}_grad/{_size_name}/{_center_name}"] = _resize_grad_case(_op, _size, _align, _half)
        if not _half:
            CASES[f"resize_area/{_size_name}/{_center_name}"] = _resize_case("resize_area", _size, _align, False)
CASES["resize_bilinear/uint8"] = _resize_case("resize_bilinear", [5, 9], False, False, PIXELS[None])
CASES["resize_nearest_neighbor/uint8"] = _resize_case("resize_nearest_neighbor", [5, 9], False, True, PIXELS[None])
CASES["resize_bicubic/uint8"] = _resize_case("resize_bicubic", [3, 9], False, True, PIXELS[None])
CASES["resize_area/uint8"] = _resize_case("resize_area", [3, 4], False, False, PIXELS[None])
CASES.update({
    "resize_images/methods": lambda tf: [tf.image.resize_images(PIXELS, [6, 4], method=m) for m in range(4)],
    "resize_images/batch_align": lambda tf: [tf.image.resize_images(BATCH, [3, 7], align_corners=True,
                                                                    method=tf.image.ResizeMethod.BICUBIC)],
    "resize_images/same_size": lambda tf: [tf.image.resize_images(PIXELS, [4, 6])],
    "resize_images/aspect": lambda tf: [tf.image.resize(IMAGE, [8, 8], preserve_aspect_ratio=True,
                                                        method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)],
    "resize_images/named": lambda tf: [tf.image.resize_images(BATCH, tf.constant([2, 3]), name="shrink")],
    "crop_to_bounding_box": lambda tf: [tf.image.crop_to_bounding_box(PIXELS, 1, 2, 2, 3),
                                        tf.image.crop_to_bounding_box(BATCH, 0, 1, 4, 2)],
    "pad_to_bounding_box": lambda tf: [tf.image.pad_to_bounding_box(PIXELS, 1, 2, 6, 9),
                                       tf.image.pad_to_bounding_box(BATCH, 0, 1, 5, 6)],
    "resize_image_with_crop_or_pad": lambda tf: [tf.image.resize_image_with_crop_or_pad(PIXELS, 3, 9),
                                                 tf.image.resize_image_with_crop_or_pad(BATCH, 7, 2),
                                                 tf.image.resize_with_crop_or_pad(IMAGE, 4, 5)],
    "resize_image_with_pad": lambda tf: [tf.image.resize_image_with_pad(PIXELS, 6, 6),
                                         tf.image.resize_image_with_pad(BATCH, 9, 4, method=1),
                                         tf.image.resize_image_with_pad(IMAGE, 3, 11, align_corners=True)],
    "draw_bounding_boxes": lambda tf: [
        tf.image.draw_bounding_boxes(BATCH, _DRAWN_BOXES), tf.image.draw_bounding_boxes(BATCH[..., :1], _DRAWN_BOXES),
        tf.image.draw_bounding_boxes(BATCH, _DRAWN_BOXES, colors=[[0.2, 0.4, 0.6, 0.8], [0.9, 0.1, 0.0, 0.5]])],
    "central_crop": lambda tf: [tf.image.central_crop(PIXELS, 0.5), tf.image.central_crop(BATCH, 0.7),
                                tf.image.central_crop(IMAGE, 1.0)],
    "flips": lambda tf: [tf.image.flip_left_right(PIXELS), tf.image.flip_up_down(PIXELS),
                         tf.image.flip_left_right(BATCH), tf.image.flip_up_down(BATCH)],
    "transpose": lambda tf: [tf.image.transpose_image(PIXELS), tf.image.transpose(BATCH)],
    "rot90": lambda tf: [tf.image.rot90(PIXELS), tf.image.rot90(PIXELS, 2), tf.image.rot90(BATCH, k=3),
                         tf.image.rot90(BATCH, k=-2)],
    "random_flips": lambda tf: [tf.image.random_flip_left_right(PIXELS, seed=3),
                                tf.image.random_flip_up_down(PIXELS, seed=4),
                                tf.image.random_flip_left_right(np.concatenate([BATCH] * 3), seed=5),
                                tf.image.random_flip_up_down(np.concatenate([BATCH] * 3), seed=6)],
    "random_crop": lambda tf: [tf.image.random_crop(PIXELS, [2, 3, 3], seed=8)],
    "per_image_standardization": lambda tf: [tf.image.per_image_standardization(PIXELS),
                                             tf.image.per_image_standardization(BATCH),
                                             tf.image.per_image_standardization(np.ones([2, 2, 1], np.float32))],
    "adjust_brightness": lambda tf: [tf.image.adjust_brightness(IMAGE, 0.25),
                                     tf.image.adjust_brightness(PIXELS, -0.3)],
    "adjust_contrast": lambda tf: [tf.image.adjust_contrast(BATCH, 1.7), tf.image.adjust_contrast(PIXELS, 0.4)],
    "random_brightness": lambda tf: [tf.image.random_brightness(IMAGE, 0.3, seed=1)],
    "random_contrast": lambda tf: [tf.image.random_contrast(PIXELS, 0.2, 1.8, seed=2)],
    # Without saturate, floats outside [0, 1] cast to integers as the platform's conversion has it: left out.
    "convert_image_dtype": lambda tf: [
        tf.image.convert_image_dtype(PIXELS, tf.float32), tf.image.convert_image_dtype(IMAGE, tf.uint8),
        tf.image.convert_image_dtype(IMAGE * 1.2 - 0.1, tf.uint8, saturate=True),
        tf.image.convert_image_dtype(PIXELS, tf.int32), tf.image.convert_image_dtype(PIXELS.astype(np.int32) << 23,
                                                                                     tf.uint8),
        tf.image.convert_image_dtype(IMAGE, tf.float64), tf.image.convert_image_dtype(IMAGE, tf.float32)],
    "grayscale": lambda tf: [tf.image.rgb_to_grayscale(PIXELS), tf.image.rgb_to_grayscale(BATCH),
                             tf.image.grayscale_to_rgb(tf.constant(PIXELS[..., :1])),
                             tf.image.grayscale_to_rgb(tf.constant(BATCH[..., 1:2]))],
    "hsv": lambda tf: [tf.image.rgb_to_hsv(BATCH), tf.image.hsv_to_rgb(BATCH), tf.image.hsv_to_rgb(
        tf.image.rgb_to_hsv(IMAGE.astype(np.float64))), tf.image.rgb_to_hsv(_GRAYS)],
    "adjust_saturation": lambda tf: [tf.image.adjust_saturation(BATCH, 0.4), tf.image.adjust_saturation(PIXELS, 2.5),
                                     tf.image.adjust_saturation(_GRAYS, 3.0)],
    "adjust_hue": lambda tf: [tf.image.adjust_hue(BATCH, 0.2), tf.image.adjust_hue(PIXELS, -0.45),
                              tf.image.adjust_hue(IMAGE, 0.9), tf.image.adjust_hue(_GRAYS, 0.3)],
    "random_colour": lambda tf: [tf.image.random_hue(IMAGE, 0.3, seed=3),
                                 tf.image.random_saturation(PIXELS, 0.5, 1.5, seed=4)],
    "non_max_suppression": lambda tf: [
        tf.image.non_max_suppression(_BOXES, _SCORES, 4), tf.image.non_max_suppression(_BOXES, _SCORES, 10, 0.2),
        tf.image.non_max_suppression(_BOXES, _SCORES, 10, 0.7, score_threshold=0.3),
        tf.image.non_max_suppression(_BOXES, _SCORES, 0)],
})


def run_case(tf, name):
    """The values of case ``name`` over ``RUNS`` runs of one session (a list per fetched tensor, stacked), and
    the names of its tensors."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            runs = [sess.run(outs) for _ in range(RUNS)]
        return [np.stack(values) for values in zip(*runs)], [t.name for t in outs]
