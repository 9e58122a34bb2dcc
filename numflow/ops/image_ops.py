"""``tf.image``'s geometry as TensorFlow 1 builds it from array ops: flips (fixed and seeded random), rot90,
transpose, crop_to_bounding_box, pad_to_bounding_box, resize_image_with_crop_or_pad and central_crop.

Each opens TensorFlow's name scope and checks the image's static shape in its words; what is known only at run
time is checked by ``Assert`` ops the result depends on, as in TensorFlow.
"""

import numbers

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, check_ops, math_ops, random_ops
from numflow.ops.cond import case, cond
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_ops import with_dependencies
from numflow.ops.op_util import static_value
from numflow.ops.sequence_ops import reverse
from numflow.ops.slice_ops import slice as slice_
from numflow.ops.tile_pad_split_ops import pad
from numflow.variables.variable import Variable


def is_tensor(x):
    return isinstance(x, Tensor | Variable)


def assert_or_raise(condition, error, message):
    """An ``Assert`` op for a tensor ``condition``; a Python one is checked now (``error(message)`` if false)."""
    if is_tensor(condition):
        return [check_ops.Assert(condition, [message])]
    if not condition:
        raise error(message)
    return []


def image_dimensions(image, rank):
    """The sizes of ``image``'s ``rank`` dimensions: ints where static, scalar tensors where not."""
    if image.shape.is_fully_defined():
        return image.shape.as_list()
    static = image.shape.with_rank(rank).dim_values
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(static, dynamic)]


def check_at_least_3d(image, require_static=True):
    """TensorFlow's checks of an image of rank 3 or more: static ones raise, dynamic ones are returned."""
    try:
        shape = image.shape.with_rank(3) if image.shape.ndims is None else image.shape.with_rank_at_least(3)
    except ValueError:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.") from None
    if require_static and not shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    inner = TensorShape(shape.dim_values[-3:])
    if any(d == 0 for d in inner.dim_values):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {shape}")
    if inner.is_fully_defined():
        return []
    return [check_ops.assert_positive(array_ops.shape(image)[-3:], ["inner 3 dims of 'image.shape' must be > 0."]),
            check_ops.assert_greater_equal(array_ops.rank(image), 3,
                                           message="'image' must be at least three-dimensional.")]


def assert_at_least_3d(image):
    return with_dependencies(check_at_least_3d(image, require_static=False), image)


def _by_rank(image, f_rank3, f_rank4, message):
    """``f_rank3()`` or ``f_rank4()`` by ``image``'s rank; a cond on it when the rank is unknown."""
    ndims = image.shape.ndims
    if ndims is None:
        return cond(math_ops.equal(array_ops.rank(image), 3), f_rank3, f_rank4)
    if ndims == 3:
        return f_rank3()
    if ndims == 4:
        return f_rank4()
    raise ValueError(message % image.shape)


def _fix_flip_shape(image, result):
    result.set_shape([None, None, None] if image.shape.ndims is None else image.shape)
    return result


def _flip(image, flip_index, scope_name):
    with get_default_graph().name_scope(scope_name):
        image = assert_at_least_3d(convert_to_tensor(image, name="image"))
        return _by_rank(image, lambda: _fix_flip_shape(image, reverse(image, [flip_index])),
                        lambda: reverse(image, [flip_index + 1]),
                        "'image' (shape %s)must have either 3 or 4 dimensions.")


def flip_left_right(image):
    """``image`` (``[h, w, c]`` or ``[batch, h, w, c]``) mirrored along its width."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    """``image`` (``[h, w, c]`` or ``[batch, h, w, c]``) mirrored along its height."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, flip_index, seed, scope_name):
    with get_default_graph().name_scope(scope_name) as scope:
        image = assert_at_least_3d(convert_to_tensor(image, name="image"))

        def f_rank3():
            mirror = math_ops.less(random_ops.random_uniform([], 0, 1.0, seed=seed), 0.5)
            result = cond(mirror, lambda: reverse(image, [flip_index]), lambda: image, name=scope)
            return _fix_flip_shape(image, result)

        def f_rank4():
            batch_size = array_ops.shape(image)[0]
            uniform = random_ops.random_uniform([batch_size], 0, 1.0, seed=seed)
            flips = math_ops.cast(math_ops.round(array_ops.reshape(uniform, [batch_size, 1, 1, 1])), image.dtype)
            return flips * reverse(image, [flip_index + 1]) + (1 - flips) * image

        return _by_rank(image, f_rank3, f_rank4, "'image' (shape %s) must have either 3 or 4 dimensions.")


def random_flip_left_right(image, seed=None):
    """``image`` mirrored along its width with probability 1/2 (each image of a batch on its own draw)."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """``image`` mirrored along its height with probability 1/2 (each image of a batch on its own draw)."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def rot90(image, k=1, name=None):
    """``image`` rotated ``k`` quarter turns counter-clockwise (a ``tf.case`` on ``k mod 4``, as TensorFlow)."""
    graph = get_default_graph()
    with graph.name_scope(name or "rot90") as scope:
        image = assert_at_least_3d(convert_to_tensor(image, name="image"))
        k = convert_to_tensor(k, dtype=dtypes.int32, name="k")
        k.shape.assert_has_rank(0)
        k = math_ops.mod(k, 4)
        return _by_rank(image, lambda: _rot90(image, k, scope, 0), lambda: _rot90(image, k, scope, 1),
                        "'image' (shape %s) must have either 3 or 4 dimensions.")


def _rot90(image, k, scope, batch):
    h, w = batch, batch + 1
    swap = list(range(batch)) + [w, h, w + 1]
    cases = [(math_ops.equal(k, 1), lambda: array_ops.transpose(reverse(image, [w]), swap)),
             (math_ops.equal(k, 2), lambda: reverse(image, [h, w])),
             (math_ops.equal(k, 3), lambda: reverse(array_ops.transpose(image, swap), [w]))]
    result = case(cases, default=lambda: image, exclusive=True, name=scope)
    shape = result.shape if batch else image.shape
    result.set_shape([shape[0], None, None, shape[3]] if batch else [None, None, shape[2]])
    return result


def transpose(image, name=None):
    """``image`` with its height and width swapped (``tf.image.transpose_image``)."""
    with get_default_graph().name_scope(name or "transpose"):
        image = assert_at_least_3d(convert_to_tensor(image, name="image"))
        return _by_rank(image, lambda: array_ops.transpose(image, [1, 0, 2], name=name or "transpose"),
                        lambda: array_ops.transpose(image, [0, 2, 1, 3], name=name or "transpose"),
                        "'image' (shape %s) must have either 3 or 4 dimensions.")


def _as_batch(image):
    """``image`` as a batch of rank 4, and whether it was one."""
    ndims = image.shape.ndims
    if ndims == 4:
        return image, True
    if ndims not in (3, None):
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    batch = array_ops.expand_dims(image, 0)
    if ndims is None:
        batch.set_shape([None] * 4)
    return batch, False


def _unbatch(image, is_batch):
    return image if is_batch else array_ops.squeeze(image, axis=[0])


def _static_or_none(values):
    return [None if is_tensor(v) else v for v in values]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """``image`` padded with zeros to ``target_height`` x ``target_width``, placed at the offsets."""
    with get_default_graph().name_scope("pad_to_bounding_box"):
        image, is_batch = _as_batch(convert_to_tensor(image, name="image"))
        batch, height, width, depth = image_dimensions(image, rank=4)
        after_width = target_width - offset_width - width
        after_height = target_height - offset_height - height
        checks = check_at_least_3d(image, require_static=False)
        checks += assert_or_raise(offset_height >= 0, ValueError, "offset_height must be >= 0")
        checks += assert_or_raise(offset_width >= 0, ValueError, "offset_width must be >= 0")
        checks += assert_or_raise(after_width >= 0, ValueError, "width must be <= target - offset")
        checks += assert_or_raise(after_height >= 0, ValueError, "height must be <= target - offset")
        image = with_dependencies(checks, image)
        paddings = array_ops.reshape(array_ops.stack([0, 0, offset_height, after_height, offset_width, after_width,
                                                      0, 0]), [4, 2])
        padded = pad(image, paddings)
        padded.set_shape(_static_or_none([batch, target_height, target_width, depth]))
        return _unbatch(padded, is_batch)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The ``target_height`` x ``target_width`` window of ``image`` at the offsets."""
    with get_default_graph().name_scope("crop_to_bounding_box"):
        image, is_batch = _as_batch(convert_to_tensor(image, name="image"))
        checks = check_at_least_3d(image, require_static=False)
        batch, height, width, depth = image_dimensions(image, rank=4)
        checks += assert_or_raise(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        checks += assert_or_raise(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        checks += assert_or_raise(target_width > 0, ValueError, "target_width must be > 0.")
        checks += assert_or_raise(target_height > 0, ValueError, "target_height must be > 0.")
        checks += assert_or_raise(width >= target_width + offset_width, ValueError,
                                  "width must be >= target + offset.")
        checks += assert_or_raise(height >= target_height + offset_height, ValueError,
                                  "height must be >= target + offset.")
        image = with_dependencies(checks, image)
        cropped = slice_(image, array_ops.stack([0, offset_height, offset_width, 0]),
                         array_ops.stack([array_ops.shape(image)[0], target_height, target_width,
                                          array_ops.shape(image)[3]]))
        cropped.set_shape(_static_or_none([batch, target_height, target_width, depth]))
        return _unbatch(cropped, is_batch)


def _either(tensor_fn, python_fn):
    return lambda x, y: tensor_fn(x, y) if is_tensor(x) or is_tensor(y) else python_fn(x, y)


_max, _min = _either(math_ops.maximum, max), _either(math_ops.minimum, min)
_equal = _either(math_ops.equal, lambda x, y: x == y)


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """``image`` cropped and/or zero-padded about its centre to ``target_height`` x ``target_width``."""
    with get_default_graph().name_scope("resize_image_with_crop_or_pad"):
        image, is_batch = _as_batch(convert_to_tensor(image, name="image"))
        checks = check_at_least_3d(image, require_static=False)
        checks += assert_or_raise(target_width > 0, ValueError, "target_width must be > 0.")
        checks += assert_or_raise(target_height > 0, ValueError, "target_height must be > 0.")
        image = with_dependencies(checks, image)
        if is_tensor(target_height):
            target_height = with_dependencies(checks, target_height)
        if is_tensor(target_width):
            target_width = with_dependencies(checks, target_width)
        _, height, width, _ = image_dimensions(image, rank=4)
        width_diff, height_diff = target_width - width, target_height - height
        cropped = crop_to_bounding_box(image, _max(-height_diff // 2, 0), _max(-width_diff // 2, 0),
                                       _min(target_height, height), _min(target_width, width))
        resized = pad_to_bounding_box(cropped, _max(height_diff // 2, 0), _max(width_diff // 2, 0),
                                      target_height, target_width)
        _, resized_height, resized_width, _ = image_dimensions(resized, rank=4)
        checks = assert_or_raise(_equal(resized_height, target_height), ValueError, "resized height is not correct.")
        checks += assert_or_raise(_equal(resized_width, target_width), ValueError, "resized width is not correct.")
        return _unbatch(with_dependencies(checks, resized), is_batch)


def resize_image_with_pad(image, target_height, target_width, method=0, align_corners=False):
    """``image`` resized to fit ``target_height`` x ``target_width`` with its aspect ratio kept
    (``tf.image.resize_images``'s ``method``), then zero-padded about its centre to that size."""
    from numflow.ops.image_resize_ops import resize_images

    with get_default_graph().name_scope("resize_image_with_pad"):
        image, is_batch = _as_batch(convert_to_tensor(image, name="image"))
        checks = check_at_least_3d(image, require_static=False)
        checks += assert_or_raise(target_width > 0, ValueError, "target_width must be > 0.")
        checks += assert_or_raise(target_height > 0, ValueError, "target_height must be > 0.")
        image = with_dependencies(checks, image)
        _, height, width, _ = image_dimensions(image, rank=4)
        f_height, f_width, f_target_height, f_target_width = (
            math_ops.cast(v, dtypes.float32) for v in (height, width, target_height, target_width))
        ratio = _max(f_width / f_target_width, f_height / f_target_height)
        resized_height_float, resized_width_float = f_height / ratio, f_width / ratio
        resized_height = math_ops.cast(math_ops.floor(resized_height_float), dtypes.int32)
        resized_width = math_ops.cast(math_ops.floor(resized_width_float), dtypes.int32)
        padding_height = math_ops.floor((f_target_height - resized_height_float) / 2)
        padding_width = math_ops.floor((f_target_width - resized_width_float) / 2)
        p_height = _max(0, math_ops.cast(padding_height, dtypes.int32))
        p_width = _max(0, math_ops.cast(padding_width, dtypes.int32))
        resized = resize_images(image, [resized_height, resized_width], method, align_corners=align_corners)
        padded = pad_to_bounding_box(resized, p_height, p_width, target_height, target_width)
        image_dimensions(padded, rank=4)
        return _unbatch(padded, is_batch)


def central_crop(image, central_fraction):
    """The central ``central_fraction`` (in (0, 1]) of ``image``'s height and width."""
    with get_default_graph().name_scope("central_crop"):
        image = convert_to_tensor(image, name="image")
        fraction = central_fraction if isinstance(central_fraction, numbers.Real) else None
        if fraction is None and is_tensor(central_fraction):
            value = static_value(central_fraction)
            fraction = None if value is None else float(value)
        if fraction is not None:
            if fraction <= 0.0 or fraction > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if fraction == 1.0:
                return image
        else:
            valid = math_ops.logical_or(central_fraction > 0.0, central_fraction <= 1.0)
            image = with_dependencies(assert_or_raise(valid, ValueError, "central_fraction must be within (0, 1]"),
                                      image)
        assert_at_least_3d(image)
        rank = image.shape.ndims
        if rank not in (3, 4):
            raise ValueError(f"`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {rank}.")
        first = rank - 3
        starts, sizes, dynamic = [], [], []
        for axis in (first, first + 1):
            size = image.shape.dim_values[axis]
            is_dynamic = size is None or fraction is None
            if size is None:
                size = array_ops.shape(image)[axis]
            if is_dynamic:
                as_double = math_ops.cast(size, dtypes.float64)
                start = math_ops.cast((as_double - as_double * math_ops.cast(central_fraction, dtypes.float64)) / 2,
                                      dtypes.int32)
            else:
                start = int((float(size) - float(size) * fraction) / 2)
            starts.append(start)
            sizes.append(size - start * 2)
            dynamic.append(is_dynamic)
        begin = array_ops.stack([0] * first + starts + [0])
        size = array_ops.stack([-1] * first + sizes + [-1])
        cropped = slice_(image, begin, size)
        dims = image.shape.dim_values
        cropped.set_shape(dims[:first] + [None if d else s for d, s in zip(dynamic, sizes)] + [dims[-1]])
        return cropped
