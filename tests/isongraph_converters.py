"""The ISONGraph benchmark's own converters (benchmark_kg_100.py), called as it calls them, for the tests and
bench/published_tables.py: what its ISON and ISONGraph cells were written from."""

from __future__ import annotations

import ison_parser
from ison_graph import ISONGraph


def benchmark_ison(data: dict) -> str:
    """ison_parser.from_dict(data, auto_refs=True, smart_order=True), written by ison_parser.dumps."""
    return ison_parser.dumps(ison_parser.from_dict(data, auto_refs=True, smart_order=True), align_columns=False)


def benchmark_isongraph(data: dict) -> str:
    """An ISONGraph built with add_node(type, id, **properties) and add_edge(relation.upper(), ...), to_ison()."""
    graph = ISONGraph()
    types = {node["id"]: node["type"] for node in data["nodes"]}
    for node in data["nodes"]:
        graph.add_node(node["type"], node["id"], **{k: v for k, v in node.items() if k not in ("id", "type")})
    for edge in data["edges"]:
        graph.add_edge(edge["relation"].upper(), (types[edge["source"]], edge["source"]),
                       (types[edge["target"]], edge["target"]),
                       **{k: v for k, v in edge.items() if k not in ("source", "target", "relation")})
    return graph.to_ison()


def upper_cased(data: dict) -> dict:
    """The graph benchmark_isongraph writes: the same, with each relation upper-cased."""
    return {**data, "edges": [{**edge, "relation": edge["relation"].upper()} for edge in data["edges"]]}


def isongraph_row_keys(text: str) -> list[str]:
    """The unit keys of an ISONGraph text's rows, in its order (a block per node type and per relation)."""
    return [f"n:{row['id']}" if block.kind == "nodes" else f"e:{row['source'].id}|{block.name}|{row['target'].id}"
            for block in ison_parser.loads(text).blocks for row in block.rows]
