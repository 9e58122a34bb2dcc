"""Keras' regularization layers besides Dropout: GaussianNoise, GaussianDropout, AlphaDropout, SpatialDropout1D/2D/3D
(whole channels dropped) and ActivityRegularization. Noise is drawn in training only (``training`` left out: the
learning phase); a ``seed`` seeds the first call, ``seed + 1`` the next, as Keras' legacy random generator does."""

import numpy as np

from numflow.keras import backend, regularizers
from numflow.keras.engine.base_layer import Layer
from numflow.keras.layers.wrapped import Dropout
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops, math_ops, random_ops


class SeededLayer(Layer):
    """A layer drawing random numbers: ``seed`` seeds its first draw, ``seed + 1`` the next, and so on (None: the
    graph's seed), as Keras' legacy random generator."""

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = self._next_seed = seed

    def _legacy_seed(self):
        seed = self._next_seed
        if seed is not None:
            self._next_seed += 1
        return seed

    def compute_output_shape(self, input_shape):
        return input_shape


class GaussianNoise(SeededLayer):
    """``inputs`` plus normal noise of ``stddev``, in training."""

    _config_keys = ("stddev", "seed")

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.stddev = stddev

    def call(self, inputs, training=None):
        def noised():
            return inputs + random_ops.random_normal(array_ops.shape(inputs), mean=0.0, stddev=self.stddev,
                                                     dtype=inputs.dtype, seed=self._legacy_seed())

        return backend.in_train_phase(noised, inputs, training=training)


class GaussianDropout(SeededLayer):
    """``inputs`` times normal noise of mean 1 and standard deviation ``sqrt(rate / (1 - rate))``, in training."""

    _config_keys = ("rate", "seed")

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = rate

    def call(self, inputs, training=None):
        if not 0 < self.rate < 1:
            return inputs

        def noised():
            stddev = np.sqrt(self.rate / (1.0 - self.rate))
            return inputs * random_ops.random_normal(array_ops.shape(inputs), mean=1.0, stddev=stddev,
                                                     dtype=inputs.dtype, seed=self._legacy_seed())

        return backend.in_train_phase(noised, inputs, training=training)


class AlphaDropout(SeededLayer):
    """Dropout that keeps the mean and variance of SELU activations: dropped entries set to SELU's negative
    saturation, then all scaled and shifted back, in training."""

    _config_keys = ("rate", "seed")

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate, self.noise_shape = rate, noise_shape

    def call(self, inputs, training=None):
        if not 0.0 < self.rate < 1.0:
            return inputs
        noise_shape = self.noise_shape if self.noise_shape else array_ops.shape(inputs)
        rate = self.rate

        def dropped_inputs():
            alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
            uniform = random_ops.random_uniform(noise_shape, 0.0, 1.0, dtype=backend.floatx(),
                                                seed=self._legacy_seed())
            kept = math_ops.cast(math_ops.greater_equal(uniform, rate), inputs.dtype)
            a = ((1 - rate) * (1 + rate * alpha_p**2)) ** -0.5
            b = -a * alpha_p * rate
            return a * (inputs * kept + alpha_p * (1 - kept)) + b

        return backend.in_train_phase(dropped_inputs, inputs, training=training)


class _SpatialDropout(Dropout):
    rank = 1

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(rate, **kwargs)
        if self.rank == 1:
            data_format = "channels_last"
        elif data_format is None:
            data_format = backend.image_data_format()
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError(f'`data_format` must be "channels_last" or "channels_first". Received: '
                             f"data_format={data_format}.")
        self.data_format = data_format
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _get_noise_shape(self, inputs):
        dims = array_ops.shape(inputs)
        ones = (1,) * self.rank
        if self.data_format == "channels_first":
            return (dims[0], dims[1], *ones)
        return (dims[0], *ones, dims[self.rank + 1])


class SpatialDropout1D(_SpatialDropout):
    """Dropout of whole channels of ``[batch, steps, channels]`` inputs."""

    def __init__(self, rate, **kwargs):
        super().__init__(rate, **kwargs)


class SpatialDropout2D(_SpatialDropout):
    """Dropout of whole channels (feature maps) of 4-D inputs."""

    rank = 2


class SpatialDropout3D(_SpatialDropout):
    """Dropout of whole channels (feature volumes) of 5-D inputs."""

    rank = 3


class ActivityRegularization(Layer):
    """Its inputs, adding ``l1 * sum(|x|) + l2 * sum(x ** 2)`` of them to the losses."""

    _config_keys = ("l1", "l2")

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape
