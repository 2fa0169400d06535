"""ison: the text ison-py writes for the flat records, read back by ison-py's own parser."""

from __future__ import annotations

import json
from pathlib import Path

import ison_parser
import pytest
from hypothesis import given, settings

from core.formats import ison
from core.formats.flat_records import edge_record, node_record
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io import load_graph_file
from core.io.generate import service_graph
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

COUNTRIES = Path(__file__).resolve().parents[2] / "data" / "published-formats" / "countries" / "graph.json"


def render(graph: Graph) -> str:
    return ison.render(graph, graph_units(graph)).text


def package_text(graph: Graph) -> str:
    """What the package writes for the same records, called as the ISONGraph benchmark calls it."""
    data = {"nodes": [node_record(graph, node) for node in graph.nodes],
            "edges": [edge_record(graph, edge) for edge in graph.edges]}
    return ison_parser.dumps(ison_parser.from_dict(data, auto_refs=True, smart_order=True), align_columns=False)


def read_by_the_package(text: str) -> Graph:
    """The graph in ison_parser.loads' rows, read by this test alone (null: no such property)."""
    tables = {block.name: block.rows for block in ison_parser.loads(text).blocks}

    def properties(row: dict, fields: tuple[str, ...]) -> dict:
        if row.get("properties") is not None:
            return json.loads(row["properties"])
        return {key: value for key, value in row.items() if key not in fields and value is not None}

    nodes = [Node(str(row["id"]), row["type"], tuple(properties(row, ("id", "type")).items()),
                  row["id"] if isinstance(row["id"], int) else None) for row in tables.get("nodes", [])]
    edges = [Edge(str(row["source"]), row["relation"], str(row["target"]),
                  tuple(properties(row, ("source", "target", "relation")).items())) for row in tables.get("edges", [])]
    return Graph.build(nodes, edges, missing_endpoints="create")


@pytest.mark.parametrize("graph", [service_graph(), load_graph_file(COUNTRIES)], ids=["services", "countries"])
def test_the_text_is_the_package_s_own_for_the_same_records(graph):
    assert render(graph) == package_text(graph)
    assert read_by_the_package(render(graph)) == graph


def test_tables_look_as_the_package_writes_them():
    graph = Graph.build([Node("1", "person", (("name", "Alice"), ("age", 28)), 1), Node("2", "person", (), 2)],
                        [Edge("1", "knows", "2", (("since", 2020),))])
    assert render(graph) == ("table.nodes\nid name type age\n1 Alice person 28\n2 null person null\n\n"
                             "table.edges\nsource target relation since\n1 2 knows 2020")


def test_where_the_package_s_cell_would_read_back_otherwise_the_cell_is_written_so_it_does():
    graph = Graph.build([Node("a", "t", (("small", 1e-05), ("large", 1e16), ("rule", "---x"), ("tab", "\x0bx")))], [])
    text = render(graph)
    assert text == 'table.nodes\nid type small large rule tab\na t 0.00001 10000000000000000.0 "---x" "\x0bx"'
    assert "1e-05" in package_text(graph)  # the package's text, which reads back as the string "1e-05"
    assert ison.decode(text) == graph == read_by_the_package(text)


def test_properties_whose_keys_cannot_head_a_column_are_one_json_cell():
    graph = Graph.build([Node("a", "t", (("zip code", "1"), ("id", 2))), Node("b", "t", (("k", 1),))], [])
    text = render(graph)
    assert text == 'table.nodes\nid type properties k\na t "{\\"zip code\\": \\"1\\", \\"id\\": 2}" null\nb t null 1'
    assert ison.decode(text) == graph == read_by_the_package(text)


@settings(max_examples=examples(100, 30))
@given(graph=graphs())
def test_the_package_s_parser_reads_any_graph_s_text_as_that_graph(graph):
    assert read_by_the_package(render(graph)) == graph
