"""Printing from a running graph: TensorFlow 1's ``tf.Print`` (op ``Print``, an identity that prints as a
side effect) and ``tf.print`` (ops ``StringFormat`` and ``PrintV2``, an op to run), with
``tf.strings.format`` (op ``StringFormat``); and ``tf.timestamp`` (op ``Timestamp``), the time a run reads.

Both write to Python's ``sys.stderr`` by default, as TensorFlow writes to the process's standard
error: ``tf.Print`` a line ``message[first summarize elements]...``, ``tf.print`` the numpy-like text
``[[1 2]\\n [3 4]]`` of each tensor (``summarize`` elements at each end of every dimension).
"""

import sys

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out


@declare("Print", stateful=True)
def _print_infer(op):
    x = op.inputs[0]
    return [(x.dtype, x.shape)]


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802 - TF's name
    """``input_`` unchanged; each time it is computed (the first ``first_n`` times only, when given) the line
    ``message`` followed by ``[values]`` of each tensor of ``data`` (its first ``summarize`` elements, 3
    by default) goes to standard error (op ``Print``).

    The line appears only when the returned tensor is computed: use it in place of ``input_``.
    """
    with get_default_graph().name_scope(name or "Print") as scope:
        x = convert_to_tensor(input_, name="input")
        tensors = [convert_to_tensor(d) for d in data]
        attrs = {"message": "" if message is None else str(message), "first_n": -1 if first_n is None else int(first_n),
                 "summarize": 3 if summarize is None else int(summarize)}
        return _out("Print", [x, *tensors], attrs, name=scope)[0]


@gradient("Print")
def _print_grad(op, grad):
    return [grad] + [None] * (len(op.inputs) - 1)


@declare("StringFormat")
def _string_format_infer(op):
    count = op._attrs["template"].count(op._attrs["placeholder"])
    if count != len(op.inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: {count} vs. {len(op.inputs)}")
    return [(dtypes.string, [])]


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """``template`` with each ``placeholder`` replaced by the text of the next tensor of ``inputs`` (op
    ``StringFormat``; ``tf.strings.format``)."""
    with get_default_graph().name_scope(name or "StringFormat") as scope:
        tensors = [convert_to_tensor(t) for t in (inputs if isinstance(inputs, list | tuple) else [inputs])]
        attrs = {"template": str(template), "placeholder": placeholder, "summarize": int(summarize)}
        return _out("StringFormat", tensors, attrs, name=scope)[0]


@declare("PrintV2", stateful=True)
def _print_v2_infer(op):
    return []


def _stream_name(stream):
    if isinstance(stream, str) and stream.startswith("file://"):
        return stream
    if stream is sys.stderr or stream is sys.__stderr__:
        return "stderr"
    if stream is sys.stdout or stream is sys.__stdout__:
        return "stdout"
    from numflow import logging as tf_logging

    levels = {tf_logging.info: "log(info)", tf_logging.warning: "log(warning)", tf_logging.warn: "log(warning)",
              tf_logging.error: "log(error)"}
    if stream in levels:
        return levels[stream]
    raise ValueError(f"Unsupported output stream, logging level, or file.{stream}. Supported streams are sys.stdout, "
                     "sys.stderr, tf.logging.info, tf.logging.warning, tf.logging.error. File needs to be in the "
                     "form of 'file://<filepath>'.")


def _template(value, tensors, placeholder, top=True):
    """The text of ``value`` with ``placeholder`` where each of its tensors goes (collected in ``tensors``)."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        tensors.append(convert_to_tensor(value))
        return placeholder
    if isinstance(value, dict):
        items = ", ".join(f"{k!r}: {_template(v, tensors, placeholder, False)}" for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, list | tuple):
        items = ", ".join(_template(v, tensors, placeholder, False) for v in value)
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' if len(value) == 1 else ''})"
    return str(value) if top else repr(value)


def print_v2(*inputs, **kwargs):
    """``tf.print``: an op that prints ``inputs`` (tensors, Python values and structures of them) separated by
    ``sep`` and followed by ``end`` to ``output_stream`` (``sys.stderr`` by default; ``sys.stdout``,
    ``tf.logging.info``/``warning``/``error`` or ``"file://<path>"``) each time it runs.

    In a graph the returned op must be run (``sess.run(op)``) or be a control dependency of what runs.
    """
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", "\n")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {kwargs}")
    stream = _stream_name(output_stream)
    graph = get_default_graph()
    texts = [v for v in inputs if isinstance(v, str)]
    placeholder = "{}"
    while any(placeholder in t for t in texts):
        placeholder = "{" + placeholder + "}"
    tensors = []
    template = sep.join(_template(v, tensors, placeholder) for v in inputs)
    formatted = string_format(template, tensors, placeholder=placeholder, summarize=summarize,
                              name=f"{name}_format" if name else None)
    return graph.create_op("PrintV2", [formatted], {"output_stream": stream, "end": end}, name=name or "PrintV2")


@declare("Timestamp", stateful=True)
def _timestamp_infer(op):
    return [(dtypes.float64, TensorShape([]))]


def timestamp(name=None):
    """The time, in seconds since the epoch (float64, microseconds and finer), when the op runs."""
    return get_default_graph().create_op("Timestamp", [], name=name or "Timestamp").outputs[0]
