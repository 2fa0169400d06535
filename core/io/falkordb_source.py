"""A FalkorDB graph as a source: the nodes and relationships a Cypher query returns, through the official client.

`read_database(DatabaseSource(host, port, graph, query, seeds, hops))` runs the query read-only
(GRAPH.RO_QUERY) and collects every node, relationship and path in its result rows. Without a
query it reads the k-hop neighbourhood of the seeds (every node within `hops` hops in either
direction, and the relationships among them), or the whole graph when no seeds are given.

Mapping: a node's id is its `id` property (or the property named by `id_property`) as text; a node
without it is named by its internal id (`#12`); an id of true or false is written as JSON does. Its type is
its first label, further labels are kept in the property `labels` (compact JSON), or in
`falkordb_labels` when the node has a `labels` property of its own (with a notice). A relationship's
type is the relation; properties are kept,
lists and maps as compact JSON text. A relationship whose endpoint the query did not return brings
that node along (one more read-only query). The limits of file imports apply: the node and edge
counts are checked while the rows are read. The password comes from the environment variable
FALKORDB_PASSWORD or is passed in (the dashboard's session-only field); it is never part of a URL,
report or cache key.

Every read is bounded by the whole call's time (`socket_timeout` seconds in all, not per socket read:
a server that drips its reply a byte at a time is cut off) and by the file-size limit (`max_bytes`) on
the bytes received, counted while they arrive (a `--cypher` result of 20 million rows was buffered whole
by the client before any count limit applied).
"""

from __future__ import annotations

import re
import socket
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from core.errors import LoadError, LoadNotice, ParameterError
from core.graph.model import Edge, Graph, Node
from core.io.building import IdSpellings, build_graph, frozen_properties, property_value
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions

SCHEME = "falkordb"
DEFAULT_PORT = 6379
DEFAULT_HOPS = 2
MAX_HOPS = 10
PASSWORD_VARIABLE = "FALKORDB_PASSWORD"
QUERY_TIMEOUT_MS = 60_000
# A server answers the client's hello in milliseconds: one silent this long after connecting never will (a
# silent server was named only after the whole 60 s socket timeout).
FIRST_ANSWER_SECONDS = 10.0
# Safe: used with fullmatch; one character, then one class.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class DatabaseSource:
    """Where the graph is and what to read of it (everything here may be recorded; the password is not here)."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    graph: str = ""
    query: str | None = None  # None: the k-hop neighbourhood of the seeds (or the whole graph without seeds)
    seeds: tuple[str, ...] = ()
    hops: int = DEFAULT_HOPS
    id_property: str = "id"

    def __post_init__(self) -> None:
        if not self.host.strip():
            raise ParameterError("no database host given", "database host", "give the server's host, e.g. 127.0.0.1")
        if not 1 <= self.port <= 65535:
            raise ParameterError(f"port {self.port} is outside 1-65535", "database port",
                                 f"give the server's port (FalkorDB's default is {DEFAULT_PORT})")
        if not self.graph.strip():
            raise ParameterError("no graph name given", "database graph",
                                 "name the graph to read (GRAPH.LIST on the server lists them)")
        if self.query is not None and not self.query.strip():
            raise ParameterError("the Cypher query is empty", "database query",
                                 "write a query that returns nodes and relationships, or leave it out for the default")
        if not 0 <= self.hops <= MAX_HOPS:
            raise ParameterError(f"hops = {self.hops} is outside 0-{MAX_HOPS}", "database hops",
                                 f"give 0 to {MAX_HOPS} hops around the seeds")
        if not _IDENTIFIER.fullmatch(self.id_property):
            raise ParameterError(f"the id property {self.id_property!r} is not a plain property name",
                                 "database id property", "give a name of letters, digits and _")

    @property
    def url(self) -> str:
        return f"{SCHEME}://{self.host}:{self.port}/{self.graph}"

    def cypher(self, limits: Limits) -> tuple[str, dict]:
        """The query to run and its parameters (the default one keeps at most as many rows as the limits allow)."""
        if self.query is not None:
            return self.query, {}
        rows = limits.max_nodes + limits.max_edges + 1
        if not self.seeds:
            return f"MATCH (a) OPTIONAL MATCH (a)-[r]->(b) RETURN a, r, b LIMIT {rows}", {}
        # The hop count cannot be a query parameter in Cypher: it is a checked integer.
        return (f"MATCH (s) WHERE s.{self.id_property} IN $seeds MATCH (s)-[*0..{self.hops}]-(n) "
                "WITH collect(DISTINCT n) AS ns UNWIND ns AS a OPTIONAL MATCH (a)-[r]->(b) WHERE b IN ns "
                f"RETURN a, r, b LIMIT {rows}", {"seeds": list(self.seeds)})


def is_database_url(reference: str) -> bool:
    return reference.lower().startswith(f"{SCHEME}://")


def parse_database_url(url: str, **settings) -> DatabaseSource:
    """`falkordb://HOST:PORT/GRAPH` (port optional) as a DatabaseSource; `settings` fill the other fields."""
    parts = urlsplit(url)
    fix = f"write {SCHEME}://HOST:PORT/GRAPH, e.g. {SCHEME}://127.0.0.1:6379/services"
    if parts.scheme.lower() != SCHEME:
        raise ParameterError(f"{url!r} is not a {SCHEME}:// address", "--graph", fix)
    if parts.password is not None or parts.username is not None:
        raise ParameterError("the address holds a user name or password", "--graph",
                             f"remove it from the address and set the password in the environment variable "
                             f"{PASSWORD_VARIABLE}")
    try:
        port = DEFAULT_PORT if parts.port is None else parts.port  # port 0 is refused, not read as the default
    except ValueError:
        raise ParameterError(f"the port in {url!r} is not a number from 1 to 65535", "--graph", fix) from None
    graph = unquote(parts.path.lstrip("/"))
    if not parts.hostname or not graph or "/" in graph or parts.query or parts.fragment:
        raise ParameterError(f"{url!r} does not name a host and one graph", "--graph", fix)
    return DatabaseSource(parts.hostname, port, graph, **settings)


def read_database(source: DatabaseSource, *, password: str | None = None, options: LoadOptions = DEFAULT_OPTIONS,
                  limits: Limits = DEFAULT_LIMITS, socket_timeout: float = 60.0) -> Graph:
    """The graph the source's query returns; every failure is a LoadError saying what, where and how to fix."""
    # Imported here: only this source needs the client (and its redis dependency).
    import redis
    from falkordb import FalkorDB

    where = source.url
    query, parameters = source.cypher(limits)
    started = time.monotonic()
    guard = _Guard(started + socket_timeout, limits.max_bytes, first_answer=started + FIRST_ANSWER_SECONDS)
    pool = redis.ConnectionPool(connection_class=_guarded_connection(redis.Connection, guard), host=source.host,
                                port=source.port, password=password or None, socket_connect_timeout=min(10.0, socket_timeout),
                                socket_timeout=socket_timeout, decode_responses=True)
    database = None
    try:
        database = FalkorDB(connection_pool=pool)
        graph = database.select_graph(source.graph)
        result = graph.ro_query(query, parameters, timeout=QUERY_TIMEOUT_MS)
        reader = _ResultReader(source, where, options, limits)
        reader.read(result.result_set)
        missing = reader.missing_endpoints()
        if missing:
            found = graph.ro_query("MATCH (n) WHERE ID(n) IN $ids RETURN n", {"ids": sorted(missing)},
                                   timeout=QUERY_TIMEOUT_MS)
            reader.read(found.result_set)
    except redis.exceptions.AuthenticationError as error:
        raise LoadError(f"the FalkorDB server refused the password: {error}", where,
                        f"set the right password in {PASSWORD_VARIABLE} (or the password field)") from None
    except redis.exceptions.TimeoutError:
        first = min(FIRST_ANSWER_SECONDS, socket_timeout)
        raise LoadError(f"the FalkorDB server did not answer in time ({first:g} s for its first answer, "
                        f"{socket_timeout:g} s in all)", where,
                        "check that the server is a FalkorDB server and not overloaded, or read less") from None
    except redis.exceptions.ConnectionError as error:
        raise LoadError(f"cannot reach the FalkorDB server: {error}", where,
                        "start the server, or check the host and port (a local one: redis-server "
                        "--loadmodule falkordb.so)") from None
    except redis.exceptions.ResponseError as error:
        raise _query_error(str(error), source, database, redis.exceptions.RedisError) from None
    except _TooMuch:
        raise LoadError(f"the server's reply is larger than {limits.max_bytes:,} bytes, the limit", where,
                        "read less (a narrower --cypher query, fewer --cypher-hops), or raise the limit (--max-bytes)"
                        ) from None
    except (redis.exceptions.InvalidResponse, redis.exceptions.DataError) as error:
        raise LoadError(f"the server does not answer in the Redis protocol (RESP): {str(error)[:200]}", where,
                        "check the port: it must be a FalkorDB (Redis) server's") from None
    except UnicodeDecodeError as error:
        raise LoadError(f"the database holds text that is not UTF-8 (bytes {error.object[error.start:error.end]!r})",
                        where, "store the graph's text as UTF-8, or leave that property out of the query") from None
    finally:
        pool.disconnect()
    return reader.graph()


@dataclass
class _Guard:
    deadline: float  # time.monotonic() past which no read waits
    max_bytes: int
    received: int = 0
    first_answer: float = float("inf")  # time.monotonic() by which the server must have sent its first byte


class _TooMuch(Exception):
    """More bytes than the limit arrived (not an OSError, so the client passes it up unchanged)."""


class _GuardedSocket:
    """A connected socket whose every receive waits at most until the guard's deadline and counts its bytes."""

    def __init__(self, sock: socket.socket, guard: _Guard) -> None:
        self._sock, self._guard = sock, guard
        self._timeout = sock.gettimeout()  # what the client last asked for

    def settimeout(self, timeout: float | None) -> None:
        self._timeout = timeout

    def gettimeout(self) -> float | None:
        return self._timeout

    def _before_receiving(self) -> None:
        deadline = self._guard.deadline if self._guard.received else min(self._guard.deadline, self._guard.first_answer)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the whole read took longer than its time limit")
        self._sock.settimeout(remaining if self._timeout is None else min(self._timeout, remaining))

    def _counted(self, size: int) -> int:
        self._guard.received += size
        if self._guard.received > self._guard.max_bytes:
            raise _TooMuch
        return size

    def recv(self, size: int, *flags) -> bytes:
        self._before_receiving()
        data = self._sock.recv(size, *flags)
        self._counted(len(data))
        return data

    def recv_into(self, buffer, size: int = 0, *flags) -> int:
        self._before_receiving()
        return self._counted(self._sock.recv_into(buffer, size, *flags))

    def __getattr__(self, name: str):
        return getattr(self._sock, name)


def _guarded_connection(base: type, guard: _Guard) -> type:
    """The client's connection class, its socket wrapped in a _GuardedSocket bound to `guard`."""

    def _connect(self):
        return _GuardedSocket(base._connect(self), guard)

    return type("GuardedConnection", (base,), {"_connect": _connect})


def _query_error(message: str, source: DatabaseSource, database, redis_error: type[Exception]) -> LoadError:
    if "empty key" in message:  # the server's words for a graph that does not exist
        try:
            names = database.list_graphs()
        except redis_error:  # only a hint: the refusal below stands without it
            names = []
        known = f"; the server has: {', '.join(names[:20])}" if names else "; the server has no graphs"
        return LoadError(f"there is no graph named {source.graph!r}{known}", source.url, "name an existing graph")
    if "read-only" in message:
        return LoadError("the query would change the graph; sources are read only", source.url,
                         "write a query that only reads (MATCH ... RETURN ...)")
    if "AUTH" in message or "NOAUTH" in message:
        return LoadError(f"the server wants a password: {message[:200]}", source.url,
                         f"set it in the environment variable {PASSWORD_VARIABLE} (or the password field)")
    return LoadError(f"the Cypher query failed: {message[:300]}", source.url,
                     "check the query (it must return nodes, relationships or paths)")


class _ResultReader:
    """Collects nodes and relationships from result rows, with the count limits checked as they come."""

    def __init__(self, source: DatabaseSource, where: str, options: LoadOptions, limits: Limits) -> None:
        self.source, self.where, self.options, self.limits = source, where, options, limits
        self.nodes: dict[int, Node] = {}
        self.edges: dict[int, tuple[int, str, int, tuple]] = {}
        self.renamed_labels: list[str] = []  # nodes whose further labels went to falkordb_labels
        self.spellings = IdSpellings(where, options, f"once the {source.id_property!r} values are read as text")

    def read(self, rows: Iterable[list]) -> None:
        from falkordb import Edge as DatabaseEdge
        from falkordb import Node as DatabaseNode
        for value in _values(rows):
            if isinstance(value, DatabaseNode) and value.id not in self.nodes:
                self.nodes[value.id] = self._node(value)
            elif isinstance(value, DatabaseEdge) and value.id not in self.edges:
                self.edges[value.id] = self._edge(value)
            else:
                continue
            self.limits.check_counts(len(self.nodes), len(self.edges), self.where)

    def _node(self, value) -> Node:
        where = f"node #{value.id}"
        properties = dict(value.properties)
        identifier = properties.pop(self.source.id_property, None)
        node_id = (f"#{value.id}" if identifier is None
                   else self.spellings.text(identifier, _id_text(property_value(identifier)), where))
        labels = list(value.labels or [])
        if len(labels) > 1:
            if "labels" in properties:  # the node's own property keeps its name; the labels are not dropped
                properties["falkordb_labels"] = labels
                self.renamed_labels.append(node_id)
            else:
                properties["labels"] = labels
        node_type = labels[0] if labels else self.options.default_node_type
        values = {str(key): property_value(item) for key, item in properties.items()}
        self._check_texts(node_id, node_type, values, where)
        return Node(node_id, node_type, frozen_properties(values, self.where, where))

    def _edge(self, value) -> tuple[int, str, int, tuple]:
        values = {str(key): property_value(item) for key, item in value.properties.items()}
        relation = value.relation or self.options.default_relation
        where = f"relationship #{value.id}"
        self._check_texts("", relation, values, where)
        return (_node_key(value.src_node), relation, _node_key(value.dest_node),
                frozen_properties(values, self.where, where))

    def _check_texts(self, identifier: str, kind: str, values: dict, where: str) -> None:
        """--max-string-length, as for files: every id, type, relation, key and text value."""
        for text in (identifier, kind, *values, *(item for item in values.values() if isinstance(item, str))):
            self.limits.check_string(str(text), self.where, where)

    def missing_endpoints(self) -> set[int]:
        return {end for start, _, stop, _ in self.edges.values() for end in (start, stop)} - set(self.nodes)

    def graph(self) -> Graph:
        if not self.nodes:
            what = (f"none of the seeds ({', '.join(self.source.seeds)[:200]}) is a node's "
                    f"{self.source.id_property!r}" if self.source.query is None and self.source.seeds
                    else "the query returned no nodes")
            raise LoadError(what, self.where, "check the graph name, the seeds or the query "
                                              "(it must RETURN nodes, relationships or paths)")
        missing = self.missing_endpoints()
        if missing:
            raise LoadError(f"{len(missing)} relationship endpoint(s) could not be read", self.where,
                            "run the query again; the graph may have changed meanwhile")
        edges = [Edge(self.nodes[start].id, relation, self.nodes[stop].id, properties)
                 for start, relation, stop, properties in self.edges.values()]
        self.spellings.notice()
        if self.renamed_labels:
            shown = ", ".join(map(repr, self.renamed_labels[:5])) + (", ..." if len(self.renamed_labels) > 5 else "")
            warnings.warn(LoadNotice(f"{self.where}: {len(self.renamed_labels):,} node(s) with several labels have a "
                                     f"'labels' property of their own ({shown}): their labels are in "
                                     "'falkordb_labels'"), stacklevel=2)
        return build_graph(self.nodes.values(), edges, self.where, self.options, limits=self.limits)


def _id_text(value: object) -> str:
    """A node id as text: true and false as JSON writes them (Python's str gives "True")."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _node_key(end) -> int:
    return end if isinstance(end, int) else end.id


def _values(rows: Iterable[list]) -> Iterator[object]:
    """Every value of the rows, with paths and lists opened up (a path's nodes and relationships)."""
    from falkordb import Path as DatabasePath
    for row in rows:
        stack = list(reversed(row))
        while stack:
            value = stack.pop()
            if isinstance(value, DatabasePath):
                stack.extend(reversed(value.nodes() + value.edges()))
            elif isinstance(value, list):
                stack.extend(reversed(value))
            elif value is not None:
                yield value
