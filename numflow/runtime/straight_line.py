"""Steps run many times over (a loop's condition and body) as one generated function of straight code.

An iteration of a loop runs its steps in order, and most are small kernels (an LSTM's gates on one
batch: a microsecond of numpy each), so a walk over ``Step`` objects (attribute look-ups, the input
reader's call, the test for several outputs) costs as much as a kernel. :func:`compile_steps` writes
the same calls out as the lines of one function (``v[7] = k3(c3, v[2], v[5])``), kernels and
contexts bound as its globals. An op whose kernel is one ufunc is called as that ufunc (``v[7] =
f3(v[2], v[5], out=...)``), which is what its kernel does with numpy's float errors quiet, as a loop
has them for all its iterations. The source holds slot numbers and generated names, nothing of the
graph's.
"""

from numflow.runtime import executor


def compile_steps(steps):
    """A function of the slot list that runs ``steps`` in order as ``executor._run_steps`` does (a
    failure names the op that raised it), for runs with numpy's float errors quiet."""
    if not steps:
        return _nothing
    names = {"op_error": executor.op_error, "steps": steps}
    lines = ["def run(v):", "    n = 0", "    try:"]
    for n, step in enumerate(steps):
        args = [f"v[{slot}]" for slot in step.in_slots]
        ufunc = getattr(step.kernel, "quiet_ufunc", None)
        if ufunc is not None:
            names[f"f{n}"] = ufunc
            call = f"f{n}({', '.join(args)}, out=...)"
        else:
            names[f"k{n}"], names[f"c{n}"] = step.kernel, step.ctx
            call = f"k{n}({', '.join([f'c{n}', *args])})"
        lines.append(f"        n = {n}")
        if step.single:
            lines.append(f"        v[{step.out_slots[0]}] = {call}")
        else:
            names[f"s{n}"] = step.out_slots
            lines.append(f"        for slot, value in zip(s{n}, {call}):")
            lines.append("            v[slot] = value")
    lines.append("    except Exception as e:")
    lines.append("        raise op_error(steps[n].op, e) from e")
    exec("\n".join(lines), names)  # noqa: S102 - source made above of slot numbers and generated names
    return names["run"]


def _nothing(values):
    """The straight code of no steps."""
