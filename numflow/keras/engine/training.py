"""``tf.keras.Model`` in TensorFlow 1.x mode: a functional model ``Model(inputs, outputs)`` read back from the
record of layer calls, its weights, losses and updates gathered from its layers, and ``compile``, which
builds (once the model has inputs) the total loss, the metrics and, on first use, the train, test and
predict functions that ``fit``, ``evaluate`` and ``predict`` run in the Keras session.

What ``compile`` builds is TensorFlow's: a target placeholder per output (``dense_1_target``); the loss in
``loss/<output>_loss`` (each output's loss averaged over the batch, times its weight, plus the layers'
regularization losses); a mean metric per name (``acc`` for "accuracy", chosen from the loss and output
shape as Keras chooses); the optimizer's updates and the layers' (batch normalization's moving averages)
in ``training/``. The learning phase is fed 1 to train and 0 to test and predict.
"""

from numflow.framework import nest
from numflow.framework.graph import get_default_graph
from numflow.keras import backend, losses, optimizers
from numflow.keras import metrics as metrics_module
from numflow.keras.engine import node as node_module
from numflow.keras.engine import training_loops
from numflow.keras.engine.base_layer import Layer
from numflow.layers.base import _dedup as _unique
from numflow.ops import math_ops
from numflow.ops.sequence_ops import size


class Model(Layer):
    """A model of layers: ``Model(inputs, outputs)`` for the layers between Keras tensors, or a subclass or
    ``Sequential``. See the module docstring for what ``compile`` builds."""

    _is_model = True  # a call of it credits its outputs to its own layers (``node.record``)

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        super().__init__(name=kwargs.pop("name", None), trainable=kwargs.pop("trainable", True), **kwargs)
        self.inputs, self.outputs = [], []
        self._nodes = []
        self._layers = []
        self._is_graph_network = False
        self.optimizer = None
        self._compile_arguments = None
        self._compiled_graph = None
        self.stop_training = False
        self.history = None
        if inputs is not None:
            self._init_graph_network(inputs, outputs)

    def _init_graph_network(self, inputs, outputs):
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs, self.outputs = list(nest.flatten(inputs)), list(nest.flatten(outputs))
        self._nodes = node_module.nodes_between(self.inputs, self.outputs)
        self._layers = node_module.layers_by_depth(self.outputs, self._nodes)
        self._is_graph_network = True
        self.built = True

    # -- structure -------------------------------------------------------------------------------------------
    @property
    def layers(self):
        """The model's layers: those between its inputs and outputs; for a subclassed model, the layers kept in
        its attributes (or in lists there), in the order they were set."""
        if self._is_graph_network:
            return list(self._layers)
        found = []
        for value in vars(self).values():
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, Layer) and item is not self:
                    found.append(item)
        return _unique(found)

    def __call__(self, inputs, *args, **kwargs):
        """The layer call; a subclassed model's first call makes its inputs and outputs (as Keras' ``_set_inputs``)."""
        outputs = super().__call__(inputs, *args, **kwargs)
        if not self._is_graph_network and not self.inputs:
            self.inputs, self.outputs = list(nest.flatten(inputs)), list(nest.flatten(outputs))
            self._nested_outputs = outputs
            self.built = True
        return outputs

    def _build_input(self, batch_shape, dtype):
        """Give a subclassed model an ``Input`` of ``batch_shape`` and call it there."""
        from numflow.keras.layers.input_layer import Input

        self(Input(batch_shape=batch_shape, dtype=dtype))

    # -- configs ---------------------------------------------------------------------------------------------
    def get_config(self):
        """tf-keras' config of a functional model: its layers with the calls between them (``inbound_nodes``),
        its ``input_layers`` and ``output_layers``; NotImplementedError for a subclassed model, as tf-keras."""
        if not self._is_graph_network:
            raise NotImplementedError(f"Model {self.name} is a subclassed model: override get_config() to make "
                                      "its config.")
        from numflow.keras.engine.model_config import functional_config

        return functional_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The functional model ``config`` (``get_config``'s, or tf-keras') describes, its layers new."""
        from numflow.keras.engine.model_config import functional_from_config

        return functional_from_config(cls, config, custom_objects)

    def to_json(self, **kwargs):
        """The model's config as tf-keras' JSON (``json.dumps``' ``kwargs``); ``model_from_json`` reads it."""
        from numflow.keras.engine.model_config import model_to_json

        return model_to_json(self, **kwargs)

    def get_layer(self, name=None, index=None):
        """The layer at ``index``, or named ``name``."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[layer.name for layer in self.layers]}.")

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return _unique([w for layer in self.layers for w in layer.trainable_weights] + self._trainable_weights)

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return _unique([w for layer in self.layers for w in layer.weights] + self._trainable_weights
                           + self._non_trainable_weights)
        trainable = {id(w) for w in self.trainable_weights}
        own = [w for layer in self.layers for w in layer.non_trainable_weights] + self._non_trainable_weights
        return _unique([w for w in own if id(w) not in trainable])

    @property
    def weights(self):
        """The layers' weights, layer by layer (then the model's own), as Keras orders them."""
        return _unique([w for layer in self.layers for w in layer.weights] + self._trainable_weights
                       + self._non_trainable_weights)

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def losses(self):
        return [loss for layer in self.layers for loss in layer.losses] + super().losses

    @property
    def updates(self):
        return [u for layer in self.layers if layer.trainable or layer.stateful for u in layer.updates]

    @property
    def output_shape(self):
        shapes = [backend.int_shape(t) for t in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def count_params(self):
        return int(sum(layer.count_params() for layer in self.layers if layer.built))

    def summary(self, line_length=None, positions=None, print_fn=None):
        """Print the table of the layers, their output shapes and parameter counts, as tf-keras prints it."""
        from numflow.keras.engine.summary import print_summary

        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or "
                             "by calling the model on a batch of data.")
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn)

    def _maybe_build(self, inputs):
        """Nothing: a model's layers build themselves when it calls them."""

    def call(self, inputs, training=None, mask=None):
        """The model's outputs for ``inputs``: its own outputs for its own inputs, else its layers called again
        in the order they were first called."""
        flat = nest.flatten(inputs)
        if [t.name for t in flat] == [t.name for t in self.inputs]:
            return self._nested_outputs
        values = {t.name: new for t, new in zip(self.inputs, flat)}
        for node in self._nodes:
            if not node.inputs:
                continue
            first, args, kwargs = node.called_on(values)
            made = node.layer(first, *args, **kwargs)
            for old, new in zip(node.outputs, nest.flatten(made)):
                values[old.name] = new
        return nest.map_structure(lambda t: values[t.name], self._nested_outputs)

    # -- compiling -------------------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None, sample_weight_mode=None,
                weighted_metrics=None, target_tensors=None, **kwargs):
        """Choose the optimizer (a name, a Keras optimizer, a ``tf.train`` optimizer), the loss (a name, a
        function or a Loss, or one per output) and the metrics; what they need is built when the model has
        inputs (see the module docstring)."""
        del sample_weight_mode, target_tensors, kwargs
        self.optimizer = optimizers.get(optimizer)
        outputs = max(len(self.outputs), 1)
        loss_list = loss if isinstance(loss, list | tuple) else [loss] * outputs
        if isinstance(loss, dict):
            loss_list = [loss.get(name) for name in self.output_names]
        self.loss = loss
        self._loss_functions = [_loss_function(item) for item in loss_list]
        self._loss_weights = list(loss_weights) if isinstance(loss_weights, list | tuple) else [1.0] * outputs
        self._metrics_given = metrics or []
        self._weighted_metrics_given = weighted_metrics or []
        self._compile_arguments = True
        self._compile_given = {"loss": loss, "metrics": metrics, "loss_weights": loss_weights,
                               "weighted_metrics": weighted_metrics}
        self._compiled_graph = None
        if self.built and self.outputs:
            self._build_compiled()

    @property
    def output_names(self):
        return [node_module.history_of(t).layer.name if node_module.history_of(t) else t.op.name
                for t in self.outputs]

    @property
    def metrics_names(self):
        """``loss``, then each output's loss when there are several, then the metrics (``acc``, or
        ``<output>_acc`` with several outputs)."""
        if self._compiled_graph is not None:
            return list(self._compiled_metric_names)
        return ["loss"]  # the metrics are named once the model is built and they are made

    def _build_compiled(self):
        """Targets, total loss and metrics, once per compile (see the module docstring)."""
        graph = get_default_graph()
        targets, sample_weights, weighted = [], [], []
        with graph.name_scope(None):
            for output, name in zip(self.outputs, self.output_names):
                targets.append(backend.placeholder(ndim=output.shape.ndims, dtype=output.dtype.base_dtype,
                                                   name=f"{name}_target"))
                sample_weights.append(backend.placeholder(shape=(None,), name=f"{name}_sample_weights"))
        total, output_losses = None, []
        with graph.name_scope("loss"):
            for output, target, sample_weight, loss_fn, weight, name in zip(
                    self.outputs, targets, sample_weights, self._loss_functions, self._loss_weights,
                    self.output_names):
                with graph.name_scope(f"{name}_loss"):
                    loss_reduction = loss_fn.reduction
                    loss_fn.reduction = losses.Reduction.NONE
                    try:
                        per_example = loss_fn(target, output,
                                              sample_weight=_masked_weights(output, sample_weight, loss_reduction))
                    finally:
                        loss_fn.reduction = loss_reduction
                    reduction = (losses.Reduction.SUM_OVER_BATCH_SIZE if loss_reduction == losses.Reduction.AUTO
                                 else loss_reduction)
                    output_loss = losses.reduce_weighted_loss(per_example, reduction)
                output_losses.append(output_loss)
                weighted.append(weight * output_loss)
                total = weighted[-1] if total is None else total + weighted[-1]
            regularization = self.losses
            if regularization:
                from numflow.ops.math_ops import add_n

                total += add_n(regularization)
        per_output = self._output_metrics()
        several = len(self.outputs) > 1
        loss_metrics = [metrics_module.Mean(name=f"{name}_loss") for name in self.output_names] if several else []
        loss_results, metric_results = [], []
        with graph.name_scope("metrics"):
            for metric, output_loss in zip(loss_metrics, output_losses):
                with graph.name_scope(metric.name):
                    loss_results.append(metric(output_loss))
            for metrics, target, output, sample_weight in zip(per_output, targets, self.outputs, sample_weights):
                for name, (metric, weighted) in metrics.items():
                    with graph.name_scope(name):
                        metric_results.append(metric(target, output, sample_weight=sample_weight if weighted
                                                     else None))
        metric_objects = loss_metrics + [metric for metrics in per_output for metric, _ in metrics.values()]
        self._compiled_graph = {"targets": targets, "sample_weights": sample_weights, "total_loss": total,
                                "metrics": metric_objects, "loss_metrics": loss_metrics,
                                "fetches": [total, *loss_results, *metric_results], "train": None}

    def _output_metrics(self):
        """Per output, its metrics (then its weighted metrics, called with the sample weights) by their unique
        names, as ``(metric, weighted)``, made as tf-keras makes them: a function (or its name) as the running mean
        of it, a Metric as given (with several outputs, a copy of it per output, all copied first), a class's name
        as an instance of it (named by a first instance, made only for its name); a name given twice keeps its
        first place and its last metric; a weighted metric's name starts with ``weighted_``."""
        several = len(self.outputs) > 1
        plain, weighted = (self._made_metrics(given, prefix) for given, prefix in (
            (self._metrics_given, ""), (self._weighted_metrics_given, "weighted_")))
        names = ["loss", *(f"{name}_loss" for name in self.output_names if several)]
        unique_per_output = []
        for plain_made, weighted_made, output_name in zip(plain, weighted, self.output_names):
            unique_made = {}
            for name, metric, is_weighted in [*((n, m, False) for n, m in plain_made.items()),
                                              *((n, m, True) for n, m in weighted_made.items())]:
                unique = base = f"{output_name}_{name}" if several else name
                count = 1
                while unique in names:
                    unique, count = f"{base}_{count}", count + 1
                names.append(unique)
                metric._name = unique
                unique_made[unique] = (metric, is_weighted)
            unique_per_output.append(unique_made)
        self._compiled_metric_names = names
        return unique_per_output

    def _made_metrics(self, given, prefix):
        per_output = []
        for metrics, output, loss_fn in zip(self._metrics_per_output(given), self.outputs, self._loss_functions):
            made = {}
            for metric in metrics:
                name = prefix + _metric_name(metric)
                fn = _metric_function(metric, output, loss_fn)
                made[name] = fn if isinstance(fn, metrics_module.Metric) else metrics_module.MeanMetricWrapper(
                    fn, name=name)
            per_output.append(made)
        return per_output

    def _metrics_per_output(self, given):
        """The metrics ``given`` to ``compile`` per output: a dict by output name, a list per output, or one list
        for all (its Metric objects copied for each output when there are several), with tf-keras' errors."""
        names = self.output_names
        if isinstance(given, dict):
            unknown = [key for key in given if key not in names]
            if unknown:
                raise ValueError(f"Unknown entries in metrics dictionary: {unknown}. Only expected following keys: "
                                 f"{names}")
            return [_as_list(given.get(name, [])) for name in names]
        if not isinstance(given, list | tuple):
            raise TypeError(f"Type of `metrics` argument not understood. Expected a list or dictionary, found: {given}")
        if any(isinstance(m, list) for m in given):
            if len(given) != len(names):
                raise ValueError(f"When passing a list of lists as `metrics`, it should have one entry per model "
                                 f"output. The model has {len(names)} outputs, but you passed metrics={given}")
            return [_as_list(m) for m in given]
        if len(names) > 1:
            return [[type(m).from_config(m.get_config()) if isinstance(m, metrics_module.Metric) else m
                     for m in given] for _ in names]
        return [list(given)]

    @property
    def metrics(self):
        """The metrics ``compile`` made, per output (each output's loss mean left out), once the model is built."""
        if self._compiled_graph is None:
            return []
        return [m for m in self._compiled_graph["metrics"] if m not in self._compiled_graph["loss_metrics"]]

    def _train_fetches(self):
        compiled = self._compiled_graph
        if compiled["train"] is None:
            from numflow.ops.control_flow_ops import group

            graph = get_default_graph()
            with graph.name_scope("training"):
                updates = self.optimizer.get_updates(loss=compiled["total_loss"], params=self.trainable_weights)
                updates += self.updates
            # Keras' train function: the updates grouped after the loss, in a second "training" scope
            # (training_1/group_deps), which later models' names count on.
            with graph.name_scope("training"), graph.control_dependencies([compiled["total_loss"]]):
                compiled["train"] = group(*updates, name="group_deps")
        return compiled["train"]

    def _require_compiled(self):
        if self._compile_arguments is None:
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    def reset_metrics(self):
        """Zero the metrics' totals and counts."""
        if self._compiled_graph is not None and self._compiled_graph["metrics"]:
            backend.batch_set_value([pair for m in self._compiled_graph["metrics"] for pair in m.reset_values()])

    # -- training --------------------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, **kwargs):
        """Train for ``epochs`` passes over ``x`` and ``y`` in batches of ``batch_size`` (32), shuffled with numpy's
        generator when ``shuffle``; each example's loss weighted by ``sample_weight`` or by ``class_weight`` of its
        class; print as ``verbose`` says; a ``History`` of the epochs' losses and metrics."""
        if _is_sequence(x):
            from numflow.keras.engine import sequence_loops

            _numpy_only(None, None, kwargs)
            return sequence_loops.fit(self, x, epochs=epochs, verbose=verbose, callbacks=callbacks,
                                      validation_data=validation_data, shuffle=shuffle, initial_epoch=initial_epoch,
                                      steps_per_epoch=steps_per_epoch, validation_steps=validation_steps)
        _numpy_only(steps_per_epoch, validation_steps, kwargs)
        return training_loops.fit(self, x, y, batch_size=batch_size or 32, epochs=epochs, verbose=verbose,
                                  callbacks=callbacks, validation_split=validation_split,
                                  validation_data=validation_data, shuffle=shuffle, initial_epoch=initial_epoch,
                                  sample_weight=sample_weight, class_weight=class_weight)

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None, steps=None, **kwargs):
        """The loss (and metrics) over ``x`` and ``y``: a scalar, or a list in ``metrics_names`` order."""
        if _is_sequence(x):
            from numflow.keras.engine import sequence_loops

            _numpy_only(None, None, kwargs)
            return sequence_loops.evaluate(self, x, steps)
        _numpy_only(steps, None, kwargs)
        return training_loops.evaluate(self, x, y, batch_size=batch_size or 32, verbose=verbose,
                                       sample_weight=sample_weight)

    def predict(self, x, batch_size=None, verbose=0, steps=None, **kwargs):
        """The outputs for ``x``, computed in batches of ``batch_size`` (32)."""
        if _is_sequence(x):
            from numflow.keras.engine import sequence_loops

            _numpy_only(None, None, kwargs)
            return sequence_loops.predict(self, x, steps)
        _numpy_only(steps, None, kwargs)
        return training_loops.predict(self, x, batch_size=batch_size or 32, verbose=verbose)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True):
        """One training step on the batch; its loss (and metrics, which then reset if ``reset_metrics``)."""
        return training_loops.on_batch(self, x, y, train=True, reset_metrics=reset_metrics, sample_weight=sample_weight,
                                       class_weight=class_weight)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True):
        """The loss (and metrics) of the batch, without training."""
        return training_loops.on_batch(self, x, y, train=False, reset_metrics=reset_metrics,
                                       sample_weight=sample_weight)

    def predict_on_batch(self, x):
        """The outputs for the batch ``x``."""
        return training_loops.predict(self, x, batch_size=None, verbose=0)


    # -- weights ---------------------------------------------------------------------------------------------
    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None, signatures=None,
             options=None, save_traces=True):
        """``tf.keras.models.save_model(self, filepath, ...)``: the whole model in tf-keras' HDF5 format."""
        del signatures, options, save_traces
        from numflow.keras.models import save_model

        save_model(self, filepath, overwrite, include_optimizer, save_format)

    def save_weights(self, filepath, overwrite=True, save_format=None):
        """Write the weights (and the optimizer's variables) to the TensorFlow checkpoint ``filepath``, keyed as
        tf-keras keys them (see ``engine/saving.py``), or the weights to a Keras HDF5 file (``.h5``)."""
        from numflow.keras.engine.saving import save_weights

        del overwrite
        save_weights(self, filepath, save_format)

    def load_weights(self, filepath, by_name=False, skip_mismatch=False):
        """Read the weights from the TensorFlow checkpoint or HDF5 file ``filepath`` (numflow's or tf-keras'
        ``save_weights``)."""
        from numflow.keras.engine.saving import load_weights

        load_weights(self, filepath, by_name, skip_mismatch)

    def get_weights(self):
        """The values of ``weights``, in order."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Set ``weights`` from values in their order (as ``get_weights`` gives them)."""
        Layer.set_weights(self, weights)


def _as_list(value):
    return list(value) if isinstance(value, list | tuple) else [value]


def _is_sequence(x):
    from numflow.keras.utils import Sequence

    return isinstance(x, Sequence)


def _masked_weights(output, sample_weight, reduction):
    """The sample weights times the output's Keras mask, as Keras trains a masked output: a masked step weighs 0,
    and a mean over the batch is the mean over the steps kept (the mask scaled by all steps over those kept).
    The sample weights alone when the output has no mask."""
    mask = node_module.mask_of(output)
    if mask is None:
        return sample_weight
    dtype = output.dtype.base_dtype
    mask = math_ops.cast(mask, dtype)
    if reduction in (losses.Reduction.AUTO, losses.Reduction.SUM_OVER_BATCH_SIZE):
        mask *= math_ops.cast(size(mask), dtype) / math_ops.reduce_sum(mask)
    return losses.squeeze_or_expand_dimensions(mask, sample_weight=sample_weight)[2] * mask


def _numpy_only(steps, validation_steps, kwargs):
    """numflow's loops take numpy data: steps (for datasets and iterators) and other options are refused."""
    if steps is not None or validation_steps is not None:
        raise NotImplementedError("numflow's Keras loops run on numpy arrays and keras.utils.Sequence: "
                                  "`steps_per_epoch`, `steps` and `validation_steps` (for datasets and iterators) "
                                  "are not supported.")
    unused = sorted(k for k in kwargs if k not in ("max_queue_size", "workers", "use_multiprocessing"))
    if unused:
        raise TypeError(f"Invalid keyword argument(s): {unused}")


def _loss_function(identifier):
    """A Loss for ``identifier`` (a name, a function, a Loss)."""
    if isinstance(identifier, losses.Loss):
        return identifier
    fn = losses.get(identifier)
    if fn is None:
        raise ValueError("The model cannot be compiled because it has no loss to optimize.")
    return losses.LossFunctionWrapper(fn, name=getattr(fn, "__name__", "loss"))


def _metric_name(metric):
    """tf-keras' name of a metric in ``compile``: ``acc``/``ce`` for the short names, else the name of the metric
    or function ``metrics.get`` gives."""
    if metric in ("accuracy", "acc"):
        return "acc"
    if metric in ("crossentropy", "ce"):
        return "ce"
    fn = metrics_module.get(metric)
    return fn.name if isinstance(getattr(fn, "name", None), str) else fn.__name__


def _metric_function(metric, output, loss_fn):
    """Keras' choice for "accuracy": binary for one output unit or a binary cross entropy, sparse for a sparse
    cross entropy, else categorical."""
    if metric not in ("accuracy", "acc", "crossentropy", "ce"):
        return metrics_module.get(metric)
    fn = getattr(loss_fn, "fn", None)
    binary = fn is losses.binary_crossentropy or output.shape.as_list()[-1] == 1
    sparse = fn is losses.sparse_categorical_crossentropy
    if metric in ("accuracy", "acc"):
        if binary:
            return metrics_module.binary_accuracy
        return metrics_module.sparse_categorical_accuracy if sparse else metrics_module.categorical_accuracy
    if binary:
        return losses.binary_crossentropy
    return losses.sparse_categorical_crossentropy if sparse else losses.categorical_crossentropy
