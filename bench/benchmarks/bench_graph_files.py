"""Graph files: exporting and importing the MetaGraphDef of a 10,000-op graph.

The graph: a placeholder, then 2,500 times a constant, an add, a multiply and an identity, plus 20
variables in collections. ``time_export_meta_graph`` builds the MetaGraphDef and serializes it
(``tf.train.export_meta_graph``, no file); ``time_import_meta_graph`` parses those bytes and builds
the graph anew (``tf.train.import_meta_graph`` into a new graph). Target: numflow at most half of
TensorFlow's time for each, measured in the same run (``bench/run.py`` with TensorFlow installed).

On the 2-core development machine (shared, load 2.1-3.4, ``--stat min`` of 15 samples, two runs each):
export 57.7-63.2 ms against TensorFlow's 102.6-105.4 ms (0.56-0.60x) before the GraphDef loop keyed
its templates more cheaply and left an empty input field alone, 42.3-42.9 ms against 102.9-104.0 ms
(0.41x) after; import 309-325 ms against 491-508 ms (0.63-0.64x) before ``create_op`` and the importer
did less per op and the graph's edges held tuples, 184-191 ms against 484-496 ms (0.38-0.39x) after.
About half of the export is protobuf's own work (a NodeDef added, copied from its template, named and
given its inputs: 1.4 us a node, and the serialization), the rest Python's per op.
"""

try:
    from .bench_session import graph_library
except ImportError:  # run by bench/run.py, which imports the suites as top-level modules
    from bench_session import graph_library

LAYERS = 2500  # 4 ops each: 10,001 ops with the placeholder, plus the variables' 80


def build(tf):
    x = tf.placeholder(tf.float32, [None, 8], name="x")
    for _ in range(LAYERS):
        x = tf.identity(x * tf.constant(1.0001) + 0.5)
    for i in range(20):
        tf.Variable(tf.zeros([8]), name=f"v{i}")
    return x


class MetaGraphFiles:
    """Export and import of a 10,000-op MetaGraphDef (bytes in memory: the file system is not timed)."""

    params = [["numflow", "tensorflow"]]
    param_names = ["library"]
    number = 1
    repeat = 5
    work = {"time_export_meta_graph": (4 * LAYERS + 1, "ops"), "time_import_meta_graph": (4 * LAYERS + 1, "ops")}

    def setup(self, library):
        self.tf = graph_library(library)
        self.graph = self.tf.Graph()
        with self.graph.as_default():
            build(self.tf)
        self.data = self._export().SerializeToString()

    def _export(self):
        with self.graph.as_default():
            return self.tf.train.export_meta_graph(graph=self.graph)

    def time_export_meta_graph(self, library):
        self._export().SerializeToString()

    def time_import_meta_graph(self, library):
        meta = self.tf.MetaGraphDef()
        meta.ParseFromString(self.data)
        with self.tf.Graph().as_default():
            self.tf.train.import_meta_graph(meta)
