"""Graph and op seeds, combined by TensorFlow's rules into the (seed, seed2) pair of a random op."""

import weakref

from numflow.framework.graph import get_default_graph

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1

# How many seedless random ops each graph has given a seed to while it had a graph seed.
_ops_seeded = weakref.WeakKeyDictionary()


def _truncate_seed(seed):
    return seed % _MAXINT32


def set_random_seed(seed):
    """Set the default graph's seed: random ops without a seed of their own become repeatable."""
    get_default_graph().seed = seed


def get_seed(op_seed):
    """The (seed, seed2) pair for a random op with seed ``op_seed``, as TensorFlow 1.x derives it.

    - graph seed and op seed: both, truncated to 31 bits;
    - graph seed only: the op seed counts the seedless random ops created so far in the graph
      (0, 1, 2...), as TensorFlow 2.x's ``tf.compat.v1`` does, so each op draws differently and the
      values do not depend on how many other ops the graph holds;
    - op seed only: the graph seed is DEFAULT_GRAPH_SEED;
    - neither: (None, None), fresh random values in every session.
    """
    graph = get_default_graph()
    graph_seed = graph.seed
    if graph_seed is not None:
        if op_seed is None:
            op_seed = _ops_seeded.get(graph, 0)
            _ops_seeded[graph] = op_seed + 1
        seeds = _truncate_seed(graph_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        seeds = None, None
    if seeds == (0, 0):
        return 0, _MAXINT32
    return seeds
