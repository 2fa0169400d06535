"""Graph Context Lab's Python API: measure what writing a graph into a prompt costs and loses.

    from core import RenderingSpec, Workbench, load_sample
    graph = load_sample("online-boutique")
    bench = Workbench()
    for format_name in ("pretty_json", "csv", "semantic_text"):
        print(format_name, bench.account(RenderingSpec.from_names(graph, format_name)).total, "tokens")

A spec names what to render (`RenderingSpec`) or sweep (`SweepSpec`), resolved against the registries;
the workbench runs the data flow on it and keeps what is worth keeping. Every error the lab raises on
purpose is a `GraphContextError` saying what is wrong, where, and how to fix it.
"""

from core.errors import GraphContextError
from core.formats import FORMATS
from core.graph.model import Graph
from core.io.loading import load_graph_file
from core.io.samples import load_sample
from core.queries import QUERIES
from core.retrieval import ORDERINGS
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS
from core.workbench import Workbench

__all__ = ["FORMATS", "ORDERINGS", "QUERIES", "TOKENIZERS", "Graph", "GraphContextError", "RenderingSpec",
           "SweepSpec", "Workbench", "load_graph_file", "load_sample"]
