"""flat_json: `json.dumps({"nodes": [...], "edges": [...]}, indent=2)` of the flat records (ISONGraph's JSON).

    {
      "nodes": [
        {
          "id": 1,
          "type": "person",
          "name": "Alice"
        }
      ],
      "edges": [
        {
          "source": 1,
          "target": 2,
          "relation": "follows",
          "since": 2020
        }
      ]
    }

The records are those of `core.formats.flat_records` (id, type, then the properties in the source's
order; whole-number ids as numbers), written as Python's `json.dumps` writes them with its defaults
(`ensure_ascii=True`): the ISONGraph knowledge-graph benchmark's JSON cells are this text, and a test
counts its seven graphs against the published table. Each node and each edge is a record; the closing
ends the lists for any prefix. `flat_compact_json` is the same document with `separators=(",", ":")`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from core.formats.base import AtomKind, Format, Record, RecordText, Rendering, nodes_then_edges, record_memo
from core.formats.decoding import parse_json
from core.formats.flat_records import NESTED, FlatValue, edge_record, node_record, records_graph
from core.graph.model import Graph
from core.graph.units import Unit

NAME = "flat_json"
_KINDS: dict[str, AtomKind] = {"id": "node_id", "type": "node_type", "source": "node_id", "target": "node_id",
                               "relation": "relation"}

GRAMMAR = """\
One JSON object: "nodes" lists each node as {"id", "type", then its properties}; "edges" lists each \
edge as {"source", "target", "relation", then its properties}, meaning source --relation--> target. \
A record whose property is named like one of its fields holds its properties in a "properties" object."""


class Layout:
    """Where json.dumps puts line breaks and spaces, for one indent (None: compact separators)."""

    def __init__(self, indent: int | None) -> None:
        self.indent = indent
        self.colon = ": " if indent else ":"

    def line(self, depth: int) -> str:
        return "\n" + " " * (self.indent * depth) if self.indent else ""

    def preamble(self) -> str:
        return "{" + self.line(1) + '"nodes"' + self.colon + "["

    def item_lead(self, first: bool, depth: int = 2) -> str:
        return ("" if first else ",") + self.line(depth)

    def edges_lead(self, nodes_kept: bool) -> str:
        return (self.line(1) if nodes_kept else "") + "]," + self.line(1) + '"edges"' + self.colon + "["

    def closing(self, nodes_kept: bool, edges_kept: bool) -> str:
        if edges_kept:
            return self.line(1) + "]" + self.line(0) + "}"
        return self.edges_lead(nodes_kept) + "]" + self.line(0) + "}"


def _add_object(record: RecordText, values: Mapping[str, FlatValue], layout: Layout, depth: int, top: bool) -> None:
    record.add("{")
    for index, (key, value) in enumerate(values.items()):
        record.add(layout.item_lead(index == 0, depth + 1))
        kind: AtomKind = _KINDS.get(key, "property_key") if top else "property_key"
        record.add(json.dumps(key), "property_key" if kind == "property_key" else None)
        record.add(layout.colon)
        if isinstance(value, dict) and top and key == NESTED:
            _add_object(record, value, layout, depth + 1, top=False)
        else:
            written = json.dumps(value)
            if isinstance(value, str):
                record.add('"').add(written[1:-1], kind if kind != "property_key" else "property_value").add('"')
            else:
                record.add(written, kind if kind != "property_key" else "property_value")
    record.add(layout.line(depth) + "}")


def _record(values: dict[str, FlatValue], key: str, lead: str, layout: Layout) -> Record:
    record = RecordText().add(lead)
    _add_object(record, values, layout, 2, top=True)
    return record.build(key)


def renderer(name: str, layout: Layout):
    def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
        memo = record_memo(graph, name)  # a record depends on its unit and its lead
        records: list[Record] = []
        closings = [layout.closing(False, False)]
        nodes_kept = edges_kept = False
        for unit in nodes_then_edges(units):
            if unit.is_node:
                lead = layout.item_lead(not nodes_kept)
                nodes_kept = True
            else:
                lead = layout.item_lead(not edges_kept) if edges_kept else layout.edges_lead(nodes_kept) + layout.line(2)
                edges_kept = True
            record = memo.get((unit.key, lead))
            if record is None:
                values = node_record(graph, unit.node) if unit.is_node else edge_record(graph, unit.edge)
                record = memo[unit.key, lead] = _record(values, unit.key, lead, layout)
            records.append(record)
            closings.append(layout.closing(nodes_kept, edges_kept))
        return Rendering(name, layout.preamble(), tuple(records), tuple(closings))

    return render


def decode(text: str) -> Graph:
    return records_graph(parse_json(text))


FORMAT = Format(
    name=NAME,
    title="Flat JSON records (ISONGraph's JSON)",
    lossless=True,
    grammar=GRAMMAR,
    render=renderer(NAME, Layout(2)),
    decode=decode,
    example='{"id": 1, "type": "person", "name": "Alice"} and {"source": 1, "target": 2, "relation": "follows"}',
    interleaves=False,
)
