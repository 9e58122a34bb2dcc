"""The line between the runtime and the kernels, checked on the source (``numflow_kernels/context.py``
and ``numflow_kernels/handle.py`` state it).

- Nothing under ``numflow_kernels/`` imports ``numflow``.
- No kernel looks at its op (``ctx.op``) or at a variable's insides: a kernel reaches a variable
  only through the handle's methods, so none names a field of the in-process handle. The kernels
  numflow registers itself (checkpoint, summary, queue and dataset ops, functional ops) keep the
  same rule.
"""

import ast
from pathlib import Path

import pytest

import numflow
import numflow_kernels
from numflow.runtime.resources import LocalVariable

KERNELS = Path(numflow_kernels.__file__).parent
NUMFLOW = Path(numflow.__file__).parent
KERNEL_FILES = sorted(KERNELS.rglob("*.py"))
HANDLE_FIELDS = {name for name in LocalVariable.__slots__ if name.startswith("_")}


def _tree(path):
    return ast.parse(path.read_text(), filename=str(path))


def _registers_kernels(tree):
    return any(isinstance(node, ast.ImportFrom) and node.module == "numflow_kernels.registry"
               and any(alias.name == "register" for alias in node.names) for node in ast.walk(tree))


# The modules of numflow that register kernels of their own (checkpoint, summary, queue, dataset ops...).
RUNTIME_KERNELS = sorted(p for p in NUMFLOW.rglob("*.py") if _registers_kernels(_tree(p)))


def _imported_modules(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def _is_self(node):
    return isinstance(node, ast.Name) and node.id == "self"


def _contract_breaches(tree):
    """``(line, what)`` for each use of a handle's field or of the kernel's op in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in HANDLE_FIELDS and not _is_self(node.value):
            yield node.lineno, f".{node.attr}"
        elif isinstance(node, ast.Constant) and node.value in HANDLE_FIELDS:
            yield node.lineno, repr(node.value)  # getattr(handle, "_value")
        elif isinstance(node, ast.Attribute) and node.attr == "op" and isinstance(node.value, ast.Name) \
                and node.value.id == "ctx":
            yield node.lineno, "ctx.op"


def test_the_scan_sees_every_kernel_module():
    names = {p.relative_to(KERNELS).as_posix() for p in KERNEL_FILES}
    assert {"registry.py", "buffer_ops.py", "cpu/training.py", "cuda/training.py", "handle.py"} <= names
    assert HANDLE_FIELDS >= {"_lock", "_value"}
    runtime = {p.relative_to(NUMFLOW).as_posix() for p in RUNTIME_KERNELS}
    assert {"runtime/checkpoint_ops.py", "runtime/summary_kernels.py", "runtime/queues.py",
            "data/datasets.py"} <= runtime


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: p.relative_to(KERNELS).as_posix())
def test_no_kernel_module_imports_numflow(path):
    bad = [m for m in _imported_modules(_tree(path)) if m == "numflow" or m.startswith("numflow.")]
    assert bad == [], f"{path} imports {bad}: numflow_kernels must not depend on numflow"


@pytest.mark.parametrize("path", KERNEL_FILES + RUNTIME_KERNELS, ids=lambda p: p.name)
def test_kernels_reach_variables_only_through_the_handle(path):
    breaches = list(_contract_breaches(_tree(path)))
    assert breaches == [], f"{path}: {breaches}"


def test_the_scan_catches_a_breach():
    tree = ast.parse("def k(ctx, ref):\n    with ref._lock:\n        return ref._value + ctx.op.inputs[0]\n")
    assert sorted(what for _, what in _contract_breaches(tree)) == ["._lock", "._value", "ctx.op"]
