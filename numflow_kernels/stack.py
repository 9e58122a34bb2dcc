"""Stack kernels: a list of tensors made by ``StackV2`` in each run, pushed and popped last first by the
ops given its handle, as TensorFlow's stack resource (``stack.cc``; the messages are theirs). Graphs
written with control flow v1 use them to carry a while loop's values to its gradient loop.
"""

from numflow_kernels.registry import REFERENCE, register


class Stack:
    """The values pushed onto one stack in one run, and how many it may hold (-1: any number)."""

    __slots__ = ("name", "max_size", "elements")

    def __init__(self, name, max_size):
        self.name = name
        self.max_size = max_size
        self.elements = []


def kernel(op_type):
    return register(op_type, REFERENCE)


@kernel("StackV2")
def create(ctx, max_size):
    return Stack(ctx.attrs.get("stack_name") or ctx.op_name, int(max_size))


@kernel("StackPushV2")
def push(ctx, stack, elem):
    if 0 <= stack.max_size <= len(stack.elements):
        raise ValueError(f"Stack[{stack.name}] overflowed its max_size ({stack.max_size})")
    stack.elements.append(elem)
    return elem


@kernel("StackPopV2")
def pop(ctx, stack):
    if not stack.elements:
        raise ValueError(f"Stack[{stack.name}] is empty.")
    return stack.elements.pop()


@kernel("StackCloseV2")
def close(ctx, stack):
    stack.elements.clear()
    return ()
