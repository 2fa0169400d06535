"""What the kgllm_ formats share: the graph as KG-LLM-Bench's generator sees it.

KG-LLM-Bench (`kg_builder.py`, class `KnowledgeGraphTextPresenter`) writes a `KnowledgeGraph`: entities
(id -> label), a relation table (id -> label) and a networkx DiGraph of edges carrying a relation label
and id. The kgllm_ formats write the given units as that generator writes such a graph:

- an entity is a node; its label is the node's text `label` property, else its id;
- the relation table is the schema's relations in their order, then the graph's other relations by
  name: relation n (from 1) is `R<n>` in the RDF texts, and every relation of the graph is declared,
  whichever units are given, as the generator declares every relation of its table;
- a DiGraph holds one edge per (source, target) pair: the pair's last unit in the given order gives
  its relation, written where its first unit stands; one record carries all the pair's units;
- the DiGraph lists edges source by source: sources in the order of their first unit (the node or one
  of its outgoing edges), each source's pairs in the order of their first unit. Given the nodes in the
  file's order and then the edges in the file's order, that is the DiGraph's own order.

Every prefix of records is then the rendering of its own units (a subject's records stay together and
keep their order; `core.formats.grouping`).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from core.errors import FormatError
from core.formats.base import Record, record_memo
from core.formats.decoding import decoded_graph
from core.formats.untyped_pairs import PLACEHOLDER_TYPE
from core.graph.derived import derived
from core.graph.model import Edge, Graph, Node
from core.graph.units import NodeUnit, Unit

LABEL_KEY = "label"

# What every kgllm_ format loses, as the generator does.
LOST_PAIR = ("a second relation between the same source and target (the generator's networkx DiGraph keeps one "
             "edge per pair: the last relation given, in the place of the first)")
LOST_BY_LABEL = ("node types, node and edge properties, node ids (nodes are named by their `label`, else their "
                 "id, so two nodes sharing a label read as one), nodes with no edge, and " + LOST_PAIR)
LOST_RDF = ("node types (every entity is written as ex:Country), node and edge properties other than the "
            "label, and " + LOST_PAIR + "; decoded nodes get the type \"node\"")


def label_of(node: Node) -> str:
    """The entity label the generator writes: the node's text `label` property, else its id."""
    for key, value in node.properties:
        if key == LABEL_KEY and isinstance(value, str):
            return value
    return node.id


def labels(graph: Graph) -> dict[str, str]:
    """Node id -> label, once per graph."""
    return derived(graph, "kgllm labels", lambda: {node.id: label_of(node) for node in graph.nodes})


class Pair(NamedTuple):
    """One DiGraph edge: a (source, target) pair, its relation (the last unit's) and the units it carries."""

    source: str
    target: str
    relation: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Subject:
    """A source of the DiGraph order: its node unit if given, and its pairs in order."""

    id: str
    node: NodeUnit | None
    pairs: tuple[Pair, ...]


def digraph_order(units: Sequence[Unit]) -> tuple[list[Subject], list[NodeUnit]]:
    """The subjects that have pairs in the DiGraph's order, and the node units of nodes without outgoing pairs."""
    nodes: dict[str, NodeUnit] = {}
    first: dict[str, int] = {}  # subject -> position of its first node or outgoing edge unit
    pairs: dict[tuple[str, str], list] = {}  # (source, target) -> [relation, keys]: insertion order is first use
    for position, unit in enumerate(units):
        if unit.is_node:
            nodes[unit.node.id] = unit
            first.setdefault(unit.node.id, position)
            continue
        edge = unit.edge
        first.setdefault(edge.source, position)
        held = pairs.get((edge.source, edge.target))
        if held is None:
            pairs[edge.source, edge.target] = [edge.relation, [unit.key]]
        else:  # the DiGraph's add_edge on an existing pair: the new relation replaces the old one
            held[0] = edge.relation
            held[1].append(unit.key)
    by_source: dict[str, list[Pair]] = {}
    for (source, target), (relation, keys) in pairs.items():
        by_source.setdefault(source, []).append(Pair(source, target, relation, tuple(keys)))
    subjects = [Subject(source, nodes.get(source), tuple(found))
                for source, found in sorted(by_source.items(), key=lambda item: first[item[0]])]
    alone = [unit for node_id, unit in nodes.items() if node_id not in by_source]
    return subjects, alone


def place_lone_nodes(records: list, lone: Sequence[NodeUnit], targets: Sequence[str | None], empty) -> list:
    """`records` with an empty record for each node without outgoing pairs, put before the first record whose
    pair's target it is (`targets[i]` for records[i]), else at the end; `empty(unit)` builds one."""
    waiting: dict[str, list[NodeUnit]] = {}
    for unit in lone:
        waiting.setdefault(unit.node.id, []).append(unit)
    placed: list = []
    for record, target in zip(records, targets):
        if target is not None and target in waiting:
            placed.extend(empty(unit) for unit in waiting.pop(target))
        placed.append(record)
    placed.extend(empty(unit) for units in waiting.values() for unit in units)
    return placed


@dataclass(frozen=True)
class LabelGroup:
    """One key of the structured texts: a label, the node units of its subjects, its relations' pairs in order."""

    label: str
    nodes: tuple[NodeUnit, ...]
    relations: tuple[tuple[str, tuple[Pair, ...]], ...]


def label_groups(names: dict[str, str], subjects: Sequence[Subject], by_name: bool) -> list[LabelGroup]:
    """`structured_data[head][relation].append(tail)` over the DiGraph's edges: heads and relations in the order
    of their first edge, or sorted by name (`by_name`, as yaml.dump's sort_keys); tails in the DiGraph's order."""
    heads: dict[str, tuple[list[NodeUnit], dict[str, list[Pair]]]] = {}
    for subject in subjects:
        nodes, relations = heads.setdefault(names[subject.id], ([], {}))
        if subject.node is not None:
            nodes.append(subject.node)
        for pair in subject.pairs:
            relations.setdefault(pair.relation, []).append(pair)
    order = sorted(heads) if by_name else list(heads)
    return [LabelGroup(label, tuple(heads[label][0]),
                       tuple((relation, tuple(heads[label][1][relation]))
                             for relation in (sorted(heads[label][1]) if by_name else heads[label][1])))
            for label in order]


# --- the relation table and the RDF names (rdf_turtle3, json_ld3) ---

# IRIs the texts write as names (the generator's own), never fetched: the JSON-LD context is written inline and the
# decoders read the texts themselves, so nothing here reaches the network.
NAMESPACE = "http://example.org/countries#"
RDF_NAMESPACE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS_NAMESPACE = "http://www.w3.org/2000/01/rdf-schema#"
# rdflib writes a name as ex:local when its local part is a name it can split off: this, and not ending in "."
_QNAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.%-]*")


def relation_table(graph: Graph) -> dict[str, int]:
    """Relation -> its number n (from 1), once per graph: the schema's relations first, then the others by name."""
    def build() -> dict[str, int]:
        ordered = [reading.relation for reading in graph.schema.relations] if graph.schema else []
        known = set(ordered)
        ordered += sorted({edge.relation for edge in graph.edges} - known)
        return {relation: number for number, relation in enumerate(dict.fromkeys(ordered), start=1)}
    return derived(graph, "kgllm relation table", build)


def entity_local(node_id: str) -> str:
    """The local part of an entity's IRI, as `urllib.parse.quote(str(entity_id))` writes it."""
    return urllib.parse.quote(node_id)


def relation_local(number: int) -> str:
    return f"R{number}"


def turtle_name(local: str) -> str:
    """How rdflib's Turtle serializer writes the IRI ex:local."""
    if _QNAME.fullmatch(local) and not local.endswith("."):
        return f"ex:{local}"
    return f"<{NAMESPACE}{local}>"


def references(graph: Graph) -> dict[str, int]:
    """Node id -> how many edge triples name it as their object in the whole graph's text (distinct sources)."""
    def build() -> dict[str, int]:
        counts: dict[str, int] = {}
        for _, target in {(edge.source, edge.target) for edge in graph.edges}:
            counts[target] = counts.get(target, 0) + 1
        return counts
    return derived(graph, "kgllm references", build)


def subject_rank(graph: Graph, iri: str, node_id: str | None) -> tuple[int, str]:
    """rdflib's Turtle order of subjects: fewest references as an object first, then by IRI. The references are
    the whole graph's, so that every subset keeps its subjects in one order (relations have none)."""
    return (references(graph).get(node_id, 0) if node_id is not None else 0, iri)


def graph_from_rdf(entities: dict[str, str | None], relations: dict[str, str], triples: list[tuple[str, str, str]],
                   where: str) -> Graph:
    """The graph an rdf_turtle3 or json_ld3 text describes, from its local names.

    entities: local -> label (None for none) of each ex:Country subject; relations: `R<n>` -> its label;
    triples: (subject local, predicate local, object local) of the edges."""
    nodes = []
    for local, label in entities.items():
        node_id = urllib.parse.unquote(local)
        properties = ((LABEL_KEY, label),) if label is not None and label != node_id else ()
        nodes.append(Node(node_id, PLACEHOLDER_TYPE, properties))
    edges = []
    for subject, predicate, target in triples:
        if predicate not in relations:
            raise FormatError(f"the predicate ex:{predicate} is not declared as an rdf:Property", where,
                              "declare each ex:R<n> with `a rdf:Property` and its rdfs:label")
        edges.append(Edge(urllib.parse.unquote(subject), relations[predicate], urllib.parse.unquote(target)))
    return decoded_graph(nodes, edges)


def empty_record(unit: NodeUnit) -> Record:
    """A node unit's record in the list and structured texts, which write no node."""
    return Record("", (unit.key,))


def structured_records(graph: Graph, units: Sequence[Unit], format_name: str, by_name: bool,
                       pair_record: Callable[[str, str, Pair, str, int], Record]) -> list[Record]:
    """The records of a structured text (JSON or YAML: head -> relation -> [tails]) in the generator's order.

    A pair's record depends on its place: 0 a later tail of its relation, 1 the first tail of a later relation,
    2 the first tail of a later head, 3 the document's first tail (`pair_record(head, relation, pair, tail,
    place)` writes it); node units write nothing, and the lone ones go where the generator's graph put them."""
    names = labels(graph)
    memo = record_memo(graph, format_name)
    subjects, lone = digraph_order(units)
    records: list[Record] = []
    targets: list[str | None] = []
    written = False  # has a tail been written: a later head then closes the one before
    for group in label_groups(names, subjects, by_name=by_name):
        records.extend(empty_record(unit) for unit in group.nodes)
        targets.extend(None for _ in group.nodes)
        for relation_index, (relation, pairs) in enumerate(group.relations):
            for pair_index, pair in enumerate(pairs):
                place = 0 if pair_index else 1 if relation_index else 2 if written else 3
                written = True
                record = memo.get((pair, place))
                if record is None:
                    record = memo[pair, place] = pair_record(group.label, relation, pair, names[pair.target], place)
                records.append(record)
                targets.append(pair.target)
    return place_lone_nodes(records, lone, targets, empty_record)
