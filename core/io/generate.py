"""Seeded graph generators; `service_graph` reproduces the reference benchmark's make_graph exactly.

`GRAPH_GENERATOR_LIST` names the public generators (registered in `GENERATORS` below); each one's
numeric keyword parameters and defaults are read from its signature by `generator_parameters`.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable

from core.errors import ParameterError
from core.graph.model import Edge, Graph, Node, RelationReading, Schema
from core.io.limits import DEFAULT_LIMITS
from core.registry import Registry

# Generated graphs keep the limits of loaded ones: a typo (--services 100000000) is refused at once
# instead of filling memory. PARAMETER_LIMITS gives the largest value of each generator parameter
# (the dashboard's inputs use them); requests that are impossible together are refused up front too.
MAX_NODES = DEFAULT_LIMITS.max_nodes
MAX_EDGES = DEFAULT_LIMITS.max_edges

_CORE_NODES = (
    ("db-identity", "database"),
    ("team-core", "team"),
    ("team-growth", "team"),
    ("svc-web", "service"),
    ("svc-api", "service"),
    ("svc-auth", "service"),
    ("svc-profile", "service"),
)
_CORE_EDGES = (
    ("svc-web", "depends_on", "svc-api"),
    ("svc-api", "depends_on", "svc-auth"),
    ("svc-profile", "depends_on", "svc-auth"),
    ("svc-auth", "depends_on", "db-identity"),
    ("svc-web", "owned_by", "team-growth"),
    ("svc-api", "owned_by", "team-core"),
    ("svc-auth", "owned_by", "team-core"),
    ("svc-profile", "owned_by", "team-growth"),
)


def _check_at_most(values: dict[str, int | float], limits: dict[str, int], generator: str) -> None:
    for name, value in values.items():
        if value > limits[name]:
            raise ParameterError(f"{name} = {value:,} is more than the {generator} generator allows ({limits[name]:,})",
                                 f"{generator}: {name}", f"give {name} at most {limits[name]:,}; generated graphs "
                                 f"keep the import limits ({MAX_NODES:,} nodes, {MAX_EDGES:,} edges)")


def _check_edges(worst_case: int, generator: str, described: str) -> None:
    if worst_case > MAX_EDGES:
        raise ParameterError(f"these parameters can give {worst_case:,} edges ({described}), more than the limit of "
                             f"{MAX_EDGES:,}", generator, "ask for fewer nodes or fewer edges per node")


def service_graph(services: int = 40, noise_edges: int = 80, seed: int = 7) -> Graph:
    """Services, teams and a database with depends_on / owned_by edges plus seeded noise dependencies.

    Four named services carry the question "db-identity fails: who is affected, who owns them?";
    `services - 4` noise services follow, and up to `noise_edges` random service-to-service
    depends_on edges drawn with random.Random(seed), in the reference's order of draws.
    """
    if services < 0 or noise_edges < 0:
        raise ParameterError("services and noise edges cannot be negative",
                             f"services={services}, noise_edges={noise_edges}", "pass 0 or more")
    _check_at_most({"services": services, "noise_edges": noise_edges}, PARAMETER_LIMITS["services"], "services")
    service_count = max(services, 4)  # the four named services are always there
    free_pairs = service_count * (service_count - 1) - _CORE_SERVICE_PAIRS
    if noise_edges > free_pairs:
        raise ParameterError(f"{noise_edges:,} distinct noise edges cannot exist among {service_count:,} services: "
                             f"there are only {free_pairs:,} free ordered pairs", "services: noise_edges",
                             f"ask for at most {free_pairs:,} noise edges, or for more services")
    rng = random.Random(seed)
    nodes = [Node(node_id, node_type) for node_id, node_type in _CORE_NODES]
    nodes.extend(Node(f"svc-noise-{index:04d}", "service") for index in range(max(0, services - 4)))
    all_services = [node.id for node in nodes if node.type == "service"]
    edges = {Edge(*triple) for triple in _CORE_EDGES}
    wanted = len(_CORE_EDGES) + noise_edges
    attempts = 0
    # The reference loop: draw pairs until enough distinct edges exist or the attempts run out.
    while len(edges) < wanted and attempts < noise_edges * 50 + 100:
        attempts += 1
        source = rng.choice(all_services)
        target = rng.choice(all_services)
        if source != target:
            edges.add(Edge(source, "depends_on", target))
    return Graph.build(nodes, edges)


_CORE_SERVICE_PAIRS = sum(1 for source, relation, target in _CORE_EDGES
                          if relation == "depends_on" and target.startswith("svc-"))


# --- learning graphs (CKG-like) ---------------------------------------------------------------------

LEARNING_TAXONOMIES = (
    ("FOUND", "a foundation concept that needs little or nothing before it"),
    ("CORE", "a core concept of the subject"),
    ("METHOD", "a method or technique built on the core concepts"),
    ("TOOL", "a tool or library that applies the methods"),
    ("APPLIED", "an application that combines several of the above"),
)
_TOPIC_WORDS = ("Vector", "Matrix", "Signal", "Graph", "Sample", "Model", "Kernel", "Tensor", "Filter", "Stream",
                "Cache", "Query", "Index", "Gradient", "Token", "Schema", "Network", "Sensor", "Pipeline", "Buffer")
_CONCEPT_WORDS = ("Basics", "Algebra", "Estimation", "Sampling", "Optimisation", "Encoding", "Inference",
                  "Compression", "Scheduling", "Validation", "Search", "Alignment", "Profiling", "Deployment")


def learning_graph(concepts: int = 60, max_prerequisites: int = 3, seed: int = 7) -> Graph:
    """A CKG-shaped learning DAG: concepts "1".."n" typed by taxonomy code, a `label`, `depends_on` edges.

    Taxonomies come in tiers (foundations first, applications last); concept i depends on 1 to
    `max_prerequisites` distinct earlier concepts, so the graph is acyclic. Drawn with random.Random(seed).
    """
    if concepts < 0 or max_prerequisites < 1:
        raise ParameterError("concepts cannot be negative and a concept needs at most 1 or more prerequisites",
                             f"concepts={concepts}, max_prerequisites={max_prerequisites}",
                             "pass concepts >= 0 and max_prerequisites >= 1")
    _check_at_most({"concepts": concepts, "max_prerequisites": max_prerequisites}, PARAMETER_LIMITS["learning"],
                   "learning")
    _check_edges(concepts * min(max_prerequisites, max(concepts - 1, 0)), "learning",
                 f"{concepts:,} concepts with up to {max_prerequisites:,} prerequisites each")
    rng = random.Random(seed)
    labels = _unique_labels(rng, concepts, _TOPIC_WORDS, _CONCEPT_WORDS)
    codes = [code for code, _ in LEARNING_TAXONOMIES]
    nodes = [Node(str(number), codes[(number - 1) * len(codes) // max(concepts, 1)], (("label", labels[number - 1]),))
             for number in range(1, concepts + 1)]
    edges: list[Edge] = []
    for number in range(2, concepts + 1):
        count = rng.randint(1, min(max_prerequisites, number - 1))
        edges.extend(Edge(str(number), "depends_on", str(prerequisite))
                     for prerequisite in sorted(rng.sample(range(1, number), count)))
    schema = Schema(LEARNING_TAXONOMIES, (RelationReading("depends_on", "depends on", "is a prerequisite of"),))
    return Graph.build(nodes, edges, schema)


def _unique_labels(rng: random.Random, count: int, first: tuple[str, ...], second: tuple[str, ...]) -> list[str]:
    labels: list[str] = []
    seen: set[str] = set()
    while len(labels) < count:
        label = f"{rng.choice(first)} {rng.choice(second)}"
        if label in seen:  # past the word pairs' capacity, a number keeps labels unique
            label = f"{label} {len(labels) + 1}"
        seen.add(label)
        labels.append(label)
    return labels


# --- transport networks ------------------------------------------------------------------------------

TRANSPORT_SCHEMA = Schema(
    type_definitions=(
        ("line", "a named route that trains run along, stopping at stations in order"),
        ("station", "a place where passengers board and leave trains"),
        ("zone", "a fare zone; every station lies in exactly one"),
    ),
    relations=(
        RelationReading("serves", "serves", "is served by", ("line",), ("station",)),
        RelationReading("in_zone", "is in zone", "contains", ("station",), ("zone",)),
        RelationReading("next_stop", "is followed by", "follows", ("station",), ("station",)),
    ),
)
_LINE_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "grey", "pink", "brown", "teal")
_PLACE_WORDS = ("Harbour", "Mill", "Abbey", "Castle", "Market", "Bridge", "Chapel", "Garden", "Forge", "Quarry",
                "Meadow", "Orchard", "Beacon", "Tannery", "Foundry", "Brook", "Heath", "Granary")
_PLACE_ENDINGS = ("Cross", "Park", "Road", "Square", "Street", "Hill", "Green", "Gate", "Wharf", "Lane", "Court")


def transport_graph(lines: int = 4, stations_per_line: int = 8, zones: int = 3, interchange_share: float = 0.25,
                    seed: int = 7) -> Graph:
    """A rail network with a schema: lines serve stations in order, stations lie in fare zones.

    Each line makes `stations_per_line` stops; a stop reuses a station of an earlier line (an
    interchange) with probability `interchange_share`, else opens a new one in a random zone.
    Edges: line --serves{stop}--> station, station --next_stop{line}--> station, station --in_zone--> zone.
    The schema reads them as "serves" / "is served by", "is followed by" / "follows", "is in zone" / "contains".
    """
    if not 0 <= lines <= len(_LINE_COLOURS) or stations_per_line < 1 or zones < 1 or not 0 <= interchange_share <= 1:
        raise ParameterError("a transport network needs 0 to 10 lines, 1 or more stops per line and zones, and an "
                             "interchange share between 0 and 1",
                             f"lines={lines}, stations_per_line={stations_per_line}, zones={zones}, "
                             f"interchange_share={interchange_share}", "pass values in those ranges")
    _check_at_most({"stations_per_line": stations_per_line, "zones": zones}, PARAMETER_LIMITS["transport"], "transport")
    _check_edges(3 * lines * stations_per_line, "transport",
                 f"{lines} lines of {stations_per_line:,} stops: up to three edges per stop")
    if lines * stations_per_line + lines + zones > MAX_NODES:
        raise ParameterError(f"these parameters can give {lines * stations_per_line + lines + zones:,} nodes, more than "
                             f"the limit of {MAX_NODES:,}", "transport", "ask for fewer stops or zones")
    rng = random.Random(seed)
    nodes = [Node(f"zone-{number}", "zone", (("name", f"Zone {number}"),)) for number in range(1, zones + 1)]
    names = _unique_labels(rng, lines * stations_per_line, _PLACE_WORDS, _PLACE_ENDINGS)
    stations: list[str] = []
    edges = []
    for colour in _LINE_COLOURS[:lines]:
        line_id = f"line-{colour}"
        nodes.append(Node(line_id, "line", (("colour", colour), ("name", f"{colour.title()} Line"))))
        route: list[str] = []
        for stop in range(1, stations_per_line + 1):
            reusable = [station for station in stations if station not in route]
            if reusable and rng.random() < interchange_share:
                station = rng.choice(reusable)
            else:
                name = names.pop(0)
                station = name.lower().replace(" ", "-")
                stations.append(station)
                nodes.append(Node(station, "station", (("name", name),)))
                edges.append(Edge(station, "in_zone", f"zone-{rng.randint(1, zones)}"))
            edges.append(Edge(line_id, "serves", station, (("stop", stop),)))
            if route:
                edges.append(Edge(route[-1], "next_stop", station, (("line", line_id),)))
            route.append(station)
    return Graph.build(nodes, edges, TRANSPORT_SCHEMA)


# --- typed scale-free graphs ---------------------------------------------------------------------------

SCALE_FREE_TYPES = (("service", 6), ("library", 2), ("database", 1), ("team", 1))  # (type, weight)
SCALE_FREE_RELATIONS = {"service": "calls", "library": "imports", "database": "reads_from", "team": "owned_by"}


def scale_free_graph(edges: int = 10_000, edges_per_node: int = 5, seed: int = 7) -> Graph:
    """A typed graph grown by preferential attachment (Barabási–Albert), with exactly `edges` edges.

    Nodes get a type drawn from SCALE_FREE_TYPES; each new node links to `edges_per_node` distinct
    earlier nodes picked in proportion to their degree, the relation named by the target's type
    (calls a service, imports a library, reads_from a database, owned_by a team). The last node may
    link to fewer so the count is exact. There are about edges / edges_per_node nodes: 200,000 edges
    with the default 5 links per node give about 40,000 nodes, inside the default import limits.
    """
    if edges < 0 or edges_per_node < 1:
        raise ParameterError("edges cannot be negative and each node needs 1 or more links",
                             f"edges={edges}, edges_per_node={edges_per_node}", "pass edges >= 0, edges_per_node >= 1")
    _check_at_most({"edges": edges, "edges_per_node": edges_per_node}, PARAMETER_LIMITS["scale_free"], "scale_free")
    rng = random.Random(seed)
    types = [name for name, _ in SCALE_FREE_TYPES]
    weights = [weight for _, weight in SCALE_FREE_TYPES]
    width = len(str(edges // edges_per_node + edges_per_node))
    nodes: list[Node] = []

    def new_node() -> Node:
        node_type = rng.choices(types, weights)[0]
        node = Node(f"{node_type}-{len(nodes):0{width}d}", node_type)
        nodes.append(node)
        return node

    attachment = [new_node() for _ in range(edges_per_node)]  # each node once per link it has (plus seeds once)
    edge_list: list[Edge] = []
    while len(edge_list) < edges:
        source = new_node()
        targets: dict[str, Node] = {}
        wanted = min(edges_per_node, edges - len(edge_list))
        while len(targets) < wanted:
            target = rng.choice(attachment)
            targets.setdefault(target.id, target)
        for target in targets.values():
            edge_list.append(Edge(source.id, SCALE_FREE_RELATIONS[target.type], target.id))
            attachment.extend((source, target))
    return Graph.build(nodes if edges else [], edge_list)


# The largest value of each generator parameter, by generator name (as the dashboard lists them).
PARAMETER_LIMITS: dict[str, dict[str, int]] = {
    "services": {"services": MAX_NODES, "noise_edges": MAX_EDGES - len(_CORE_EDGES)},
    "learning": {"concepts": MAX_NODES, "max_prerequisites": 1_000},
    "transport": {"stations_per_line": MAX_EDGES // 3, "zones": MAX_NODES},  # lines: 0 to 10, checked by the generator
    "scale_free": {"edges": MAX_EDGES, "edges_per_node": 1_000},
}


def parameter_limit(generator: str, parameter: str) -> int | None:
    """The largest accepted value of a generator's parameter (None where the generator checks it alone: seeds,
    fractions, transport lines)."""
    return PARAMETER_LIMITS.get(generator, {}).get(parameter)


# The public generators by name, in the order the dashboard and the CLI list them (GENERATORS).
GRAPH_GENERATOR_LIST: tuple[tuple[str, Callable[..., Graph]], ...] = (
    ("services", service_graph),
    ("learning", learning_graph),
    ("transport", transport_graph),
    ("scale_free", scale_free_graph),
)

# Seeded graph generators by name, with parameters read from their signatures.
GENERATORS: Registry[Callable[..., Graph]] = Registry("graph generator", GRAPH_GENERATOR_LIST)


def generator_parameters(function: Callable[..., Graph]) -> dict[str, int | float]:
    """Each numeric keyword parameter of a generator and its default, in signature order."""
    return {name: parameter.default for name, parameter in inspect.signature(function).parameters.items()
            if isinstance(parameter.default, (int, float)) and not isinstance(parameter.default, bool)}
