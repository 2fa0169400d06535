"""adjacency_matrix (not registered yet: see the module's size limit): rows of edge counts over every node."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import FormatError, GraphError
from core.formats import adjacency_matrix
from core.formats.untyped_pairs import PLACEHOLDER_RELATION, PLACEHOLDER_TYPE
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.hypothesis_profiles import examples
from tests.strategies import graphs


def render(graph, units=None):
    return adjacency_matrix.render(graph, graph_units(graph) if units is None else units)


def untyped(graph: Graph) -> Graph:
    """What the matrix keeps of a graph: ids and edge multiplicities, no types, relations or properties."""
    return Graph.build([Node(node.id, PLACEHOLDER_TYPE) for node in graph.nodes],
                       [Edge(edge.source, PLACEHOLDER_RELATION, edge.target) for edge in graph.edges])


def test_rows_count_parallel_edges_per_column():
    graph = Graph.build([Node("a", "t"), Node("b c", "t")], [Edge("a", "r", "b c"), Edge("a", "s", "b c"),
                                                            Edge("b c", "r", "b c")])
    assert render(graph).text == 'columns: a "b c"\na: 0 2\n"b c": 0 1'
    assert adjacency_matrix.decode(render(graph).text) == untyped(graph)


@settings(max_examples=examples(150, 50))
@given(graph=graphs(), data=st.data())
def test_hostile_graphs_come_back_untyped_and_every_prefix_is_the_rendering_of_its_units(graph, data):
    assert adjacency_matrix.decode(render(graph).text) == untyped(graph)
    units = data.draw(st.permutations(graph_units(graph)))
    rendering = render(graph, units)
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)))
    kept = {key for record in rendering.records[:count] for key in record.unit_keys}
    assert rendering.prefix_text(count) == render(graph, [unit for unit in units if unit.key in kept]).text
    adjacency_matrix.decode(rendering.prefix_text(count))


@settings(max_examples=examples(150, 50))
@given(graph=graphs(max_nodes=4, max_edges=4), data=st.data())
def test_mangled_text_raises_only_format_errors(graph, data):
    text = render(graph).text
    position = data.draw(st.integers(min_value=0, max_value=len(text)))
    text = text[:position] + data.draw(st.sampled_from(list('0123456789 :"\n{x'))) + text[position + 1:]
    try:
        adjacency_matrix.decode(text)
    except FormatError as error:
        assert error.where and error.fix
    except GraphError:  # pragma: no cover - decoded_graph turns these into FormatErrors
        raise


def test_the_matrix_refuses_graphs_whose_square_is_too_large():
    graph = service_graph(1_000, 10, 7)
    assert len(graph.nodes) > adjacency_matrix.MATRIX_NODE_LIMIT
    with pytest.raises(FormatError, match="cells"):
        render(graph)


@pytest.mark.parametrize("text, problem", [
    ("", "columns:"), ("columns: a\na: 2 1", "unexpected text"), ("columns: a\na: x", "not a count"),
    ("columns: a\na: 10001", "not a count"), ("columns: a\na: ٣", "not a count"),
])
def test_malformed_matrices_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem):
        adjacency_matrix.decode(text)
