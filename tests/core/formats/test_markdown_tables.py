"""markdown_tables: a nodes table and an edges table, cells escaped so that every value survives."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats import markdown_tables
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph


def render(graph):
    return markdown_tables.render(graph, graph_units(graph))


def test_the_service_graph_is_two_tables():
    text = render(service_graph()).text
    assert text.startswith("| id | type |\n|---|---|\n| db-identity | database |\n| svc-api | service |\n")
    assert ("\n\n| source | relation | target |\n|---|---|---|\n| svc-api | depends_on | svc-auth |\n"
            in text)


def test_a_context_cut_among_the_nodes_still_shows_the_edges_header():
    assert render(service_graph()).prefix_text(1) == ("| id | type |\n|---|---|\n| db-identity | database |\n\n"
                                                      "| source | relation | target |\n|---|---|---|")


@pytest.mark.parametrize("value, cell", [
    ("plain", "plain"), ("a|b", "a\\|b"), ("C:\\dir", "C:\\\\dir"), ("two\nlines", "two\\nlines"),
    ("cr\r", "cr\\r"), ("\tx", "\\tx"), (" padded ", "\\spadded\\s"), (" ", "\\s"), ("  ", "\\s\\s"),
    ("in side", "in side"), ("", ""), ("\\|", "\\\\\\|"), ("---", "---"),
])
def test_cells_escape_what_would_break_a_table(value, cell):
    assert markdown_tables.escape_cell(value) == cell
    assert markdown_tables.split_row(f"| {cell} | x |", 1) == [value, "x"]


def test_every_awkward_value_round_trips_in_both_tables():
    awkward = ["|", "a|b|", "\\", " x", "x ", "\n", "\r\n", "\t", "", "| --- |", "\\s"]
    graph = Graph.build([Node(value, value, (("k", value),)) for value in awkward],
                        [Edge(value, value, value, ((value, 1.5),)) for value in awkward])
    text = render(graph).text
    assert text.count("\n") == 1 + len(awkward) + 3 + len(awkward)  # one line per row, nothing split
    assert markdown_tables.decode(text) == graph


def test_properties_are_a_json_column():
    graph = Graph.build([Node("a", "t", (("up", True), ("n", 1))), Node("b", "t")], [Edge("a", "r", "b")])
    text = render(graph).text
    assert text.startswith('| id | type | properties |\n|---|---|---|\n| a | t | {"up":true,"n":1} |\n'
                           '| b | t |  |')
    assert markdown_tables.decode(text) == graph


_EDGES = "\n\n| source | relation | target |\n|---|---|---|"


@pytest.mark.parametrize("text, problem", [
    ("| id | type |\n| a | t |", "separator"),
    ("| id | kind |\n|---|---|", "expected the header"),
    ("| id | type |\n|---|---|\n| a | t | x |" + _EDGES, "expected 2 cells"),
    ("| id | type |\n|---|---|\n| a | t |", "is missing"),
    ("| id | type |\n|---|---|\n| a \\x | t |" + _EDGES, "unknown escape"),
    ("| id | type |\n|---|---|\n a | t |" + _EDGES, "not a table row"),
    ("| id | type |\n|---|---|\n\n| source | relation | target |\n|---|---|---|\n\nmore", "after the edges"),
])
def test_malformed_tables_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem) as error:
        markdown_tables.decode(text)
    assert error.value.where
