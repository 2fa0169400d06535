"""Reading a graph from a real FalkorDB server (started on loopback for the session): what goes in comes out."""

from __future__ import annotations

import pytest

from core.errors import LoadError, ParameterError
from core.graph.model import Edge, Graph, Node
from core.io.falkordb_source import DatabaseSource, parse_database_url, read_database
from core.io.generate import service_graph
from core.io.limits import Limits

pytestmark = pytest.mark.timeout(60)


def create_statement(graph: Graph) -> tuple[str, dict]:
    """One CREATE for a whole graph: nodes labelled by type with an `id`, relationships typed by relation."""
    parameters: dict = {}
    parts = []
    for index, node in enumerate(graph.nodes):
        parameters[f"n{index}"] = {"id": node.id, **dict(node.properties)}
        parts.append(f"(n{index}:`{node.type}` $n{index})")
    position = {node.id: index for index, node in enumerate(graph.nodes)}
    for index, edge in enumerate(graph.edges):
        parameters[f"e{index}"] = dict(edge.properties)
        parts.append(f"(n{position[edge.source]})-[:`{edge.relation}` $e{index}]->(n{position[edge.target]})")
    return "CREATE " + ", ".join(parts), parameters


def load_into(server, name: str, graph: Graph) -> None:
    database_graph = server.graph(name)
    query, parameters = create_statement(graph)
    # FalkorDB takes maps as parameters only inside properties: spell each map out instead.
    for key, value in parameters.items():
        query = query.replace(f" ${key})", " {" + ", ".join(f"`{k}`: ${key}_{i}" for i, k in enumerate(value)) + "})")
        query = query.replace(f" ${key}]", " {" + ", ".join(f"`{k}`: ${key}_{i}" for i, k in enumerate(value)) + "}]")
    flat = {f"{key}_{i}": item for key, value in parameters.items() for i, item in enumerate(value.values())}
    database_graph.query(query, flat)


@pytest.fixture(scope="module")
def services(falkordb_server):
    graph = service_graph(12, 20, 3)
    load_into(falkordb_server, "services", graph)
    return graph


def source(server, **settings) -> DatabaseSource:
    return DatabaseSource(server.host, server.port, settings.pop("graph", "services"), **settings)


def test_the_whole_graph_reads_back_as_it_was_written(falkordb_server, services):
    assert read_database(source(falkordb_server)) == services


def test_the_default_query_reads_the_k_hop_neighbourhood_of_the_seeds(falkordb_server, services):
    seeds = ("db-identity",)
    for hops in (0, 1, 2):
        read = read_database(source(falkordb_server, seeds=seeds, hops=hops))
        undirected = services.to_networkx().to_undirected(as_view=True)
        import networkx as nx
        within = set(nx.single_source_shortest_path_length(undirected, "db-identity", cutoff=hops))
        assert {node.id for node in read.nodes} == within
        assert {(e.source, e.relation, e.target) for e in read.edges} == {
            (e.source, e.relation, e.target) for e in services.edges if e.source in within and e.target in within}


def test_properties_labels_and_paths_come_through(falkordb_server):
    graph = falkordb_server.graph("typed")
    graph.query("CREATE (a:service:critical {id: 'a', replicas: 3, load: 0.5, public: true, tags: ['x', 'y']})"
                "-[:calls {weight: 2}]->(b:service {id: 'b'}), (c {name: 'no id'})")
    read = read_database(source(falkordb_server, graph="typed", query="MATCH p = (:service)-[:calls]->() RETURN p"))
    assert read.nodes == (Node("a", "service", (("labels", '["service","critical"]'), ("load", 0.5), ("public", True),
                                                ("replicas", 3), ("tags", '["x","y"]'))), Node("b", "service"))
    assert read.edges == (Edge("a", "calls", "b", (("weight", 2),)),)
    whole = read_database(source(falkordb_server, graph="typed"))
    assert [node.id for node in whole.nodes if node.id.startswith("#")] == ["#2"]  # no id property: internal id


def test_a_relationship_brings_its_endpoints_along(falkordb_server, services):
    read = read_database(source(falkordb_server, query="MATCH ()-[r:owned_by]->() RETURN r"))
    assert {(e.source, e.target) for e in read.edges} == {(e.source, e.target) for e in services.edges
                                                           if e.relation == "owned_by"}
    assert {node.type for node in read.nodes} == {"service", "team"}


def test_counts_over_the_limits_are_refused(falkordb_server, services):
    with pytest.raises(LoadError, match="the limit is 5"):
        read_database(source(falkordb_server), limits=Limits(max_nodes=5))


@pytest.mark.parametrize("settings, words", [
    ({"graph": "nosuch"}, "there is no graph named 'nosuch'; the server has:"),
    ({"query": "MATCH (n RETURN n"}, "the Cypher query failed"),
    ({"query": "CREATE (n) RETURN n"}, "sources are read only"),
    ({"query": "MATCH (n) WHERE n.id = 'none' RETURN n"}, "the query returned no nodes"),
    ({"seeds": ("ghost",)}, "none of the seeds (ghost)"),
])
def test_failures_say_what_and_how_to_fix(falkordb_server, services, settings, words):
    with pytest.raises(LoadError, match="Fix:") as caught:
        read_database(source(falkordb_server, **settings))
    assert words in str(caught.value)


def test_a_server_that_is_not_there_is_a_load_error():
    with pytest.raises(LoadError, match="cannot reach the FalkorDB server"):
        read_database(DatabaseSource("127.0.0.1", 1, "g"))


@pytest.mark.parametrize("url, expected", [
    ("falkordb://127.0.0.1:7000/services", ("127.0.0.1", 7000, "services")),
    ("falkordb://db.example/g", ("db.example", 6379, "g")),
])
def test_database_urls(url, expected):
    parsed = parse_database_url(url)
    assert (parsed.host, parsed.port, parsed.graph) == expected


@pytest.mark.parametrize("url", ["falkordb://h:99999/g", "falkordb://h:1/", "falkordb://user:secret@h:1/g",
                                 "falkordb://h:1/a/b", "http://h:1/g"])
def test_bad_database_urls_are_refused(url):
    with pytest.raises(ParameterError, match="Fix:"):
        parse_database_url(url)
