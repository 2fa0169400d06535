"""The published sources' own ways of reading and writing a graph, for the tests and bench/published_tables.py:
the ISONGraph benchmark's converters (benchmark_kg_100.py), called as it calls them, and the graph and unit
order KG-LLM-Bench's generator (kg_builder.py) takes from a node-link file."""

from __future__ import annotations

import json

import ison_parser
from ison_graph import ISONGraph

from core.graph.model import Graph, Schema, default_reading
from core.graph.units import Unit, graph_units
from core.io.node_link import parse_node_link


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


def kgllm_graph(document: dict, schema_relations: list[str] | None = None) -> tuple[Graph, list[Unit]]:
    """The graph of a node-link document and its units as KG-LLM-Bench's DiGraph took them: the nodes in the
    file's order, then the edges in the file's order. Its relation table (relations.tsv, the R<n> ids) is
    the schema's: the relations as the file first names them, unless given."""
    graph = parse_node_link(json.dumps(document).encode("utf-8"))
    relations = schema_relations or list(dict.fromkeys(link["relation"] for link in document["links"]))
    graph = graph.with_schema(Schema(relations=tuple(default_reading(relation) for relation in relations)))
    units = {unit.key: unit for unit in graph_units(graph)}
    keys = [f"n:{node['id']}" for node in document["nodes"]] + [
        f"e:{link['source']}|{link['relation']}|{link['target']}" for link in document["links"]]
    return graph, [units[key] for key in keys]
