"""kgllm_json_ld3: KG-LLM-Bench's JSON-LD with entity and relation ids, as its generator writes it. LOSSY.

`KnowledgeGraphTextPresenter.to_json_ld3`: the rdflib graph of `kgllm_rdf_turtle3`, serialized by
rdflib's JSON-LD writer with the generator's context (which it nests in a second "@context"), indent 2,
keys sorted, Unicode kept: one node object per subject in "@graph", each property's objects as one
{"@id": ...} or a list of them, names compacted as "ex:<local>". rdflib lists the subjects, and the
objects of a property, in an order that changes with Python's hash seed; this module writes them in the
Turtle writer's order (`kgllm_rdf_turtle3`), objects by IRI. On the shared countries graph the text is
then the same RDF graph as the generator's (rdflib finds them isomorphic) and the same o200k token
count; a document of one subject keeps its "@graph" list, where rdflib would merge it into the top
object, so that every subset keeps one shape.

Records: per subject, one per property (its whole list: one object or a list is a change of shape),
then the node's label and type (the last keys, as sorted); the relation declarations are always written,
in the records' leads and the closings, as in kgllm_rdf_turtle3.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import groupby

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering
from core.formats.decoding import expect_list, expect_object, expect_string, parse_json
from core.formats.kgllm_presenter import (
    LOST_RDF,
    NAMESPACE,
    RDF_NAMESPACE,
    RDFS_NAMESPACE,
    graph_from_rdf,
    labels,
    relation_local,
    relation_table,
    subject_rank,
)
from core.formats.kgllm_rdf_turtle3 import _blocks
from core.graph.derived import derived
from core.graph.model import Graph
from core.graph.units import Unit

NAME = "kgllm_json_ld3"
CONTEXT = {"@context": {"ex": NAMESPACE, "rdf": RDF_NAMESPACE, "rdfs": RDFS_NAMESPACE, "label": "rdfs:label",
                        "type": "@type"}}
PREAMBLE = '{\n  "@context": ' + json.dumps(CONTEXT, indent=2, sort_keys=True).replace("\n", "\n  ") + ',\n  "@graph": ['
_OPEN = "\n    {\n      "
_MEMBER = ",\n      "
_CLOSE = "\n    }"
_END = "\n  ]\n}"

GRAMMAR = ("The knowledge graph is presented as JSON-LD. Each entity ex:<id> has a label; each relation ex:R<n> is "
           'an rdf:Property with a label; "ex:R<n>": {"@id": "ex:b"} under ex:a is an edge from a to b.')


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def declarations(graph: Graph) -> list[tuple[tuple[int, str], str]]:
    """(rank, node object text without a leading comma) of each relation's declaration."""
    def build() -> list[tuple[tuple[int, str], str]]:
        found = []
        for relation, number in relation_table(graph).items():
            local = relation_local(number)
            text = (_OPEN + '"@id": ' + _string("ex:" + local) + _MEMBER + '"label": ' + _string(relation)
                    + _MEMBER + '"type": "rdf:Property"' + _CLOSE)
            found.append((subject_rank(graph, NAMESPACE + local, None), text))
        return sorted(found)
    return derived(graph, "kgllm json-ld declarations", build)


def _value(targets: list[str]) -> str:
    if len(targets) == 1:
        return '{\n        "@id": ' + _string("ex:" + targets[0]) + "\n      }"
    return "[" + ",".join('\n        {\n          "@id": ' + _string("ex:" + target) + "\n        }"
                          for target in targets) + "\n      ]"


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    names = labels(graph)
    pending = declarations(graph)
    waiting = 0  # the declarations from here on are not written yet
    written = False  # is a node object written (the next one follows a comma)
    records: list[Record] = []
    closings = ["".join(("," if index else "") + text for index, (_, text) in enumerate(pending))
                + (_END if pending else "]\n}")]
    for block in _blocks(graph, units):
        lead = _CLOSE if records else ""  # ends the object before
        while waiting < len(pending) and pending[waiting][0] < block.rank:
            lead += ("," if written else "") + pending[waiting][1]
            waiting += 1
            written = True
        lead += ("," if written else "") + _OPEN + '"@id": '
        written = True
        rest = _CLOSE + "".join("," + text for _, text in pending[waiting:]) + _END
        record = RecordText().add(lead).add(_string("ex:" + block.local), "node_id")
        for relation, pairs in groupby(block.pairs, key=lambda item: item[0]):
            found = list(pairs)
            record.add(_MEMBER).add(_string("ex:" + relation), "relation").add(": " + _value([t for _, t, _ in found]))
            records.append(record.build(*(key for _, _, pair in found for key in pair.keys)))
            closings.append(rest)
            record = RecordText()
        if block.node is not None:
            record.add(_MEMBER + '"label": ').add(_string(names[block.node.node.id]), "property_value")
            records.append(record.add(_MEMBER + '"type": "ex:Country"').build(block.node.key))
            closings.append(rest)
    return Rendering(NAME, PREAMBLE, tuple(records), tuple(closings))


_FIX = 'write {"@context": ..., "@graph": [{"@id": "ex:<id>", "label": ..., "type": "ex:Country", ...}, ...]}'


def _local(value: object, where: str) -> str:
    name = expect_string(value, where)
    if not name.startswith("ex:"):
        raise FormatError(f"the name {name[:60]!r} is not ex:<local>", where, _FIX)
    return name[3:]


def decode(text: str) -> Graph:
    document = expect_object(parse_json(text, "document"), "document")
    if "@context" not in document:
        raise FormatError("the document has no @context", "document", _FIX)
    objects = expect_list(document["@graph"], "@graph") if "@graph" in document else (
        [{key: value for key, value in document.items() if key != "@context"}] if "@id" in document else [])
    if set(document) - {"@context", "@graph"} and "@graph" in document:
        raise FormatError("the document holds members beside @context and @graph", "document", _FIX)
    entities: dict[str, str | None] = {}
    relations: dict[str, str] = {}
    triples = []
    for index, item in enumerate(objects):
        where = f"@graph[{index}]"
        item = expect_object(item, where)
        if "@id" not in item:
            raise FormatError("a node object has no @id", where, _FIX)
        local = _local(item["@id"], f"{where}.@id")
        label = expect_string(item["label"], f"{where}.label") if "label" in item else None
        kind = item.get("type")
        if kind == "rdf:Property":
            relations[local] = label if label is not None else local
        elif kind == "ex:Country":
            entities[local] = label
        elif kind is not None:
            raise FormatError(f"the type {str(kind)[:60]!r} is neither ex:Country nor rdf:Property", f"{where}.type",
                              _FIX)
        for key, value in item.items():
            if key in ("@id", "label", "type"):
                continue
            predicate = _local(key, f"{where} key")
            for position, target in enumerate(value if isinstance(value, list) else [value]):
                target = expect_object(target, f"{where}.{key}[{position}]")
                if set(target) != {"@id"}:
                    raise FormatError("an object of a property is not {\"@id\": ...}", f"{where}.{key}", _FIX)
                triples.append((local, predicate, _local(target["@id"], f"{where}.{key}[{position}]")))
    return graph_from_rdf(entities, relations, triples, "document")


FORMAT = Format(
    name=NAME,
    title="KG-LLM-Bench JSON-LD, ids (lossy)",
    lossless=False,
    lost=LOST_RDF,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"@id": "ex:2", "ex:R2": {"@id": "ex:9"}, "label": "Canada", "type": "ex:Country"} in "@graph"',
)
