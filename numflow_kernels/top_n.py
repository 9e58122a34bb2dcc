"""TensorFlow's top-k selection order, written once: plain Python that Numba compiles unchanged.

``tf.nn.top_k(..., sorted=False)`` returns its k indices in the order TensorFlow's CPU kernel
leaves them: the layout of ``gtl::TopN``'s heap (``tensorflow/core/lib/gtl/top_n.h``) after every
column was pushed, the heap kept by libstdc++'s ``make_heap``/``push_heap``/``pop_heap``
(``bits/stl_heap.h``). The first k + 1 columns are heaped and the worst dropped; after that a
better column replaces the worst (pop from the heap of k, push the newcomer), which is the order
TensorFlow 2.21's kernel gives (checked against it in ``tests/ops/test_top_k_ops.py``).
``better(a, b)`` is TopN's comparator ``stable_comp``: a larger value, or an equal value at a
lower index. The heap's front is its worst element.

``select(values, k, heap)`` fills ``heap[:k]`` with that order; ``heap`` has room for k + 1.
Ties and NaN: NaN compares equal to every value here, as in TF's comparator, so rows with NaN
have no well-defined order (TF's own result then depends on its sort's internals).
"""


def better(values, a, b):
    """Whether column ``a`` ranks before column ``b``: a larger value, or an equal one at a lower index."""
    if values[b] < values[a]:
        return True
    if values[b] > values[a]:
        return False
    return a < b


def push_heap_hole(values, heap, hole, top, item):
    """libstdc++ ``__push_heap``: move ``item`` up from ``hole`` towards ``top``."""
    parent = (hole - 1) // 2
    while hole > top and better(values, heap[parent], item):
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = item


def adjust_heap(values, heap, hole, length, item):
    """libstdc++ ``__adjust_heap``: sift the hole at ``hole`` down, then push ``item`` back up."""
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if better(values, heap[child], heap[child - 1]):
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    push_heap_hole(values, heap, hole, top, item)


def make_heap(values, heap, length):
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        adjust_heap(values, heap, parent, length, heap[parent])
        if parent == 0:
            return
        parent -= 1


def pop_heap(values, heap, length):
    """Move the front (worst) element to ``heap[length - 1]``; the rest stays a heap."""
    if length > 1:
        last = length - 1
        item = heap[last]
        heap[last] = heap[0]
        adjust_heap(values, heap, 0, last, item)


def select(values, k, heap):
    """TopN(k) fed columns ``0 .. len(values) - 1`` in order; ``heap[:k]`` holds its unsorted output."""
    n = values.shape[0]
    size = 0
    for c in range(n):
        if size <= k:
            heap[size] = c
            size += 1
            if size == k + 1:
                make_heap(values, heap, size)
                pop_heap(values, heap, size)
        elif better(values, c, heap[0]):
            # The worst element leaves the heap of k and the new one takes its place.
            pop_heap(values, heap, k)
            heap[k - 1] = c
            push_heap_hole(values, heap, k - 1, 0, c)
    return min(size, k)
