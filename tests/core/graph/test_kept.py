"""The decoder is the proof: decoding a record prefix gives exactly the graph its kept unit keys describe."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.formats import FORMATS
from core.graph.kept import UnitPositions, image_positions
from core.graph.model import ORPHAN_TYPE, Edge, Graph, Node
from core.io.generate import service_graph
from core.metrics.coverage import seed_region
from core.queries import IMPACT_OWNERS, SHORTEST_PATH, TYPED_NEIGHBOURS, query
from core.queries.learning import TAXONOMY_MEMBERS
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, OrderingInputs, layouts_for, order_units
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

LOSSLESS = [name for name in FORMATS.names() if FORMATS.get(name).lossless]
EXAMPLES = 40  # per format, in the exhaustive tier (15 otherwise)


@pytest.mark.parametrize("name", LOSSLESS)
@cross_product(EXAMPLES, small=15)
@given(graph=graphs(), data=st.data())
def test_decoding_kept_records_gives_the_graph_of_their_keys(name, graph, data):
    format_ = FORMATS.get(name)
    ordering = ORDERINGS.get(data.draw(st.sampled_from(ORDERINGS.names()), label="ordering"))
    layout = data.draw(st.sampled_from([layout for layout in LAYOUTS if layout in layouts_for(format_)]))
    ids = [node.id for node in graph.nodes]
    seeds = tuple(data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2, unique=True), label="seeds"))
    evidence = frozenset(data.draw(st.lists(st.sampled_from([f"n:{node_id}" for node_id in ids]), max_size=3)))
    inputs = OrderingInputs(seeds, evidence, data.draw(st.integers(0, 5), label="shuffle seed"))
    rendering = format_.render(graph, order_units(graph, seed_region(graph, seeds).units, ordering, layout, inputs))
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)), label="records kept")
    record_of_key = {key: index for index, record in enumerate(rendering.records) for key in record.unit_keys}
    kept = UnitPositions(graph, record_of_key).kept(count)
    decoded = format_.decode(rendering.prefix_text(count))
    assert decoded == kept.as_graph()
    questions = [query(TYPED_NEIGHBOURS, node=seeds[0], relation=graph.edges[0].relation if graph.edges else "r",
                       direction="both"),
                 query(SHORTEST_PATH, source=seeds[0], target=seeds[-1]),
                 query(TAXONOMY_MEMBERS, taxonomy=graph.nodes[0].type)]
    for question in questions:
        assert question.solve(kept).answer == question.solve(decoded).answer


def test_an_edge_without_its_endpoint_s_record_brings_a_stand_in_node():
    graph = Graph.build([Node("a", "service", (("tier", 1),)), Node("b", "database")], [Edge("a", "uses", "b")])
    rendering = FORMATS.get("jsonl").render(graph, order_units(graph, seed_region(graph, ["a"]).units,
                                                               ORDERINGS.get("canonical"), "interleaved",
                                                               OrderingInputs(("a",))))
    keys = [record.unit_keys for record in rendering.records]
    assert keys == [("n:a",), ("n:b",), ("e:a|uses|b",)]
    positions = UnitPositions(graph, {"e:a|uses|b": 0, "n:a": 1, "n:b": 2})
    first = positions.kept(1)
    assert first.nodes == (Node("a", ORPHAN_TYPE), Node("b", ORPHAN_TYPE)) and first.edges == graph.edges
    assert first.node_by_id.get("a") == Node("a", ORPHAN_TYPE) and "c" not in first.node_by_id
    assert positions.kept(2).node_by_id["a"] == graph.nodes[0] and positions.kept(0).nodes == ()


def test_a_solver_on_the_kept_view_reads_the_prefix_only():
    graph = service_graph(12, 14, 7)
    question = query(IMPACT_OWNERS, failed="db-identity")
    gold = question.solve(graph)
    order = sorted(gold.evidence) + sorted({f"n:{node.id}" for node in graph.nodes} - gold.evidence)
    positions = UnitPositions(graph, {key: index for index, key in enumerate(order)})
    assert question.solve(positions.kept(len(order))).answer == gold.answer
    assert question.solve(positions.kept(len(gold.evidence))).answer == gold.answer
    assert question.solve(positions.kept(len(gold.evidence) - 1)).answer != gold.answer


IMAGED = [name for name in FORMATS.names() if not FORMATS.get(name).lossless and FORMATS.get(name).image is not None]


@pytest.mark.parametrize("name", IMAGED)
@cross_product(EXAMPLES, small=15)
@given(graph=graphs(), data=st.data())
def test_a_lossy_format_s_record_prefix_decodes_to_the_image_of_its_kept_units(name, graph, data):
    format_ = FORMATS.get(name)
    ordering = ORDERINGS.get(data.draw(st.sampled_from(["canonical", "shuffled", "bfs_from_seeds"]), label="ordering"))
    layout = data.draw(st.sampled_from([layout for layout in LAYOUTS if layout in layouts_for(format_)]))
    seeds = (graph.nodes[0].id,)
    inputs = OrderingInputs(seeds, frozenset(), data.draw(st.integers(0, 5), label="shuffle seed"))
    rendering = format_.render(graph, order_units(graph, seed_region(graph, seeds).units, ordering, layout, inputs))
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)), label="records kept")
    kept = image_positions(graph, format_, rendering.records).kept(count)
    decoded = format_.decode(rendering.prefix_text(count))
    assert decoded == kept.as_graph()
    question = query(SHORTEST_PATH, source=seeds[0], target=graph.nodes[-1].id)
    assert question.solve(kept).answer == question.solve(decoded).answer


def test_untyped_pairs_keeps_parallel_edges_as_copies_of_one_image():
    graph = Graph.build([Node("a", "service"), Node("b", "database")],
                        [Edge("a", "uses", "b"), Edge("a", "reads", "b")])
    format_ = FORMATS.get("untyped_pairs")
    rendering = format_.render(graph, order_units(graph, seed_region(graph, ["a"]).units, ORDERINGS.get("canonical"),
                                                  "interleaved", OrderingInputs(("a",))))
    positions = image_positions(graph, format_, rendering.records)
    assert [len(positions.kept(count).edges) for count in range(len(rendering.records) + 1)] == [0, 0, 0, 1, 2]
    assert positions.kept(4).as_graph() == format_.decode(rendering.text)
