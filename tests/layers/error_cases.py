"""Bad uses of ``tf.layers`` behind the ``errors`` of ``data/tf_layers_golden.json``: each case takes the ``tf``
module and raises; ``raised`` gives back the error's class name and message."""


def _img(tf, shape=(None, 8, 8, 3)):
    return tf.placeholder(tf.float32, shape, name="img")


class _NoOutput:
    @staticmethod
    def make(tf):
        class NoOutput(tf.layers.Layer):
            def call(self, inputs):
                return None

        return NoOutput()


def _twice_with_other_width(tf):
    layer = tf.layers.Dense(2)
    layer(tf.zeros([3, 4]))
    layer(tf.zeros([3, 5]))


def _existing(tf):
    tf.layers.dense(tf.zeros([3, 4]), 2, name="fc")
    tf.layers.dense(tf.zeros([3, 4]), 2, name="fc")


def _input_spec(tf):
    tf.layers.Dense(2).input_spec = 3


CASES = {
    "conv2d_rank": lambda tf: tf.layers.conv2d(_img(tf, (None, 28, 28)), 4, 3),
    "dense_rank": lambda tf: tf.layers.dense(tf.zeros([3]), 2),
    "dense_undefined_last": lambda tf: tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 2),
    "dense_units": lambda tf: tf.layers.Dense(-1),
    "data_format": lambda tf: tf.layers.conv2d(_img(tf), 4, 3, data_format="NHWC"),
    "padding": lambda tf: tf.layers.conv2d(_img(tf), 4, 3, padding="full"),
    "pool_padding": lambda tf: tf.layers.max_pooling2d(_img(tf), 2, 2, padding="foo"),
    "pool_size": lambda tf: tf.layers.max_pooling2d(_img(tf), (2, 2, 2), 2),
    "pool_size_zero": lambda tf: tf.layers.average_pooling2d(_img(tf), 0, 2),
    "pool_strides_none": lambda tf: tf.layers.MaxPooling2D(2, None),
    "pool_rank": lambda tf: tf.layers.max_pooling2d(_img(tf, (None, 8, 3)), 2, 2),
    "pool1d_rank": lambda tf: tf.layers.max_pooling1d(_img(tf), 2, 2),
    "kernel_size": lambda tf: tf.layers.conv2d(_img(tf), 4, (3, 3, 3)),
    "kernel_size_text": lambda tf: tf.layers.conv2d(_img(tf), 4, "3"),
    "filters": lambda tf: tf.layers.conv2d(_img(tf), 0, 3),
    "causal_conv2d": lambda tf: tf.layers.conv2d(_img(tf), 4, 3, padding="causal"),
    "strides_and_dilation": lambda tf: tf.layers.conv2d(_img(tf), 4, 3, strides=2, dilation_rate=2),
    "channels_undefined": lambda tf: tf.layers.conv2d(_img(tf, (None, 8, 8, None)), 4, 3),
    "downsampled_away": lambda tf: tf.layers.conv2d(_img(tf, (None, 2, 2, 3)), 4, 3),
    "transpose_rank": lambda tf: tf.layers.conv2d_transpose(_img(tf, (None, 4, 4, 4, 3)), 2, 3),
    "transpose_output_padding": lambda tf: tf.layers.Conv2DTranspose(2, 3, strides=2, output_padding=2),
    "separable_rank": lambda tf: tf.layers.separable_conv2d(_img(tf, (None, 4, 4, 4, 3)), 2, 3),
    "batch_norm_axis": lambda tf: tf.layers.batch_normalization(_img(tf), axis=5),
    "batch_norm_axis_type": lambda tf: tf.layers.BatchNormalization(axis="channels"),
    "batch_norm_undefined_axis": lambda tf: tf.layers.batch_normalization(_img(tf, (None, 8, 8, None))),
    "batch_norm_duplicate_axis": lambda tf: tf.layers.batch_normalization(_img(tf), axis=[1, -3]),
    "batch_norm_renorm_clipping": lambda tf: tf.layers.BatchNormalization(renorm=True, renorm_clipping={"r": 1}),
    "dropout_rate": lambda tf: tf.layers.dropout(_img(tf), rate=1.5),
    "flatten_data_format": lambda tf: tf.layers.flatten(_img(tf), data_format="NCHW"),
    "existing_variable": _existing,
    "missing_variable": lambda tf: tf.layers.dense(tf.zeros([3, 4]), 2, name="fc", reuse=True),
    "other_width": _twice_with_other_width,
    "unknown_keyword": lambda tf: tf.layers.Dense(2, foo=1),
    "no_output": lambda tf: _NoOutput.make(tf)(tf.zeros([2, 2])),
    "input_spec_type": _input_spec,
    "scope_name_before_call": lambda tf: tf.layers.Dense(2).scope_name,
}


def raised(tf, name):
    """``(class name, message)`` of the error case ``name`` raises in a fresh graph."""
    with tf.Graph().as_default():
        try:
            CASES[name](tf)
        except Exception as e:  # noqa: BLE001 - the case's error is what is recorded
            return type(e).__name__, str(e)
    raise AssertionError(f"{name} raised nothing")
