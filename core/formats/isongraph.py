"""isongraph: a graph as ison-graph 1.4.0's ISONGraph.to_ison() writes it: a block per node type and per relation.

    edges.follows
    since source target
    2020 :person:1 :person:2

    nodes.person
    id age name
    1 28 Alice
    2 34 Bob

A node type is a `nodes.<type>` block, its columns `id` then the properties of its nodes (sorted by UTF-8
bytes); a relation is an `edges.<relation>` block of `source` and `target` references `:<type>:<id>` and
the properties of its edges, all its columns sorted. Blocks come in the package's canonical order (by
`kind.name`, so the edge blocks first); the rows of a block in the order the units are given (the package
sorts them: given its order, the text is its byte for byte). A record is a row; the first row of a block
writes the block's header, so every prefix is a document. Cells are the package's, guarded as
`core.formats.ison_cells` says.

Names the package cannot hold are written so that they read back: a type or relation that is no block name
(empty, whitespace, a non-printable character, `:`, `|`, `"`, `\\`, or starting with `~`) and an id that
cannot stand in a reference (empty, whitespace, a non-printable character, starting with `~`) are written
`~` and their percent-encoded UTF-8 (`~a%20b`). ISONGraph is a simple graph: parallel edges are repeated
rows, which this decoder reads as parallel edges and ISONGraph.from_ison refuses.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from urllib.parse import quote, unquote

import ison_parser

from core.errors import FormatError
from core.formats.base import AtomKind, Format, Record, RecordText, Rendering, memo_table, record_memo
from core.formats.flat_records import records_graph, written_id
from core.formats.ison_cells import NESTED, cell, parse, read_properties, record_values
from core.graph.model import Graph
from core.graph.units import Unit

NAME = "isongraph"
_ESCAPED = "~"
_BLOCK_FORBIDDEN = set(':|"\\')
_NODE_FIELDS, _EDGE_FIELDS = ("id",), ("source", "target")
_KINDS: dict[str, AtomKind] = {"id": "node_id", "source": "node_id", "target": "node_id"}

GRAMMAR = """\
ISONGraph. A `nodes.<type>` block lists nodes of that type: a line naming the columns (id, then \
properties), then one row per node. An `edges.<relation>` block lists edges: source and target are \
references :<type>:<id>, each row an edge source --relation--> target. Cells are separated by spaces; a \
quoted cell is text, null means no such property, a `properties` cell holds properties as a JSON object. \
A name written ~ then %XX is percent-encoded."""


def _plain(name: str, forbidden: set[str]) -> bool:
    return bool(name) and name.isprintable() and not name.startswith(_ESCAPED) \
        and not any(char.isspace() or char in forbidden for char in name)


def written_name(name: str) -> str:
    """A type or relation as its block's name (also the type in a reference)."""
    return name if _plain(name, _BLOCK_FORBIDDEN) else _ESCAPED + quote(name, safe="")


def written_reference_id(node_id: str) -> str:
    """A node id as it stands in a reference `:type:id` (which has no quoting)."""
    return node_id if _plain(node_id, set()) else _ESCAPED + quote(node_id, safe="")


def _read_name(written: str) -> str:
    return unquote(written[1:], errors="strict") if written.startswith(_ESCAPED) else written


def _sorted_columns(columns: list[str]) -> tuple[str, ...]:
    return tuple(ison_parser.Serializer._sort_fields_canonical(columns))  # the package's canonical column order


def _block(unit: Unit) -> tuple[str, str]:
    return ("nodes", unit.node.type) if unit.is_node else ("edges", unit.edge.relation)


def _properties(unit: Unit) -> dict:
    if unit.is_node:
        return record_values(unit.node.properties, _NODE_FIELDS)
    return record_values(unit.edge.properties, _EDGE_FIELDS)


def _layout(memo: dict[Hashable, Record], graph: Graph) -> dict[tuple[str, str], tuple[str, tuple[str, ...]]]:
    """For each block (kind, name) of the graph: its header line and its columns, in the package's order."""
    def build() -> dict[tuple[str, str], tuple[str, tuple[str, ...]]]:
        keys: dict[tuple[str, str], set[str]] = {}
        for node in graph.nodes:
            keys.setdefault(("nodes", node.type), set()).update(record_values(node.properties, _NODE_FIELDS))
        for edge in graph.edges:
            keys.setdefault(("edges", edge.relation), set()).update(record_values(edge.properties, _EDGE_FIELDS))
        headers = {block: f"{block[0]}.{written_name(block[1])}" for block in keys}
        return {block: (headers[block], _sorted_columns(list(_NODE_FIELDS if block[0] == "nodes" else _EDGE_FIELDS)
                                                        + sorted(names)))
                for block, names in sorted(keys.items(), key=lambda item: headers[item[0]])}
    return memo_table(memo, "blocks", build)


def _reference(graph: Graph, node_id: str) -> str:
    return f":{written_name(graph.node_by_id[node_id].type)}:{written_reference_id(node_id)}"


def _row(graph: Graph, unit: Unit, columns: tuple[str, ...], lead: str) -> Record:
    values = _properties(unit)
    if unit.is_node:
        values["id"] = written_id(graph, unit.node.id)
    record = RecordText().add(lead)
    for index, column in enumerate(columns):
        record.add(" " if index else "")
        if not unit.is_node and column in _EDGE_FIELDS:
            endpoint = unit.edge.source if column == "source" else unit.edge.target
            record.add(_reference(graph, endpoint), "node_id")
        else:
            record.add(cell(values.get(column)), _KINDS.get(column, "property_value"))
    return record.build(unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a row depends on its unit, its block's columns and whether it opens the block
    layout = _layout(memo, graph)
    order = {block: index for index, block in enumerate(layout)}
    ordered = sorted(units, key=lambda unit: order[_block(unit)])  # stable: the given order within a block
    records: list[Record] = []
    current = None
    for unit in ordered:
        block = _block(unit)
        header, columns = layout[block]
        lead = "\n"
        if block != current:
            lead = ("\n\n" if records else "") + header + "\n" + " ".join(columns) + "\n"
            current = block
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _row(graph, unit, columns, lead)
        records.append(record)
    return Rendering(NAME, "", tuple(records), ("",) * (len(records) + 1))


def _name_of(written: str, where: str) -> str:
    try:
        return _read_name(written)
    except UnicodeDecodeError:
        raise FormatError(f"the %-escapes in {written[:60]!r} are not UTF-8", where,
                          "percent-encode the UTF-8 bytes of each character") from None


def _endpoint(value: object, where: str) -> tuple[str, str]:
    if not isinstance(value, ison_parser.Reference) or value.type is None:
        raise FormatError(f"expected a reference :type:id, found {value!r:.40}", where, "write :<type>:<id>")
    return _name_of(value.id, where), _name_of(value.type, where)


def decode(text: str) -> Graph:
    document = parse(text)
    nodes: list[dict] = []
    edges: list[tuple[dict, list[tuple[str, str]], str]] = []
    for block in document.blocks:
        where = f"block {block.kind}.{block.name}"
        if block.kind not in ("nodes", "edges"):
            raise FormatError(f"unexpected {where[:80]}", where, "write nodes.<type> and edges.<relation> blocks only")
        name = _name_of(block.name, where)
        fields = _NODE_FIELDS if block.kind == "nodes" else _EDGE_FIELDS
        missing = [field for field in fields if field not in block.fields]
        if missing:
            raise FormatError(f"{where[:80]} has no column {missing[0]}", where, f"name the columns {', '.join(fields)}")
        for index, row in enumerate(block.rows):
            row_where = f"{where}, row {index + 1}"
            properties = read_properties(row, fields, row_where)
            if block.kind == "nodes":
                nodes.append(_flat({"id": row["id"], "type": name}, properties))
            else:
                ends = [_endpoint(row[field], row_where) for field in _EDGE_FIELDS]
                edges.append((properties, ends, name))
    types = {str(node["id"]): node["type"] for node in nodes if isinstance(node["id"], (str, int))}
    flat_edges = []
    for properties, ends, relation in edges:
        for node_id, node_type in ends:
            if node_id in types and types[node_id] != node_type:
                raise FormatError(f"a reference names node {node_id!r:.40} as a {node_type!r:.40}, its block says "
                                  f"{types[node_id]!r:.40}", f"edges.{relation[:40]}", "reference a node by its type")
        flat_edges.append(_flat({"source": ends[0][0], "target": ends[1][0], "relation": relation}, properties))
    return records_graph({"nodes": nodes, "edges": flat_edges})


def _flat(record: dict, properties: dict) -> dict:
    """A flat record (core.formats.flat_records) of these fields and properties."""
    return {**record, NESTED: properties} if any(key in record for key in properties) else {**record, **properties}


FORMAT = Format(
    name=NAME,
    title="ISONGraph blocks",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="edges.depends_on\nsource target\n:service:svc-api :service:svc-auth",
    interleaves=False,
)
