"""Every file of ../shared/real_graphs: graphs load with their known counts, the rest are refused clearly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from core.errors import LoadError
from core.io import load_graph_file

REAL = Path(__file__).resolve().parents[3].parent / "shared" / "real_graphs"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason="../shared/real_graphs is not on this machine")

GRAPHS = {  # file: (nodes, edges), loaded by detection
    "learning-graphs/nvidia-jetson/learning-graph.csv": (49, 64),
    "knowledge-graphs/tinkerpop/tinkerpop-modern.xml": (6, 6),
    "knowledge-graphs/tinkerpop/grateful-dead.xml": (808, 8049),
    "knowledge-graphs/epl-2013-2014/epl-2013-2014.graphml": (33, 423),
    "awkward/tinkerpop/graph-no-edge-ids.xml": (2, 1),
    "awkward/tinkerpop/tinkerpop-no-edge-labels.xml": (2, 1),
}
WITH_NODES_TABLE = {  # edges file: (nodes, edges) with the nodes.csv beside it
    "microservices/online-boutique/edges.csv": (13, 18),
    "microservices/deathstarbench-hotelreservation/edges.csv": (24, 22),
}
REFUSED = {  # file: what the refusal says
    "awkward/tinkerpop/graph-types.xml": "unsupported type 'nothing-supported-and-goes-to-string'",
    "microservices/online-boutique/nodes.csv": "looks like a nodes table",
    "microservices/deathstarbench-hotelreservation/nodes.csv": "looks like a nodes table",
}
NOT_GRAPHS = {"PROVENANCE.md", "DERIVATION.md", "README.md", "LICENSE", "config.json", "docker-compose.yml",
              "kubernetes-manifests.yaml", "queries_nvidia-jetson.jsonl"}


def every_file() -> list[str]:
    return sorted(str(path.relative_to(REAL)) for path in REAL.rglob("*") if path.is_file()) if REAL.is_dir() else []


def test_every_file_has_an_expected_outcome():
    known = set(GRAPHS) | set(WITH_NODES_TABLE) | set(REFUSED)
    assert [name for name in every_file() if name not in known and Path(name).name not in NOT_GRAPHS] == []


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_graph_files_load_with_their_counts(name):
    graph = load_graph_file(REAL / name)
    assert (len(graph.nodes), len(graph.edges)) == GRAPHS[name]


@pytest.mark.parametrize("name", sorted(WITH_NODES_TABLE))
def test_edge_lists_load_with_their_nodes_tables(name):
    path = REAL / name
    graph = load_graph_file(path, nodes_path=path.with_name("nodes.csv"))
    assert (len(graph.nodes), len(graph.edges)) == WITH_NODES_TABLE[name]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_awkward_files_are_refused_with_a_clear_message(name):
    with pytest.raises(LoadError, match="Fix:") as caught:
        load_graph_file(REAL / name)
    assert REFUSED[name] in str(caught.value) and Path(name).name in str(caught.value)


@pytest.mark.parametrize("name", [name for name in every_file() if Path(name).name in NOT_GRAPHS])
def test_files_that_are_not_graphs_are_refused_not_crashed_on(name):
    with pytest.raises(LoadError):
        load_graph_file(REAL / name)


def test_tinkerpop_modern_keeps_declared_types():
    graph = load_graph_file(REAL / "knowledge-graphs/tinkerpop/tinkerpop-modern.xml")
    marko = graph.node_by_id["1"]
    assert marko.type == "person" and dict(marko.properties) == {"name": "marko", "age": 29}
    knows = [edge for edge in graph.edges if edge.relation == "knows"]
    assert sorted((edge.target, dict(edge.properties)["weight"]) for edge in knows) == [("2", 0.5), ("4", 1.0)]


def test_epl_types_come_from_label_v_and_parallel_edges_stay():
    graph = load_graph_file(REAL / "knowledge-graphs/epl-2013-2014/epl-2013-2014.graphml")
    assert {node.type for node in graph.nodes} == {"Team", "City", "EPL"}
    assert {edge.relation for edge in graph.edges} == {"played", "member", "based", "postponed"}
    pairs = Counter((edge.source, edge.target) for edge in graph.edges)
    assert pairs[("20", "15")] == 2  # played on 7 May 2014 after a postponement on 1 March
    assert dict(graph.node_by_id["2"].properties)["type"] == "Team"  # the other type attribute is a property


def test_grateful_dead_unescapes_ampersands():
    graph = load_graph_file(REAL / "knowledge-graphs/tinkerpop/grateful-dead.xml")
    names = [dict(node.properties)["name"] for node in graph.nodes]
    assert any("&" in name for name in names) and not any("&amp;" in name for name in names)


def test_awkward_edges_without_labels_get_the_default_relation():
    graph = load_graph_file(REAL / "awkward/tinkerpop/tinkerpop-no-edge-labels.xml")
    assert [(edge.relation, dict(edge.properties)) for edge in graph.edges] == [("related_to", {"weight": 0.5})]
    assert {node.type for node in graph.nodes} == {"vertex"}
