"""Pictures of graphs without TensorBoard: DOT, SVG or PNG through networkx and Graphviz.

The graph, or the part of it that some fetches need, is drawn as TensorFlow writes it (its GraphDef),
so a numflow ``Graph``, a ``GraphDef`` or ``MetaGraphDef`` message (numflow's or TensorFlow's) and
a ``.meta``, ``.pb`` or ``.pbtxt`` file all draw alike:

- each name scope is a box (a Graphviz cluster) holding its ops, nested as the scopes are, with an
  op named as a scope (a variable beside its ``read``) inside that scope's box;
- variables are filled boxes, and the ops that update them (assignments, optimizers' apply ops)
  are drawn in red with a bold edge from the variable;
- data edges are solid and labelled with the tensor's static shape where the graph knows it,
  control edges dashed;
- with a traced run's ``RunMetadata`` (``RunOptions.FULL_TRACE``), each op that ran shows its time
  and is shaded by it, darkest for the slowest.

DOT text needs the ``graphviz`` Python package (``pip install numflow[draw]``); SVG and PNG need
Graphviz's ``dot`` program too (Debian's ``graphviz`` package). From the command line::

    python -m numflow.tools.draw model.meta -o model.svg --fetch loss
"""

import argparse
import math
import os
import sys

import networkx as nx

VARIABLE_TYPES = frozenset(["VariableV2", "Variable", "VarHandleOp"])
_UPDATE_TYPES = frozenset(["Assign", "AssignAdd", "AssignSub", "AssignVariableOp", "AssignAddVariableOp",
                           "AssignSubVariableOp", "ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul",
                           "ScatterDiv", "ScatterMax", "ScatterMin"])
FORMATS = ("dot", "svg", "png")


def is_update(op_type):
    """Whether ops of ``op_type`` write the variable of their first input (assignments, apply ops)."""
    return op_type in _UPDATE_TYPES or op_type.startswith(("Apply", "SparseApply", "ResourceApply",
                                                           "ResourceSparseApply"))


def _graph_def_of(graph):
    """numflow's GraphDef message for a Graph, GraphDef, MetaGraphDef, their TensorFlow messages or a file."""
    from numflow.framework.graph import Graph
    from numflow.framework.graph_import import as_graph_def
    from numflow.framework.meta_graph import read_proto_file
    from numflow.protos import graph_pb2, meta_graph_pb2

    if isinstance(graph, Graph):
        return graph.as_graph_def(add_shapes=True)
    if isinstance(graph, str | os.PathLike):
        path = os.fspath(graph)
        if path.endswith(".meta"):
            return read_proto_file(path, meta_graph_pb2.MetaGraphDef).graph_def
        return read_proto_file(path, graph_pb2.GraphDef)
    if getattr(getattr(graph, "DESCRIPTOR", None), "full_name", "") == "tensorflow.MetaGraphDef":
        return as_graph_def(graph.graph_def.SerializeToString())
    return as_graph_def(graph)


def _shape_text(node, index):
    shapes = node.attr["_output_shapes"].list.shape if "_output_shapes" in node.attr else ()
    if index >= len(shapes):
        return ""
    shape = shapes[index]
    if shape.unknown_rank:
        return "?"
    return "[" + ", ".join("?" if d.size < 0 else str(d.size) for d in shape.dim) + "]"


def graph_of(graph_def):
    """The ``networkx.DiGraph`` of a GraphDef: nodes named as its ops (attrs ``op``, ``device``), edges
    ``producer -> consumer`` with ``control`` (bool) and ``shape`` (text, for data edges)."""
    from numflow.framework.graph_io import parse_tensor_name

    nodes = {node.name: node for node in graph_def.node}
    dag = nx.DiGraph()
    for node in graph_def.node:
        dag.add_node(node.name, op=node.op, device=node.device)
    for node in graph_def.node:
        for raw in node.input:
            source, index = parse_tensor_name(raw)
            if source not in nodes:
                raise ValueError(f"Node '{node.name}': Unknown input node '{raw}'")
            control = index < 0
            shape = "" if control else _shape_text(nodes[source], index)
            if dag.has_edge(source, node.name):
                edge = dag.edges[source, node.name]
                edge["control"] &= control
                edge["shape"] = edge["shape"] or shape
            else:
                dag.add_edge(source, node.name, control=control, shape=shape)
    return dag


def needed_by(dag, fetches):
    """The subgraph of ``dag`` that ``fetches`` (op or tensor names, or graph elements) need."""
    names = set()
    for fetch in fetches:
        name = getattr(fetch, "name", fetch)
        name = name[1:] if name.startswith("^") else name.rpartition(":")[0] if ":" in name else name
        if name not in dag:
            raise KeyError(f"The name '{name}' refers to an op not in the graph.")
        names.add(name)
        names.update(nx.ancestors(dag, name))
    return dag.subgraph(names)


def _op_micros(run_metadata):
    """``{op name: microseconds}`` from a RunMetadata (numflow's object or a message), summed over devices."""
    step_stats = run_metadata.step_stats
    times = {}
    for dev_stats in step_stats.dev_stats:
        for stats in dev_stats.node_stats:
            times[stats.node_name] = times.get(stats.node_name, 0) + stats.all_end_rel_micros
    return times


def _heat(micros, slowest):
    """A fill colour from white (no time) to orange (the slowest op), on a log scale."""
    level = math.log1p(micros) / math.log1p(slowest) if slowest > 0 else 0.0
    green, blue = int(255 - 90 * level), int(255 - 200 * level)
    return f"#ff{green:02x}{blue:02x}"


def to_dot(graph, fetches=None, run_metadata=None, name="graph"):
    """The DOT source of a picture of ``graph`` (see the module docstring).

    Parameters
    ----------
    graph : Graph, GraphDef, MetaGraphDef or str
        The graph, its message (numflow's or TensorFlow's), or a ``.meta``/GraphDef file.
    fetches : list, optional
        Draw only the ops these (names, tensors or ops) need.
    run_metadata : RunMetadata, optional
        A traced run's metadata: each op's time is shown.
    name : str
        The DOT graph's name.

    Returns
    -------
    graphviz.Digraph
        Its ``source`` is the DOT text; ``pipe(format="svg")`` renders it with Graphviz.

    Raises
    ------
    ImportError
        The ``graphviz`` package is missing.
    KeyError
        A fetch names no op of the graph.
    """
    graphviz = _graphviz()
    dag = graph_of(_graph_def_of(graph))
    if fetches is not None:
        dag = needed_by(dag, fetches)
    times = _op_micros(run_metadata) if run_metadata is not None else {}
    slowest = max((times[n] for n in dag if n in times), default=0)
    dot = graphviz.Digraph(name, graph_attr={"rankdir": "BT", "fontname": "Helvetica", "fontsize": "10"},
                           node_attr={"shape": "box", "style": "rounded", "fontname": "Helvetica",
                                      "fontsize": "10"},
                           edge_attr={"fontname": "Helvetica", "fontsize": "8", "color": "#555555"})
    scopes = {"": dot}
    parts = [n.split("/")[:-1] for n in dag]
    for scope in sorted({"/".join(p[:i]) for p in parts for i in range(1, len(p) + 1)}):
        scopes[scope] = graphviz.Digraph(f"cluster_{scope}", graph_attr={
            "label": scope.rpartition("/")[2], "style": "rounded", "color": "#9999bb", "fontcolor": "#444466"})
    for op_name in sorted(dag):
        data = dag.nodes[op_name]
        op_type = data["op"]
        short = op_name.rpartition("/")[2]
        label = short if short == op_type else f"{short}\\n{op_type}"  # DOT's escape of a line break
        attrs = {}
        if op_type in VARIABLE_TYPES:
            attrs.update(style="filled", fillcolor="#cfe2ff", shape="box3d")
        elif is_update(op_type):
            attrs.update(color="#cc0000", fontcolor="#cc0000", penwidth="2")
        if op_name in times:
            label += f"\\n{times[op_name]} µs"
            attrs.setdefault("fillcolor", _heat(times[op_name], slowest))
            attrs["style"] = "filled" if attrs.get("style") == "filled" else "rounded,filled"
        # An op named as a scope (a variable and its "read") is drawn in that scope's box.
        scopes[op_name if op_name in scopes else op_name.rpartition("/")[0]].node(op_name, label, **attrs)
    for scope in sorted(scopes, key=lambda s: (-s.count("/"), s)):  # innermost first: a cluster is copied in
        if scope:
            scopes[scope.rpartition("/")[0]].subgraph(scopes[scope])
    for source, target, edge in sorted(dag.edges(data=True)):
        attrs = {"style": "dashed"} if edge["control"] else {"label": edge["shape"]} if edge["shape"] else {}
        if not edge["control"] and dag.nodes[source]["op"] in VARIABLE_TYPES and is_update(dag.nodes[target]["op"]):
            attrs.update(color="#cc0000", penwidth="2")
        dot.edge(source, target, **attrs)
    return dot


def draw(graph, path, fetches=None, run_metadata=None, format=None):
    """Write a picture of ``graph`` to ``path`` as DOT, SVG or PNG (by ``format``, else the file's extension).

    See :func:`to_dot` for the arguments. Returns ``path``.

    Raises
    ------
    ValueError
        A format other than dot, svg and png.
    RuntimeError
        SVG or PNG asked for and Graphviz's ``dot`` program is missing.
    """
    path = os.fspath(path)
    kind = (format or os.path.splitext(path)[1][1:] or "dot").lower()
    if kind not in FORMATS:
        raise ValueError(f"numflow draws graphs as {', '.join(FORMATS)}, not '{kind}'")
    dot = to_dot(graph, fetches, run_metadata)
    if kind == "dot":
        data = dot.source.encode()
    else:
        graphviz = _graphviz()
        try:
            data = dot.pipe(format=kind)
        except graphviz.ExecutableNotFound:
            raise RuntimeError(f"drawing {kind.upper()} needs Graphviz's `dot` program (Debian: apt-get install "
                               "graphviz); DOT text needs nothing more") from None
    with open(path, "wb") as f:
        f.write(data)
    return path


def _graphviz():
    try:
        import graphviz
    except ImportError:
        raise ImportError("numflow.tools.draw needs the graphviz package: pip install 'numflow[draw]'") from None
    return graphviz


def _run_metadata(path):
    from numflow.framework.meta_graph import read_proto_file
    from numflow.protos import config_pb2

    return read_proto_file(path, config_pb2.RunMetadata)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m numflow.tools.draw", description=__doc__.splitlines()[0])
    parser.add_argument("graph", help="a .meta file (MetaGraphDef) or a GraphDef file (binary or text)")
    parser.add_argument("-o", "--output", required=True, help="the picture: .dot, .svg or .png")
    parser.add_argument("--fetch", action="append", help="draw only what this op or tensor needs (repeatable)")
    parser.add_argument("--run-metadata", help="a serialized RunMetadata of a traced run: each op's time")
    parser.add_argument("--format", choices=FORMATS, help="the output's format (default: its extension)")
    args = parser.parse_args(argv)
    from numflow.framework.errors import OpError

    try:
        metadata = _run_metadata(args.run_metadata) if args.run_metadata else None
        draw(args.graph, args.output, args.fetch, metadata, args.format)
    except (OSError, ValueError, KeyError, RuntimeError, ImportError, OpError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
