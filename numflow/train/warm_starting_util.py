"""``tf.train.warm_start``: initialize a new model's variables from a checkpoint of an earlier one, chosen by
name (a regex over the trainable variables, scope regexes over all of them, or the variables themselves)
and renamed by ``var_name_to_prev_var_name``, partitioned variables as one; and ``tf.train.VocabInfo``, the
description of an embedding's vocabulary change (its remapping is not supported: see ``warm_start``).
Built on ``init_from_checkpoint``, as TensorFlow's ``warm_starting_util.py`` is."""

import collections
import logging

from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.train.checkpoint_utils import init_from_checkpoint
from numflow.variables.variable import Variable

_log = logging.getLogger("numflow")


class VocabInfo(collections.namedtuple("VocabInfo", ["new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab",
                                                     "old_vocab_size", "backup_initializer", "axis"])):
    """How an embedding's rows (``axis=0``) or columns (``axis=1``) map from ``old_vocab`` (a vocabulary file,
    its first ``old_vocab_size`` entries, all when -1) to ``new_vocab`` (``new_vocab_size`` entries, then
    ``num_oov_buckets`` out-of-vocabulary rows); ``backup_initializer`` fills the entries new to the vocabulary."""

    __slots__ = ()

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
                backup_initializer=None, axis=0):
        if axis not in (0, 1):
            raise ValueError(f"The only supported values for the axis argument are 0 and 1.  Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


def _infer_var_name(parts):
    """The checkpoint name of a variable given as its list of parts (one for an unpartitioned variable)."""
    info = parts[0]._save_slice_info
    return info.full_name if info is not None else parts[0].op.name


def _grouped_variables(vars_to_warm_start):
    """``{name: [variable or part, ...]}`` of the variables ``vars_to_warm_start`` selects."""
    graph = get_default_graph()
    if isinstance(vars_to_warm_start, str):
        chosen = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            chosen = [v for scope in vars_to_warm_start
                      for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope)]
        elif all(isinstance(v, Variable) for v in vars_to_warm_start):
            chosen = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or all `str`.  Given "
                             f"types are {[type(v) for v in vars_to_warm_start]}")
    elif vars_to_warm_start is None:
        chosen = []
    else:
        raise ValueError(f"`vars_to_warm_start must be a `list` or `str`.  Given type is {type(vars_to_warm_start)}")
    grouped = {}
    for v in chosen:
        grouped.setdefault(_infer_var_name([v]), []).append(v)
    return grouped


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Make the initializers of the chosen variables read their values from a checkpoint.

    Call it while building the graph, before the variables are initialized.

    Parameters
    ----------
    ckpt_to_initialize_from : str
        A checkpoint prefix, or a directory whose newest checkpoint is read.
    vars_to_warm_start : str, list or None
        A regex matched from the start of the names of the trainable variables; a list of such regexes,
        matched against all global variables; a list of variables; or None (only those of
        ``var_name_to_vocab_info``). A partitioned variable counts once, by its full name.
    var_name_to_vocab_info : dict, optional
        ``{variable name: VocabInfo}``: numflow does not remap vocabularies; a non-empty map raises
        NotImplementedError.
    var_name_to_prev_var_name : dict, optional
        ``{variable name: its name in the checkpoint}``, for variables renamed since.

    Raises
    ------
    ValueError
        ``vars_to_warm_start`` of a wrong type, a name of ``var_name_to_prev_var_name`` that selects no
        variable, or (from ``init_from_checkpoint``) a variable the checkpoint lacks or holds in another shape.

    Examples
    --------
    >>> import os, tempfile, numflow as tf
    >>> prefix = os.path.join(tempfile.mkdtemp(), "model")
    >>> with tf.Graph().as_default():
    ...     _ = tf.get_variable("old_w", initializer=[1.0, 2.0])
    ...     with tf.Session() as sess:
    ...         sess.run(tf.global_variables_initializer())
    ...         prefix = tf.train.Saver().save(sess, prefix)
    >>> with tf.Graph().as_default():
    ...     w = tf.get_variable("w", [2])
    ...     tf.train.warm_start(prefix, "w", var_name_to_prev_var_name={"w": "old_w"})
    ...     with tf.Session() as sess:
    ...         sess.run(tf.global_variables_initializer())
    ...         sess.run(w).tolist()
    [1.0, 2.0]
    """
    _log.info("Warm-starting from: %s", ckpt_to_initialize_from)
    grouped = _grouped_variables(vars_to_warm_start)
    var_name_to_vocab_info = var_name_to_vocab_info or {}
    var_name_to_prev_var_name = var_name_to_prev_var_name or {}
    if var_name_to_vocab_info:
        raise NotImplementedError("warm_start: numflow does not remap vocabularies (var_name_to_vocab_info "
                                  f"names {sorted(var_name_to_vocab_info)}); warm-start those variables without it")
    prev_var_name_used = set()
    vocabless_vars = {}
    count = 0
    for var_name, parts in grouped.items():
        prev_var_name = var_name_to_prev_var_name.get(var_name)
        if prev_var_name:
            prev_var_name_used.add(var_name)
        if not vars_to_warm_start:
            continue
        count += 1
        variable = parts[0] if len(parts) == 1 else parts
        prev_tensor_name = prev_var_name or _infer_var_name(parts)
        if prev_tensor_name in vocabless_vars:
            # One checkpoint name for two variables: an assignment map holds it once, so this one goes alone.
            init_from_checkpoint(ckpt_to_initialize_from, {prev_tensor_name: variable})
        else:
            vocabless_vars[prev_tensor_name] = variable
    init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
    _log.info("Warm-started %d variables.", count)
    unused = set(var_name_to_prev_var_name) - prev_var_name_used
    if unused:
        raise ValueError(f"You provided the following variables in var_name_to_prev_var_name that were not used: "
                         f"{unused}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")
