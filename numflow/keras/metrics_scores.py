"""The metrics of ``tf.keras.metrics`` kept as matrices or per-class sums: the intersection-over-union family
(``IoU``, ``MeanIoU``, ``BinaryIoU``, ``OneHotIoU``, ``OneHotMeanIoU``), ``FBetaScore``/``F1Score`` and
``R2Score``, as tf-keras computes them.

Where tf-keras' graph-mode ``update_state`` of the scores builds its assignments without returning them (so
that ``metric(...)`` and ``result()`` never run them), numflow's returns them grouped, and ``reset_state``
zeroes the variables in the Keras session.
"""

from numflow.keras.metrics_base import Metric
from numflow.ops import array_ops, linalg_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_ops import group
from numflow.ops.elementwise_ops import is_inf
from numflow.ops.sequence_ops import size


class _IoUBase(Metric):
    """The confusion matrix of class ids (``total_confusion_matrix``, rows the true classes)."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True, sparse_y_pred=True,
                 axis=-1):
        super().__init__(name=name, dtype=dtype)
        self.num_classes, self.ignore_class = num_classes, ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self.total_cm = self.add_weight("total_confusion_matrix", shape=(num_classes, num_classes))

    def update_state(self, y_true, y_pred, sample_weight=None):
        from numflow.ops.math_composites import confusion_matrix

        if not self.sparse_y_true:
            y_true = math_ops.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = math_ops.argmax(y_pred, axis=self.axis)
        y_true, y_pred = math_ops.cast(y_true, self._dtype), math_ops.cast(y_pred, self._dtype)
        if y_pred.shape.ndims > 1:
            y_pred = array_ops.reshape(y_pred, [-1])
        if y_true.shape.ndims > 1:
            y_true = array_ops.reshape(y_true, [-1])
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            if sample_weight.shape.ndims > 1:
                sample_weight = array_ops.reshape(sample_weight, [-1])
        if self.ignore_class is not None:
            valid_mask = math_ops.not_equal(y_true, math_ops.cast(self.ignore_class, y_true.dtype))
            y_true = array_ops.boolean_mask(y_true, valid_mask)
            y_pred = array_ops.boolean_mask(y_pred, valid_mask)
            if sample_weight is not None:
                sample_weight = array_ops.boolean_mask(sample_weight, valid_mask)
        current_cm = confusion_matrix(y_true, y_pred, self.num_classes, weights=sample_weight, dtype=self._dtype)
        return state_ops.assign_add(self.total_cm, current_cm).op

    def get_config(self):
        return {**super().get_config(), "num_classes": self.num_classes, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class IoU(_IoUBase):
    """The mean over ``target_class_ids`` of ``tp / (tp + fp + fn)`` (classes never seen left out)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        total_cm = self.total_cm.value()
        sum_over_row = math_ops.cast(math_ops.reduce_sum(total_cm, axis=0), self._dtype)
        sum_over_col = math_ops.cast(math_ops.reduce_sum(total_cm, axis=1), self._dtype)
        true_positives = math_ops.cast(linalg_ops.diag_part(total_cm), self._dtype)
        denominator = sum_over_row + sum_over_col - true_positives
        true_positives = array_ops.gather(true_positives, self.target_class_ids)
        denominator = array_ops.gather(denominator, self.target_class_ids)
        num_valid_entries = math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(denominator, 0), self._dtype))
        iou = math_ops.div_no_nan(true_positives, denominator)
        return math_ops.div_no_nan(math_ops.reduce_sum(iou, name="mean_iou"), num_valid_entries)

    _NOT_IN_CONFIG = ()

    def get_config(self):
        config = {**super().get_config(), "target_class_ids": self.target_class_ids}
        return {key: value for key, value in config.items() if key not in self._NOT_IN_CONFIG}


class BinaryIoU(IoU):
    """The IoU of binary labels, a prediction counted as 1 from ``threshold`` (0.5) on."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred = math_ops.cast(y_pred >= self.threshold, self._dtype)
        return super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold, "name": self.name,
                "dtype": self.dtype}


class MeanIoU(IoU):
    """The IoU averaged over all ``num_classes`` classes."""

    _NOT_IN_CONFIG = ("target_class_ids",)

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True, sparse_y_pred=True,
                 axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)


class OneHotIoU(IoU):
    """The IoU of one-hot labels (and, unless ``sparse_y_pred``, class scores)."""

    _NOT_IN_CONFIG = ("sparse_y_true",)

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_pred=False,
                 axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)


class OneHotMeanIoU(MeanIoU):
    """The mean IoU of one-hot labels (and, unless ``sparse_y_pred``, class scores)."""

    _NOT_IN_CONFIG = ("target_class_ids", "sparse_y_true")

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)


def _two_dimensional(metric, y_true_shape, y_pred_shape):
    """The number of classes of 2-D ``(batch, classes)`` inputs; Keras' ValueError otherwise."""
    if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim). Received input shapes: "
                         f"y_pred.shape={y_pred_shape} and y_true.shape={y_true_shape}.")
    if y_pred_shape[-1] is None or y_true_shape[-1] is None:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim), with output_dim fully "
                         f"defined (not None). Received input shapes: y_pred.shape={y_pred_shape} and "
                         f"y_true.shape={y_true_shape}.")
    return y_pred_shape[-1]


def _built_on(metric, y_true, y_pred):
    """``y_true`` and ``y_pred`` as tensors of ``metric``'s dtype, ``metric`` built for their shapes on its first
    update (its weights' shapes follow the number of classes)."""
    y_true = convert_to_tensor(y_true, dtype=metric._dtype)
    y_pred = convert_to_tensor(y_pred, dtype=metric._dtype)
    if not metric.built:
        metric.build(tuple(y_true.shape.as_list()), tuple(y_pred.shape.as_list()))
    return y_true, y_pred


class FBetaScore(Metric):
    """``(1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall)`` per class of 2-D inputs (the
    top class, or those above ``threshold``, predicted), or averaged (``micro``, ``macro``, ``weighted``)."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta} of "
                             f"type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(f"Invalid `threshold` argument value. It should be a Python float. Received: "
                                 f"threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(f"Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        num_classes = _two_dimensional("FBetaScore", y_true_shape, y_pred_shape)
        shape = [] if self.average == "micro" else [num_classes]
        for name in ("true_positives", "false_positives", "false_negatives", "intermediate_weights"):
            setattr(self, name, self.add_weight(name, shape=shape))
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _built_on(self, y_true, y_pred)
        if self.threshold is None:
            threshold = math_ops.reduce_max(y_pred, axis=-1, keepdims=True)
            y_pred = math_ops.logical_and(y_pred >= threshold, math_ops.abs(y_pred) > 1e-09)
        else:
            y_pred = y_pred > self.threshold
        y_pred = math_ops.cast(y_pred, self._dtype)

        def weighted_sum(value):
            if sample_weight is not None:
                value = math_ops.multiply(value, array_ops.expand_dims(sample_weight, 1))
            return math_ops.reduce_sum(value, axis=self.axis)

        return group(state_ops.assign_add(self.true_positives, weighted_sum(y_pred * y_true)),
                     state_ops.assign_add(self.false_positives, weighted_sum(y_pred * (1 - y_true))),
                     state_ops.assign_add(self.false_negatives, weighted_sum((1 - y_pred) * y_true)),
                     state_ops.assign_add(self.intermediate_weights, weighted_sum(y_true)))

    def result(self):
        tp, fp, fn = self.true_positives.value(), self.false_positives.value(), self.false_negatives.value()
        precision = math_ops.div_no_nan(tp, tp + fp)
        recall = math_ops.div_no_nan(tp, tp + fn)
        mean = math_ops.div_no_nan(precision * recall, math_ops.square(self.beta) * precision + recall)
        f1_score = mean * (1 + math_ops.square(self.beta))
        if self.average == "weighted":
            intermediate = self.intermediate_weights.value()
            weights = math_ops.div_no_nan(intermediate, math_ops.reduce_sum(intermediate))
            return math_ops.reduce_sum(f1_score * weights)
        if self.average is not None:
            return math_ops.reduce_mean(f1_score)
        return f1_score

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta, "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F-beta score of beta 1."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config


class R2Score(Metric):
    """The coefficient of determination ``1 - SS_res / SS_tot`` per output of 2-D inputs, or averaged
    (``uniform_average``, ``variance_weighted_average``); adjusted for ``num_regressors`` where it can be."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of {valid}. Received: "
                             f"class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(f"Invalid value for argument `num_regressors`. Expected a value >= 0. Received: "
                             f"num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_weight("num_samples", dtype="int32")
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        num_classes = _two_dimensional("R2Score", y_true_shape, y_pred_shape)
        self.squared_sum = self.add_weight("squared_sum", shape=[num_classes])
        self.sum = self.add_weight("sum", shape=[num_classes])
        self.total_mse = self.add_weight("residual", shape=[num_classes])
        self.count = self.add_weight("count", shape=[num_classes])
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        from numflow.ops.loss_ops import broadcast_weights

        y_true, y_pred = _built_on(self, y_true, y_pred)
        sample_weight = convert_to_tensor(1 if sample_weight is None else sample_weight, dtype=self._dtype)
        if sample_weight.shape.ndims == 1:
            sample_weight = array_ops.expand_dims(sample_weight, axis=1)
        sample_weight = broadcast_weights(sample_weight, y_true)
        weighted_y_true = y_true * sample_weight
        return group(
            state_ops.assign_add(self.sum, math_ops.reduce_sum(weighted_y_true, axis=0)),
            state_ops.assign_add(self.squared_sum, math_ops.reduce_sum(y_true * weighted_y_true, axis=0)),
            state_ops.assign_add(self.total_mse, math_ops.reduce_sum((y_true - y_pred) ** 2 * sample_weight, axis=0)),
            state_ops.assign_add(self.count, math_ops.reduce_sum(sample_weight, axis=0)),
            state_ops.assign_add(self.num_samples, size(y_true)))

    def result(self):
        total_sum, count = self.sum.value(), self.count.value()
        mean = total_sum / count
        total = self.squared_sum.value() - total_sum * mean
        raw_scores = 1 - self.total_mse.value() / total
        raw_scores = array_ops.where(is_inf(raw_scores), array_ops.zeros_like(raw_scores), raw_scores)
        if self.class_aggregation == "uniform_average":
            r2_score = math_ops.reduce_mean(raw_scores)
        elif self.class_aggregation == "variance_weighted_average":
            r2_score = math_ops.reduce_sum(total * raw_scores) / math_ops.reduce_sum(total)
        else:
            r2_score = raw_scores
        if self.num_regressors != 0:
            # tf-keras compares the regressors with the sample count in Python, where a graph's count is a
            # tensor: it always adjusts; so does numflow, the count read at run time.
            n = math_ops.cast(self.num_samples.value(), "float32")
            num = math_ops.multiply(math_ops.subtract(1.0, r2_score), math_ops.subtract(n, 1.0))
            den = math_ops.subtract(math_ops.subtract(n, float(self.num_regressors)), 1.0)
            r2_score = math_ops.subtract(1.0, math_ops.divide(num, den))
        return r2_score

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}

