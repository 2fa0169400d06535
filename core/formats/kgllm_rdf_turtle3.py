"""kgllm_rdf_turtle3: KG-LLM-Bench's RDF Turtle with entity and relation ids, as its generator writes it. LOSSY.

    ex:R2 a rdf:Property ;
        rdfs:label "capital" .

    ex:2 a ex:Country ;
        rdfs:label "Canada" ;
        ex:R2 ex:9 .

`KnowledgeGraphTextPresenter.to_rdf_turtle3`: an rdflib graph in the namespace
`http://example.org/countries#`, each entity `ex:<quoted id> a ex:Country` with its rdfs:label, each relation
of the table `ex:R<n> a rdf:Property` with its rdfs:label, each DiGraph edge `ex:<source> ex:R<n> ex:<target>`
(`core.formats.kgllm_presenter`), serialized by rdflib's Turtle writer, whose layout and order this module
writes itself: subjects with fewest references as an object first, then by IRI; under a subject rdf:type,
rdfs:label, then the predicates by IRI, their objects by IRI; a name as ex:local where rdflib can split it,
else as <IRI>. On the shared countries graph the text is the generator's byte for byte.

A node's record is its type and label, an edge pair's record its predicate and object under its source;
the relation declarations are always written (the generator declares its whole relation table), between
the records where their IRIs sort, so they stand in the records' leads and the closings. Two choices keep
every subset in one order and one header: the references that order the subjects are counted in the whole
graph, and the prefixes are those the whole graph's text declares (rdflib's text of a subset could
differ in both).
"""

from __future__ import annotations

from collections.abc import Sequence

from rdflib import Literal, URIRef

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering
from core.formats.kgllm_presenter import (
    LOST_RDF,
    NAMESPACE,
    RDF_NAMESPACE,
    RDFS_NAMESPACE,
    Pair,
    digraph_order,
    entity_local,
    graph_from_rdf,
    labels,
    relation_local,
    relation_table,
    subject_rank,
    turtle_name,
)
from core.formats.turtle import _parse
from core.graph.derived import derived
from core.graph.model import Graph
from core.graph.units import NodeUnit, Unit

NAME = "kgllm_rdf_turtle3"
_RDF_TYPE = RDF_NAMESPACE + "type"
_RDFS_LABEL = RDFS_NAMESPACE + "label"

GRAMMAR = ("The knowledge graph is presented as an RDF Turtle format. Each entity ex:<id> has an rdfs:label; each "
           "relation ex:R<n> is an rdf:Property with an rdfs:label; ex:a ex:R<n> ex:b is an edge from a to b.")


def literal(text: str) -> str:
    """rdflib's Literal._quote_encode: a plain literal as its Turtle writer writes it (triple quotes around a newline)."""
    if "\n" in text:
        encoded = text.replace("\\", "\\\\")
        if '"""' in text:
            encoded = encoded.replace('"""', '\\"\\"\\"')
        if encoded[-1] == '"' and encoded[-2] != "\\":
            encoded = encoded[:-1] + "\\" + '"'
        return '"""' + encoded.replace("\r", "\\r") + '"""'
    return '"' + text.replace("\n", "\\n").replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r") + '"'


def _prefixes(graph: Graph) -> str:
    lines = []
    if graph.nodes or relation_table(graph):
        lines.append(f"@prefix ex: <{NAMESPACE}> .\n")
    if relation_table(graph):
        lines.append(f"@prefix rdf: <{RDF_NAMESPACE}> .\n")
    if graph.nodes or relation_table(graph):
        lines.append(f"@prefix rdfs: <{RDFS_NAMESPACE}> .\n")
    return "".join(lines)


def declarations(graph: Graph) -> list[tuple[tuple[int, str], str]]:
    """(rank, text) of each relation's declaration, as a whole statement with its leading line break."""
    def build() -> list[tuple[tuple[int, str], str]]:
        found = []
        for relation, number in relation_table(graph).items():
            local = relation_local(number)
            text = f"\n{turtle_name(local)} a rdf:Property ;\n    rdfs:label {literal(relation)} .\n"
            found.append((subject_rank(graph, NAMESPACE + local, None), text))
        return sorted(found)
    return derived(graph, ("kgllm turtle declarations"), build)


class _Block:
    """One subject's statements: its node unit if given, then its pairs by predicate and object IRI."""

    def __init__(self, graph: Graph, node_id: str, node: NodeUnit | None, pairs: Sequence[Pair]) -> None:
        self.local = entity_local(node_id)
        self.rank = subject_rank(graph, NAMESPACE + self.local, node_id)
        self.node = node
        numbers = relation_table(graph)
        self.pairs = sorted(((relation_local(numbers[pair.relation]), entity_local(pair.target), pair)
                             for pair in pairs), key=lambda item: (NAMESPACE + item[0], NAMESPACE + item[1]))


def _blocks(graph: Graph, units: Sequence[Unit]) -> list[_Block]:
    subjects, lone = digraph_order(units)
    blocks = [_Block(graph, subject.id, subject.node, subject.pairs) for subject in subjects]
    blocks += [_Block(graph, unit.node.id, unit, ()) for unit in lone]
    return sorted(blocks, key=lambda block: block.rank)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    names = labels(graph)
    pending = declarations(graph)
    waiting = 0  # the declarations from here on are not written yet
    records: list[Record] = []
    closings = ["".join(text for _, text in pending) + "\n"]
    for block in _blocks(graph, units):
        lead = " .\n" if records else ""  # ends the block before
        while waiting < len(pending) and pending[waiting][0] < block.rank:
            lead += pending[waiting][1]
            waiting += 1
        rest = " .\n" + "".join(text for _, text in pending[waiting:]) + "\n"
        record = RecordText().add(lead + "\n").add(turtle_name(block.local), "node_id")
        predicate = None  # the predicate of the record before, in this block ("" for the node's)
        if block.node is not None:
            record.add(" a ex:Country ;\n    rdfs:label ").add(literal(names[block.node.node.id]), "property_value")
            records.append(record.build(block.node.key))
            closings.append(rest)
            predicate = ""
        for relation, target, pair in block.pairs:
            if predicate is not None:
                record = RecordText().add(",\n        " if relation == predicate else " ;\n    ")
            if relation != predicate:
                record.add(" " if predicate is None else "").add(turtle_name(relation), "relation").add(" ")
            record.add(turtle_name(target), "node_id")
            records.append(record.build(*pair.keys))
            closings.append(rest)
            predicate = relation
    return Rendering(NAME, _prefixes(graph), tuple(records), tuple(closings))


def _local(node: object, where: str) -> str:
    if not isinstance(node, URIRef) or not str(node).startswith(NAMESPACE):
        raise FormatError(f"{str(node)[:60]!r} is not a name in {NAMESPACE}", where,
                          "write entities as ex:<id> and relations as ex:R<n>")
    return str(node)[len(NAMESPACE):]


def decode(text: str) -> Graph:
    entities: dict[str, str | None] = {}
    relations: dict[str, str] = {}
    named: dict[str, str] = {}
    triples = []
    for subject, predicate, obj in sorted(_parse(text), key=lambda triple: tuple(map(str, triple))):
        where = f"statement about {str(subject)[:60]}"
        local = _local(subject, where)
        if str(predicate) == _RDF_TYPE:
            if str(obj) == RDF_NAMESPACE + "Property":
                relations.setdefault(local, local)
            elif str(obj) == NAMESPACE + "Country":
                entities.setdefault(local, None)
            else:
                raise FormatError(f"the type {str(obj)[:60]} is neither ex:Country nor rdf:Property", where,
                                  "type entities as ex:Country and relations as rdf:Property")
        elif str(predicate) == _RDFS_LABEL:
            if not isinstance(obj, Literal):
                raise FormatError("an rdfs:label is not a literal", where, 'write rdfs:label "text"')
            named[local] = str(obj)
        else:
            triples.append((local, _local(predicate, where), _local(obj, where)))
    for local, label in named.items():
        if local in relations:
            relations[local] = label
        else:
            entities[local] = label
    return graph_from_rdf(entities, relations, triples, "document")


FORMAT = Format(
    name=NAME,
    title="KG-LLM-Bench RDF Turtle, ids (lossy)",
    lossless=False,
    lost=LOST_RDF,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='ex:2 a ex:Country ; rdfs:label "Canada" ; ex:R2 ex:9 .',
)
