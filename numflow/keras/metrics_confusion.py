"""The metrics of ``tf.keras.metrics`` that count a confusion matrix at thresholds: ``TruePositives``... ,
``Precision``, ``Recall``, the ``...AtSensitivity``/``...AtRecall`` family and ``AUC``, as tf-keras computes
them.

A prediction is positive at a threshold when it is greater than it; each count (weighted by the sample weights)
is kept per threshold in a variable named for it (``true_positives``...). tf-keras buckets evenly spread
thresholds instead of comparing; the counts are the same.
"""

import numpy as np

from numflow.keras import backend
from numflow.keras.losses import squeeze_or_expand_dimensions
from numflow.keras.metrics_base import Metric
from numflow.ops import array_ops, math_ops, state_ops
from numflow.ops.control_flow_ops import group
from numflow.ops.sequence_ops import size

NEG_INF = -1e10
_CONDITIONS = ("true_positives", "true_negatives", "false_positives", "false_negatives")


def parse_init_thresholds(thresholds, default_threshold=0.5):
    """``thresholds`` as a list (one number a list of it), ``[default_threshold]`` for None; each in [0, 1]."""
    if thresholds is None:
        return [default_threshold]
    thresholds = list(thresholds) if isinstance(thresholds, list | tuple | np.ndarray) else [thresholds]
    invalid = [t for t in thresholds if t is None or t < 0 or t > 1]
    if invalid:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {invalid}")
    return thresholds


def update_confusion_matrix_variables(variables_to_update, y_true, y_pred, thresholds, top_k=None, class_id=None,
                                      sample_weight=None, multi_label=False, label_weights=None):
    """The op that adds, to each variable of ``variables_to_update`` (keyed by condition: "true_positives"...),
    the weighted count of its condition at each threshold; with ``multi_label``, per label (variables of shape
    ``[thresholds, labels]``)."""
    invalid = [key for key in variables_to_update if key not in _CONDITIONS]
    if invalid:
        raise ValueError(f'Invalid keys: "{invalid}". Valid variable key options are: "{list(_CONDITIONS)}"')
    dtype = next(iter(variables_to_update.values())).dtype.base_dtype
    y_true, y_pred = math_ops.cast(y_true, dtype), math_ops.cast(y_pred, dtype)
    if sample_weight is None:
        y_pred, y_true = squeeze_or_expand_dimensions(y_pred, y_true)
    else:
        sample_weight = math_ops.cast(sample_weight, dtype)
        y_pred, y_true, sample_weight = squeeze_or_expand_dimensions(y_pred, y_true, sample_weight)
    y_pred.shape.assert_is_compatible_with(y_true.shape)
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        y_true = array_ops.expand_dims(y_true[..., class_id], -1)
        y_pred = array_ops.expand_dims(y_pred[..., class_id], -1)
    thresholds = np.asarray(thresholds, dtype=dtype.as_numpy_dtype)
    # predictions against thresholds: [thresholds, values] (or [thresholds, examples, labels] per label)
    if multi_label:
        thresholds = thresholds.reshape(-1, 1, 1)
        predictions, labels = y_pred[None], math_ops.cast(y_true, "bool")[None]
    else:
        thresholds = thresholds.reshape(-1, 1)
        predictions = array_ops.reshape(y_pred, [1, -1])
        labels = array_ops.reshape(math_ops.cast(y_true, "bool"), [1, -1])
    pred_is_pos = math_ops.greater(predictions, thresholds)
    label_is_pos = labels  # broadcast against the thresholds by the logical_and below
    weights = None
    if sample_weight is not None:
        from numflow.ops.loss_ops import broadcast_weights

        weights = broadcast_weights(sample_weight, y_pred)
        weights = weights[None] if multi_label else array_ops.reshape(weights, [1, -1])
    if label_weights is not None and not multi_label:
        from numflow.ops.loss_ops import broadcast_weights

        label_weights = array_ops.reshape(broadcast_weights(array_ops.expand_dims(label_weights, 0), y_pred), [1, -1])
        weights = label_weights if weights is None else math_ops.multiply(weights, label_weights)
    pred_is_neg, label_is_neg = math_ops.logical_not(pred_is_pos), math_ops.logical_not(label_is_pos)
    conditions = {"true_positives": (label_is_pos, pred_is_pos), "false_negatives": (label_is_pos, pred_is_neg),
                  "false_positives": (label_is_neg, pred_is_pos), "true_negatives": (label_is_neg, pred_is_neg)}
    updates = []
    for key in ("true_positives", "false_negatives", "false_positives", "true_negatives"):
        if key in variables_to_update:
            variable = variables_to_update[key]
            label, pred = conditions[key]
            counted = math_ops.cast(math_ops.logical_and(label, pred), dtype)
            if weights is not None:
                counted *= math_ops.cast(weights, dtype)
            updates.append(state_ops.assign_add(variable, math_ops.reduce_sum(counted, 1)))
    return group(*updates)


def _filter_top_k(x, k):
    """``x`` with all but the top ``k`` values of the last axis set to -1e10."""
    from numflow.ops.top_k_ops import top_k

    _, top_k_idx = top_k(x, k, sorted=False)
    top_k_mask = math_ops.reduce_sum(array_ops.one_hot(top_k_idx, array_ops.shape(x)[-1], axis=-1), axis=-2)
    return x * top_k_mask + NEG_INF * (1 - top_k_mask)


class _ConfusionMetric(Metric):
    """A metric of confusion-matrix variables (``_CONDITIONS``' names it keeps), one value per threshold."""

    _KEPT = ()

    def _make_variables(self, shape):
        for key in self._KEPT:
            setattr(self, key, self.add_weight(key, shape=shape))

    def _update(self, y_true, y_pred, sample_weight, **kwargs):
        return update_confusion_matrix_variables({key: getattr(self, key) for key in self._KEPT}, y_true, y_pred,
                                                 sample_weight=sample_weight, **kwargs)

    def _values(self, *keys):
        return [getattr(self, key).value() for key in keys]


def _ratio(numerator, other):
    return math_ops.div_no_nan(numerator, math_ops.add(numerator, other))


class _ConfusionMatrixConditionCount(_ConfusionMetric):
    def __init__(self, condition, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._condition = condition
        self.init_thresholds = thresholds
        self.thresholds = parse_init_thresholds(thresholds, default_threshold=0.5)
        self.accumulator = self.add_weight("accumulator", shape=(len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        return update_confusion_matrix_variables({self._condition: self.accumulator}, y_true, y_pred,
                                                 thresholds=self.thresholds, sample_weight=sample_weight)

    def result(self):
        value = self.accumulator.value()
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


def _count_class(class_name, condition):
    def __init__(self, thresholds=None, name=None, dtype=None):  # noqa: N807
        _ConfusionMatrixConditionCount.__init__(self, condition, thresholds=thresholds, name=name, dtype=dtype)

    doc = f"The weighted number of {condition.replace('_', ' ')} at each of ``thresholds`` (0.5)."
    return type(class_name, (_ConfusionMatrixConditionCount,), {"__init__": __init__, "__doc__": doc})


TruePositives = _count_class("TruePositives", "true_positives")
TrueNegatives = _count_class("TrueNegatives", "true_negatives")
FalsePositives = _count_class("FalsePositives", "false_positives")
FalseNegatives = _count_class("FalseNegatives", "false_negatives")


class _PrecisionOrRecall(_ConfusionMetric):
    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        self.thresholds = parse_init_thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        self._make_variables((len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        return self._update(y_true, y_pred, sample_weight, thresholds=self.thresholds, top_k=self.top_k,
                            class_id=self.class_id)

    def result(self):
        value = _ratio(*self._values(*self._KEPT))
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


class Precision(_PrecisionOrRecall):
    """``tp / (tp + fp)`` at each of ``thresholds`` (0.5; with ``top_k``, the top k predictions as positives)."""

    _KEPT = ("true_positives", "false_positives")


class Recall(_PrecisionOrRecall):
    """``tp / (tp + fn)`` at each of ``thresholds`` (0.5; with ``top_k``, the top k predictions as positives)."""

    _KEPT = ("true_positives", "false_negatives")


class SensitivitySpecificityBase(_ConfusionMetric):
    """The four counts at ``num_thresholds`` thresholds evenly spread over [0, 1]; the best of one rate where
    another is at least ``value``."""

    _KEPT = ("true_positives", "true_negatives", "false_positives", "false_negatives")
    _VALUE_NAME = "value"

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._VALUE_NAME}` must be in the range [0, 1]. Received: "
                             f"{self._VALUE_NAME}={value}")
        setattr(self, self._VALUE_NAME, value)
        self.num_thresholds = num_thresholds
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        self.value, self.class_id = value, class_id
        self._make_variables((num_thresholds,))
        if num_thresholds == 1:
            self.thresholds = [0.5]
        else:
            self.thresholds = [0.0, *((i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)), 1.0]

    def update_state(self, y_true, y_pred, sample_weight=None):
        return self._update(y_true, y_pred, sample_weight, thresholds=self.thresholds, class_id=self.class_id)

    def _find_max_under_constraint(self, constrained, dependent):
        feasible = array_ops.where(math_ops.greater_equal(constrained, self.value))
        feasible_exists = math_ops.greater(size(feasible), 0)
        max_dependent = math_ops.reduce_max(array_ops.gather(dependent, feasible))
        return array_ops.where(feasible_exists, max_dependent, 0.0)

    def _rates(self):
        tp, tn, fp, fn = self._values(*self._KEPT)
        return {"sensitivity": _ratio(tp, fn), "recall": _ratio(tp, fn), "specificity": _ratio(tn, fp),
                "precision": _ratio(tp, fp)}

    def result(self):
        rates = self._rates()
        return self._find_max_under_constraint(rates[self._VALUE_NAME], rates[self._MAXIMIZED])

    def get_config(self):
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "class_id": self.class_id,
                self._VALUE_NAME: self.value}


def _at_class(class_name, value_name, maximized):
    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):  # noqa: N807
        SensitivitySpecificityBase.__init__(self, value, num_thresholds=num_thresholds, class_id=class_id, name=name,
                                            dtype=dtype)

    doc = f"The best {maximized} where the {value_name} is at least the value given."
    made = type(class_name, (SensitivitySpecificityBase,), {"__init__": __init__, "__doc__": doc,
                                                             "_VALUE_NAME": value_name, "_MAXIMIZED": maximized})
    return made


SensitivityAtSpecificity = _at_class("SensitivityAtSpecificity", "specificity", "sensitivity")
SpecificityAtSensitivity = _at_class("SpecificityAtSensitivity", "sensitivity", "specificity")
PrecisionAtRecall = _at_class("PrecisionAtRecall", "recall", "precision")
RecallAtPrecision = _at_class("RecallAtPrecision", "precision", "recall")


class AUC(_ConfusionMetric):
    """The area under the ROC or PR curve, by a Riemann sum (``summation_method``) over ``num_thresholds``
    thresholds (or those given, with -epsilon and 1 + epsilon added); ``multi_label`` keeps one curve per label and
    averages their areas (weighted by ``label_weights``)."""

    _KEPT = ("true_positives", "true_negatives", "false_positives", "false_negatives")

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            thresholds = sorted(thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = np.array([0.0 - backend.epsilon(), *thresholds, 1.0 + backend.epsilon()])
        self.curve = _choice(curve, _CURVES, "curve")
        self.summation_method = _choice(summation_method, _SUMMATIONS, "summation method")
        super().__init__(name=name, dtype=dtype)
        self.multi_label, self.num_labels, self._from_logits = multi_label, num_labels, from_logits
        self.label_weights = None
        if label_weights is not None:
            from numflow.ops.constant_op import constant

            self.label_weights = constant(label_weights, dtype=self._dtype)
        self._built = False
        if self.multi_label:
            if num_labels:
                self._build(num_labels)
        else:
            if num_labels:
                raise ValueError("`num_labels` is needed only when `multi_label` is True.")
            self._build(None)

    @property
    def thresholds(self):
        return list(self._thresholds)

    def _build(self, num_labels):
        self._num_labels = num_labels
        self._make_variables((self.num_thresholds,) if num_labels is None else (self.num_thresholds, num_labels))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        from numflow.ops.constant_op import convert_to_tensor

        y_pred = convert_to_tensor(y_pred)
        if not self._built:
            if y_pred.shape.ndims != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank "
                                 f"{y_pred.shape.ndims}. Full shape received for `y_pred`: {y_pred.shape}")
            self._build(y_pred.shape.dim_values[1])
            backend.get_session()  # initializes the new variables, as tf-keras does here
        if self._from_logits:
            y_pred = math_ops.sigmoid(y_pred)
        return self._update(y_true, y_pred, sample_weight, thresholds=self._thresholds, multi_label=self.multi_label,
                            label_weights=None if self.multi_label else self.label_weights)

    def _by_label(self, terms):
        if not self.multi_label:
            return math_ops.reduce_sum(terms, name=self.name)
        by_label_auc = math_ops.reduce_sum(terms, name=self.name + "_by_label", axis=0)
        if self.label_weights is None:
            return math_ops.reduce_mean(by_label_auc, name=self.name)
        return math_ops.div_no_nan(math_ops.reduce_sum(math_ops.multiply(by_label_auc, self.label_weights)),
                                   math_ops.reduce_sum(self.label_weights), name=self.name)

    def interpolate_pr_auc(self):
        """The PR curve's area by Davis and Goadrich's interpolation between the thresholds."""
        tp, _, fp, fn = self._values(*self._KEPT)
        n = self.num_thresholds
        dtp = tp[:n - 1] - tp[1:]
        p = math_ops.add(tp, fp)
        dp = p[:n - 1] - p[1:]
        prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(dp, 0), name="prec_slope")
        intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
        safe_p_ratio = array_ops.where(
            math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
            math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0), name="recall_relative_ratio"),
            array_ops.ones_like(p[1:]))
        pr_auc_increment = math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                                               math_ops.maximum(tp[1:] + fn[1:], 0), name="pr_auc_increment")
        if not self.multi_label:
            return math_ops.reduce_sum(pr_auc_increment, name="interpolate_pr_auc")
        return self._by_label(pr_auc_increment)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self.interpolate_pr_auc()
        tp, tn, fp, fn = self._values(*self._KEPT)
        recall = _ratio(tp, fn)
        if self.curve == "ROC":
            x, y = _ratio(fp, tn), recall
        elif self.curve == "PR":
            x, y = recall, _ratio(tp, fp)
        else:
            scaling_factor = math_ops.div_no_nan(math_ops.add(tp, fn), math_ops.add(fp, tn))
            recall_gain = 1.0 - scaling_factor * math_ops.div_no_nan(fn, tp)
            precision_gain = 1.0 - scaling_factor * math_ops.div_no_nan(fp, tp)
            no_tp = math_ops.equal(tp, 0.0)
            recall_gain = array_ops.where(no_tp, array_ops.zeros_like(recall_gain), recall_gain)
            precision_gain = array_ops.where(no_tp, array_ops.ones_like(precision_gain), precision_gain)
            x, y = math_ops.maximum(recall_gain, array_ops.zeros_like(recall_gain)), precision_gain
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(y[:n - 1], y[1:])
        else:
            heights = math_ops.maximum(y[:n - 1], y[1:])
        return self._by_label(math_ops.multiply(x[:n - 1] - x[1:], heights))

    def get_config(self):
        label_weights = None if self.label_weights is None else backend.eval(self.label_weights).tolist()
        config = {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels, "label_weights": label_weights, "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


_CURVES = {"PR": ("pr", "PR"), "ROC": ("roc", "ROC"), "PR_GAIN": ("pr_gain", "prgain", "PR_GAIN", "PRGAIN")}
_SUMMATIONS = {name: (name, name.title()) for name in ("interpolation", "majoring", "minoring")}


def _choice(value, spellings, what):
    """The choice among ``spellings`` (each choice's accepted spellings) that ``value`` is; Keras' ValueError."""
    for choice, accepted in spellings.items():
        if value in accepted:
            return choice
    quoted = ", ".join(f'"{choice}"' for choice in spellings)
    raise ValueError(f'Invalid AUC {what} value: "{value}". Expected values are [{quoted}]')
