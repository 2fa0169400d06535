"""toon: TOON (Token-Oriented Object Notation) as the toon-format package writes the flat records.

    nodes[2]{id,type,name,age}:
      1,person,Alice,28
      2,person,Bob,34
    edges[1]{source,target,relation,since}:
      1,2,follows,2020

The document is `toon_format.encode({"nodes": [...], "edges": [...]})` of the flat records of
`core.formats.flat_records` (id, type, then each property as its own field; source, target, relation,
then properties), byte for byte, in the order the units are given: a section whose records all have the
same fields is a tabular array with a `{fields}` header (in its first record's order, across the whole
graph; a nested `properties` object with the same fields in every record folds into it as
`properties{a,b}`, as the package folds it), any other a list of `- key: value` items; an empty graph section is `nodes: []`. The ISONGraph
benchmark's TOON cells are this text (a test counts its seven graphs against the published table).

Every header's `[N]` counts the rows the document holds, so every record prefix is strict TOON
(`Rendering.declared_counts` writes a cut's headers with its own counts); the decoder is strict.

Lossy in one respect, as TOON writes numbers: a decimal with a whole value (8891.0) is written as the
integer 8891 and reads back as one, and -0.0 as 0.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

import toon_format

from core.errors import FormatError
from core.formats.base import AtomKind, Format, Record, RecordText, Rendering, nodes_then_edges, record_memo
from core.formats.flat_records import Field, FlatValue, edge_record, node_record, records_graph, section_fields
from core.graph.model import Edge, Graph, Node, PropertyValue
from core.graph.units import Unit

NAME = "toon"
_ROW = "\n  "
_KINDS: dict[str, AtomKind] = {"id": "node_id", "type": "node_type", "source": "node_id", "target": "node_id", "relation": "relation"}

GRAMMAR = """\
TOON. nodes[N]{id,type,...}: then one indented row per node, its values in the header's order; \
edges[M]{source,target,relation,...}: then one row per edge: source --relation--> target. N and M \
count the rows. A section whose records differ in their fields lists each as "- key: value" lines. \
Fields after type (after relation) are properties. Cells are comma-separated; a quoted cell is a string."""


def cell(value: PropertyValue) -> str:
    """One cell as the package writes it in a comma-delimited row."""
    return toon_format.dumps([value])[len("[1]: "):]


def _fields_text(fields: tuple[Field, ...]) -> str:
    """`{a,b}` (or `{a,properties{b,c}}`) as the package writes a tabular header's fields (quoting where needed)."""
    record = dict(((field[0], dict.fromkeys(field[1], 0)) if isinstance(field, tuple) else (field, 0))
                  for field in fields)
    line = toon_format.encode({"x": [record]}).split("\n", 1)[0]
    return line[len("x[1]"):-1]


def _values(graph: Graph, unit: Unit) -> dict[str, FlatValue]:
    return node_record(graph, unit.node) if unit.is_node else edge_record(graph, unit.edge)


def _cells(values: dict[str, FlatValue], fields: tuple[Field, ...]) -> list[tuple[PropertyValue, AtomKind]]:
    """A tabular row's scalars in its header's order, a folded object's fields in place (section_fields)."""
    cells: list[tuple[PropertyValue, AtomKind]] = []
    for field in fields:
        if isinstance(field, tuple):
            nested = cast(dict, values[field[0]])
            cells.extend((nested[key], "property_value") for key in field[1])
        else:
            cells.append((cast(PropertyValue, values[field]), _KINDS.get(field, "property_value")))
    return cells


def _row(values: dict[str, FlatValue], fields: tuple[Field, ...] | None, lead: str) -> RecordText:
    record = RecordText().add(lead)
    if fields is None:  # a list item, written by the package itself
        item = toon_format.encode({"x": [values, 0]})  # a mixed list: the record as a list item, then "- 0"
        return record.add(item[len("x[2]:"):-len(_ROW + "- 0")])
    record.add(_ROW)
    for index, (value, kind) in enumerate(_cells(values, fields)):
        record.add("," if index else "").add(cell(value), kind)
    return record


def _header(section: str, count: int, fields: tuple[Field, ...] | None) -> str:
    return f"{section}[{count}]{_fields_text(fields) if fields is not None else ''}:"


def _layout(memo: dict[Hashable, Record], graph: Graph) -> tuple[tuple[Field, ...] | None, tuple[Field, ...] | None]:
    return section_fields(memo, graph, "nodes"), section_fields(memo, graph, "edges")


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a row depends on its unit, the graph's layout and its lead
    node_fields, edge_fields = _layout(memo, graph)
    ordered = nodes_then_edges(units)
    node_count = sum(unit.is_node for unit in ordered)
    edge_count = len(ordered) - node_count
    empty_edges = "\n" + _header("edges", 0, edge_fields) if graph.edges else "\nedges: []"
    records: list[Record] = []
    closings = [empty_edges]
    declared: list[tuple[int, int, int, str]] = []
    preamble = _header("nodes", node_count, node_fields) if graph.nodes else "nodes: []"
    if graph.nodes:
        declared.append((-1, len("nodes["), len("nodes[") + len(str(node_count)), "n"))
    in_edges = False
    for unit in ordered:
        lead = ""
        if not unit.is_node and not in_edges:
            lead = "\n" + _header("edges", edge_count, edge_fields)
            declared.append((len(records), len("\nedges["), len("\nedges[") + len(str(edge_count)), "e"))
            in_edges = True
        record = memo.get((unit.key, lead))
        if record is None:
            fields = node_fields if unit.is_node else edge_fields
            record = memo[unit.key, lead] = _row(_values(graph, unit), fields, lead).build(unit.key)
        records.append(record)
        closings.append("" if in_edges else empty_edges)
    return Rendering(NAME, preamble, tuple(records), tuple(closings), tuple(declared))


def decode(text: str) -> Graph:
    try:
        document = toon_format.loads(text, strict=True)
    except toon_format.ToonDecodeError as error:
        raise FormatError(f"invalid TOON: {error.msg}", f"line {error.line}" if error.line else "document",
                          "see the format's grammar; each [N] must count the rows that follow",
                          line=error.line) from None
    except (ValueError, RecursionError) as error:
        raise FormatError(f"invalid TOON: {str(error)[:120]}", "document", "see the format's grammar") from None
    return records_graph(document)


def _as_toon(value: PropertyValue) -> PropertyValue:
    """A property value as it reads back from TOON (a whole decimal becomes an integer)."""
    if isinstance(value, float):
        return toon_format.decode(toon_format.encode({"k": value}))["k"]
    return value


def image(unit: Unit) -> Node | Edge:
    """What the decoder gives back of one unit: its decimals as TOON writes them."""
    if unit.is_node:
        node = unit.node
        return Node(node.id, node.type, tuple((key, _as_toon(value)) for key, value in node.properties))
    edge = unit.edge
    return Edge(edge.source, edge.relation, edge.target,
                tuple((key, _as_toon(value)) for key, value in edge.properties))


FORMAT = Format(
    name=NAME,
    title="TOON tables",
    lossless=False,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="edges[88]{source,target,relation}: then rows like  svc-api,svc-auth,depends_on",
    lost="the type of a whole-valued decimal (8891.0 is written, and read back, as the integer 8891) and the "
         "sign of -0.0, as TOON writes numbers",
    interleaves=False,
    image=image,
)
