"""GML through networkx: ids, types, undirected input, multigraphs, nested values, clear refusals."""

from __future__ import annotations

import pytest

from core.errors import LoadError
from core.graph.model import Edge, Node
from core.io.gml import parse_gml
from core.io.options import LoadOptions


def test_a_directed_multigraph_keeps_parallel_edges_and_self_loops():
    graph = parse_gml(b'graph [ directed 1 multigraph 1\n node [ id 1 label "Alice" type "person" ]\n'
                      b' node [ id 2 label "Bob" type "person" ]\n edge [ source 1 target 2 label "knows" ]\n'
                      b' edge [ source 1 target 2 label "knows" ]\n edge [ source 2 target 2 label "likes" ] ]')
    assert graph.node_by_id["1"] == Node("1", "person", (("label", "Alice"),))
    assert graph.edges == (Edge("1", "knows", "2"), Edge("1", "knows", "2"), Edge("2", "likes", "2"))


def test_label_is_a_display_name_unless_chosen_as_the_type():
    data = b'graph [ node [ id 1 label "Alice" ] ]'
    assert parse_gml(data).nodes == (Node("1", "node", (("label", "Alice"),)),)
    assert parse_gml(data, options=LoadOptions(node_type_attribute="label")).nodes == (Node("1", "Alice"),)


def test_an_undirected_graph_gets_both_directions_and_nested_values_become_json_text():
    graph = parse_gml(b'graph [ node [ id 1 graphics [ x 1.5 y 2 ] ] node [ id 2 ] edge [ source 1 target 2 ] ]')
    assert graph.node_by_id["1"].properties == (("graphics", '{"x":1.5,"y":2}'),)
    assert [(edge.source, edge.relation, edge.target) for edge in graph.edges] == [
        ("1", "related_to", "2"), ("2", "related_to", "1")]


@pytest.mark.parametrize("data, message", [
    (b'graph [ label "abc\n\n" node [ id 1 label "never closed ] ]', "(a string that is never closed?)"),
    (b'graph [ node [ id 1 label "abc" ] ( ]', "unexpected text '( ]' (at g.gml, line 1, column 35)"),
    (b'graph [ node [ id 1 ]', "a `[` is never closed (at g.gml, line 1, column 7)"),
    (b"graph [ node [ id 1 ] ] ]", "a `]` closes a list that was never opened"),
    (b"graph [ node [ id 1 ] node [ id 1.0 ] ]", "node id 1.0 is duplicated"),
    (b"graph [ node [ id 1 ] node [ id 1 ] ]", "GML is malformed"),
    (b"graph [ node [ id 1 ] edge [ source 1 target 1 ] edge [ source 1 target 1 ] ]", "multigraph 1"),
    (b"graph [ " + b"a [ " * 70 + b"]" * 70 + b" ]", "nests too deeply"),
    (b"node [ id 1 ]", "GML is malformed"),
])
def test_malformed_files_are_load_errors(data, message):
    with pytest.raises(LoadError) as caught:
        parse_gml(data, source="g.gml")
    assert message in str(caught.value) and "g.gml" in str(caught.value)


# --- the linear reader reads what networkx's parser reads ---------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.hypothesis_profiles import examples  # noqa: E402

_WORDS = st.text(alphabet=st.sampled_from(list("abc XYZ&<>;é#[]-_.")), min_size=1, max_size=6)
_VALUES = st.one_of(_WORDS, st.integers(-10**6, 10**6), st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: round(x, 3)))


@settings(max_examples=examples(150, 50))
@given(ids=st.lists(st.integers(0, 50), min_size=1, max_size=6, unique=True), data=st.data(),
       directed=st.booleans())
def test_networkx_written_gml_reads_as_networkx_reads_it(ids, data, directed):
    import networkx as nx

    from core.io.gml import _graph
    from core.io.gml_text import ParsedGML
    from core.io.limits import DEFAULT_LIMITS
    from core.io.options import DEFAULT_OPTIONS
    network = nx.MultiDiGraph() if directed else nx.MultiGraph()
    for node_id in ids:
        network.add_node(node_id, **data.draw(st.dictionaries(st.sampled_from(["label", "type", "w", "note"]), _VALUES,
                                                              max_size=3)))
    for _ in range(data.draw(st.integers(0, 6))):
        network.add_edge(data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids)),
                         **data.draw(st.dictionaries(st.sampled_from(["label", "weight"]), _VALUES, max_size=2)))
    text = "\n".join(nx.generate_gml(network))
    theirs = nx.parse_gml(text, label="id")
    expected = _graph(ParsedGML(theirs.is_directed(), list(theirs.nodes(data=True)), list(theirs.edges(data=True))),
                      "g.gml", DEFAULT_OPTIONS, DEFAULT_LIMITS)
    assert parse_gml(text.encode()) == expected


def test_unquoted_ids_read_as_networkx_reads_them():
    """D26: Gephi's GML test with unquoted ids (`id A`) was refused; networkx 3.6 reads 3 nodes and 4 edges."""
    import networkx as nx

    text = ('graph [ directed 1 node [ id A label "A" ] node [ id B ] node [ id C ] edge [ source A target B ] '
            "edge [ source B target C ] edge [ source C target A ] edge [ source A target C ] ]")
    graph = parse_gml(text.encode(), source="g.gml")
    expected = nx.parse_gml(text, label=None)
    assert [node.id for node in graph.nodes] == sorted(expected.nodes)
    assert len(graph.edges) == expected.number_of_edges() == 4


def karate_gml() -> bytes:
    """Zachary's karate club as igraph writes it: `graph [ directed 0 ...]`, 34 nodes, 78 edges."""
    import networkx as nx

    club = nx.karate_club_graph()
    lines = ["Creator \"igraph version 0.10\"", "graph", "[", "  directed 0"]
    lines += [f"  node\n  [\n    id {node}\n  ]" for node in club.nodes]
    lines += [f"  edge\n  [\n    source {start}\n    target {end}\n  ]" for start, end in club.edges]
    return ("\n".join(lines + ["]", ""])).encode()


def test_an_undirected_graph_is_said_with_its_counts():
    """N5: igraph's karate.gml (directed 0) read as 156 edges with no notice that each edge became two."""
    from core.errors import LoadNotice

    with pytest.warns(LoadNotice) as caught:
        graph = parse_gml(karate_gml(), source="karate.gml")
    assert len(graph.nodes) == 34 and len(graph.edges) == 156
    assert [str(notice.message) for notice in caught] == [
        "karate.gml: the file declares an undirected graph (it has no `directed 1`): its 78 edges were read as 156 "
        "directed edges, one each way"]


def test_a_directed_graph_gives_no_notice():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_gml(b"graph [ directed 1 node [ id 1 ] node [ id 2 ] edge [ source 1 target 2 ] ]")
