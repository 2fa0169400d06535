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


class FakeServer:
    """A loopback TCP server answering every connection with `reply`, a byte every `gap` seconds (gap 0: at
    once; reply None: never answers), or relaying to `upstream` a byte every `gap` seconds."""

    def __init__(self, reply: bytes | None = None, gap: float = 0.0, upstream: tuple[str, int] | None = None) -> None:
        import socket
        import threading

        self.reply, self.gap, self.upstream = reply, gap, upstream
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.stopped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection) -> None:
        import socket

        with connection:
            try:
                while not self.stopped.is_set():
                    request = connection.recv(65536)
                    if not request:
                        return
                    if self.upstream is not None:
                        with socket.create_connection(self.upstream) as upstream:
                            upstream.sendall(request)
                            upstream.settimeout(2)
                            answer = upstream.recv(1 << 20)
                    else:
                        answer = self.reply
                    if answer is None:
                        self.stopped.wait(60)
                        return
                    for index in range(len(answer)):
                        if self.gap and self.stopped.wait(self.gap):
                            return
                        connection.sendall(answer[index:index + 1] if self.gap else answer[index:])
                        if not self.gap:
                            break
            except OSError:
                return

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


@pytest.mark.parametrize("kind", ["silent", "dripping"])
def test_a_server_that_drips_or_stays_silent_is_cut_off_by_the_total_time(falkordb_server, services, kind):
    """D3: a reply relayed at a byte per second ran past 60 s; a silent server took 66 s to be named."""
    import time

    fake = (FakeServer(None) if kind == "silent"
            else FakeServer(gap=0.05, upstream=(falkordb_server.host, falkordb_server.port)))
    try:
        started = time.perf_counter()
        with pytest.raises(LoadError, match=r"did not answer in time \(1 s for its first answer, 1 s in all\)"):
            read_database(DatabaseSource("127.0.0.1", fake.port, "services"), socket_timeout=1.0)
        assert time.perf_counter() - started < 3.0
    finally:
        fake.close()


def test_a_server_that_does_not_speak_resp_is_a_load_error():
    """D9: a server answering "\\x00\\xffNOT RESP AT ALL" gave redis' InvalidResponse as a traceback."""
    fake = FakeServer(b"\x00\xffNOT RESP AT ALL\r\n")
    try:
        with pytest.raises(LoadError, match=r"does not answer in the Redis protocol \(RESP\)"):
            read_database(DatabaseSource("127.0.0.1", fake.port, "g"), socket_timeout=5.0)
    finally:
        fake.close()


def test_text_that_is_not_utf8_is_a_load_error(falkordb_server):
    """D8: bytes that are not UTF-8 in a property raised UnicodeDecodeError from the redis client."""
    import redis

    redis.Redis(host=falkordb_server.host, port=falkordb_server.port).execute_command(
        "GRAPH.QUERY", "h_surr", b"CREATE (:A {id:'s1', v:'x\xed\xa0\x80y'})-[:R]->(:A {id:'s2', v:'\xff\xfe'})")
    with pytest.raises(LoadError, match="the database holds text that is not UTF-8"):
        read_database(source(falkordb_server, graph="h_surr"))


def test_a_cypher_result_past_the_byte_limit_is_refused_while_it_arrives(falkordb_server, services):
    """D10: UNWIND range(1, 20000000) was buffered whole (3.5 GB) before any limit applied."""
    with pytest.raises(LoadError, match="the server's reply is larger than 100,000 bytes"):
        read_database(source(falkordb_server, query="UNWIND range(1, 200000) AS x RETURN x"),
                      limits=Limits(max_bytes=100_000))


def test_labels_of_a_node_with_its_own_labels_property_are_kept(falkordb_server):
    """D16: CREATE (:A:B:C {id:'m', labels:'clash'}) lost labels B and C silently."""
    from core.errors import LoadNotice

    falkordb_server.graph("clash").query("CREATE (:A:B:C {id:'m', labels:'clash'})")
    with pytest.warns(LoadNotice, match="their labels are in 'falkordb_labels'"):
        read = read_database(source(falkordb_server, graph="clash"))
    assert read.nodes == (Node("m", "A", (("falkordb_labels", '["A","B","C"]'), ("labels", "clash"))),)


def test_the_string_length_limit_applies_to_database_values(falkordb_server):
    """D19: a 1,000,000-character property was accepted even with --max-string-length 1000."""
    falkordb_server.graph("long").query("CREATE (:A {id:'a', v: $v})", {"v": "x" * 5_000})
    with pytest.raises(LoadError, match="a text value is too long: 5,000 characters, the limit is 1,000"):
        read_database(source(falkordb_server, graph="long"), limits=Limits(max_string_length=1_000))


def test_an_id_of_true_is_written_as_json_writes_it(falkordb_server):
    """D27: id: true became the node id "True" (Python's spelling)."""
    falkordb_server.graph("booleans").query("CREATE (:A {id: true})-[:R]->(:A {id: false})")
    assert [node.id for node in read_database(source(falkordb_server, graph="booleans")).nodes] == ["false", "true"]


def test_port_zero_is_refused_not_read_as_the_default():
    """D24: falkordb://127.0.0.1:0/air silently became port 6379."""
    with pytest.raises(ParameterError, match="port 0 is outside 1-65535"):
        parse_database_url("falkordb://127.0.0.1:0/air")


def test_a_silent_server_is_named_within_the_first_answer_bound(monkeypatch):
    """D3: a server that accepts and never answers was named after 66 s; its first byte is due within seconds."""
    import time

    from core.io import falkordb_source

    monkeypatch.setattr(falkordb_source, "FIRST_ANSWER_SECONDS", 1.0)
    silent = FakeServer(None)
    try:
        started = time.perf_counter()
        with pytest.raises(LoadError, match=r"did not answer in time \(1 s for its first answer, 60 s in all\)"):
            read_database(DatabaseSource("127.0.0.1", silent.port, "g"))  # the default 60 s in all
        assert time.perf_counter() - started < 5.0
    finally:
        silent.close()


def test_a_number_and_its_text_as_ids_are_refused_naming_both(falkordb_server):
    """Issue 48: ids are never merged silently; `id: 1` and `id: '1'` were both node "1"."""
    falkordb_server.graph("spellings").query("CREATE (:A {id: 1})-[:R]->(:A {id: '1'})")
    with pytest.raises(LoadError, match=r"two ids become the same node '1': 1 \(node #\d\) and '1' \(node #\d\)"):
        read_database(source(falkordb_server, graph="spellings"))
