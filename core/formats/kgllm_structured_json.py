"""kgllm_structured_json: KG-LLM-Bench's structured JSON, as its generator writes it. LOSSY.

`KnowledgeGraphTextPresenter.to_structured_json`: `json.dumps(structured_data, indent=2)` (so with
ensure_ascii: `"C\\u00f4te d'Ivoire"`) of head label -> relation -> [tail labels] over the DiGraph's edges
(`core.formats.kgllm_presenter`); heads and relations in the order of their first edge. On the shared
countries graph the text is the generator's byte for byte. One record per pair, written as the dump
writes it; a node unit writes nothing (its record is empty). The lab's own variant, with ids, types
and properties, is `structured_json`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from core.formats.base import Format, Record, RecordText, Rendering
from core.formats.decoding import decoded_graph, expect_list, expect_object, expect_string, parse_json
from core.formats.kgllm_presenter import LOST_BY_LABEL, Pair, structured_records
from core.graph.model import Edge, Graph
from core.graph.units import Unit

NAME = "kgllm_structured_json"
_HEAD = "\n  "
_RELATION = "\n    "
_TAIL = "\n      "

# The generator's own description of the format (FORMAT_DESCRIPTION["structured_json"]).
GRAMMAR = ("The knowledge graph is presented as a structured JSON format. Each entity is a key, and the value is a "
           "dictionary of relations and objects.")


def _string(text: str) -> str:
    return json.dumps(text)


def _pair_record(head: str, relation: str, pair: Pair, tail: str, place: int) -> Record:
    """place: 0 a later tail of its list, 1 the first tail of a later relation, 2 of a later head, 3 of the first."""
    record = RecordText()
    if place == 0:
        record.add("," + _TAIL)
    else:
        if place >= 2:
            record.add(("\n    ]\n  }," if place == 2 else "") + _HEAD).add(_string(head), "node_id").add(": {")
        else:
            record.add("\n    ],")
        record.add(_RELATION).add(_string(relation), "relation").add(": [" + _TAIL)
    return record.add(_string(tail), "node_id").build(*pair.keys)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    records = structured_records(graph, units, NAME, False, _pair_record)
    return Rendering(NAME, "{", tuple(records), tuple(_closings(records)))


def _closings(records: Sequence[Record]) -> list[str]:
    """"}" while no tail is written, then what closes the last list, head and document."""
    closings = ["}"]
    for record in records:
        closings.append("\n    ]\n  }\n}" if record.text or closings[-1] != "}" else "}")
    return closings


def graph_from_document(document: object) -> Graph:
    """The edges a head -> relation -> [tails] document lists (shared with kgllm_structured_yaml)."""
    edges = []
    for head, relations in expect_object(document, "document").items():
        where = f"head {head!r:.60}"
        head = expect_string(head, where)
        for relation, tails in expect_object(relations, where).items():
            relation = expect_string(relation, f"{where} relation")
            for index, tail in enumerate(expect_list(tails, f"{where}.{relation}")):
                edges.append(Edge(head, relation, expect_string(tail, f"{where}.{relation}[{index}]")))
    return decoded_graph([], edges)


def decode(text: str) -> Graph:
    return graph_from_document(parse_json(text, "document"))


FORMAT = Format(
    name=NAME,
    title="KG-LLM-Bench structured JSON (lossy)",
    lossless=False,
    lost=LOST_BY_LABEL,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"Canada": {"capital": ["Ottawa"], "official language": ["English", "French"]}} (indented)',
)
